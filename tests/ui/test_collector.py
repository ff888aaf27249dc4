"""The cyclic garbage collector runs in the GUI thread only (see controlroom/ui/collector.py)."""

import gc
import threading

from PySide6.QtWidgets import QWidget

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
