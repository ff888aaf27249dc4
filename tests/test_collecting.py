"""controlroom.collecting: the cyclic collector paused around work that makes many long-lived objects."""

import gc
import threading

from controlroom.collecting import no_collection, paused


def test_pauses_that_overlap_in_two_threads_give_back_what_the_first_found():
    """A thread ending its pause while another is still paused does not turn collection on under it."""
    gc.enable()
    inside, release = threading.Event(), threading.Event()

    def other():
        with no_collection():
            inside.set()
            release.wait(5)

    try:
        with no_collection():
            assert not gc.isenabled() and paused()
            t = threading.Thread(target=other)
            t.start()
            assert inside.wait(5)
        assert not gc.isenabled() and paused()      # the other thread still folds: still off
        release.set()
        t.join(5)
        assert gc.isenabled() and not paused()
        gc.disable()
        with no_collection():
            pass
        assert not gc.isenabled()                   # off before: off after
    finally:
        release.set()
        gc.enable()


def test_the_windows_collector_waits_while_collection_is_paused(qtbot, monkeypatch):
    from controlroom.ui.collector import MainThreadCollector

    collector = MainThreadCollector(interval_ms=10_000)
    collected = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    monkeypatch.setattr(gc, "get_count", lambda: tuple(t + 1 for t in collector.threshold))
    try:
        with no_collection():
            collector.check()
            assert collected == []
        collector.check()
        assert collected == [1]
    finally:
        collector.stop()
