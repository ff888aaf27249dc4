"""The core's wiring, in real QThreads: commands in, facts out, timers, shutdown.

What the engine decides is tested without threads (tests/engine); these
tests prove that the core carries it: a command reaches the engine, the
storage thread stores the batch, the facts come back in the window's thread,
the precise timer fires a deadline, the silence timer runs, and shutdown
stores what waits.
"""

import sys
import threading

import pytest

from controlroom.core.facts import FACTS
from controlroom.core.thread import CoreThread
from controlroom.engine.commands import CallStopp, LiftStopp, Submit
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.radio.link import FrameHeard
from controlroom.store.game import GameStore

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(3, "Carl", "North", "Wolves", "healer"), Member(11, "Gerd", "South", "Ravens")]


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "core.crgame"
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
    return str(path)


@pytest.fixture
def core(qtbot, game):
    clock = VirtualClock(0)
    ct = CoreThread(game, clock, publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    ct.clock = clock
    yield ct
    assert ct.shutdown(), "the core thread did not stop"


def stored_events(path):
    with GameStore.open(path, create=False) as store:
        return [e for _, e in store.log.events()]


def test_every_fact_is_mirrored_in_the_window_thread(qtbot, core):
    assert all(hasattr(core, name) and hasattr(core.worker, name) for name, _a, _d in FACTS)
    seen = []
    core.stopp_called.connect(lambda _sv: seen.append(threading.current_thread()))
    with qtbot.waitSignal(core.stopp_called, timeout=5000):
        core.send(CallStopp("danger"))
    assert seen == [threading.main_thread()]


def test_a_command_is_stored_and_comes_back_as_a_delta(qtbot, core, game):
    with qtbot.waitSignal(core.delta_published, timeout=5000,
                          check_params_cb=lambda d: any(c.badge == 1 for c in d.characters)) as blocker:
        core.send(Submit("down", {"badge": 1}, "marshal:7"))
    (aldo,) = [c for c in blocker.args[0].characters if c.badge == 1]
    assert aldo.condition == "unconscious"
    assert [e.type for e in stored_events(game)] == ["down"]
    with pytest.raises(TypeError):
        core.send(("down", {"badge": 1}))             # only the engine's typed commands


def test_the_precise_timer_fires_a_deadline_in_real_time(qtbot, game):
    from controlroom.game.clock import WallClock

    ct = CoreThread(game, WallClock(0, speed=600.0), publish_interval_ms=20)   # ten game minutes in a second
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    try:
        with qtbot.waitSignal(ct.characters_died, timeout=10_000) as died:
            ct.submit("down", {"badge": 2}, "marshal:7")
        assert [c.badge for c in died.args[0]] == [2]
    finally:
        assert ct.shutdown()
    (death,) = [e for e in stored_events(game) if e.type == "died"]
    assert death.source == "timer"


def test_heard_frames_reach_the_engine_from_any_thread(qtbot, tmp_path):
    from controlroom.radio import codec
    from controlroom.store.devices import register_device

    path = tmp_path / "heard.crgame"
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        key = register_device(store, 7, "marshal", "M7").key
    sent = []
    ct = CoreThread(str(path), VirtualClock(0), acks=sent.append, publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    try:
        frames = [codec.encode_casualty(key, 7, n, 1, "down") for n in range(1, 21)]
        feeder = threading.Thread(target=lambda: [ct.heard.put(FrameHeard("gw", 1, -90, 7.0, f)) for f in frames])
        feeder.start()
        feeder.join()
        qtbot.waitUntil(lambda: len(sent) == 20, timeout=10_000)      # every one acknowledged once stored
    finally:
        assert ct.shutdown()
    assert sum(1 for e in stored_events(path) if e.type == "down") == 20


def test_a_publish_sends_what_was_heard_to_storage_before_it_builds_the_delta(qtbot, tmp_path):
    """A report heard just before the delta is built does not wait for it: its batch is on its way first."""
    from PySide6.QtCore import Qt, QTimer

    from controlroom.radio import codec
    from controlroom.store.devices import register_device

    path = tmp_path / "first.crgame"
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        key = register_device(store, 7, "marshal", "M7").key
    sent, order, done = [], [], threading.Event()
    ct = CoreThread(str(path), VirtualClock(0), acks=sent.append, publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    worker = ct.worker
    worker._append_requested.connect(lambda *_a: order.append("batch"), Qt.DirectConnection)
    worker.delta_published.connect(lambda *_a: order.append("delta"), Qt.DirectConnection)

    def in_the_core_thread():           # heard, and the publish timer's turn comes before the take's
        ct.heard.put(FrameHeard("gw", 1, -90, 7.0, codec.encode_casualty(key, 7, 1, 1, "down")))
        worker._publish()
        done.set()

    try:
        QTimer.singleShot(0, worker, in_the_core_thread)
        qtbot.waitUntil(done.is_set, timeout=5000)
        qtbot.waitUntil(lambda: len(sent) == 1, timeout=10_000)
    finally:
        assert ct.shutdown()
    assert order[:2] == ["batch", "delta"]


def test_shutdown_with_events_in_flight_loses_none(qtbot, game):
    ct = CoreThread(game, VirtualClock(0))
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    for i in range(1000):
        ct.submit("note", {"text": f"report {i}"}, "gm")
    assert ct.shutdown()
    notes = [e.data["text"] for e in stored_events(game) if e.type == "note"]
    assert notes == [f"report {i}" for i in range(1000)]
    assert ct.stats["health"]["unstored"] == 0


def test_the_silence_timer_raises_the_alarm(qtbot, game):
    clock = VirtualClock(0)
    ct = CoreThread(game, clock, marshal_silence_ms=1000)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    with qtbot.waitSignal(ct.events_stored, timeout=5000):
        ct.submit("note", {"text": "all quiet"}, "marshal:9")
    clock.advance_to(5000)
    with qtbot.waitSignal(ct.alarm_raised, timeout=5000,
                          check_params_cb=lambda a: a.kind == "marshal_silent") as blocker:
        pass
    assert "marshal:9" in blocker.args[0].message
    assert ct.shutdown()


def test_bad_input_is_said_by_input_rejected(qtbot, core):
    with qtbot.waitSignal(core.input_rejected, timeout=5000) as blocker:
        core.submit("down", {}, "marshal:7")
    assert "missing field 'badge'" in blocker.args[0]


def test_many_queued_commands_keep_the_refcount_of_true(qtbot, core):
    # PySide6 6.12.0 on CPython 3.11 drops a reference to True on every emit and
    # aborts after a few hundred.  Each of these commands holds True until it is
    # stored and published; after that the count must be back where it was, but
    # for the recent events the fold keeps to fold again from its checkpoints
    # (within the few hundred references other objects come and go with).
    before = sys.getrefcount(True)
    for _ in range(100_000):
        core.send(LiftStopp("none", True))
    worker = core.worker

    def held() -> int:
        return sum(1 for e in worker.fold.entries if e.event.data.get("trivial") is True)

    qtbot.waitUntil(lambda: worker.state.events_applied >= 100_000 and not worker.engine.batcher.busy
                    and not worker.engine.publisher.stored and abs(sys.getrefcount(True) - before - held()) < 1000,
                    timeout=60_000)
    assert held() < 40_000


def test_a_game_that_cannot_be_opened_says_so_and_stops(qtbot, tmp_path):
    bad = tmp_path / "not-a-game.crgame"
    bad.write_bytes(b"this is no game file" * 100)
    ct = CoreThread(str(bad), VirtualClock(0))
    with qtbot.waitSignal(ct.alarm_raised, timeout=10_000) as alarm, qtbot.waitSignal(ct.stopped, timeout=10_000):
        ct.start()
    assert alarm.args[0].id == "storage:open"
    assert ct.shutdown()
