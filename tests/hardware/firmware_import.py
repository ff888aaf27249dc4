"""Import hardware/firmware modules in the test process under their device names.

``load("gateway", "fakes")`` puts hardware/firmware on sys.path (once) and
the app's controlroom.radio.codec in as ``codec``: the firmware copies that
very file.  No __pycache__ is written into the firmware folder.
"""

import importlib
import sys
from pathlib import Path

from controlroom.radio import codec as app_codec

FIRMWARE = Path(__file__).resolve().parent.parent.parent / "hardware" / "firmware"


def load(*names):
    if str(FIRMWARE) not in sys.path:
        sys.path.insert(0, str(FIRMWARE))
    sys.modules.setdefault("codec", app_codec)
    dont_write, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        modules = [importlib.import_module(n) for n in names]
    finally:
        sys.dont_write_bytecode = dont_write
    return modules[0] if len(modules) == 1 else modules
