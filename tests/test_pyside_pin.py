"""PySide6 6.12.0 corrupts the reference count of True in Signal.emit on CPython 3.11: stay below it."""

import sys
from importlib.metadata import version


def test_pyside6_is_pinned_below_6_12():
    major, minor = (int(x) for x in version("PySide6-Essentials").split(".")[:2])
    assert (major, minor) < (6, 12), "PySide6 6.12 crashes on CPython 3.11; see pyproject.toml"


def test_signal_emit_keeps_the_reference_count_of_true(qapp):
    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        fired = Signal(bool)

    received = []
    emitter = Emitter()
    emitter.fired.connect(received.append)
    before = sys.getrefcount(True)
    for _ in range(100_000):
        emitter.fired.emit(True)
    received.clear()
    after = sys.getrefcount(True)
    # True is immortal from CPython 3.12 on; on 3.11 a leak or an over-release shows here.
    assert abs(after - before) < 100, (before, after)
