"""The airtime planner: will a whole game's handsets fit the band? (``controlroom airtime --plan``, ``keys``).

It models one gateway channel shared by every handset as pure ALOHA (a frame
survives only if no other frame overlaps it): with offered load
G = devices * airtime / interval / channels, a frame is delivered with
probability exp(-2G).  EU868 limits each transmitter's duty cycle per
sub-band; US915 limits each transmission's dwell time.  The time on air of
one frame is ``controlroom.radio.airtime.time_on_air``.  Pure Python, no Qt.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from controlroom.radio.airtime import AirtimeResult, time_on_air

__all__ = ["ALOHA_MAX_THROUGHPUT", "EU868_SUB_BANDS", "MIN_DELIVERY", "REGIONS", "US915_DWELL_MS", "Plan",
           "SubBand", "plan"]

US915_DWELL_MS = 400.0         # FCC dwell time per transmission on one channel
ALOHA_MAX_THROUGHPUT = 1 / (2 * math.e)   # ~0.184 Erlang, reached at G = 0.5
MIN_DELIVERY = 0.90            # below this the plan gets a warning
REGIONS = ("EU868", "US915")


@dataclass(frozen=True, slots=True)
class SubBand:
    name: str
    low_mhz: float
    high_mhz: float
    duty_cycle: float          # fraction of each hour one transmitter may be on air

    @property
    def width_khz(self) -> float:
        return round((self.high_mhz - self.low_mhz) * 1000, 3)


# ETSI EN 300 220 / ERC Rec 70-03 sub-bands used by LoRa in Europe.
EU868_SUB_BANDS = {
    "g1": SubBand("g1", 868.0, 868.6, 0.01),
    "g2": SubBand("g2", 868.7, 869.2, 0.001),
    "g3": SubBand("g3", 869.4, 869.65, 0.10),
}


@dataclass(frozen=True, slots=True)
class Plan:
    """Whether ``devices`` handsets sending every ``interval_s`` fit the band."""

    airtime: AirtimeResult
    devices: int
    interval_s: float
    channels: int
    region: str
    sub_band: str | None
    duty_cycle_limit: float | None        # fraction, None when the region has none
    dwell_limit_ms: float | None          # per transmission, None when the region has none
    airtime_per_hour_s: float             # per device
    duty_cycle: float                     # fraction of time one device is on air
    min_interval_s: float | None          # shortest interval the duty cycle allows
    min_interval_for_delivery_s: float    # shortest interval keeping delivery >= MIN_DELIVERY
    channel_load: float                   # offered load G per channel, Erlangs
    delivery_probability: float           # pure ALOHA: exp(-2G)
    offered_frames_per_s: float           # all devices together
    delivered_frames_per_s: float
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.warnings

    def to_dict(self) -> dict:
        data = asdict(self)
        data["airtime"] = self.airtime.to_dict()
        data["warnings"] = list(self.warnings)
        data["ok"] = self.ok
        return data


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.3g} %"


def plan(
    devices: int,
    interval_s: float,
    payload_bytes: int,
    sf: int,
    bw_khz: float,
    cr: int = 1,
    preamble: int = 8,
    region: str = "EU868",
    sub_band: str | None = None,
    channels: int = 1,
) -> Plan:
    """Check ``devices`` handsets each sending one frame every ``interval_s`` seconds.

    EU868 limits each transmitter's duty cycle per sub-band (default 'g1',
    868.0-868.6 MHz, 1 %); spreading frames over several channels of one
    sub-band lowers the collision load but not the duty cycle.  US915 has no
    duty cycle but limits each transmission to 400 ms.
    """
    if isinstance(devices, bool) or not isinstance(devices, int) or devices < 1:
        raise ValueError(f"device count {devices!r} is out of range: allowed 1 or more")
    if isinstance(channels, bool) or not isinstance(channels, int) or channels < 1:
        raise ValueError(f"channel count {channels!r} is out of range: allowed 1 or more")
    if isinstance(interval_s, bool) or not isinstance(interval_s, (int, float)) \
            or not math.isfinite(interval_s) or interval_s <= 0:
        raise ValueError(f"interval {interval_s!r} s is out of range: allowed more than 0 s")
    region_key = str(region).strip().upper()
    if region_key not in REGIONS:
        raise ValueError(f"region {region!r} is unknown: allowed {', '.join(REGIONS)}")
    air = time_on_air(payload_bytes, sf, bw_khz, cr=cr, preamble=preamble)
    airtime_s = air.total_s
    warnings: list[str] = []

    band: SubBand | None = None
    dwell_ms: float | None = None
    if region_key == "EU868":
        key = "g1" if sub_band is None else str(sub_band).strip().lower()
        if key not in EU868_SUB_BANDS:
            raise ValueError(f"EU868 sub-band {sub_band!r} is unknown: allowed "
                             f"{', '.join(EU868_SUB_BANDS)}")
        band = EU868_SUB_BANDS[key]
        if air.bw_khz > band.width_khz:
            warnings.append(f"a {air.bw_khz:g} kHz signal does not fit in sub-band {band.name} "
                            f"({band.low_mhz}-{band.high_mhz} MHz, {band.width_khz:g} kHz wide)")
    else:
        if sub_band is not None:
            raise ValueError(f"sub-band {sub_band!r} applies to EU868 only, not {region_key}")
        dwell_ms = US915_DWELL_MS
        if air.total_ms > dwell_ms:
            warnings.append(f"time on air {air.total_ms:.1f} ms exceeds the US915 dwell time "
                            f"limit of {dwell_ms:.0f} ms per transmission: use a lower SF, "
                            f"a wider bandwidth or a shorter payload")

    duty = airtime_s / interval_s
    limit = band.duty_cycle if band else None
    min_interval = airtime_s / limit if limit else None
    if limit is not None and duty > limit:
        warnings.append(f"each device is on air {_percent(duty)} of the time, over the "
                        f"{_percent(limit)} duty cycle of EU868 {band.name}: send at most "
                        f"once every {min_interval:.1f} s")

    offered_fps = devices / interval_s
    load = offered_fps * airtime_s / channels
    delivery = math.exp(-2 * load)
    delivery_load = -math.log(MIN_DELIVERY) / 2
    min_interval_delivery = devices * airtime_s / (channels * delivery_load)
    if load > ALOHA_MAX_THROUGHPUT:
        beyond = (" and beyond the 0.5 Erlang peak, so more traffic delivers fewer frames"
                  if load > 0.5 else "")
        warnings.append(f"channel load {load:.3f} Erlang exceeds {ALOHA_MAX_THROUGHPUT:.3f}, "
                        f"the most a pure-ALOHA channel can carry{beyond}")
    if delivery < MIN_DELIVERY:
        warnings.append(f"only {delivery * 100:.1f} % of frames are expected to survive "
                        f"collisions (want {MIN_DELIVERY * 100:g} %): send at most once every "
                        f"{min_interval_delivery:.1f} s, or add channels")

    return Plan(
        airtime=air, devices=devices, interval_s=float(interval_s), channels=channels,
        region=region_key, sub_band=band.name if band else None, duty_cycle_limit=limit,
        dwell_limit_ms=dwell_ms, airtime_per_hour_s=airtime_s * 3600.0 / interval_s,
        duty_cycle=duty, min_interval_s=min_interval,
        min_interval_for_delivery_s=min_interval_delivery, channel_load=load,
        delivery_probability=delivery, offered_frames_per_s=offered_fps,
        delivered_frames_per_s=offered_fps * delivery, warnings=tuple(warnings),
    )
