"""House rules of hardware/firmware: what each file may import, sizes, and
that every file (main.py and the drivers too) loads in the real MicroPython."""

import ast
import re

import pytest

from tests.support.firmware_import import FIRMWARE

FILES = sorted(FIRMWARE.glob("*.py"))
# Files that talk to the hardware: only they may import machine, time or framebuf.
HARDWARE_FACING = {"hw.py", "main.py", "ssd1306.py"}
MICROPYTHON_ONLY = {"machine", "framebuf", "micropython", "esp", "esp32", "network"}
ALLOWED = {"codec", "struct", "hashlib", "sys", "json", "os", "io", "random", "select", "time"} | MICROPYTHON_ONLY
FIRMWARE_NAMES = {f.stem for f in FILES}


def _imports(path):
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module.split(".")[0])
    return names


def test_the_firmware_files_are_all_here():
    assert {"boards", "radio_if", "sx1276", "sx1262", "ssd1306", "keypad", "matrix", "retry", "counter",
            "handset", "tracker", "gateway", "config", "main", "hw", "fakes", "nmea", "gps", "beacon",
            "battery"} <= FIRMWARE_NAMES


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_imports_stay_within_micropython(path):
    names = _imports(path)
    assert names <= ALLOWED | FIRMWARE_NAMES, names - ALLOWED - FIRMWARE_NAMES
    if path.name not in HARDWARE_FACING:
        assert not names & (MICROPYTHON_ONLY | {"time"}), "portable module imports %s" % (names & MICROPYTHON_ONLY)
        assert not names & {f[:-3] for f in HARDWARE_FACING}


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_house_rules(path):
    text = path.read_text()
    assert len(text.splitlines()) <= 500
    assert not re.search(r"\b(TODO|FIXME|NotImplementedError)\b", text)
    tree = ast.parse(text)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)], "f-strings: use % formatting"
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.NamedExpr)]
    assert ast.get_docstring(tree), "a one-line module docstring"


STUB_MACHINE = '''
class Pin:
    OUT, IN, PULL_UP = 1, 0, 2
    def __init__(self, *a, **k):
        pass
    def value(self, v=None):
        return 1
class SPI:
    def __init__(self, *a, **k):
        pass
class I2C(SPI):
    pass
class UART(SPI):
    pass
class ADC(SPI):
    ATTN_11DB = 3
def reset():
    raise SystemExit(9)
'''

LOAD_ALL = """
import sys
names = %r
for name in names:
    __import__(name)
print("LOADED", len(names))
"""


@pytest.mark.micropython
def test_every_file_loads_in_micropython(micropython, tmp_path):
    """main.py runs its main(): without device.json it says so and returns."""
    stub = tmp_path / "machine.py"
    stub.write_text(STUB_MACHINE)
    codec = FIRMWARE.parent.parent / "controlroom" / "radio" / "codec.py"
    names = [f.stem for f in FILES if f.stem != "main"] + ["main"]
    out = micropython(LOAD_ALL % names, FILES + [codec, stub])
    assert "controlroom: no device.json on the device" in out
    assert "LOADED %d" % len(names) in out
