"""How well a gateway hears a handset: path loss, signal and SNR margin, with the terrain or without it.

With a DEM the path loss is the Longley-Rice Irregular Terrain Model (ITM
1.2.2) of itmlogic (PyPI ``itmlogic``, MIT licence; docs/coverage.md), in its
point-to-point mode over the ground profile between the two antennas, median
(50 % reliability, 50 % confidence).  ITM is specified from 1 km; shorter paths
are computed by the same formulas (its line-of-sight part tends to free space,
a ridge still diffracts).  Without a DEM it is free-space loss, and the model
says so.  A configurable clutter loss (trees, tents, people) is added to
either.  The link budget is LoRa's: SNR is the received power over the
receiver's noise floor (-174 dBm/Hz + 10 log10 bandwidth + noise figure), and
the margin is the SNR over the spreading factor's demodulation floor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from controlroom.geo.dem import Dem
from controlroom.geo.frame import MapFrame

__all__ = ["SF_FLOOR_DB", "Gateway", "RadioModel", "parse_gateway", "free_space_db", "itm_loss", "noise_floor_dbm",
           "margin_db", "DEFAULT_CLUTTER_DB"]

# The SNR below which a LoRa receiver cannot demodulate, per spreading factor (Semtech SX1276 datasheet).
SF_FLOOR_DB = {7: -7.5, 8: -10.0, 9: -12.5, 10: -15.0, 11: -17.5, 12: -20.0}
FREQ_MHZ = 868.1                # EU868's first channel
BANDWIDTH_HZ = 125_000
NOISE_FIGURE_DB = 6.0           # an SX127x receiver
HANDSET_HEIGHT_M = 1.5          # a handset worn or held
DEFAULT_CLUTTER_DB = 10.0       # what the terrain model does not know: trees, tents, the marshal's own body
DEFAULT_TX_DBM = 14.0           # EU868's limit for these bands (25 mW e.r.p.)
PROFILE_STEP_M = 10.0           # the ground profile between two antennas: a height every so many metres
MIN_DISTANCE_M = 10.0           # closer than this a handset is "next to" the gateway
# ITM's ground and climate: average ground, continental temperate, vertical antennas.
ITM_GROUND: dict[str, Any] = {"eps": 15.0, "sgm": 0.005, "klim": 5, "ens0": 314.0, "ipol": 1}


def noise_floor_dbm(bandwidth_hz: float = BANDWIDTH_HZ, noise_figure_db: float = NOISE_FIGURE_DB) -> float:
    """The receiver's noise power: thermal noise over the bandwidth, plus its noise figure."""
    return -174.0 + 10.0 * math.log10(bandwidth_hz) + noise_figure_db


def margin_db(snr, sf: int):
    """SNR over the spreading factor's demodulation floor (dB): above 0 a frame can be heard."""
    return np.asarray(snr, dtype=float) - SF_FLOOR_DB[sf]


def free_space_db(distance_m, freq_mhz: float = FREQ_MHZ):
    """Free-space path loss (dB) over a distance in metres."""
    d_km = np.maximum(np.asarray(distance_m, dtype=float), MIN_DISTANCE_M) / 1000.0
    return 20.0 * np.log10(d_km) + 20.0 * math.log10(freq_mhz) + 32.44


def itm_loss(profile_m, distance_m: float, freq_mhz: float, heights_m: tuple[float, float], *, eps: float = 15.0,
             sgm: float = 0.005, klim: int = 5, ens0: float = 314.0, ipol: int = 1, reliability: float = 50.0,
             confidence: float = 50.0) -> tuple[float, int]:
    """ITM point to point (itmlogic): basic transmission loss (dB) over a ground profile, and ITM's error code.

    ``profile_m``: ground heights at equal steps from the transmitter to the
    receiver (both ends included); ``heights_m``: the antennas above the ground.
    The error code is ITM's ``kwx`` (0 none; 1-3 parameters near or out of
    range, defaults used; 4 out of range, such as a path under 1 km).
    """
    from itmlogic.misc.qerfi import qerfi
    from itmlogic.preparatory_subroutines.qlrpfl import qlrpfl
    from itmlogic.statistics.avar import avar

    profile = [float(z) for z in profile_m]
    n = len(profile) - 1
    if n < 2:
        raise ValueError("a ground profile needs at least three heights")
    wn = freq_mhz / 47.7
    prop: dict[str, Any] = {
        "eps": eps, "sgm": sgm, "ipol": ipol, "fmhz": freq_mhz, "hg": [float(heights_m[0]), float(heights_m[1])],
            "klim": klim, "ens0": ens0, "pfl": [n, distance_m / n, *profile], "kwx": 0, "wn": wn, "ens": ens0,
            "lvar": 5, "gma": 157e-9, "klimx": 0, "mdvarx": 11}
    prop["gme"] = prop["gma"] * (1 - 0.04665 * math.exp(prop["ens"] / 179.3))
    zq = complex(eps, 376.62 * sgm / wn)
    prop["zgnd"] = np.sqrt(zq - 1) / (zq if ipol else 1)
    zr, zc = qerfi([reliability / 100.0]), qerfi([confidence / 100.0])
    prop = qlrpfl(prop)
    free = 8.685890 * math.log(2 * wn * prop["dist"])
    variability, prop = avar(zr[0], 0, zc[0], prop)
    return float(free + variability), int(prop["kwx"])


@dataclass(frozen=True, slots=True)
class Gateway:
    """A gateway's antenna: where it stands and how high above the ground (metres)."""

    lat: float
    lon: float
    height_m: float = 2.0
    name: str = ""

    def __str__(self) -> str:
        return f"{self.lat:.5f}, {self.lon:.5f}, {self.height_m:g} m"


def parse_gateway(text: str, name: str = "") -> Gateway:
    """``LAT,LON,HEIGHT_M`` (degrees, degrees, metres above the ground); ValueError says what is wrong."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) not in (2, 3):
        raise ValueError(f"a gateway is LAT,LON,HEIGHT_M (for example 58.3801,26.7203,6), not {text!r}")
    try:
        lat, lon = float(parts[0]), float(parts[1])
        height = float(parts[2]) if len(parts) == 3 else 2.0
    except ValueError:
        raise ValueError(f"a gateway is three numbers LAT,LON,HEIGHT_M, not {text!r}") from None
    if not (math.isfinite(lat) and -90 <= lat <= 90 and math.isfinite(lon) and -180 <= lon <= 180):
        raise ValueError(f"{text!r}: latitude -90..90 and longitude -180..180 degrees (WGS84) come first")
    if not (math.isfinite(height) and 0.5 <= height <= 300):
        raise ValueError(f"{text!r}: the antenna's height above the ground is 0.5 to 300 metres, not {height:g}")
    return Gateway(lat, lon, height, name)


@dataclass(frozen=True)
class RadioModel:
    """The link between a gateway and a handset anywhere on the field: terrain (a DEM or none) and radio settings."""

    sf: int = 9
    tx_dbm: float = DEFAULT_TX_DBM
    clutter_db: float = DEFAULT_CLUTTER_DB
    dem: Dem | None = None
    freq_mhz: float = FREQ_MHZ
    handset_m: float = HANDSET_HEIGHT_M
    gain_dbi: float = 0.0           # both antennas together (a conservative 0: say so where it matters)
    bandwidth_hz: float = BANDWIDTH_HZ

    def __post_init__(self) -> None:
        if self.sf not in SF_FLOOR_DB:
            raise ValueError(f"the spreading factor is 7 to 12, not {self.sf}")
        if not (-20 <= self.tx_dbm <= 30):
            raise ValueError(f"the transmit power is -20 to 30 dBm, not {self.tx_dbm:g}")
        if not (0 <= self.clutter_db <= 60):
            raise ValueError(f"the clutter loss is 0 to 60 dB, not {self.clutter_db:g}")

    def describe(self) -> str:
        """The model in words, as the plan and the simulator say it."""
        if self.dem is None:
            ground = (f"free space plus {self.clutter_db:g} dB clutter loss: NO TERRAIN MODEL (no DEM given), so hills "
                      "and ridges cast no shadow")
        else:
            ground = (f"Longley-Rice (ITM 1.2.2, itmlogic) over the DEM {self.dem.name}, plus {self.clutter_db:g} dB "
                      "clutter loss")
        return (f"{ground}; SF{self.sf} (demodulation floor {SF_FLOOR_DB[self.sf]:g} dB SNR), {self.tx_dbm:g} dBm, "
                f"{self.freq_mhz:g} MHz, handsets {self.handset_m:g} m above the ground")

    @property
    def noise_dbm(self) -> float:
        return noise_floor_dbm(self.bandwidth_hz)

    def path_loss(self, gateway: Gateway, lats, lons, frame: MapFrame | None = None) -> np.ndarray:
        """Path loss (dB) from ``gateway`` to handsets at (lats, lons), clutter included."""
        lats, lons = np.atleast_1d(np.asarray(lats, dtype=float)), np.atleast_1d(np.asarray(lons, dtype=float))
        frame = frame or MapFrame(gateway.lat, gateway.lon)
        gx, gy = frame.to_local(gateway.lat, gateway.lon)
        xs, ys = frame.to_local(lats, lons)
        xs, ys = np.atleast_1d(xs), np.atleast_1d(ys)
        dist = np.hypot(xs - gx, ys - gy)
        if self.dem is None:
            return free_space_db(dist, self.freq_mhz) + self.clutter_db
        return self._terrain_loss(gateway, frame, float(gx), float(gy), xs, ys, dist) + self.clutter_db

    def _terrain_loss(self, gateway: Gateway, frame: MapFrame, gx: float, gy: float, xs, ys, dist) -> np.ndarray:
        assert self.dem is not None
        out = np.empty(dist.shape)
        steps = np.maximum(np.ceil(dist / PROFILE_STEP_M).astype(int), 2)
        # Every profile's points at once: one projection and one DEM sampling for the whole field.
        starts = np.concatenate(([0], np.cumsum(steps + 1)))
        fraction = np.concatenate([np.linspace(0.0, 1.0, n + 1) for n in steps])
        which = np.repeat(np.arange(dist.size), steps + 1)
        px, py = gx + (xs[which] - gx) * fraction, gy + (ys[which] - gy) * fraction
        plat, plon = frame.to_geographic(px, py)
        ground = self.dem.sample(plat, plon)
        ground = np.where(np.isfinite(ground), ground, np.nanmean(ground) if np.isfinite(ground).any() else 0.0)
        heights = (gateway.height_m, self.handset_m)
        for i in range(dist.size):
            if dist[i] < MIN_DISTANCE_M:
                out[i] = float(free_space_db(MIN_DISTANCE_M, self.freq_mhz))
                continue
            profile = ground[starts[i]:starts[i + 1]]
            out[i] = itm_loss(profile, float(dist[i]), self.freq_mhz, heights, **ITM_GROUND)[0]
        return out

    def rssi(self, gateway: Gateway, lats, lons, frame: MapFrame | None = None) -> np.ndarray:
        """The signal a gateway receives from handsets at (lats, lons), dBm (and, by reciprocity, they from it)."""
        return self.tx_dbm + self.gain_dbi - self.path_loss(gateway, lats, lons, frame)

    def snr(self, gateway: Gateway, lats, lons, frame: MapFrame | None = None) -> np.ndarray:
        return self.rssi(gateway, lats, lons, frame) - self.noise_dbm

    def margin(self, gateway: Gateway, lats, lons, frame: MapFrame | None = None) -> np.ndarray:
        """SNR over the demodulation floor (dB) of handsets at (lats, lons) at ``gateway``."""
        return margin_db(self.snr(gateway, lats, lons, frame), self.sf)
