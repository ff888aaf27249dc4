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
restores what it found: controlroom/collecting.py) and the timer waits while
it is off for such work; should any code turn it on again (a thread that found
it on before the window existed), the timer turns it off again.

A full collection (generation 2) walks every reference of every object the
process holds, every thread stopped meanwhile: three game hours into a big
game 100-140 ms (bench_memory; 320-400 ms while the radio ingest's table of
frames heard held 90,000 objects of its own, now plain tuples it does not
track, radio/ingest.py).  So the timer runs one at most every
:attr:`MainThreadCollector.FULL_EVERY_S`, and then once the mouse pointer has
rested :attr:`MainThreadCollector.QUIET_S` (no button held) and no key was
pressed and no wheel turned that long, so that the pause does not come while
the game master drags or zooms the map, clicks or types: at most
:attr:`MainThreadCollector.FULL_LATEST_S` after the last one (CPython itself
waits until the survivors of younger collections grew by a quarter, which
this timer cannot see); the younger generations, where most
garbage dies, are collected as the interpreter's thresholds say.  Keys and
the wheel are seen by an event filter on the application, there only while a
full collection waits and the pointer rests (every event of the window passes
through it then: a Python call each).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Slot
from PySide6.QtGui import QCursor, QGuiApplication

from controlroom.collecting import paused


class MainThreadCollector(QObject):
    """Collects garbage in the thread it lives in (the GUI's), every ``interval_ms`` when a generation is full."""

    #: The least time from one full collection to the next (s).
    FULL_EVERY_S = 600.0
    #: A full collection due waits until the pointer has not moved (and no button was held) this long (s) ...
    QUIET_S = 3.0
    #: ... but no longer than this from the last full collection (s).
    FULL_LATEST_S = 1800.0

    #: How often the timer looks (ms).  Between two looks every thread's new objects pile up in generation 0
    #: (the interpreter's own collection would have come after 700): at 200 frames a second, 250 ms of them
    #: took a collection of 18 ms (bench_map).  A look is a read of three counts.
    INTERVAL_MS = 50

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        self.collections = 0
        self.full_collections = 0
        self.full_every_s = self.FULL_EVERY_S
        self.quiet_s = self.QUIET_S
        self.full_latest_s = self.FULL_LATEST_S
        self.clock: Callable[[], float] = time.monotonic
        self.pointer: Callable[[], tuple] = pointer_state
        self._full_at = self.clock()
        self._pointer: tuple | None = None          # the pointer as last seen while a full collection waited
        self._still_since = self._full_at
        self._hands: HandsOnKeys | None = None      # keys and wheel, watched while a full collection waits
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    @Slot()
    def check(self) -> None:
        if paused():
            return                          # a game opening, a replay seeking, a report: collected after
        if gc.isenabled():
            gc.disable()                    # (turned on again by code that found it on: see above)
        c0, c1, c2 = gc.get_count()
        t0, t1, t2 = self.threshold
        now = self.clock()
        due = c2 > t2 and now - self._full_at >= self.full_every_s
        if not due:
            self._stop_watching_hands()     # (a full collection made elsewhere ended the wait)
        if due and self._quiet(now):
            generation = 2
        elif c1 > t1:
            generation = 1
        elif c0 > t0:
            generation = 0
        else:
            return
        gc.collect(generation)
        self.collections += 1
        if generation == 2:
            self.full_collections += 1
            self._full_at = now
            self._stop_watching_hands()

    def _quiet(self, now: float) -> bool:
        """Whether the game master has left the pointer, the keys and the wheel alone ``quiet_s`` (looked at
        only while a full collection waits), or the last full collection was ``full_latest_s`` ago."""
        late = now - self._full_at >= self.full_latest_s
        pointer = self.pointer()
        if pointer != self._pointer or pointer[-1]:
            self._pointer, self._still_since = pointer, now
            self._stop_watching_hands()     # keys and wheel are watched only while the pointer rests
            return late
        if self._hands is None:
            app = QCoreApplication.instance()
            if app is not None:
                # Keys before the watch are not known: counted from when the pointer came to rest if that
                # was lately (one look ago: the hand was on the mouse), else from now.
                lately = now - self._still_since < self.quiet_s
                self._hands = HandsOnKeys(self.clock, self._still_since if lately else now, self)
                app.installEventFilter(self._hands)
        still_since = max(self._still_since, self._hands.at if self._hands is not None else self._still_since)
        return now - still_since >= self.quiet_s or late

    def _stop_watching_hands(self) -> None:
        # Removed here, never from inside eventFilter (Qt would skip the next filter for that event).
        if self._hands is not None:
            app = QCoreApplication.instance()
            if app is not None:
                app.removeEventFilter(self._hands)
            self._hands.deleteLater()
            self._hands = None

    def stop(self) -> None:
        """Give the collection back to the interpreter."""
        self.timer.stop()
        self._stop_watching_hands()
        gc.enable()


class HandsOnKeys(QObject):
    """When a key was last pressed or released, or the wheel turned (zooming the map), in the application."""

    KINDS = frozenset({QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.Wheel})

    def __init__(self, clock: Callable[[], float], at: float, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.clock = clock
        self.at = at

    def eventFilter(self, obj, event) -> bool:
        if event.type() in self.KINDS:
            self.at = self.clock()
        return False


def pointer_state() -> tuple[int, int, bool]:
    """Where the mouse pointer is on the screen, and whether a button is held."""
    pos = QCursor.pos()
    return pos.x(), pos.y(), QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton
