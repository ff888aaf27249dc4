"""The golden vectors, decoded and verified by controlroom/radio/codec.py under
CPython AND the real MicroPython (the firmware runs the same file).

RUNNER below is written in the MicroPython subset.  It reads the vectors
(hardware/protocol/vectors.json, embedded into the script), runs every case
through the codec and prints JSON results.  It runs once under CPython (in
process) and once under MicroPython 1.27 (WebAssembly port via Node.js, see
tests/micropython/); every check runs against both result sets (test ids
``[cpython-...]`` and ``[micropython-...]``).  The MicroPython half skips when
the interpreter is not installed (``npm ci --prefix hardware``), or fails if
MICROPYTHON_REQUIRED=1.
"""

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

from controlroom.radio import codec

REPO = Path(__file__).resolve().parents[2]
CODEC_PY = REPO / "controlroom" / "radio" / "codec.py"
VECTORS_JSON = REPO / "hardware" / "protocol" / "vectors.json"
VECTORS = json.loads(VECTORS_JSON.read_text(encoding="utf-8"))
FRAMES = [c for c in VECTORS if c["kind"] == "frame"]
LINES = [c for c in VECTORS if c["kind"] == "line"]
PRIMITIVES = [c for c in VECTORS if c["kind"] in ("hmac", "crc16")]

# Frames whose every single-bit flip is tried (each flip costs an HMAC).
FLIP_SWEEP = ("position_tracker_tartu", "casualty_healer_touch", "stopp_called_injury", "stopp_lifted",
              "ack_stopp")

RUNNER = r'''
import json
import codec

VECTORS = json.loads(VECTORS_TEXT)
# type -> (encoder, its field arguments in order)
ENCODERS = {
    "position": ("encode_position", ("lat", "lon", "battery", "fix", "sats")),
    "heartbeat": ("encode_heartbeat", ("battery", "uptime_min")),
    "casualty": ("encode_casualty", ("badge", "kind", "by")),
    "headcount": ("encode_headcount", ("group", "up", "down", "dead")),
    "siege": ("encode_siege", ("engine", "status", "lat", "lon")),
    "valhalla": ("encode_valhalla", ("badge",)),
    "canned": ("encode_canned", ("message",)),
    "stopp_called": ("encode_stopp_called", ("stopp", "reason", "lat", "lon")),
    "stopp_lifted": ("encode_stopp_lifted", ("stopp",)),
    "ack": ("encode_ack", ("acked_device", "acked_counter")),
    "ack_stopp": ("encode_ack", ("acked_device", "acked_counter")),
}
# version 2: the keyword arguments of the fields it adds
V2_ARGS = {"casualty": ("pressed",), "valhalla": ("pressed",), "stopp_called": ("caller", "pressed"),
           "stopp_lifted": ("pressed",)}
FORMATS = {
    "rx": lambda p: codec.format_rx_line(p["gateway"], p["rssi"], p["snr"], p["frame"]),
    "tx": lambda p: codec.format_tx_line(p["frame"]),
    "txok": lambda p: codec.format_txok_line(p["counter"]),
    "txerr": lambda p: codec.format_txerr_line(p["reason"]),
    "id_request": lambda p: codec.format_id_request(),
    "id": lambda p: codec.format_id_line(p["gateway"], p["fw"], p["region"], p["freq"], p["sf"], p["bw"], p["cr"]),
    "status": lambda p: codec.format_status_line(p["gateway"], p["up"], p["rx"], p["bad"], p["tx"], p["txerr"]),
}


def error_of(fn, *args):
    try:
        fn(*args)
    except codec.FrameError as e:
        return [e.reason, isinstance(e, ValueError)]
    return None


def run_frame(case, sweep):
    data = codec.unhexlify(case["hex"])
    key = codec.unhexlify(case["key"])
    out = {"error": error_of(codec.decode_frame, data), "verify_bytes": codec.verify(data, key)}
    if out["error"] is not None:
        return out
    f = codec.decode_frame(data)
    out["decoded"] = f.to_dict()
    out["code"] = f.code
    out["verify"] = codec.verify(f, key)
    out["encode_frame"] = codec.hexlify(codec.encode_frame(key, f.type, f.device, f.counter, f.fields, f.version))
    name, args = ENCODERS[f.type]
    values = [f.fields[a] for a in args]
    if f.type == "ack_stopp":
        values.append(True)
    if f.type.startswith("ack"):
        built = getattr(codec, name)(key, f.device, f.counter, *values)
    else:       # version 2 fields by keyword, and the version
        extra = {}
        for a in V2_ARGS.get(f.type, ()):
            extra[a] = f.fields.get(a)
        built = getattr(codec, name)(key, f.device, f.counter, *values, version=f.version, **extra)
    out["encoder"] = codec.hexlify(built)
    if sweep:
        accepted = 0
        for i in range(len(data) * 8):
            flipped = bytearray(data)
            flipped[i // 8] ^= 1 << (i % 8)
            try:
                g = codec.decode_frame(bytes(flipped))
            except codec.FrameError:
                continue
            if codec.verify(g, key):
                accepted += 1
        out["flips_accepted"] = accepted
    return out


def plain(parsed):
    out = {}
    for k in parsed:
        v = parsed[k]
        out[k] = codec.hexlify(v) if isinstance(v, (bytes, bytearray)) else v
    return out


def run_line(case):
    out = {"error": error_of(codec.parse_line, case["line"])}
    if out["error"] is None:
        parsed = codec.parse_line(case["line"])
        out["parsed"] = plain(parsed)
        out["parsed_bytes"] = plain(codec.parse_line(case["line"].encode()))
        if case["canonical"]:
            out["formatted"] = FORMATS[parsed["kind"]](parsed)
    return out


def run_primitive(case):
    if case["kind"] == "hmac":
        mac = codec.hmac_sha256(codec.unhexlify(case["key"]), codec.unhexlify(case["data"]))
        return {"mac": codec.hexlify(mac)}
    return {"crc": "%04X" % codec.crc16(case["text"]), "crc_bytes": "%04X" % codec.crc16(case["text"].encode())}


def run_all(sweep_names):
    results = {}
    for case in VECTORS:
        try:
            if case["kind"] == "frame":
                results[case["name"]] = run_frame(case, case["name"] in sweep_names)
            elif case["kind"] == "line":
                results[case["name"]] = run_line(case)
            else:
                results[case["name"]] = run_primitive(case)
        except Exception as e:  # anything but FrameError where it belongs is a failure
            results[case["name"]] = {"crash": repr(e)}
    return results


print(json.dumps(run_all(SWEEP)))
'''


def script():
    return "VECTORS_TEXT = %r\nSWEEP = %r\n" % (VECTORS_JSON.read_text(encoding="utf-8"), FLIP_SWEEP) + RUNNER


@pytest.fixture(scope="module")
def cpython_results():
    saved = sys.modules.get("codec")
    sys.modules["codec"] = codec
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(script(), "codec_runner", "exec"), {"__name__": "codec_runner"})
    finally:
        if saved is None:
            del sys.modules["codec"]
        else:
            sys.modules["codec"] = saved
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def micropython_results(micropython):
    # The firmware copies the file as codec.py; run_micropython copies it under its own name.
    return json.loads(micropython(script(), [CODEC_PY], timeout=300))


@pytest.fixture(scope="module", params=["cpython", pytest.param("micropython", marks=pytest.mark.micropython)])
def results(request):
    return request.getfixturevalue(request.param + "_results")


def _ids(cases):
    return [c["name"] for c in cases]


def _no_crash(result):
    assert "crash" not in result, result.get("crash")


@pytest.mark.parametrize("case", FRAMES, ids=_ids(FRAMES))
def test_frame_vector(results, case):
    r = results[case["name"]]
    _no_crash(r)
    if case["error"] is not None:
        assert r["error"] == [case["error"], True]        # reason, and FrameError is a ValueError
        assert r["verify_bytes"] is False
        return
    assert r["error"] is None
    assert r["decoded"] == case["decoded"]
    assert r["verify"] is case["verify"]
    assert r["verify_bytes"] is case["verify"]
    assert case["valid"] is (case["verify"] is True)
    signed = case["decoded"]["signed"]
    for built in (r["encode_frame"], r["encoder"]):        # re-encoding the decoded fields
        assert built.startswith(signed)
        if case["valid"]:
            assert built == case["hex"]
    assert r["code"] == codec.TYPE_CODES[case["decoded"]["type"]]
    if case["name"] in FLIP_SWEEP:
        assert r["flips_accepted"] == 0


@pytest.mark.parametrize("case", LINES, ids=_ids(LINES))
def test_line_vector(results, case):
    r = results[case["name"]]
    _no_crash(r)
    if case["error"] is not None:
        assert r["error"] == [case["error"], True]
        return
    assert r["error"] is None
    assert r["parsed"] == case["parsed"]
    assert r["parsed_bytes"] == case["parsed"]
    if case["canonical"]:
        assert r["formatted"] == case["line"].rstrip("\r\n")


@pytest.mark.parametrize("case", PRIMITIVES, ids=_ids(PRIMITIVES))
def test_primitive_vector(results, case):
    r = results[case["name"]]
    _no_crash(r)
    if case["kind"] == "hmac":
        assert r["mac"] == case["mac"]
    else:
        assert r["crc"] == r["crc_bytes"] == case["crc"]


def test_flip_sweep_frames_exist():
    assert set(FLIP_SWEEP) <= set(_ids(FRAMES))


@pytest.mark.micropython
def test_interpreters_agree(cpython_results, micropython_results):
    assert micropython_results == cpython_results
