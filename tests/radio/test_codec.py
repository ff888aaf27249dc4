"""The radio frame codec (controlroom/radio/codec.py) under CPython.

Golden vectors (hardware/protocol/vectors.json, made independently of the
codec by hardware/protocol/make_vectors.py), round trips of every encoder,
HMAC against the standard library, frame sizes, and fuzzing: random and
mutated frames and lines never raise anything but FrameError, and no single
bit flip gets past decode + verify (the serial lines, PROTOCOL.md, the fast
paths and version 2: test_codec_lines.py).  The same vectors run under the real
MicroPython in test_codec_micropython.py.
"""

import ast
import hashlib
import hmac
import importlib.util
import json
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
