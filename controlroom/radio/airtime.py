"""LoRa time on air and a channel/duty-cycle planner for marshal handsets.

Time on air follows Semtech's formula (SX1276/77/78/79 datasheet section
4.1.1.6; AN1200.13 "LoRa Modem Designer's Guide")::

    T_sym      = 2**SF / BW
    T_preamble = (n_preamble + 4.25) * T_sym
    n_payload  = 8 + max(ceil((8*PL - 4*SF + 28 + 16*CRC - 20*IH)
                              / (4*(SF - 2*DE))) * (CR + 4), 0)
    T_packet   = T_preamble + n_payload * T_sym

The planner models one gateway channel shared by every handset as pure ALOHA
(a frame survives only if no other frame overlaps it): with offered load
G = devices * airtime / interval / channels, a frame is delivered with
probability exp(-2G).  Pure Python, no Qt.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

__all__ = [
    "ALOHA_MAX_THROUGHPUT",
    "BANDWIDTHS_KHZ",
    "EU868_SUB_BANDS",
    "LDRO_SYMBOL_MS",
    "MIN_DELIVERY",
    "REGIONS",
    "US915_DWELL_MS",
    "MESHTASTIC_PRESETS",
    "AirtimeResult",
    "Plan",
    "SubBand",
    "max_frames_per_second",
    "meshtastic_preset",
    "plan",
    "time_on_air",
]

# Nominal bandwidth (as written in datasheets) -> exact value in kHz (500 kHz / 2**n or /3).
_BANDWIDTHS = {
    7.8: 500 / 64, 10.4: 500 / 48, 15.6: 500 / 32, 20.8: 500 / 24, 31.25: 500 / 16,
    41.7: 500 / 12, 62.5: 500 / 8, 125.0: 125.0, 250.0: 250.0, 500.0: 500.0,
}
BANDWIDTHS_KHZ: tuple[float, ...] = tuple(_BANDWIDTHS)
LDRO_SYMBOL_MS = 16.0          # low-data-rate optimisation is needed from this symbol time on
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
class AirtimeResult:
    """Time on air of one LoRa frame.  Times are in milliseconds."""

    payload_bytes: int
    sf: int
    bw_khz: float              # exact bandwidth used in the formula (7.8 -> 7.8125)
    cr: int                    # 1..4 means coding rate 4/5..4/8
    preamble: int
    explicit_header: bool
    crc: bool
    low_data_rate: bool        # LDRO (DE in the formula) was on
    symbol_ms: float
    preamble_ms: float
    payload_symbols: int
    payload_ms: float
    total_ms: float

    @property
    def total_s(self) -> float:
        return self.total_ms / 1000.0

    @property
    def coding_rate(self) -> str:
        return f"4/{self.cr + 4}"

    def to_dict(self) -> dict:
        return asdict(self)


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


def _int(name: str, value: object, low: int, high: int, note: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} {value!r} is out of range: allowed {low}..{high}{note}")
    return value


def _bandwidth(bw_khz: object) -> float:
    allowed = ", ".join(f"{b:g}" for b in BANDWIDTHS_KHZ)
    if not isinstance(bw_khz, bool) and isinstance(bw_khz, (int, float)):
        for nominal, exact in _BANDWIDTHS.items():
            if abs(bw_khz - exact) <= 0.05 or abs(bw_khz - nominal) <= 1e-9:
                return exact
    raise ValueError(f"bandwidth {bw_khz!r} kHz is not a LoRa bandwidth: allowed {allowed} kHz")


def time_on_air(
    payload_bytes: int,
    sf: int,
    bw_khz: float,
    cr: int = 1,
    preamble: int = 8,
    explicit_header: bool = True,
    crc: bool = True,
    low_data_rate: bool | None = None,
) -> AirtimeResult:
    """Time on air of one frame of ``payload_bytes`` (Semtech SX1276 formula).

    ``low_data_rate=None`` switches LDRO on automatically when a symbol lasts
    16 ms or more (SF11 and SF12 at 125 kHz, SF12 at 250 kHz, ...).  SF6 is
    accepted with ``explicit_header=False`` only, as on the SX1276.
    """
    _int("payload size", payload_bytes, 0, 255, " bytes")
    _int("spreading factor", sf, 6, 12)
    if sf == 6 and explicit_header:
        raise ValueError("spreading factor 6 works only with an implicit header: "
                         "pass explicit_header=False or use 7..12")
    bw = _bandwidth(bw_khz)
    _int("coding rate", cr, 1, 4, " (1 = 4/5 ... 4 = 4/8)")
    _int("preamble length", preamble, 6, 65535, " symbols")

    symbol_ms = 2**sf / bw
    ldro = symbol_ms >= LDRO_SYMBOL_MS if low_data_rate is None else bool(low_data_rate)
    de, ih = int(ldro), int(not explicit_header)
    numerator = 8 * payload_bytes - 4 * sf + 28 + 16 * int(bool(crc)) - 20 * ih
    denominator = 4 * (sf - 2 * de)
    blocks = -(-numerator // denominator)              # exact integer ceil
    payload_symbols = 8 + max(blocks * (cr + 4), 0)
    preamble_ms = (preamble + 4.25) * symbol_ms
    payload_ms = payload_symbols * symbol_ms
    return AirtimeResult(
        payload_bytes=payload_bytes, sf=sf, bw_khz=bw, cr=cr, preamble=preamble,
        explicit_header=bool(explicit_header), crc=bool(crc), low_data_rate=ldro,
        symbol_ms=symbol_ms, preamble_ms=preamble_ms, payload_symbols=payload_symbols,
        payload_ms=payload_ms, total_ms=preamble_ms + payload_ms,
    )


def max_frames_per_second(payload_bytes: int, sf: int, bw_khz: float, **kwargs) -> float:
    """Frames per second one channel can carry back to back (1 / time on air).

    Keyword arguments are passed to :func:`time_on_air`.
    """
    return 1000.0 / time_on_air(payload_bytes, sf, bw_khz, **kwargs).total_ms


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


# -- Meshtastic's modem presets (issue 21: stock Meshtastic nodes as a second radio path) --------------------------
@dataclass(frozen=True, slots=True)
class MeshtasticPreset:
    """A stock Meshtastic modem preset: its LoRa settings (firmware src/mesh/RadioInterface.cpp, not 'wide' LoRa)."""

    name: str
    sf: int
    bw_khz: float
    cr: int                    # 1..4 means coding rate 4/5..4/8, as elsewhere in this module


MESHTASTIC_PRESETS = {p.name: p for p in (
    MeshtasticPreset("SHORT_TURBO", 7, 500.0, 1),
    MeshtasticPreset("SHORT_FAST", 7, 250.0, 1),
    MeshtasticPreset("SHORT_SLOW", 8, 250.0, 1),
    MeshtasticPreset("MEDIUM_FAST", 9, 250.0, 1),
    MeshtasticPreset("MEDIUM_SLOW", 10, 250.0, 1),
    MeshtasticPreset("LONG_FAST", 11, 250.0, 1),            # the firmware's default
    MeshtasticPreset("LONG_MODERATE", 11, 125.0, 4),
    MeshtasticPreset("LONG_SLOW", 12, 125.0, 4),
)}
MESHTASTIC_PREAMBLE = 16        # symbols, whatever the preset (RadioInterface.h)
# Bytes on air: a 16-byte header, then the encrypted Data protobuf (AES-CTR keeps its length); a PKI
# direct message adds 12 (an 8-byte tag and 4 bytes of nonce).  Measured with the meshtastic package's
# protobufs: Data of the text "D 123" is 9 bytes; of a phone's position (lat, lon, altitude, time,
# source, sats, precision, speed, track, PDOP) 40 bytes; of the answer "OK: 123 down 14:02" 22 bytes.
MESHTASTIC_HEADER_BYTES = 16
MESHTASTIC_PKI_BYTES = 12
MESHTASTIC_PAYLOADS = {"text": 16 + 9, "position": 16 + 40, "answer": 16 + 22}
MESHTASTIC_EU868_SUB_BAND = "g3"   # EU_868: 869.4-869.65 MHz, 10 % duty cycle (the default slot 869.525 MHz)


def meshtastic_preset(name: str) -> MeshtasticPreset:
    """A preset by name: ``LONG_FAST``, ``LongFast`` or ``long-fast``; ValueError listing the known ones."""
    key = "".join(ch for ch in str(name).upper() if ch.isalnum())
    for preset in MESHTASTIC_PRESETS.values():
        if preset.name.replace("_", "") == key:
            return preset
    raise ValueError(f"unknown Meshtastic modem preset {name!r} (known: {', '.join(MESHTASTIC_PRESETS)})")
