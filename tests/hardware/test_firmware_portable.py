"""The portable firmware modules under CPython AND the real MicroPython.

keypad.py, retry.py, counter.py (firmware_checks.py) and a marshal's whole
report through handset.py, gateway.py and tracker.py against the fakes
(report_checks.py) run once in a CPython subprocess and once in MicroPython
(WebAssembly port, tests/micropython/).  Each interpreter sees exactly the
files the device gets: hardware/firmware/*.py plus controlroom/radio/codec.py.
Every check must report "ok"; the frames the firmware put on the air are
then decoded and verified by the app's own codec here.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controlroom.radio import codec as app_codec

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIRMWARE = REPO / "hardware" / "firmware"
CODEC = REPO / "controlroom" / "radio" / "codec.py"
CHECK_FILES = [HERE / "firmware_checks.py", HERE / "report_checks.py"]

SCRIPT = """
import json, os
import firmware_checks, report_checks
root = %r
try:
    os.mkdir(root)
except OSError:
    pass
out = {"portable": firmware_checks.run_all(root)}
out.update(report_checks.run_all())
print("RESULT " + json.dumps(out))
"""


def _firmware_files():
    return sorted(FIRMWARE.glob("*.py")) + [CODEC]


def _result(stdout):
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise AssertionError("no result in:\n" + stdout)


@pytest.fixture(scope="module")
def cpython_run(tmp_path_factory):
    # A directory laid out like the device's flash: firmware files and codec.py side by side.
    lib = tmp_path_factory.mktemp("device")
    for f in _firmware_files() + CHECK_FILES:
        shutil.copy(f, lib / f.name)
    root = str(tmp_path_factory.mktemp("flash"))
    env = dict(os.environ, PYTHONPATH=str(lib), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", SCRIPT % root], capture_output=True, text=True,
                          env=env, cwd=str(lib), timeout=120)
    assert proc.returncode == 0, proc.stderr
    return _result(proc.stdout)


@pytest.fixture(scope="module")
def micropython_run(micropython):
    return _result(micropython(SCRIPT % "/tmp/flash", _firmware_files() + CHECK_FILES, timeout=120))


@pytest.fixture(scope="module", params=["cpython", pytest.param("micropython", marks=pytest.mark.micropython)])
def run(request):
    return request.getfixturevalue(request.param + "_run")


def _names(module_path):
    text = module_path.read_text()
    return [line.split("(")[0][4:] for line in text.splitlines() if line.startswith("def check_")]


PORTABLE = _names(CHECK_FILES[0])
REPORT = _names(CHECK_FILES[1])


def test_every_check_ran(run):
    assert sorted(run["portable"]) == sorted(PORTABLE) and sorted(run["checks"]) == sorted(REPORT)


@pytest.mark.parametrize("name", PORTABLE)
def test_portable_module(run, name):
    assert run["portable"][name] == "ok"


@pytest.mark.parametrize("name", REPORT)
def test_report_through_fakes(run, name):
    assert run["checks"][name] == "ok"


def test_frames_on_air_pass_the_apps_codec(run):
    """What the firmware transmitted decodes and verifies with the app's codec."""
    key = bytes.fromhex(run["key"])
    report = [app_codec.decode_frame(bytes.fromhex(h)) for h in run["air"]["whole_report"]]
    assert [f.type for f in report] == ["casualty", "ack"]
    casualty, ack = report
    assert casualty.fields == {"badge": 1234, "kind": "down", "pressed": None, "by": None}
    assert casualty.device == 0x0102 and casualty.version == 2
    assert app_codec.verify(casualty, key) and not app_codec.verify(casualty, bytes(16))
    assert ack.fields == {"acked_device": 0x0102, "acked_counter": casualty.counter} and ack.device == 7
    retried = [bytes.fromhex(h) for h in run["air"]["retried"]]
    assert retried[0] == retried[1] and app_codec.verify(retried[0], key)
    stopp = [app_codec.decode_frame(bytes.fromhex(h)) for h in run["air"]["stopp"]]
    assert [f.type for f in stopp] == ["stopp_called", "stopp_called", "ack_stopp", "stopp_lifted", "ack_stopp"]
    assert all(app_codec.verify(f, key) for f in stopp)
    called = app_codec.decode_frame(bytes.fromhex(run["air"]["stopp_v2"][0]))
    assert (called.type, called.fields["caller"], called.fields["pressed"]) == ("stopp_called", 321, 1780000003)
    for h in run["air"]["pings"]:
        ping = app_codec.decode_frame(bytes.fromhex(h))
        assert ping.type == "position" and app_codec.verify(ping, key)
        assert ping.fields["lat"] == -339249000 and ping.fields["lon"] == 184241000


def test_both_interpreters_put_the_same_bytes_on_air(cpython_run, micropython_run):
    assert cpython_run["air"] == micropython_run["air"]


test_both_interpreters_put_the_same_bytes_on_air = pytest.mark.micropython(
    test_both_interpreters_put_the_same_bytes_on_air)
