"""A station whose checkpoints do not reach back to an event placed far back in a shared game (a standby, the
timer owner): it folds on in its core thread, asks for the refold in the background, fires nothing from the game
that misses the event meanwhile, and its swap brings the event in."""

from controlroom.engine.authority import OWNER
from controlroom.engine.output import Output
from controlroom.game.clock import VirtualClock
from controlroom.game.events import make_event
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, owner


def behind_standby(shared, tmp_path):
    """A standby whose checkpoints reach back 4 events, and the owner's death of badge 2 placed before them."""
    b = Pump(shared, VirtualClock(0), open={"queue_path": str(tmp_path / "b.queue")})
    b.engine.fold.checkpoint_every, b.engine.fold.keep = 2, 2
    with GameStore.open(shared, create=False) as other:
        other.log.append([make_event(1_000, "down", "marshal:8", badge=2),           # bleeds out at 601,000
                          make_event(2_000, "knocked_out", "marshal:8", badge=1)] + [
            make_event(600_000 + 1_000 * i, "position", "tracker:301", device=301, lat=58.38, lon=26.72)
            for i in range(2, 9)])
    b.clock.advance_to(609_000)
    b.settle(b.engine.logged([(s, None) for s in b.writer.read_after()]))
    with GameStore.open(shared, create=False) as other:              # the owner's correction, placed at the start
        other.log.append([(make_event(601_000, "died", "timer", badge=2, cause="bled_out"), None, 3.5),
                          make_event(609_500, "knocked_out", "marshal:8", badge=11)])
    return b


def test_a_standby_folds_a_correction_before_its_checkpoints_in_the_background(shared, tmp_path, monkeypatch):
    """The owner places a deadline far back in the game (a late registration's death, fired by the refold over the
    new roster).  A standby station whose checkpoints do not reach back that far does not fold the whole log in
    its core thread: it asks for the refold in the background, and its swap brings the death in."""
    b = behind_standby(shared, tmp_path)
    try:
        def whole_log(*_args):
            raise AssertionError("the whole log folded again in the core thread")
        monkeypatch.setattr("controlroom.game.fold_rerun.deep_refold", whole_log)
        out = b.engine.logged([(s, None) for s in b.writer.read_after()])
        assert out.refold and b.state.characters[11].condition == "knocked_out"     # folded on meanwhile
        assert b.state.characters[2].condition != "dead" and b.engine.fold.behind
        b.settle(out)                                                 # the background refold, swapped in
        assert b.state.characters[2].condition == "dead" and not b.engine.fold.behind
        assert b.state.characters[11].condition == "knocked_out" and b.state.characters[1].condition == "knocked_out"
    finally:
        b.close()


def test_a_standby_behind_that_takes_the_timers_over_fires_nothing_until_its_background_refold(shared, tmp_path,
                                                                                                  monkeypatch):
    """Should it take the timers over before the background refold is swapped in, the station fires nothing from
    a game that misses the late event, and does not fold the whole log in its core thread either (acks would
    wait for it): its refold, every timer run again, is swapped in, and then the knock-out of badge 1 wakes at
    its time and the death is the one stored, each once."""
    b = behind_standby(shared, tmp_path)
    try:
        b.engine.logged([(s, None) for s in b.writer.read_after()])
        assert b.engine.fold.behind
        b.engine.authority.state = OWNER
        took = Output()
        with monkeypatch.context() as m:
            def whole_log(*_args):
                raise AssertionError("the whole log folded again in the core thread")
            m.setattr("controlroom.game.fold_rerun.deep_refold", whole_log)
            b.engine.take_timers(took)
            assert b.engine.fold.behind and b.engine.next_due_ms() is None and b.engine.next_batch() is None
        assert took.refold
        b.settle(took)                                                 # the background refold, swapped in
        assert b.state.characters[2].condition == "dead" and not b.engine.fold.behind
        assert [(e.type, e.t) for e in b.events() if e.source == "timer"] == [("woke", 302_000), ("died", 601_000)]
        assert b.state.characters[1].condition == "active" and not b.engine.fold.provisional
    finally:
        b.close()


def test_an_owner_folds_a_report_before_its_checkpoints_in_the_background_and_fires_nothing_meanwhile(
        shared, tmp_path, monkeypatch):
    """A marshal's bind reaches the timer owner long after it happened (a gateway's queue delivered late), placed
    before every checkpoint it keeps: it does not fold the whole log in its core thread (acks would wait), and
    fires nothing from the game that misses the bind meanwhile (badge 2's death, which the bind prevented)."""
    a = owner(shared, tmp_path, "a")
    try:
        a.engine.fold.checkpoint_every, a.engine.fold.keep = 2, 2
        a.clock.advance_to(1_000)
        a.submit("down", {"badge": 2}, "marshal:7")                     # bleeds out at 601,000
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(590_000 + 1_000 * i, "position", "tracker:301", device=301, lat=58.38,
                                         lon=26.72) for i in range(2, 9)])
        a.clock.advance_to(599_000)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        with GameStore.open(shared, create=False) as other:              # the bind, placed right after the down
            other.log.append([(make_event(5_000, "bound", "marshal:8", badge=2), None, 1.5)])
        with monkeypatch.context() as m:
            def whole_log(*_args):
                raise AssertionError("the whole log folded again in the core thread")
            m.setattr("controlroom.game.fold_rerun.deep_refold", whole_log)
            out = a.engine.logged([(s, None) for s in a.writer.read_after()])
            assert a.engine.fold.behind and out.refold
            a.clock.advance_to(605_000)                                 # the death it would have fired is due
            assert a.engine.next_due_ms() is None and a.engine.next_batch() is None
        a.settle(out)                                                   # the background refold, swapped in
        a.at(610_000)
        assert not a.engine.fold.behind and a.state.characters[2].condition == "active"
        assert [e for e in a.events() if e.source == "timer" and e.type == "died"] == []
    finally:
        a.close()
