"""The cyclic garbage collector runs in the GUI thread only (see controlroom/ui/collector.py)."""

import gc
import threading

from PySide6.QtWidgets import QWidget

from controlroom.ui import collector as collector_module
from controlroom.ui.collector import MainThreadCollector


def test_garbage_widgets_are_collected_by_the_gui_threads_timer_not_by_a_worker(qtbot):
    collector = MainThreadCollector(interval_ms=20)
    try:
        assert not gc.isenabled()
        destroyed_in = []

        class Cyclic(QWidget):
            pass

        for _ in range(50):
            w = Cyclic()
            w.me = w                                  # a reference cycle: only the cyclic collector frees it
            w.destroyed.connect(lambda *_: destroyed_in.append(threading.current_thread()))
        del w

        kept = []

        def worker():                                 # a worker allocating plenty must not collect them
            kept.extend([i] for i in range(200_000))  # (kept: the generation stays over its threshold)
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert destroyed_in == []
        qtbot.waitUntil(lambda: len(destroyed_in) == 50, timeout=5000)
        assert set(destroyed_in) == {threading.main_thread()}
        assert collector.collections >= 1
    finally:
        collector.stop()
    assert gc.isenabled()


def test_a_full_collection_at_most_every_so_often_and_the_collector_kept_off(qtbot, monkeypatch):
    """Generation 2 (every object the process holds: 100-140 ms for a big game) is collected at most every
    full_every_s; the younger ones as their thresholds say. Code that turns automatic collection on again
    (a thread that found it on) finds it off at the next tick."""
    collector = MainThreadCollector(interval_ms=10_000)
    collected = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    try:
        over = tuple(t + 1 for t in collector.threshold)
        monkeypatch.setattr(gc, "get_count", lambda: over)
        collector.full_every_s = 3600.0
        collector.check()
        assert collected == [1]                      # generation 2 is due by count, not yet by time
        collector._full_at -= 3600.0
        collector.check()
        collector.check()
        assert collected == [1, 2, 1] and collector.full_collections == 1
        monkeypatch.setattr(gc, "get_count", lambda: (collector.threshold[0] + 1, 0, 0))
        collector.check()
        assert collected == [1, 2, 1, 0]
        monkeypatch.setattr(gc, "get_count", lambda: (0, 0, 0))
        gc.enable()
        collector.check()
        assert collected == [1, 2, 1, 0] and not gc.isenabled()
    finally:
        collector.stop()
    assert gc.isenabled()


class Driven:
    """A collector on a clock and a pointer of the test's own, every generation over its threshold, and what
    it collected; ``tick`` moves the clock (and the pointer) and lets it look once."""

    def __init__(self, monkeypatch) -> None:
        self.collector = MainThreadCollector(interval_ms=10_000)
        self.collected: list[int] = []
        monkeypatch.setattr(gc, "collect", lambda generation=2: self.collected.append(generation) or 0)
        self.now = 0.0
        self.at = (100, 100, False)
        self.collector.clock = lambda: self.now
        self.collector.pointer = lambda: self.at
        self.collector._full_at = 0.0
        self.counts = tuple(t + 1 for t in self.collector.threshold)
        monkeypatch.setattr(gc, "get_count", lambda: self.counts)

    def tick(self, seconds: float, at: tuple | None = None) -> int:
        self.now += seconds
        if at is not None:
            self.at = at
        self.collector.check()
        return self.collected[-1]


def test_a_full_collection_waits_for_the_pointer_to_rest_but_not_for_ever(qtbot, monkeypatch):
    """A full collection due (its count, full_every_s) waits until the game master has left the mouse alone
    quiet_s (not moved, no button held), so that its pause does not come in a drag of the map; never longer
    than full_latest_s from the last one. The younger generations do not wait."""
    x, y, held = collector_module.pointer_state()            # the real pointer (offscreen: somewhere, at rest)
    assert isinstance(x, int) and isinstance(y, int) and held is False
    driven = Driven(monkeypatch)
    collector, tick = driven.collector, driven.tick
    try:
        assert tick(collector.full_every_s) == 1            # due: the pointer first seen, not yet rested
        assert tick(1.0, (120, 100, False)) == 1           # moved
        assert tick(2.5) == 1                              # still 2.5 s
        assert tick(1.0, (120, 100, True)) == 1            # a button held (a drag begins where it rested)
        assert tick(2.0, (120, 100, False)) == 1           # released 2 s ago... (seen now)
        assert tick(2.0) == 1
        assert tick(1.5) == 2 and collector.full_collections == 1       # rested 3.5 s: collected
        full_at = driven.now
        assert tick(1.0) == 1                              # and not again until full_every_s
        # A game master who never lets go of the mouse still gets one every full_latest_s.
        x = 0
        while driven.now + 1.0 - full_at < collector.full_latest_s:
            x += 1
            assert tick(1.0, (x, 0, False)) == 1
        assert tick(1.0, (x + 1, 0, False)) == 2 and collector.full_collections == 2
    finally:
        collector.stop()


def test_a_full_collection_waits_for_the_keys_and_the_wheel_to_rest_too(qtbot, monkeypatch):
    """Typing an entry or zooming the map with the wheel leaves the pointer where it is: a full collection
    due waits for them too. They are watched (an event filter on the application: a Python call an event)
    only while one waits and the pointer rests; a collection made elsewhere ends the watch too."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QLineEdit

    field = QLineEdit()
    qtbot.addWidget(field)
    field.show()
    driven = Driven(monkeypatch)
    collector, tick = driven.collector, driven.tick
    try:
        assert tick(collector.full_every_s) == 1 and collector._hands is None    # the pointer first seen
        assert tick(0.5) == 1 and collector._hands is not None                  # it rests: keys watched
        QTest.keyClicks(field, "12 down")                        # a marshal's report typed in, at once
        assert field.text() == "12 down"                         # (the filter only looks)
        assert tick(2.0) == 1                                    # typed 2 s ago
        assert tick(0.1, (101, 100, False)) == 1 and collector._hands is None  # the pointer moves: not watched
        assert tick(0.1) == 1 and collector._hands is not None
        wheel = QWheelEvent(QPointF(5, 5), QPointF(field.mapToGlobal(QPoint(5, 5))), QPoint(), QPoint(0, 120),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        QApplication.sendEvent(field, wheel)                     # zoomed now
        assert tick(2.9) == 1
        assert tick(0.2) == 2 and collector.full_collections == 1   # pointer, keys and wheel rested 3.1 s
        assert collector._hands is None                          # and no longer watched
        collector._full_at -= collector.full_every_s             # due again, and watched again ...
        assert tick(0.1) == 1 and tick(0.1) == 1 and collector._hands is not None
        driven.counts = (0, 0, 0)                                # ... until a collection made elsewhere
        collector.check()
        assert collector._hands is None
    finally:
        collector.stop()
    assert collector._hands is None


def test_a_window_built_on_an_application_of_its_own_collects_in_its_thread(qtbot, tmp_path):
    """build_window gives the application its collector when the caller made the application (a test's, a
    benchmark's), as ``application()`` does: what is measured is what runs."""
    from PySide6.QtWidgets import QApplication

    from controlroom.core.thread import CoreThread
    from controlroom.ui.app import build_window

    app = QApplication.instance()
    for old in app.findChildren(MainThreadCollector):
        old.stop()
        old.setParent(None)
    core = CoreThread(str(tmp_path / "g.crgame"))
    window = build_window(core)
    qtbot.addWidget(window)
    try:
        assert len(app.findChildren(MainThreadCollector)) == 1 and not gc.isenabled()
    finally:
        for c in app.findChildren(MainThreadCollector):
            c.stop()
            c.setParent(None)
