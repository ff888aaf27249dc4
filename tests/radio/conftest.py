"""pytest glue for MicroPython tests in tests/radio.

The helper lives in ``tests/micropython/mpy.py`` and is loaded by file path
(no ``tests/__init__.py`` needed, independent of pytest's import mode); this
conftest re-exports its ``micropython`` and ``mpy`` fixtures and the hook
that skips ``@pytest.mark.micropython`` tests when the interpreter is not installed.
``tests/micropython/conftest.py`` and ``tests/hardware/conftest.py`` do the same.
"""

import importlib.util
import sys
from pathlib import Path

_NAME = "controlroom_tests_mpy"


def _load_mpy():
    if _NAME not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "micropython" / "mpy.py"
        spec = importlib.util.spec_from_file_location(_NAME, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[_NAME] = module
        spec.loader.exec_module(module)
    return sys.modules[_NAME]


_mpy = _load_mpy()
micropython_fixture = _mpy.micropython_fixture  # fixture "micropython"
mpy_fixture = _mpy.mpy_fixture  # fixture "mpy"
pytest_runtest_setup = _mpy.pytest_runtest_setup
