"""Shared test settings: offscreen Qt, no dangling threads."""

import os
import threading

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def no_dangling_threads():
    """Fail a test that leaves a Python thread running (napari's dangling-thread guard)."""
    before = set(threading.enumerate())
    yield
    leftover = [
        t for t in threading.enumerate()
        if t not in before and t.is_alive() and not t.daemon
    ]
    for t in leftover:
        t.join(timeout=2.0)
    leftover = [t for t in leftover if t.is_alive()]
    assert not leftover, f"test left threads running: {leftover}"


# The MicroPython harness (tests/micropython/mpy.py), loaded by file path so that
# no tests/__init__.py is needed: its ``micropython`` and ``mpy`` fixtures, and
# the hook that skips @pytest.mark.micropython tests (fails them under CI)
# when the interpreter is not installed.
def _load_mpy():
    import importlib.util
    import sys
    from pathlib import Path

    name = "controlroom_tests_mpy"
    if name not in sys.modules:
        path = Path(__file__).resolve().parent / "micropython" / "mpy.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_mpy = _load_mpy()
micropython_fixture = _mpy.micropython_fixture  # fixture "micropython"
mpy_fixture = _mpy.mpy_fixture  # fixture "mpy"
pytest_runtest_setup = _mpy.pytest_runtest_setup
