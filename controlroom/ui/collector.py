"""Python's cyclic garbage collector, run in the GUI thread only.

Left to itself, the collector runs in whichever thread happens to allocate
when a generation is full: the core's, the storage's or the replay worker's
thread.  If the garbage holds a widget (a closed dialog, a menu and its
actions in a reference cycle), its C++ destructor then runs in that thread
while the GUI thread may be deleting a neighbour: both wait for a Qt lock and
the GIL held by the other, and the window freezes for good (seen in the tests:
a replay worker's collection destroying widgets while the GUI thread deleted a
menu).  So the automatic collection is switched off and a timer in the GUI
thread collects with the interpreter's own thresholds.  Code that switches
the collector off for a long fold and on again afterwards keeps it off (it
restores what it found).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer, Slot


class MainThreadCollector(QObject):
    """Collects garbage in the thread it lives in (the GUI's), every ``interval_ms`` when a generation is full."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = 250) -> None:
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        self.collections = 0
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    @Slot()
    def check(self) -> None:
        c0, c1, c2 = gc.get_count()
        t0, t1, t2 = self.threshold
        if c0 <= t0 and c1 <= t1 and c2 <= t2:
            return
        generation = 2 if c2 > t2 else 1 if c1 > t1 else 0
        gc.collect(generation)
        self.collections += 1

    def stop(self) -> None:
        """Give the collection back to the interpreter."""
        self.timer.stop()
        gc.enable()
