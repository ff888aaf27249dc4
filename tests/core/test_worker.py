"""The core worker in a real QThread: events in, deltas out, timers, shutdown, corrections."""

import sys

import pytest

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
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


def test_event_in_delta_out(qtbot, core, game):
    with qtbot.waitSignal(core.delta_published, timeout=5000,
                          check_params_cb=lambda d: any(c.badge == 1 for c in d.characters)) as blocker:
        core.submit_requested.emit("down", {"badge": 1}, "marshal:7")
    delta = blocker.args[0]
    (aldo,) = [c for c in delta.characters if c.badge == 1]
    assert aldo.condition == "unconscious" and aldo.deadlines[0].kind == "dies"
    assert delta.sides["North"]["unconscious"] == 1
    qtbot.waitUntil(lambda: any(e.type == "down" for e in stored_events(game)), timeout=5000)


def test_deadline_fires_on_time_with_a_virtual_clock(qtbot, core, game):
    with qtbot.waitSignal(core.events_stored, timeout=5000):
        core.submit_requested.emit("down", {"badge": 2}, "marshal:7")
    core.clock.advance_to(599_999)
    with qtbot.assertNotEmitted(core.characters_died, wait=100):
        core.poll_requested.emit()
    core.clock.advance_to(600_000)
    with qtbot.waitSignal(core.characters_died, timeout=5000) as blocker:
        core.poll_requested.emit()
    (died_view,) = blocker.args[0]
    assert died_view.badge == 2 and died_view.condition == "dead"
    qtbot.waitUntil(lambda: any(e.type == "died" for e in stored_events(game)), timeout=5000)
    (died,) = [e for e in stored_events(game) if e.type == "died"]
    assert died.t == 600_000 and died.source == "timer" and died.data["cause"] == "bled_out"


def test_a_delta_carries_only_the_positions_that_changed_and_the_window_keeps_them_all(qtbot, core):
    from controlroom.game.views import merge_field

    kept = {}
    core.delta_published.connect(lambda d: merge_field(kept, d.field))
    for device, lat in ((501, 58.1), (502, 58.2)):
        with qtbot.waitSignal(core.delta_published, timeout=5000,
                              check_params_cb=lambda d, s=f"tracker:{device}": s in d.field.get("positions", {})):
            core.submit_requested.emit("position", {"device": device, "lat": lat, "lon": 26.7, "fix": 1},
                                       f"tracker:{device}")
    with qtbot.waitSignal(core.delta_published, timeout=5000,
                          check_params_cb=lambda d: "tracker:501" in d.field.get("positions", {})) as blocker:
        core.submit_requested.emit("position", {"device": 501, "lat": 58.3, "lon": 26.7, "fix": 1}, "tracker:501")
    field = blocker.args[0].field
    assert field["partial"] and set(field["positions"]) == {"tracker:501"}       # 502 did not move: not sent
    qtbot.wait(100)
    assert {s: p[1] for s, p in kept["positions"].items()} == {"tracker:501": 58.3, "tracker:502": 58.2}


def test_deaths_falling_due_together_come_in_one_signal(qtbot, core, game):
    for badge in (1, 2, 11):
        with qtbot.waitSignal(core.events_stored, timeout=5000):
            core.submit_requested.emit("down", {"badge": badge}, "marshal:7")
    seen = []
    core.characters_died.connect(seen.append)
    core.clock.advance_to(600_000)
    core.poll_requested.emit()
    qtbot.waitUntil(lambda: len(seen) > 0, timeout=5000)
    qtbot.wait(100)
    assert len(seen) == 1 and sorted(c.badge for c in seen[0]) == [1, 2, 11]
    assert all(c.condition == "dead" for c in seen[0])


def test_stopp_is_announced_at_once(qtbot, core):
    with qtbot.waitSignal(core.alarm_raised, timeout=5000) as alarm, \
            qtbot.waitSignal(core.stopp_called, timeout=5000) as called:
        core.global_stopp_requested.emit("injury")
    stopp = called.args[0]
    assert stopp.id == "GM1" and stopp.reason == "injury" and stopp.covered == 4
    # Called for an injury: a safety alarm of its own kind, under the STOPP's id (the map flashes it till acknowledged).
    assert alarm.args[0].kind == "injury" and alarm.args[0].cls == "safety" and alarm.args[0].id == "stopp:GM1"


def test_a_marshal_stopp_for_an_injury_raises_an_injury_alarm(qtbot, core, game):
    """Event in (a marshal's STOPP for an injury, with its caller) -> one safety alarm of kind injury out."""
    raised = []
    core.alarm_raised.connect(raised.append)
    with qtbot.waitSignal(core.alarm_raised, timeout=5000) as alarm:
        core.submit_requested.emit("stopp_called", {"stopp": "7-1", "reason": "injury", "caller": 2,
                                                    "groups": ["Wolves"]}, "marshal:7")
    a = alarm.args[0]
    assert (a.kind, a.cls, a.id) == ("injury", "safety", "stopp:7-1")
    assert "injury" in a.message and "Birgit (badge 2, Wolves)" in a.message and "Wolves" in a.message
    # Stored before it was announced, and announced once (no second "stopp" row for the same STOPP).
    assert any(e.type == "stopp_called" and e.data["reason"] == "injury" for e in stored_events(game))
    qtbot.wait(200)
    assert [x.id for x in raised] == ["stopp:7-1"]


def test_a_stopp_for_danger_stays_a_stopp_alarm(qtbot, core):
    with qtbot.waitSignal(core.alarm_raised, timeout=5000) as alarm:
        core.submit_requested.emit("stopp_called", {"stopp": "7-2", "reason": "danger"}, "marshal:7")
    assert (alarm.args[0].kind, alarm.args[0].cls) == ("stopp", "safety")


def test_shutdown_with_events_in_flight_loses_none(qtbot, game):
    clock = VirtualClock(0)
    ct = CoreThread(game, clock)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    for i in range(1000):
        ct.submit_requested.emit("note", {"text": f"report {i}"}, "gm")
    assert ct.shutdown()
    notes = [e.data["text"] for e in stored_events(game) if e.type == "note"]
    assert notes == [f"report {i}" for i in range(1000)]


def test_restart_from_the_log_resumes_the_same_countdowns(qtbot, game):
    clock = VirtualClock(0)
    ct = CoreThread(game, clock)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    for t, type_, fields in ((60_000, "down", {"badge": 1}),
                             (120_000, "stopp_called", {"stopp": "S1", "groups": ["Wolves"]}),
                             (180_000, "stopp_lifted", {"stopp": "S1"})):
        clock.advance_to(t)
        with qtbot.waitSignal(ct.events_stored, timeout=5000):
            ct.submit_requested.emit(type_, fields, "marshal:7")
    assert ct.shutdown()
    # Closed for a while; the game clock went on to 05:00.
    clock2 = VirtualClock(300_000)
    ct2 = CoreThread(game, clock2)
    with qtbot.waitSignal(ct2.loaded, timeout=10_000) as blocker:
        ct2.start()
    (aldo,) = [c for c in blocker.args[0].characters if c.badge == 1]
    assert [(d.kind, d.due) for d in aldo.deadlines] == [("dies", 60_000 + 600_000 + 60_000)]
    clock2.advance_to(720_000)
    with qtbot.waitSignal(ct2.characters_died, timeout=5000):
        ct2.poll_requested.emit()
    assert ct2.shutdown()


def test_deadlines_that_fell_due_while_closed_fire_at_their_own_time(qtbot, game):
    clock = VirtualClock(0)
    ct = CoreThread(game, clock)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    with qtbot.waitSignal(ct.events_stored, timeout=5000):
        ct.submit_requested.emit("down", {"badge": 11}, "marshal:7")
    assert ct.shutdown()
    ct2 = CoreThread(game, VirtualClock(3_600_000))
    with qtbot.waitSignal(ct2.characters_died, timeout=10_000):
        ct2.start()
    assert ct2.shutdown()
    (died,) = [e for e in stored_events(game) if e.type == "died"]
    assert died.t == 600_000


def test_a_correction_leaves_the_wrong_report_out(qtbot, core, game):
    with qtbot.waitSignal(core.events_stored, timeout=5000) as blocker:
        core.submit_requested.emit("down", {"badge": 1}, "marshal:7")
    seq = blocker.args[0]
    with qtbot.waitSignal(core.delta_published, timeout=5000,
                          check_params_cb=lambda d: any(c.badge == 1 and c.condition == "active"
                                                        for c in d.characters)):
        core.retract_requested.emit(seq, "wrong badge")
    types = [e.type for e in stored_events(game)]
    assert types == ["down", "retracted"]          # nothing edited, a new event added
    with GameStore.open(game, create=False) as store:
        state, _ = store.load_state()
    assert state.characters[1].condition == "active" and state.retractions[0][1:] == (seq, "wrong badge")


def test_bad_input_is_rejected_with_a_message(qtbot, core):
    with qtbot.waitSignal(core.input_rejected, timeout=5000) as blocker:
        core.submit_requested.emit("down", {}, "marshal:7")
    assert "missing field 'badge'" in blocker.args[0]


def test_silent_marshal_raises_an_alarm(qtbot, game):
    clock = VirtualClock(0)
    ct = CoreThread(game, clock, marshal_silence_ms=1000)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    with qtbot.waitSignal(ct.events_stored, timeout=5000):
        ct.submit_requested.emit("note", {"text": "all quiet"}, "marshal:9")
    clock.advance_to(5000)
    with qtbot.waitSignal(ct.alarm_raised, timeout=5000,
                          check_params_cb=lambda a: a.kind == "marshal_silent") as blocker:
        pass
    assert "marshal:9" in blocker.args[0].message
    assert ct.shutdown()


def test_many_queued_bool_signals_keep_the_refcount_of_true(qtbot, core):
    # PySide6 6.12.0 on CPython 3.11 drops a reference to True on every emit and
    # aborts after a few hundred.  Each of these events holds True until it is
    # stored and published; after that the count must be back where it was, but
    # for the recent events the fold keeps to fold again from its checkpoints
    # (within the few hundred references other objects come and go with).
    before = sys.getrefcount(True)
    for _ in range(100_000):
        core.stopp_lift_requested.emit("none", True)
    worker = core.worker

    def held() -> int:
        return sum(1 for e in worker.fold.entries if e.event.data.get("trivial") is True)

    qtbot.waitUntil(lambda: worker.state.events_applied >= 100_000 and not worker._in_flight
                    and not worker._stored and abs(sys.getrefcount(True) - before - held()) < 1000, timeout=60_000)
    assert held() < 40_000


def test_acknowledging_an_alarm_is_stored_as_an_event(qtbot, core, game):
    with qtbot.waitSignal(core.alarm_raised, timeout=5000) as alarm:
        core.global_stopp_requested.emit("injury")
    core.acknowledge_requested.emit(alarm.args[0].id)

    def acks():
        return [(e.data["alarm"], e.source) for e in stored_events(game) if e.type == "alarm_acknowledged"]

    qtbot.waitUntil(lambda: acks() == [("stopp:GM1", "gm")], timeout=5000)


def test_a_reopened_game_brings_its_last_events_for_the_timeline(qtbot, game):
    with GameStore.open(game) as store:
        from controlroom.game.events import make_event

        store.log.append([make_event(1000 * i, "note", "gm", text=f"n{i}") for i in range(5)])
    ct = CoreThread(game, VirtualClock(10_000))
    with qtbot.waitSignal(ct.loaded, timeout=10_000) as blocker:
        ct.start()
    assert [v.event.data["text"] for v in blocker.args[0].events] == [f"n{i}" for i in range(5)]
    assert ct.shutdown()


def test_a_retried_down_heard_after_the_same_marshals_bound_gives_the_fields_outcome(qtbot, tmp_path):
    """Through the radio path: counter 2 ("down") lost on the air, counter 3 ("bound") heard, then the retry of 2.

    The fold puts the down before the bind (the marshal's counter says it happened first): Aldo ends bound
    and healing, as on the field, with no rule warning, and the stored log folds to the same game."""
    from controlroom.radio import codec
    from controlroom.store.devices import register_device

    path = tmp_path / "late.crgame"
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        key = register_device(store, 7, "marshal", "M7").key
    clock = VirtualClock(0)
    core = CoreThread(str(path), clock, publish_interval_ms=20)
    deltas = []
    core.delta_published.connect(deltas.append)
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        for at, _counter, frame in ((60_000, 1, codec.encode_casualty(key, 7, 1, 1, "knocked_out")),
                                    (120_000, 3, codec.encode_casualty(key, 7, 3, 1, "bound")),
                                    (125_000, 2, codec.encode_casualty(key, 7, 2, 1, "down"))):
            clock.advance_to(at)
            with qtbot.waitSignal(core.events_stored, timeout=5000):
                core.frame_heard.emit(1, -90, 7.5, frame)
        clock.advance_to(130_000)
        with qtbot.waitSignal(core.delta_published, timeout=5000,
                              check_params_cb=lambda d: any(c.badge == 1 for c in d.characters)) as blocker:
            core.poll_requested.emit()
    finally:
        assert core.shutdown()
    (aldo,) = [c for c in blocker.args[0].characters if c.badge == 1]
    assert aldo.condition != "dead" and not any(d.kind == "dies" for d in aldo.deadlines), aldo
    warnings = [w for d in deltas for w in d.warnings]
    assert warnings == [], [w.message for w in warnings]
    with GameStore.open(path, create=False) as store:
        order = [(e.type, e.data.get("badge")) for _, e in store.log.events()]
    assert order[:3] == [("knocked_out", 1), ("down", 1), ("bound", 1)], order


def test_global_stopps_called_in_a_burst_each_get_their_own_number(qtbot, core, game):
    # One called while the previous was between the inbox and the fold took its number again (GM1 twice).
    for _ in range(5):
        core.global_stopp_requested.emit("danger")
    qtbot.waitUntil(lambda: len([e for e in stored_events(game) if e.type == "stopp_called"]) == 5, timeout=5000)
    assert [e.data["stopp"] for e in stored_events(game) if e.type == "stopp_called"] == [f"GM{i}" for i in range(1, 6)]


def test_a_game_masters_stopp_number_is_never_given_twice(qtbot, game):
    """Numbers come from the game's own count (raised in one statement): after a STOPP retracted and a
    restart, and with another station of the game having called some, the next number is a new one."""
    from controlroom.core.worker import GM_STOPP_KEY

    def called():
        return [e.data["stopp"] for e in stored_events(game) if e.type == "stopp_called"]

    ct = CoreThread(game, VirtualClock(0), publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    try:
        for _ in range(2):
            ct.global_stopp_requested.emit("danger")
        qtbot.waitUntil(lambda: called() == ["GM1", "GM2"], timeout=5000)
        with GameStore.open(game, create=False) as store:
            (seq,) = [s for s, e in store.log.events() if e.type == "stopp_called" and e.data["stopp"] == "GM2"]
        ct.retract_requested.emit(seq, "called by mistake")
        qtbot.waitUntil(lambda: any(e.type == "retracted" for e in stored_events(game)), timeout=5000)
    finally:
        assert ct.shutdown()
    with GameStore.open(game, create=False) as store:    # another station of the game called GM3 and GM4
        assert store.reserve_block(GM_STOPP_KEY, 2) == 4
    ct = CoreThread(game, VirtualClock(0), publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    try:
        ct.global_stopp_requested.emit("injury")
        qtbot.waitUntil(lambda: len(called()) == 3, timeout=5000)
    finally:
        assert ct.shutdown()
    assert called() == ["GM1", "GM2", "GM5"]


def test_the_health_says_how_many_reports_are_on_their_way_to_the_store(qtbot, game):
    """``waiting`` counts a report from its arrival until its batch is committed: 0 only once all are stored,
    also while the inbox has been taken into a batch not yet stored (what bench_multistation waits for)."""
    from controlroom.core.worker import CoreWorker

    worker = CoreWorker(game, VirtualClock(0))
    worker.start()                  # in this thread: its queued signals come back here
    try:
        assert worker.stats()["health"]["waiting"] == 0
        for i in range(3):
            worker.submit("note", {"text": f"note {i}"}, "gm")
        assert worker.stats()["health"]["waiting"] == 3
        worker._tick()              # the batch made and sent to the storage thread: not stored yet
        assert not worker._inbox and worker._in_flight is not None
        assert worker.stats()["health"]["waiting"] == 3
        qtbot.waitUntil(lambda: worker.stats()["health"]["waiting"] == 0, timeout=10_000)
        assert worker._in_flight is None
        assert [e.data["text"] for e in stored_events(game) if e.type == "note"] == ["note 0", "note 1", "note 2"]
    finally:
        worker.stop()
