"""Tests of hardware/firmware/nmea.py under CPython AND the real MicroPython.

The cases are written once, as data.  ``nmea_runner.run_all`` (MicroPython
compatible) turns them into JSON-compatible results, once under CPython and
once under MicroPython (WebAssembly port via Node.js, see
tests/micropython/); every check below runs against both result sets
(test ids ``[cpython-...]`` and ``[micropython-...]``).  The MicroPython
half skips when the interpreter is not installed (``npm ci --prefix
hardware``), or fails if MICROPYTHON_REQUIRED=1.

The cases, and where their sentences come from: nmea_cases.py.
"""

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nmea_cases import (  # beside this file, as nmea_runner.py
    BEIDOU_EMITTED,
    BEIDOU_LAST_RMC,
    BEIDOU_LOG,
    BEIDOU_NOFIX_GGA,
    CHECKSUM_CASES,
    FIX_LINE,
    PARSE_CASES,
    PAYLOAD,
    PYNMEA2_GGA_SOUTH,
    READER_SCENARIOS,
    _with_checksum,
    dm,
    gga,
    rmc,
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
NMEA_PY = REPO / "hardware" / "firmware" / "nmea.py"
RUNNER_PY = HERE / "nmea_runner.py"


def _load(path, name):
    # No __pycache__ next to the firmware: the folder is copied to the device.
    dont_write, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = dont_write
    return module


nmea = _load(NMEA_PY, "firmware_nmea")
runner = _load(RUNNER_PY, "firmware_nmea_runner")


MICROPYTHON_SCRIPT = (
    "import json, nmea, nmea_runner\n"
    "payload = json.loads(%r)\n"
    "print(json.dumps(nmea_runner.run_all(nmea, payload)))\n"
) % json.dumps(PAYLOAD)


# --- comparison helpers (the same assertions for both interpreters) -----------

COORD_TOLERANCE = 2e-5  # degrees (~2 m); float32-safe: ESP32 MicroPython floats are single precision


def assert_same(actual, expected, path="result"):
    if isinstance(expected, bool) or expected is None:
        assert actual is expected, "%s: %r != %r" % (path, actual, expected)
    elif isinstance(expected, float):
        assert isinstance(actual, (int, float)) and not isinstance(actual, bool), "%s: %r" % (path, actual)
        if path.endswith((".lat", ".lon")):
            ok = abs(actual - expected) <= COORD_TOLERANCE
        else:
            ok = math.isclose(actual, expected, rel_tol=1e-6, abs_tol=1e-3)
        assert ok, "%s: %r != %r" % (path, actual, expected)
    elif isinstance(expected, int):
        assert type(actual) is int and actual == expected, "%s: %r != %r" % (path, actual, expected)
    elif isinstance(expected, str):
        assert actual == expected, "%s: %r != %r" % (path, actual, expected)
    elif isinstance(expected, (list, tuple)):
        assert isinstance(actual, list) and len(actual) == len(expected), "%s: %r != %r" % (path, actual, expected)
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, "%s[%d]" % (path, i))
    elif isinstance(expected, dict):
        assert isinstance(actual, dict), "%s: %r" % (path, actual)
        assert sorted(actual) == sorted(expected), "%s keys: %r != %r" % (path, sorted(actual), sorted(expected))
        for key in expected:
            assert_same(actual[key], expected[key], "%s.%s" % (path, key))
    else:  # pragma: no cover
        raise TypeError(expected)


def _jsonable(value):
    return json.loads(json.dumps(value))


@pytest.fixture(scope="module")
def cpython_results():
    return _jsonable(runner.run_all(nmea, PAYLOAD))


@pytest.fixture(scope="module")
def micropython_results(micropython):
    return json.loads(micropython(MICROPYTHON_SCRIPT, [NMEA_PY, RUNNER_PY]))


@pytest.fixture(scope="module", params=["cpython", pytest.param("micropython", marks=pytest.mark.micropython)])
def results(request):
    return request.getfixturevalue(request.param + "_results")


def _ids(cases):
    return [case[0] for case in cases]


@pytest.mark.parametrize("index", range(len(PARSE_CASES)), ids=_ids(PARSE_CASES))
def test_parse(results, index):
    case_id, _, expected = PARSE_CASES[index]
    assert_same(results["parse"][index], expected, case_id)


@pytest.mark.parametrize("index", range(len(CHECKSUM_CASES)), ids=_ids(CHECKSUM_CASES))
def test_checksum_ok(results, index):
    case_id, _, expected = CHECKSUM_CASES[index]
    assert results["checksum"][index] is expected, case_id


def _reader(results, name):
    return results["reader"][_ids(READER_SCENARIOS).index(name)]


def _emitted(result):
    return [item for feed in result["feeds"] for item in feed]


@pytest.mark.parametrize(
    "name",
    ["gpsd_log_crlf_random_chunks", "gpsd_log_one_byte_at_a_time", "gpsd_log_single_chunk",
     "gpsd_log_lf_only", "gpsd_log_cr_only"],
)
def test_reader_real_log_any_chunking_and_line_ending(results, name):
    r = _reader(results, name)
    emitted = _emitted(r)
    assert [(d["type"], d["time"]) for d in emitted] == [(t, [h, m, pytest.approx(s)])
                                                         for t, (h, m, s) in BEIDOU_EMITTED]
    # Each emitted dict is exactly what parse() gives for its line.
    expected_lines = [line for line in BEIDOU_LOG if line.strip()[3:6] in ("GGA", "RMC")]
    for got, line in zip(emitted, expected_lines):
        assert_same(got, _jsonable(nmea.parse(line)), name)
    assert_same(r["fix"], BEIDOU_LAST_RMC, name + ".fix")
    assert r["has_fix"] is True
    assert r["sentences"] == 8
    assert r["errors"] == 0
    assert r["overflows"] == 0


def test_reader_recovers_sentences_with_lost_line_ending(results):
    r = _reader(results, "lost_line_endings")
    assert [(d["type"], d["talker"]) for d in _emitted(r)] == [("GGA", "GP"), ("RMC", "GN")]
    assert r["errors"] == 0


def test_reader_keeps_last_good_fix_when_fix_is_lost(results):
    r = _reader(results, "fix_then_lost")
    assert [len(feed) for feed in r["feeds"]] == [1, 1]
    assert r["feeds"][1][0]["fix"] == 0
    assert r["has_fix"] is False
    assert_same(r["fix"], PARSE_CASES[_ids(PARSE_CASES).index("pynmea2_gga_south")][2], "fix")


def test_reader_drops_bad_checksum_and_noise(results):
    r = _reader(results, "bad_checksum_in_stream")
    assert [len(feed) for feed in r["feeds"]] == [1, 0, 0]
    assert r["errors"] == 2
    assert r["fix"]["lat"] == pytest.approx(-dm(19, 29.045), abs=COORD_TOLERANCE)
    assert r["has_fix"] is True


def test_reader_buffer_is_bounded_under_garbage(results):
    r = _reader(results, "overlong_garbage_then_sentence")
    assert r["max_buffered"] <= r["max_line"] == nmea.MAX_LINE
    assert r["overflows"] >= 1
    assert len(r["feeds"][0]) == 1
    assert all(feed == [] for feed in r["feeds"][1:-1])
    last = r["feeds"][-1]
    assert [(d["type"], d["fix"]) for d in last] == [("GGA", 0)]
    assert r["has_fix"] is False
    assert r["fix"]["type"] == "GGA" and r["fix"]["fix"] == 1


def test_reader_resyncs_on_sentence_start_after_overflow(results):
    r = _reader(results, "overlong_garbage_ending_in_sentence_start")
    assert r["overflows"] == 1
    assert r["max_buffered"] <= r["max_line"]
    assert r["feeds"][0] == []
    assert [d["time"] for d in r["feeds"][1]] == [[18, 43, pytest.approx(53.07)]]


def test_reader_drops_complete_line_longer_than_max_line(results):
    r = _reader(results, "overlong_complete_line")
    assert r["max_line"] == 60
    assert len(PYNMEA2_GGA_SOUTH) > 60 > len(BEIDOU_NOFIX_GGA)
    assert r["feeds"][0] == []
    assert r["overflows"] == 1
    assert [(d["type"], d["fix"]) for d in r["feeds"][1]] == [("GGA", 0)]


@pytest.mark.parametrize("name", ["fuzz_seed_1", "fuzz_seed_2"])
def test_reader_survives_fuzz(results, name):
    r = _reader(results, name)
    assert r["max_buffered"] <= r["max_line"]
    real = [_jsonable(nmea.parse(line)) for line in BEIDOU_LOG if nmea.parse(line)]
    emitted = _emitted(r)
    assert emitted, "the fuzz stream contains whole sentences; some must get through"
    for item in emitted:
        # Only sentences that really occur in the log can come out.
        assert any(_close(item, known) for known in real), item
    assert r["sentences"] == len(emitted)


def _close(a, b):
    try:
        assert_same(a, b)
        return True
    except AssertionError:
        return False


@pytest.mark.micropython
def test_interpreters_agree(cpython_results, micropython_results):
    assert_same(micropython_results, cpython_results, "micropython")


# --- CPython-only property tests ---------------------------------------------------

GGA_KEYS = sorted(gga(*[None] * 9))
RMC_KEYS = sorted(rmc(*[None] * 8))


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.text(max_size=120),
    st.binary(max_size=120),
    st.lists(st.sampled_from(["$", "GP", "GN", "GGA", "RMC", ",", "*", "A", "V", "N", "S", "E", "W",
                              "12", "3.5", "-", ".", "00", "6D", "\r\n", "\u00e9"]), max_size=40).map("".join),
))
def test_parse_never_raises(data):
    result = nmea.parse(data)
    assert result is None or sorted(result) in (GGA_KEYS, RMC_KEYS)
    assert nmea.checksum_ok(data) in (True, False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=20), max_size=12))
def test_parse_of_any_fields_with_valid_checksum(fields):
    # Random field contents behind a valid checksum: never raises, and any
    # position returned is in range.
    for address in ("GPGGA", "GNRMC"):
        body = ",".join([address] + [f.replace("$", "").replace("*", "") for f in fields])
        try:
            sentence = _with_checksum(body)
        except UnicodeEncodeError:
            continue
        result = nmea.parse(sentence)
        if result is not None and result["lat"] is not None:
            assert -90.0 <= result["lat"] <= 90.0
            assert -180.0 <= result["lon"] <= 180.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_reader_never_raises_and_stays_bounded(chunks):
    reader = nmea.NmeaReader()
    for chunk in chunks:
        for item in reader.feed(chunk):
            assert item["type"] in ("GGA", "RMC")
        assert len(reader._buf) <= reader.max_line


def test_reader_accepts_bytearray_memoryview_str_and_none():
    reader = nmea.NmeaReader()
    assert reader.feed(None) == []
    assert reader.feed(b"") == []
    assert len(reader.feed(bytearray(FIX_LINE))) == 1
    assert len(reader.feed(memoryview(FIX_LINE))) == 1
    assert len(reader.feed(FIX_LINE.decode())) == 1


def test_made_here_sentences_use_the_reference_checksum():
    # Guards the independence of _with_checksum from the code under test.
    assert _with_checksum("GPGGA,184353.07,1929.045,S,02410.506,E,1,04,2.6,100.00,M,-33.9,M,,0000") == PYNMEA2_GGA_SOUTH
