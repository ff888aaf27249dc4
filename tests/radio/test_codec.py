"""The radio frame codec (controlroom/radio/codec.py) under CPython.

Golden vectors (hardware/protocol/vectors.json, made independently of the
codec by hardware/protocol/make_vectors.py), round trips of every encoder,
HMAC against the standard library, frame sizes, and fuzzing: random and
mutated frames and lines never raise anything but FrameError, and no single
bit flip gets past decode + verify.  The same vectors run under the real
MicroPython in test_codec_micropython.py.
"""

import ast
import hashlib
import hmac
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controlroom.radio import codec
from controlroom.radio.airtime import time_on_air
from controlroom.radio.codec import FrameError

REPO = Path(__file__).resolve().parents[2]
CODEC_PY = REPO / "controlroom" / "radio" / "codec.py"
PROTOCOL_MD = REPO / "hardware" / "PROTOCOL.md"
VECTORS_JSON = REPO / "hardware" / "protocol" / "vectors.json"
MAKE_VECTORS_PY = REPO / "hardware" / "protocol" / "make_vectors.py"
VECTORS = json.loads(VECTORS_JSON.read_text(encoding="utf-8"))
FRAMES = [c for c in VECTORS if c["kind"] == "frame"]
VALID_FRAMES = [c for c in FRAMES if c["valid"]]
LINES = [c for c in VECTORS if c["kind"] == "line"]
VALID_LINES = [c for c in LINES if c["valid"]]

KEY = bytes(range(16))
OTHER_KEY = bytes(range(1, 17))


def _ids(cases):
    return [c["name"] for c in cases]


def _load(path, name):
    dont_write, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = dont_write
    return module


# --- golden vectors -------------------------------------------------------------


def test_vectors_file_is_what_the_generator_makes():
    make_vectors = _load(MAKE_VECTORS_PY, "controlroom_make_vectors")
    assert make_vectors.dumps(make_vectors.build()) == VECTORS_JSON.read_text(encoding="utf-8")


def test_vectors_cover_the_protocol():
    names = _ids(VECTORS)
    assert len(names) == len(set(names))
    types = {c["decoded"]["type"] for c in VALID_FRAMES}
    assert types == set(codec.TYPE_CODES)
    fields = [c["decoded"]["fields"] for c in VALID_FRAMES]
    assert {f["kind"] for f in fields if "kind" in f} == set(codec.CASUALTY_KINDS)
    assert {f["status"] for f in fields if "status" in f} == set(codec.SIEGE_STATUSES)
    assert {f["message"] for f in fields if "message" in f} == set(codec.CANNED_NAMES)
    assert {f["reason"] for f in fields if "reason" in f} == set(codec.STOPP_REASONS)
    assert {c["error"] for c in FRAMES if c["error"]} == set(codec.FRAME_REASONS)
    assert {c["error"] for c in LINES if c["error"]} == set(codec.LINE_REASONS)
    assert any(c["verify"] is False for c in FRAMES)                   # bad tags and wrong keys
    assert {p["kind"] for p in (c["parsed"] for c in VALID_LINES)} == {
        "rx", "tx", "txok", "txerr", "id_request", "id", "status"}


@pytest.mark.parametrize("case", FRAMES, ids=_ids(FRAMES))
def test_frame_vector(case):
    data = bytes.fromhex(case["hex"])
    key = bytes.fromhex(case["key"])
    if case["error"]:
        with pytest.raises(FrameError) as info:
            codec.decode_frame(data)
        assert info.value.reason == case["error"]
        assert isinstance(info.value, ValueError)
        assert codec.verify(data, key) is False
        return
    frame = codec.decode_frame(data)
    assert frame.to_dict() == case["decoded"]
    assert frame.code == codec.TYPE_CODES[frame.type]
    assert codec.verify(frame, key) is case["verify"]
    assert codec.verify(data, key) is case["verify"]
    assert codec.verify(bytearray(data), key) is case["verify"]
    if case["valid"]:
        d = case["decoded"]
        assert codec.encode_frame(key, d["type"], d["device"], d["counter"], d["fields"], d["version"]) == data


@pytest.mark.parametrize("case", LINES, ids=_ids(LINES))
def test_line_vector(case):
    if case["error"]:
        with pytest.raises(FrameError) as info:
            codec.parse_line(case["line"])
        assert info.value.reason == case["error"]
        return
    parsed = codec.parse_line(case["line"])
    assert {k: v.hex().upper() if isinstance(v, bytes) else v for k, v in parsed.items()} == case["parsed"]
    assert codec.parse_line(case["line"].encode("ascii")) == parsed


@pytest.mark.parametrize("case", [c for c in VECTORS if c["kind"] == "hmac"], ids=lambda c: c["name"])
def test_hmac_vector(case):
    key, data = bytes.fromhex(case["key"]), bytes.fromhex(case["data"])
    assert codec.hmac_sha256(key, data).hex().upper() == case["mac"]


def test_crc16_check_value():
    assert codec.crc16(b"123456789") == codec.crc16("123456789") == 0x29B1
    assert codec.crc16(b"") == 0xFFFF


# --- primitives ------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.binary(max_size=300))
def test_hmac_equals_the_standard_library(key, message):
    assert codec.hmac_sha256(key, message) == hmac.new(key, message, hashlib.sha256).digest()


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_crc16_equals_binascii_crc_hqx(data):
    import binascii

    assert codec.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(st.binary(max_size=80))
def test_hex_helpers(data):
    text = codec.hexlify(data)
    assert text == data.hex().upper()
    assert codec.unhexlify(text) == codec.unhexlify(text.lower()) == data


@pytest.mark.parametrize("text", ["0", "0G", " 00", "00 ", "+0", "0x", "\u0660\u0660", "ABC"])
def test_unhexlify_is_strict(text):
    with pytest.raises(ValueError):
        codec.unhexlify(text)


def test_compare_digest():
    assert codec.compare_digest(b"abcd", b"abcd")
    assert not codec.compare_digest(b"abcd", b"abce")
    assert not codec.compare_digest(b"abcd", b"abc")


def test_codec_imports_only_struct_and_hashlib():
    # The MicroPython subset: no hmac, typing, dataclasses ... (the MicroPython
    # tests prove it runs; this keeps CPython-only imports out early).  The one
    # exception: the station's C fast paths, imported under ``if _CPYTHON:``.
    tree = ast.parse(CODEC_PY.read_text(encoding="utf-8"))
    imported, fast = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "_CPYTHON":
            for inner in node.body:
                if isinstance(inner, ast.Import):
                    fast |= {a.name for a in inner.names}
        elif isinstance(node, ast.Import) and node not in getattr(tree, "_fast", ()):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
        assert not isinstance(node, (ast.NamedExpr, ast.JoinedStr)), "walrus / f-string in codec.py"
    assert fast == {"binascii", "hmac"}
    assert imported - fast == {"struct", "hashlib", "sys"}


# --- encoders: round trips ---------------------------------------------------------

devices = st.integers(0, 0xFFFF)
counters = st.integers(0, 0xFFFFFFFF)
badges = st.integers(1, 0xFFFF)
u8 = st.integers(0, 255)
batteries = st.one_of(st.none(), st.integers(0, 100))
positions = st.one_of(
    st.just((None, None)),
    st.tuples(st.integers(-900000000, 900000000), st.integers(-1800000000, 1800000000)),
)


def _enum(table):
    # by name or by wire code; decoding always gives the name
    return st.one_of(st.sampled_from(table), st.integers(1, len(table))).map(
        lambda v: (v, v if isinstance(v, str) else table[v - 1]))


@st.composite
def messages(draw):
    """(encoder call, expected type, expected fields)."""
    kind = draw(st.sampled_from(sorted(codec.TYPE_CODES)))
    lat, lon = draw(positions)
    if kind == "position":
        battery, fix, sats = draw(batteries), draw(st.integers(0, 7)), draw(u8)
        return (codec.encode_position, (lat, lon, battery, fix, sats),
                {"lat": lat, "lon": lon, "battery": battery, "fix": fix, "sats": min(sats, 31)})
    if kind == "heartbeat":
        battery, uptime = draw(batteries), draw(st.integers(0, 0xFFFFFFFF))
        return codec.encode_heartbeat, (battery, uptime), {"battery": battery, "uptime_min": min(uptime, 65535)}
    if kind == "casualty":
        badge, (k, name) = draw(badges), draw(_enum(codec.CASUALTY_KINDS))
        if name in codec.BY_REQUIRED:
            by = draw(badges)
        elif name in codec.BY_OPTIONAL:
            by = draw(st.one_of(st.none(), badges))
        else:
            by = None
        return codec.encode_casualty, (badge, k, by), {"badge": badge, "kind": name, "by": by}
    if kind == "headcount":
        group, up, down, dead = draw(badges), draw(u8), draw(u8), draw(u8)
        return codec.encode_headcount, (group, up, down, dead), {"group": group, "up": up, "down": down, "dead": dead}
    if kind == "siege":
        engine, (s, name) = draw(st.integers(1, 255)), draw(_enum(codec.SIEGE_STATUSES))
        return codec.encode_siege, (engine, s, lat, lon), {"engine": engine, "status": name, "lat": lat, "lon": lon}
    if kind == "valhalla":
        badge = draw(badges)
        return codec.encode_valhalla, (badge,), {"badge": badge}
    if kind == "canned":
        m, name = draw(_enum(codec.CANNED_NAMES))
        return codec.encode_canned, (m, ), {"message": name}
    if kind == "stopp_called":
        stopp, (r, name) = draw(u8), draw(_enum(codec.STOPP_REASONS))
        return (codec.encode_stopp_called, (stopp, r, lat, lon),
                {"stopp": stopp, "reason": name, "lat": lat, "lon": lon})
    if kind == "stopp_lifted":
        stopp = draw(u8)
        return codec.encode_stopp_lifted, (stopp,), {"stopp": stopp}
    device, counter = draw(devices), draw(counters)
    return (codec.encode_ack, (device, counter, kind == "ack_stopp"),
            {"acked_device": device, "acked_counter": counter})


@settings(max_examples=500, deadline=None)
@given(messages(), devices, counters)
def test_every_encoder_round_trips(message, device, counter):
    encoder, args, fields = message
    data = encoder(KEY, device, counter, *args)
    frame = codec.decode_frame(data)
    name, _, _, tag_len, needs_ack = codec.TYPES[frame.code]
    assert (frame.type, frame.version, frame.device, frame.counter) == (name, 1, device, counter)
    assert frame.fields == fields
    assert frame.needs_ack is needs_ack
    assert len(frame.tag) == tag_len
    assert frame.signed + frame.tag == data
    assert data[0] == 0x20 | frame.code
    assert codec.verify(frame, KEY) and not codec.verify(frame, OTHER_KEY)
    # The generic builder makes the same bytes from the decoded fields.
    assert codec.encode_frame(KEY, frame.type, device, counter, frame.fields) == data
    assert codec.encode_frame(KEY, frame.code, device, counter, frame.fields) == data


def test_tag_lengths_and_acks_by_type():
    tag = {name: spec[3] for name, spec in ((s[0], s) for s in codec.TYPES.values())}
    assert {n for n, t in tag.items() if t == 8} == {"stopp_called", "stopp_lifted", "ack_stopp"}
    assert set(tag.values()) == {4, 8}
    assert {s[0] for s in codec.TYPES.values() if s[4]} == {"casualty", "valhalla", "stopp_called", "stopp_lifted"}


def test_frame_sizes_and_position_ping_fits_24_bytes():
    sizes = {name: (codec.HEADER_LEN + lo + tag, codec.HEADER_LEN + hi + tag)
             for name, lo, hi, tag, _ in codec.TYPES.values()}
    assert sizes["position"] == (21, 21)
    assert len(codec.encode_position(KEY, 0xFFFF, 0xFFFFFFFF, -900000000, 1800000000, 100, 7, 255)) == 21 <= 24
    assert max(hi for _, hi in sizes.values()) == 25           # stopp_called
    # SF9/125 kHz: a position ping is on air for about 0.2 s.
    assert time_on_air(21, sf=9, bw_khz=125).total_ms < 210


def test_ack_for_picks_the_ack_type_and_destination_key():
    cas = codec.decode_frame(codec.encode_casualty(KEY, 0x0102, 41, 1234, "died"))
    stopp = codec.decode_frame(codec.encode_stopp_called(KEY, 0x0102, 42, 1, "danger", None, None))
    pos = codec.decode_frame(codec.encode_position(KEY, 0x0102, 43, None, None, None, 0, 0))
    assert codec.ack_for(pos, KEY, 7, 900) is None
    for frame, type_name, tag_len in ((cas, "ack", 4), (stopp, "ack_stopp", 8)):
        ack = codec.decode_frame(codec.ack_for(frame, KEY, 7, 900))
        assert (ack.type, ack.device, ack.counter, len(ack.tag)) == (type_name, 7, 900, tag_len)
        assert ack.fields == {"acked_device": 0x0102, "acked_counter": frame.counter}
        assert codec.verify(ack, KEY) and not ack.needs_ack


@pytest.mark.parametrize("call", [
    lambda: codec.encode_position(KEY, 1, 1, 900000001, 0, 50, 1, 5),
    lambda: codec.encode_position(KEY, 1, 1, 0, None, 50, 1, 5),
    lambda: codec.encode_position(KEY, 1, 1, 0, 0, 101, 1, 5),
    lambda: codec.encode_position(KEY, 1, 1, 0, 0, 50, 8, 5),
    lambda: codec.encode_position(KEY, 1, 1, 0.5, 0, 50, 1, 5),
    lambda: codec.encode_position(KEY, 1, 1, 0, 0, True, 1, 5),
    lambda: codec.encode_position(KEY, 0x10000, 1, 0, 0, 50, 1, 5),
    lambda: codec.encode_position(KEY, 1, -1, 0, 0, 50, 1, 5),
    lambda: codec.encode_position(KEY, 1, 2**32, 0, 0, 50, 1, 5),
    lambda: codec.encode_casualty(KEY, 1, 1, 0, "down"),
    lambda: codec.encode_casualty(KEY, 1, 1, 5, "sleeping"),
    lambda: codec.encode_casualty(KEY, 1, 1, 5, 11),
    lambda: codec.encode_casualty(KEY, 1, 1, 5, "healer_touch"),
    lambda: codec.encode_casualty(KEY, 1, 1, 5, "cared_for"),
    lambda: codec.encode_casualty(KEY, 1, 1, 5, "died", 6),
    lambda: codec.encode_casualty(KEY, 1, 1, 5, "bound", 0),
    lambda: codec.encode_headcount(KEY, 1, 1, 0, 1, 1, 1),
    lambda: codec.encode_headcount(KEY, 1, 1, 1, 256, 1, 1),
    lambda: codec.encode_siege(KEY, 1, 1, 0, "moved", None, None),
    lambda: codec.encode_siege(KEY, 1, 1, 1, "burning", None, None),
    lambda: codec.encode_valhalla(KEY, 1, 1, 65536),
    lambda: codec.encode_canned(KEY, 1, 1, 0),
    lambda: codec.encode_canned(KEY, 1, 1, "Need healer"),
    lambda: codec.encode_stopp_called(KEY, 1, 1, 256, "injury", None, None),
    lambda: codec.encode_stopp_called(KEY, 1, 1, 1, 4, None, None),
    lambda: codec.encode_stopp_lifted(KEY, 1, 1, -1),
    lambda: codec.encode_ack(KEY, 1, 1, 1, 2**32),
    lambda: codec.encode_frame(KEY, "position", 1, 1, {"lat": 0, "lon": 0}),
])
def test_encoders_reject_bad_values(call):
    with pytest.raises(FrameError) as info:
        call()
    assert info.value.reason == "payload"


def test_encode_frame_rejects_unknown_type():
    for t in ("bogus", 0, 10, 31, None):
        with pytest.raises(FrameError) as info:
            codec.encode_frame(KEY, t, 1, 1, {})
        assert info.value.reason == "type"


@pytest.mark.parametrize("key", [b"", bytes(15), bytes(17), "0" * 16, None])
def test_keys_must_be_16_bytes(key):
    with pytest.raises(ValueError):
        codec.encode_valhalla(key, 1, 1, 5)
    with pytest.raises(ValueError):
        codec.verify(codec.encode_valhalla(KEY, 1, 1, 5), key)


def test_frame_error_shape():
    err = FrameError("short", "empty frame")
    assert isinstance(err, ValueError) and err.reason == "short" and str(err) == "short: empty frame"
    assert str(FrameError("type")) == "type"


@pytest.mark.parametrize("data", [None, "2101", 5, [0x21], object()])
def test_decode_of_non_bytes_is_a_frame_error(data):
    with pytest.raises(FrameError):
        codec.decode_frame(data)


def test_decode_accepts_bytearray_and_memoryview():
    data = bytes.fromhex(VALID_FRAMES[0]["hex"])
    for view in (bytearray(data), memoryview(data)):
        assert codec.decode_frame(view).to_dict() == VALID_FRAMES[0]["decoded"]


# --- fuzzing -----------------------------------------------------------------------


def _decode_or_reason(data):
    try:
        frame = codec.decode_frame(data)
    except FrameError as exc:
        assert exc.reason in codec.FRAME_REASONS
        return exc.reason
    assert frame.signed + frame.tag == bytes(data)
    assert codec.verify(frame, KEY) in (True, False)
    return frame


@settings(max_examples=1000, deadline=None)
@given(st.one_of(
    st.binary(max_size=40),
    # a valid version/type byte, so the length and field checks are reached
    st.tuples(st.sampled_from(sorted(codec.TYPES)), st.binary(max_size=30)).map(
        lambda t: bytes([0x20 | t[0]]) + t[1]),
))
def test_random_bytes_only_ever_raise_frame_error(data):
    _decode_or_reason(data)


@st.composite
def mutated_frames(draw):
    data = bytearray(bytes.fromhex(draw(st.sampled_from(VALID_FRAMES))["hex"]))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["set", "insert", "delete", "truncate", "append"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        if op == "set" and data:
            data[i] = draw(u8)
        elif op == "insert":
            data.insert(i, draw(u8))
        elif op == "delete" and data:
            del data[i]
        elif op == "truncate":
            del data[i:]
        else:
            data += draw(st.binary(min_size=1, max_size=4))
    return bytes(data)


@settings(max_examples=1000, deadline=None)
@given(mutated_frames())
def test_mutated_frames_only_ever_raise_frame_error(data):
    _decode_or_reason(data)


@pytest.mark.parametrize("case", VALID_FRAMES, ids=_ids(VALID_FRAMES))
def test_every_bit_flip_is_caught_by_decode_or_verify(case):
    data = bytes.fromhex(case["hex"])
    key = bytes.fromhex(case["key"])
    for i in range(len(data) * 8):
        flipped = bytearray(data)
        flipped[i // 8] ^= 1 << (i % 8)
        try:
            frame = codec.decode_frame(bytes(flipped))
        except FrameError:
            continue
        assert not codec.verify(frame, key), "bit %d of %s got through" % (i, case["name"])


@settings(max_examples=1000, deadline=None)
@given(st.one_of(
    st.text(max_size=80),
    st.binary(max_size=80),
    st.lists(st.sampled_from(["RX", "TX", "TXOK", "TXERR", "ID", "ID?", "ST", " ", "7", "-97", "-7.25", "=",
                              "fw=1", "A1B2", "\r\n", "\n", "\x00", "\u00e9", "+1", "0x1F"]),
             max_size=12).map("".join),
))
def test_random_lines_only_ever_raise_frame_error(text):
    try:
        result = codec.parse_line(text)
    except FrameError as exc:
        assert exc.reason in codec.LINE_REASONS
    else:
        assert result["kind"] in ("rx", "tx", "txok", "txerr", "id_request", "id", "status")


@settings(max_examples=500, deadline=None)
@given(st.sampled_from([c for c in VALID_LINES if c["line"].strip() != "ID?"]), st.data())
def test_any_changed_character_of_a_line_is_caught(case, data):
    line = case["line"].rstrip("\r\n")
    i = data.draw(st.integers(0, len(line) - 1))
    c = data.draw(st.characters(min_codepoint=32, max_codepoint=126).filter(lambda c: c != line[i]))
    changed = line[:i] + c + line[i + 1:]
    try:
        parsed = codec.parse_line(changed)
    except FrameError:
        return
    # Only the case of the checksum's hex digits may change unnoticed.
    assert i >= len(line) - 4 and changed.upper() == line.upper()
    assert parsed == codec.parse_line(line)


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

from hypothesis import given, settings  # noqa: E402 - for the section below
from hypothesis import strategies as hst  # noqa: E402 - for the section below


@settings(max_examples=300, deadline=None)
@given(hst.binary(max_size=300), hst.binary(min_size=1, max_size=80))
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
@given(hst.text(alphabet="0123456789abcdefABCDEF gx+-_", max_size=12))
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
