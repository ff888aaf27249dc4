"""LoRa time on air of one frame (the planner of a whole game is ``controlroom.sim.plan``).

Time on air follows Semtech's formula (SX1276/77/78/79 datasheet section
4.1.1.6; AN1200.13 "LoRa Modem Designer's Guide")::

    T_sym      = 2**SF / BW
    T_preamble = (n_preamble + 4.25) * T_sym
    n_payload  = 8 + max(ceil((8*PL - 4*SF + 28 + 16*CRC - 20*IH)
                              / (4*(SF - 2*DE))) * (CR + 4), 0)
    T_packet   = T_preamble + n_payload * T_sym

Pure Python, no Qt.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["BANDWIDTHS_KHZ", "LDRO_SYMBOL_MS", "AirtimeResult", "MESHTASTIC_PRESETS", "max_frames_per_second",
           "meshtastic_preset", "time_on_air"]

# Nominal bandwidth (as written in datasheets) -> exact value in kHz (500 kHz / 2**n or /3).
_BANDWIDTHS = {
    7.8: 500 / 64, 10.4: 500 / 48, 15.6: 500 / 32, 20.8: 500 / 24, 31.25: 500 / 16,
    41.7: 500 / 12, 62.5: 500 / 8, 125.0: 125.0, 250.0: 250.0, 500.0: 500.0,
}
BANDWIDTHS_KHZ: tuple[float, ...] = tuple(_BANDWIDTHS)
LDRO_SYMBOL_MS = 16.0          # low-data-rate optimisation is needed from this symbol time on


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
