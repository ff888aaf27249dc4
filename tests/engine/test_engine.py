"""The engine alone, on a real game file: reports in, stored, folded, answered and announced; no thread, no wait."""

import pytest

from controlroom.engine import commands as cmds
from controlroom.engine.authority import STANDBY
from controlroom.engine.engine import GM_STOPP_KEY
from controlroom.game.clock import VirtualClock
from controlroom.game.events import make_event
from controlroom.game.views import merge_field
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, new_game


@pytest.fixture
def game(tmp_path):
    return new_game(tmp_path / "engine.crgame")


@pytest.fixture
def pump(game):
    p = Pump(game)
    yield p
    p.close()


def stored_events(path):
    with GameStore.open(path, create=False) as store:
        return [e for _, e in store.log.events()]


def test_a_report_is_stored_then_folded_then_in_the_delta(pump, game):
    out = pump.submit("down", {"badge": 1}, "marshal:7")
    assert out.stored == 1 and out.publish
    assert [e.type for e in stored_events(game)] == ["down"]
    delta = pump.delta()
    (aldo,) = [c for c in delta.characters if c.badge == 1]
    assert aldo.condition == "unconscious" and aldo.deadlines[0].kind == "dies"
    assert delta.sides["North"]["unconscious"] == 1
    assert [v.event.type for v in delta.events] == ["down"]


def test_nothing_is_folded_before_it_is_stored(pump):
    pump.engine.command(cmds.Submit("down", {"badge": 1}, "marshal:7"))
    batch = pump.engine.next_batch()
    assert batch is not None and pump.state.characters[1].condition == "active"
    assert pump.engine.next_batch() is None             # one batch in flight at a time
    pump.engine.committed(batch.id, pump.writer.write(batch.items))
    assert pump.state.characters[1].condition == "unconscious"


def test_a_deadline_fires_on_time(pump, game):
    pump.submit("down", {"badge": 2}, "marshal:7")
    assert not pump.at(599_999).died
    out = pump.at(600_000)
    assert [(c.badge, c.condition) for c in out.died] == [(2, "dead")]
    (died,) = [e for e in stored_events(game) if e.type == "died"]
    assert died.t == 600_000 and died.source == "timer" and died.data["cause"] == "bled_out"
    assert pump.engine.stats()["health"]["fired"] == 1


def test_deaths_falling_due_together_come_in_one_output(pump):
    for badge in (1, 2, 11):
        pump.submit("down", {"badge": badge}, "marshal:7")
    out = pump.at(600_000)
    assert sorted(c.badge for c in out.died) == [1, 2, 11] and all(c.condition == "dead" for c in out.died)


def test_a_delta_carries_only_the_positions_that_changed(pump):
    kept: dict = {}
    merge_field(kept, pump.first.field)
    for device, lat in ((501, 58.1), (502, 58.2)):
        pump.submit("position", {"device": device, "lat": lat, "lon": 26.7, "fix": 1}, f"tracker:{device}")
    merge_field(kept, pump.delta().field)
    pump.submit("position", {"device": 501, "lat": 58.3, "lon": 26.7, "fix": 1}, "tracker:501")
    field = pump.delta().field
    assert field["partial"] and set(field["positions"]) == {"tracker:501"}       # 502 did not move: not sent
    merge_field(kept, field)
    assert {s: p[1] for s, p in kept["positions"].items()} == {"tracker:501": 58.3, "tracker:502": 58.2}


def test_a_game_masters_stopp_is_announced_once_stored(pump, game):
    out = pump.send(cmds.CallStopp("injury"))
    (stopp,) = out.stopps
    assert stopp.id == "GM1" and stopp.reason == "injury" and stopp.covered == 4
    (alarm,) = out.alarms
    # Called for an injury: a safety alarm of its own kind, under the STOPP's id (the map flashes it till acknowledged).
    assert (alarm.kind, alarm.cls, alarm.id) == ("injury", "safety", "stopp:GM1")
    assert [e.type for e in stored_events(game)] == ["stopp_called"]


def test_a_marshals_stopp_for_an_injury_names_its_caller_and_place(pump):
    out = pump.submit("stopp_called", {"stopp": "7-1", "reason": "injury", "caller": 2, "groups": ["Wolves"]},
                      "marshal:7")
    (a,) = out.alarms
    assert (a.kind, a.cls, a.id) == ("injury", "safety", "stopp:7-1")
    assert "injury" in a.message and "Birgit (badge 2, Wolves)" in a.message and "Wolves" in a.message
    out = pump.submit("stopp_called", {"stopp": "7-2", "reason": "danger"}, "marshal:7")
    assert [(a.kind, a.cls) for a in out.alarms] == [("stopp", "safety")]


def test_reopened_the_same_countdowns_resume(game):
    clock = VirtualClock(0)
    pump = Pump(game, clock)
    for t, type_, fields in ((60_000, "down", {"badge": 1}),
                             (120_000, "stopp_called", {"stopp": "S1", "groups": ["Wolves"]}),
                             (180_000, "stopp_lifted", {"stopp": "S1"})):
        clock.advance_to(t)
        pump.submit(type_, fields, "marshal:7")
    pump.close()
    again = Pump(game, VirtualClock(300_000))      # closed for a while; the game clock went on to 05:00
    (aldo,) = [c for c in again.first.characters if c.badge == 1]
    assert [(d.kind, d.due) for d in aldo.deadlines] == [("dies", 60_000 + 600_000 + 60_000)]
    assert [c.badge for c in again.at(720_000).died] == [1]
    again.close()


def test_deadlines_that_fell_due_while_closed_fire_at_their_own_time(game):
    pump = Pump(game)
    pump.submit("down", {"badge": 11}, "marshal:7")
    pump.close()
    again = Pump(game, VirtualClock(3_600_000))
    assert [c.badge for c in again.settle().died] == [11]
    again.close()
    (died,) = [e for e in stored_events(game) if e.type == "died"]
    assert died.t == 600_000


def test_a_correction_leaves_the_wrong_report_out(pump, game):
    seq = pump.submit("down", {"badge": 1}, "marshal:7").stored
    pump.send(cmds.Retract(seq, "wrong badge"))
    assert pump.state.characters[1].condition == "active"
    assert [e.type for e in stored_events(game)] == ["down", "retracted"]      # nothing edited, a new event added
    with GameStore.open(game, create=False) as store:
        state, _ = store.load_state()
    assert state.characters[1].condition == "active" and state.retractions[0][1:] == (seq, "wrong badge")


def test_bad_input_is_rejected_with_a_message_and_stores_nothing(pump, game):
    out = pump.submit("down", {}, "marshal:7")
    assert len(out.rejected) == 1 and "missing field 'badge'" in out.rejected[0]
    assert stored_events(game) == []


def test_a_silent_marshal_raises_an_alarm_once(game):
    clock = VirtualClock(0)
    pump = Pump(game, clock, marshal_silence_ms=1000)
    pump.submit("note", {"text": "all quiet"}, "marshal:9")
    clock.advance_to(5000)
    (alarm,) = pump.engine.check_silence().alarms
    assert alarm.kind == "marshal_silent" and "marshal:9" in alarm.message
    assert not pump.engine.check_silence().alarms
    pump.close()


def test_acknowledging_an_alarm_is_stored_as_an_event(pump, game):
    (alarm,) = pump.send(cmds.CallStopp("injury")).alarms
    pump.send(cmds.Acknowledge(alarm.id))
    assert [(e.data["alarm"], e.source) for e in stored_events(game) if e.type == "alarm_acknowledged"] == [
        ("stopp:GM1", "gm")]


def test_a_reopened_game_brings_its_last_events_for_the_timeline(game):
    with GameStore.open(game) as store:
        store.log.append([make_event(1000 * i, "note", "gm", text=f"n{i}") for i in range(5)])
    pump = Pump(game, VirtualClock(10_000))
    assert [v.event.data["text"] for v in pump.first.events] == [f"n{i}" for i in range(5)]
    pump.close()


def test_global_stopps_called_in_a_burst_each_get_their_own_number(pump, game):
    # One called while the previous was between the inbox and the fold took its number again (GM1 twice).
    outputs = [pump.engine.command(cmds.CallStopp("danger")) for _ in range(5)]
    pump.settle(*outputs)
    assert [e.data["stopp"] for e in stored_events(game) if e.type == "stopp_called"] == [f"GM{i}" for i in range(1, 6)]


def test_a_game_masters_stopp_number_is_never_given_twice(game):
    """Numbers come from the game's own count (raised in one statement): after a STOPP retracted and a
    restart, and with another station of the game having called some, the next number is a new one."""
    pump = Pump(game)
    pump.send(cmds.CallStopp("danger"))
    seq = pump.send(cmds.CallStopp("danger")).stored
    pump.send(cmds.Retract(seq, "called by mistake"))
    pump.close()
    with GameStore.open(game, create=False) as store:    # another station of the game called GM3 and GM4
        assert store.reserve_block(GM_STOPP_KEY, 2) == 4
    pump = Pump(game)
    pump.send(cmds.CallStopp("injury"))
    pump.close()
    assert [e.data["stopp"] for e in stored_events(game) if e.type == "stopp_called"] == ["GM1", "GM2", "GM5"]


def test_no_wait_for_a_deadline_is_asked_while_a_batch_is_on_its_way(pump):
    """The worker arms its deadline timer from ``next_due_ms``.  A deadline due while a batch was on its way gave
    a wait of 0 again and again: the core thread spun until the commit, taking the GIL from the storage thread
    (bench_timers: lateness p99 3 ms before the engine, 28 ms after).  The commit asks for the next batch."""
    engine = pump.engine
    pump.submit("down", {"badge": 2}, "marshal:7")                   # bleeds out at 600,000
    pump.clock.advance_to(599_000)
    assert engine.next_due_ms() == 1_000
    engine.command(cmds.Submit("note", {"text": "x"}))
    batch = engine.next_batch()
    pump.clock.advance_to(600_000)                                   # due, the note still on its way
    assert engine.next_batch() is None and engine.next_due_ms() is None
    assert engine.committed(batch.id, pump.writer.write(batch.items)).tick
    assert engine.next_due_ms() == 0
    assert [e.type for e in engine.next_batch().fired] == ["died"]


def test_a_standby_asks_no_wait_for_the_deadlines_another_station_fires(pump):
    """A station that does not run the timers waited 0 ms for a deadline due until the owner's event came: for a
    whole outage of the server, every station spun its core thread."""
    engine = pump.engine
    pump.submit("down", {"badge": 2}, "marshal:7")
    engine.lock_lost(STANDBY)
    pump.clock.advance_to(700_000)
    assert engine.next_due_ms() is None and engine.next_batch() is None


def test_waiting_counts_a_report_until_its_batch_is_committed(pump, game):
    """``waiting`` is 0 only once all are stored, also while the inbox is a batch not yet stored."""
    engine = pump.engine
    for i in range(3):
        engine.command(cmds.Submit("note", {"text": f"note {i}"}))
    assert engine.stats()["health"]["waiting"] == 3
    batch = engine.next_batch()
    assert not engine.batcher.inbox and engine.stats()["health"]["waiting"] == 3
    engine.committed(batch.id, pump.writer.write(batch.items))
    assert engine.stats()["health"]["waiting"] == 0
    assert [e.data["text"] for e in stored_events(game) if e.type == "note"] == ["note 0", "note 1", "note 2"]


def test_a_batch_answered_for_another_batch_is_ignored(pump):
    pump.engine.command(cmds.Submit("note", {"text": "x"}))
    batch = pump.engine.next_batch()
    assert not pump.engine.committed(batch.id + 1, pump.writer.write([]))
    assert pump.engine.batcher.in_flight is batch


def test_a_deadline_fired_late_is_folded_where_it_fell_due(game):
    """While no station could fire (the server away, say), Aldo's death fell due, and then a bind of him was
    reported.  Fired late, the death is still folded at its time: the bind came too late, as the rules say
    (without it the bind went first and he lived)."""
    from controlroom.engine.authority import ALONE, STANDBY
    from controlroom.engine.output import Output

    pump = Pump(game)
    pump.submit("down", {"badge": 1}, "marshal:7")
    pump.engine.authority.state = STANDBY               # nobody here fires
    pump.clock.advance_to(650_000)
    pump.submit("bound", {"badge": 1}, "marshal:7")
    assert pump.state.characters[1].bound               # folded as heard: no death yet
    pump.engine.authority.state = ALONE
    taken = Output()
    pump.engine.take_timers(taken)                      # as a station does when it takes the timers over
    out = pump.settle(taken)
    pump.at(700_000)
    aldo = pump.state.characters[1]
    assert aldo.condition == "dead" and [c.badge for c in out.died] == [1]
    assert any(w.code == "target_dead" for w in pump.state.warnings)
    with GameStore.open(game, create=False) as store:
        rows = [(r.event.type, r.event.t, r.pos is not None) for r in store.log.rows()]
        state, _ = store.load_state()
    assert rows == [("down", 0, False), ("died", 600_000, True), ("bound", 650_000, False)]
    assert state.characters[1].condition == "dead"      # the stored log folds to the same game
    pump.close()


def test_a_report_of_another_station_after_an_unfired_deadline_finds_it_fired_first(game):
    """This station runs the timers, but its timer has not fired Aldo's death yet when another station's bind
    of him (reported after the death fell due) is read: the death is fired in its place, before the bind."""
    pump = Pump(game)
    pump.submit("down", {"badge": 1}, "marshal:7")
    pump.clock.advance_to(650_000)                      # (no poll: the timer is late)
    with GameStore.open(game, create=False) as other:
        (bind,) = other.log.append([make_event(650_000, "bound", "marshal:8", badge=1)]).stored
    out = pump.settle(pump.engine.logged([(bind, None)]))
    assert pump.state.characters[1].condition == "dead" and [c.badge for c in out.died] == [1]
    assert not out.alarms                               # (a deadline in its place is no late report)
    with GameStore.open(game, create=False) as store:
        order = [(r.event.type, r.event.t) for r in store.log.rows()]
        state, _ = store.load_state()
    assert order == [("down", 0), ("died", 600_000), ("bound", 650_000)]
    assert state.characters[1].condition == "dead"
    pump.close()

