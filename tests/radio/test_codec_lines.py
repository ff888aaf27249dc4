"""The radio codec's serial lines, its protocol document, the station's fast paths and version 2.

The gateway's line format (RX, ID, ST, TX lines) round trips and refuses
malformed lines; hardware/PROTOCOL.md lists every code and its examples are
the golden vectors' bytes; the station's C fast paths (crc16, HMAC, hex)
equal the firmware's plain Python; version 2 frames carry the key press time
and the STOPP caller.  The frames themselves: test_codec.py.
"""

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controlroom.radio import codec
from controlroom.radio.codec import FrameError

REPO = Path(__file__).resolve().parents[2]
PROTOCOL_MD = REPO / "hardware" / "PROTOCOL.md"
VECTORS = json.loads((REPO / "hardware" / "protocol" / "vectors.json").read_text(encoding="utf-8"))
FRAMES = [c for c in VECTORS if c["kind"] == "frame"]
KEY = bytes(range(16))
devices = st.integers(0, 0xFFFF)


# --- serial line formatting ------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(devices, st.integers(-200, 50), st.integers(-6400, 6400).map(lambda h: h / 100),
       st.binary(min_size=1, max_size=255))
def test_rx_line_round_trip(gateway, rssi, snr, frame):
    line = codec.format_rx_line(gateway, rssi, snr, frame)
    assert re.fullmatch(r"RX \d+ -?\d+ -?\d+\.\d\d [0-9A-F]+ [0-9A-F]{4}", line)
    assert codec.parse_line(line + "\n") == {"kind": "rx", "gateway": gateway, "rssi": rssi, "snr": snr,
                                             "frame": frame}


def test_rx_line_snr_rounding_and_sign():
    assert codec.format_rx_line(1, -100, -0.25, b"\x01").split()[3] == "-0.25"
    assert codec.format_rx_line(1, -100, 0, b"\x01").split()[3] == "0.00"
    assert codec.format_rx_line(1, -100, 7.5, b"\x01").split()[3] == "7.50"
    assert codec.format_rx_line(1, -100, -12, b"\x01").split()[3] == "-12.00"


def test_id_line_numbers():
    line = codec.format_id_line(3, "2.0.1", "EU868", 869.525, 12, 62.5, 8)
    assert line.startswith("ID 3 fw=2.0.1 region=EU868 freq=869.525 sf=12 bw=62.5 cr=8 ")
    parsed = codec.parse_line(line)
    assert (parsed["freq"], parsed["bw"], parsed["sf"], parsed["cr"]) == (869.525, 62.5, 12, 8)
    assert codec.format_id_line(3, "1", freq="868.3").split()[4] == "freq=868.3"


def test_status_and_tx_lines():
    assert codec.parse_line(codec.format_status_line(7, 1, 2, 3, 4, 5)) == {
        "kind": "status", "gateway": 7, "up": 1, "rx": 2, "bad": 3, "tx": 4, "txerr": 5}
    assert codec.parse_line(codec.format_txerr_line("radio"))["reason"] == "radio"
    assert codec.parse_line(codec.format_txok_line(2**32 - 1))["counter"] == 2**32 - 1
    for bad in (lambda: codec.format_tx_line(b""), lambda: codec.format_tx_line(bytes(256)),
                lambda: codec.format_txerr_line("two words"), lambda: codec.format_id_line(1, "a b"),
                lambda: codec.format_status_line(1, -1, 0, 0, 0, 0)):
        with pytest.raises(ValueError):
            bad()


@pytest.mark.parametrize("text", [
    "ID 7 fw=1 region=EU868 freq=868.1 sf=9 bw=125 cr=5 cr=5",     # duplicate key
    "ID 7 fw=1 region=EU868 freq=868.1 sf=13 bw=125 cr=5",          # sf out of range
    "ID 7 fw=1 region=EU868 freq=868,1 sf=9 bw=125 cr=5",           # not a number
    "ID 7 fw= region=EU868 freq=868.1 sf=9 bw=125 cr=5",            # empty value
    "ID 7 kind=x fw=1 region=EU868 freq=868.1 sf=9 bw=125 cr=5",    # reserved key
    "RX 65536 -97 1.00 AB", "RX 7 -201 1.00 AB", "RX 7 -97 64.25 AB", "RX 7 -97 1.125 AB",
    "RX 7 -97 1.00 " + "AB" * 256, "RX 7 -97 1.00", "TXOK 4294967296", "TXOK -1", "ST 7 up=-1",
    "TXERR", "ID?  ", "TX",
])
def test_malformed_lines_with_right_checksum(text):
    with pytest.raises(FrameError) as info:
        codec.parse_line("%s %04X" % (text, codec.crc16(text)))
    assert info.value.reason == "line"


# --- the protocol document stays in step with the codec ---------------------------------


def test_protocol_md_lists_every_code():
    doc = PROTOCOL_MD.read_text(encoding="utf-8")
    for code, (name, _lo, _hi, _tag, _ack) in codec.TYPES.items():
        assert re.search(r"^\| %d \| `%s` \|" % (code, name), doc, re.M), name
    for table in (codec.CASUALTY_KINDS, codec.SIEGE_STATUSES, codec.STOPP_REASONS, codec.CANNED_NAMES):
        for i, name in enumerate(table, 1):
            assert re.search(r"^\| %d \| `%s` \|" % (i, name), doc, re.M), name
    assert codec.DOMAIN.decode() in doc


# --- the station's C fast paths equal the firmware's plain Python -------------------------

@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.binary(min_size=1, max_size=80))
def test_fast_crc_hmac_and_hex_equal_the_firmware_versions(data, key):
    from controlroom.radio import codec as c

    assert c.crc16(data) == c.crc16_py(data)
    assert c.hmac_sha256(key, data) == c.hmac_sha256_py(key, data)
    text = c.hexlify(data)
    assert text == "".join("%02X" % b for b in data)
    assert c.unhexlify(text) == c.unhexlify_py(text) == data
    assert c.unhexlify(text.lower()) == data


def test_station_hmac_keeps_each_keys_state_and_equals_the_standard_library(monkeypatch):
    """The station's HMAC reuses each key's padded hash states: same digests as hmac.digest, for many keys,
    for a key seen again after the cache was emptied, and for a bytearray key."""
    import hmac

    from controlroom.radio import codec as c

    monkeypatch.setattr(c, "_PADS_MAX", 8)
    monkeypatch.setattr(c, "_PADS", {})
    keys = [bytes([i]) * 16 for i in range(20)]
    for round_ in range(3):
        for i, key in enumerate(keys):
            msg = b"controlroom/v1" + bytes([round_, i]) * 9
            assert c.hmac_sha256(key, msg) == hmac.digest(key, msg, "sha256")
            assert c.hmac_sha256(bytearray(key), msg) == hmac.digest(key, msg, "sha256")
        assert len(c._PADS) <= 8
    assert c.compare_digest(bytearray(b"ab"), b"ab") and not c.compare_digest(b"ab", b"ac")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789abcdefABCDEF gx+-_", max_size=12))
def test_fast_unhexlify_is_as_strict_as_the_firmware(text):
    from controlroom.radio import codec as c

    def outcome(f):
        try:
            return f(text)
        except ValueError:
            return "error"

    assert outcome(c.unhexlify) == outcome(c.unhexlify_py)


def test_version_2_adds_the_key_press_time_and_the_stopp_caller():
    pressed = 1_780_000_000
    cases = [
        (codec.encode_casualty(KEY, 5, 1, 1234, "down", pressed=pressed), 18, {"pressed": pressed}),
        (codec.encode_casualty(KEY, 5, 2, 1234, "healer_touch", 57, pressed=0), 20, {"pressed": None, "by": 57}),
        (codec.encode_valhalla(KEY, 5, 3, 1234, pressed=pressed), 17, {"pressed": pressed}),
        (codec.encode_stopp_called(KEY, 5, 4, 1, "injury", None, None, caller=321), 31,
         {"caller": 321, "pressed": None}),
        (codec.encode_stopp_lifted(KEY, 5, 5, 1, version=2), 20, {"pressed": None}),
        (codec.encode_position(KEY, 5, 6, None, None, None, 0, 0, version=2), 21, {}),
    ]
    for data, size, fields in cases:
        frame = codec.decode_frame(data)
        assert (frame.version, len(data)) == (2, size)
        assert {k: frame.fields[k] for k in fields} == fields
        assert codec.verify(frame, KEY)
        assert codec.encode_frame(KEY, frame.type, 5, frame.counter, frame.fields, 2) == data
        ack = codec.decode_frame(codec.ack_for(frame, KEY, 7, 9)) if frame.needs_ack else None
        assert ack is None or ack.version == 1          # every handset reads a version 1 ack
    # Without version 2 fields a frame stays version 1, byte for byte as before.
    assert codec.decode_frame(codec.encode_casualty(KEY, 5, 7, 1234, "down")).version == 1
    for call in (lambda: codec.encode_casualty(KEY, 5, 8, 1234, "down", pressed=pressed, version=1),
                 lambda: codec.encode_frame(KEY, "position", 5, 9, {"lat": None, "lon": None, "battery": None,
                                                                   "fix": 0, "sats": 0, "pressed": pressed}),
                 lambda: codec.encode_frame(KEY, "valhalla", 5, 9, {"badge": 1, "caller": 4}),
                 lambda: codec.encode_casualty(KEY, 5, 10, 1234, "down", pressed=2**32)):
        with pytest.raises(FrameError) as info:
            call()
        assert info.value.reason == "payload"
    with pytest.raises(FrameError) as info:
        codec.encode_casualty(KEY, 5, 11, 1, "down", version=3)
    assert info.value.reason == "version"


def test_a_line_longer_than_the_limit_is_a_line_error():
    body = "ID 7 fw=1.0.0 region=EU868 freq=868.1 sf=9 bw=125 cr=5 note=" + "x" * 1000
    text = "%s %04X" % (body, codec.crc16(body))
    assert len(text) > codec.MAX_LINE == 1024
    with pytest.raises(FrameError) as info:
        codec.parse_line(text)
    assert info.value.reason == "line" and "1024" in str(info.value)
    short = body[:codec.MAX_LINE - 5]
    assert codec.parse_line("%s %04X" % (short, codec.crc16(short)))["kind"] == "id"


def test_the_examples_in_protocol_md_are_the_vectors_bytes():
    doc = PROTOCOL_MD.read_text(encoding="utf-8")
    by_name = {c["name"]: c for c in FRAMES}
    examples = re.findall(r"\(vector `(\w+)`[^`]*?(?:`[^`]*`[^`]*?)*?\):\s*`([0-9A-F |]+)`", doc)
    assert {name for name, _ in examples} >= {"position_tracker_tartu", "casualty_healer_touch",
                                               "stopp_called_injury", "ack_stopp", "v2_stopp_called_caller"}
    for name, text in examples:
        assert text.replace(" ", "").replace("|", "") == by_name[name]["hex"], name
