"""Import hardware/firmware modules in the test process under their device names.

``load("gateway", "fakes")`` imports them from hardware/firmware (a finder
for the firmware's own module names, installed once: the firmware's modules
import each other by those names, as on a board), with the app's
controlroom.radio.codec in as ``codec``: the firmware copies that very file.
No __pycache__ is written into the firmware folder.
"""

import importlib
import importlib.machinery
import sys
from pathlib import Path

from controlroom.radio import codec as app_codec

FIRMWARE = Path(__file__).resolve().parent.parent.parent / "hardware" / "firmware"


class _FirmwareFinder:
    """Finds the firmware's modules (hardware/firmware/NAME.py) by their device names, and nothing else."""

    names = frozenset(p.stem for p in FIRMWARE.glob("*.py"))

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name not in cls.names:
            return None
        return importlib.machinery.PathFinder.find_spec(name, [str(FIRMWARE)])


def load(*names):
    if _FirmwareFinder not in sys.meta_path:
        sys.meta_path.insert(0, _FirmwareFinder)
    sys.modules.setdefault("codec", app_codec)
    dont_write, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        modules = [importlib.import_module(n) for n in names]
    finally:
        sys.dont_write_bytecode = dont_write
    return modules[0] if len(modules) == 1 else modules
