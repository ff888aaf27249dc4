"""Two engines on one PostgreSQL game, both believing they run the timers (the race a game day found): each
deadline is stored once, and the station whose copy was refused folds the other's."""



from controlroom.engine import commands as cmds
from controlroom.engine.authority import OWNER, STANDBY
from controlroom.engine.output import Output
from controlroom.game.clock import VirtualClock
from controlroom.game.events import make_event
from controlroom.game.roster_csv import read_roster_entries
from controlroom.game.state import GameState
from controlroom.rules.profile import default_profile
from controlroom.store.errors import ServerUnreachable
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, owner


def test_a_deadline_fired_at_two_stations_is_stored_once(shared, tmp_path):
    a, b = owner(shared, tmp_path, "a"), owner(shared, tmp_path, "b")
    try:
        a.submit("knocked_out", {"badge": 1}, "marshal:7")
        b.engine.logged([(s, None) for s in b.writer.read_after()])       # B hears of it
        assert b.state.characters[1].condition == "knocked_out"
        a.clock.advance_to(300_000)
        b.clock.advance_to(300_000)
        a.at(300_000)                                   # A fires the wake-up first: stored
        out = b.at(300_000)                             # B fires it too: refused, and B folds A's
        assert b.engine.doubled_deadlines == 1 and not out.rejected
        assert b.state.characters[1].condition == "active" and a.state.characters[1].condition == "active"
        woke = [e for e in a.events() if e.type == "woke"]
        assert len(woke) == 1 and woke[0].t == 300_000
        assert not b.engine.fold.provisional
    finally:
        a.close()
        b.close()


LATE = "Nr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n150;Õie Tamm;North;Wolves;Sõdalane;jah;;\r\n"


def test_reports_kept_while_the_server_is_away_are_settled_once_delivered(shared, tmp_path, monkeypatch):
    """(The game day's missing deadlines.)  A report kept on this laptop while the server is away is folded
    ahead; once the queue is delivered it is the log's, and nothing stays provisional: so a roster import
    later folds the game again, and a late registration's deadline that fell due is fired, once."""
    a = owner(shared, tmp_path, "a")
    try:
        def away(*_args, **_kwargs):
            raise ServerUnreachable("the server is away")
        monkeypatch.setattr(a.writer.store.log, "append", away)
        a.clock.advance_to(10_000)
        a.submit("down", {"badge": 2}, "marshal:7")                      # kept on this laptop, acknowledged
        assert a.writer.spooled == 1 and a.state.characters[2].condition == "unconscious"
        monkeypatch.undo()                                               # the server is back
        a.clock.advance_to(20_000)
        # Another station stores a knock-out of badge 150, not registered yet (the desk's file comes later).
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(20_000, "knocked_out", "marshal:8", badge=150)])
        a.submit("down", {"badge": 3}, "marshal:7")                      # the queue is delivered first
        assert not a.writer.spooled
        assert not a.engine.fold.provisional                            # the kept report is the log's now
        assert [(e.type, e.data["badge"]) for e in a.events()].count(("down", 2)) == 1
        a.clock.advance_to(30_000)
        out = a.send(cmds.AddPlayers(1, tuple(read_roster_entries(LATE, default_profile())), True))
        assert out.refold and 150 in a.state.characters                  # folded again over the new roster
        a.at(400_000)
        woke = [e for e in a.events() if e.type == "woke" and e.data["badge"] == 150]
        assert len(woke) == 1 and a.state.characters[150].condition == "active"
        assert not a.engine.fold.provisional
    finally:
        a.close()


def log_folded(url):
    """The stored game folded by itself, in fold order, without what was taken back: what a replay shows."""
    with GameStore.open(url, create=False) as store:
        folded = GameState(store.roster(), store.profile())
        gone = store.retracted()
        for seq, ev in store.log.events():
            if seq not in gone:
                folded.apply(ev)
    return folded


def late_alarms(out):
    return [a for a in out.alarms if a.kind == "late_report"]


def test_a_deadline_folded_where_it_fell_due_a_little_late_is_no_alarm(shared, tmp_path, monkeypatch):
    """Another station's report comes before this owner's timer fired a wake-up due just before it (a tick
    late, with a report of its own still kept on this laptop): the wake-up is folded and stored where it fell
    due, once, and that is no news for the game master."""
    a = owner(shared, tmp_path, "a")
    try:
        a.submit("knocked_out", {"badge": 1}, "marshal:7")              # wakes up at 300,000
        monkeypatch.setattr(a.writer.store.log, "append", lambda *_a, **_k: (_ for _ in ()).throw(
            ServerUnreachable("the server is away")))
        a.clock.advance_to(290_000)
        a.submit("down", {"badge": 2}, "marshal:7")                      # kept on this laptop
        monkeypatch.undo()
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(300_500, "down", "marshal:8", badge=3)])
        a.clock.advance_to(300_500)                                      # the timer has not ticked yet
        out = a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        assert not late_alarms(out)
        woke = [e for e in a.events() if e.type == "woke"]
        assert [(e.t, e.data["badge"]) for e in woke] == [(300_000, 1)]
        assert a.state.characters[1].condition == "active" and not a.engine.fold.provisional
    finally:
        a.close()


def test_a_late_report_that_changes_the_deadlines_is_an_alarm(shared, tmp_path):
    """A report stored where it happened, long ago, brings a wake-up into the past: fired there, and said."""
    a = owner(shared, tmp_path, "a")
    try:
        a.clock.advance_to(350_000)
        a.submit("down", {"badge": 2}, "marshal:7")
        with GameStore.open(shared, create=False) as other:                # placed before everything folded
            other.log.append([(make_event(1_000, "knocked_out", "marshal:8", badge=3), None, 0.5)])
        out = a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        (alarm,) = late_alarms(out)
        assert "woke at 00:05:01" in alarm.message
        assert [(e.t, e.data["badge"]) for e in a.events() if e.type == "woke"] == [(301_000, 3)]
    finally:
        a.close()


def test_another_stations_report_stored_before_a_deadline_folded_ahead_is_folded_at_its_own_time(shared, tmp_path):
    """(The game day's deadlines a few ms off the rules'.)  This owner folds a wake-up ahead of storing it;
    meanwhile another station stores a report that happened just before it.  The log has the report first,
    so the report's bleeding-out counts from its own time, not from the wake-up's."""
    a = owner(shared, tmp_path, "a")
    try:
        a.submit("knocked_out", {"badge": 1}, "marshal:7")              # wakes up at 300,000
        a.clock.advance_to(300_076)
        a.engine.command(cmds.Poll())
        batch = a.engine.next_batch()                                    # folded ahead; not stored yet
        assert a.state.characters[1].condition == "active"
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(299_924, "down", "marshal:8", badge=2)])
        a.settle(a.engine.committed(batch.id, a.writer.write(batch.items)))
        assert [e.type for e in a.events()] == ["knocked_out", "down", "woke"]
        (dies,) = [d for d in a.state.deadlines_of(2) if d.kind == "dies"]
        assert dies.due == 299_924 + 600_000
        assert not a.engine.fold.provisional
    finally:
        a.close()


def test_a_deadline_fired_after_positions_of_a_later_time_stays_where_it_is_when_the_game_folds_again(shared, tmp_path):
    """(The game day's corrections by the hundred.)  A wake-up fired a little late stands after positions of a later
    time; a late report folds the game again from before it: the wake-up is where it belongs (a deadline counts at
    its own time among field reports), so nothing is taken back and fired again."""
    a = owner(shared, tmp_path, "a")
    try:
        a.clock.advance_to(10_000)
        a.submit("knocked_out", {"badge": 1}, "marshal:7")              # wakes up at 310,000
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(310_100, "position", "tracker:301", device=301, lat=58.38, lon=26.72),
                              make_event(310_200, "position", "tracker:302", device=302, lat=58.38, lon=26.72)])
        a.clock.advance_to(310_300)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]), a.engine.command(cmds.Poll()))
        with GameStore.open(shared, create=False) as other:                # placed before everything folded
            other.log.append([(make_event(1_000, "down", "marshal:8", badge=3), None, 0.5)])
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        types = [e.type for e in a.events()]
        assert "retracted" not in types, types
        assert [(e.t, e.data["badge"]) for e in a.events() if e.type == "woke"] == [(310_000, 1)]
        assert a.state.characters[1].condition == "active" and not a.engine.fold.provisional
    finally:
        a.close()


def test_a_station_taking_the_timers_over_fires_a_lost_death_before_the_valhalla_checkin_after_it(shared, tmp_path):
    """(The game day's Valhalla check-ins refused.)  The owner fired a death and was killed before storing it; the
    marshal checks the dead in at Valhalla meanwhile, and a gateway's buffered position of long ago comes last.
    The station that takes the timers over fires the death where it fell due, before the check-in, which then
    counts: the folded log and the rules agree."""
    a = Pump(shared, VirtualClock(0), open={"queue_path": str(tmp_path / "a.queue")})       # standby
    try:
        with GameStore.open(shared, create=False) as other:           # the owner before (its death never stored)
            other.log.append([(ev, None, None) for ev in (
                make_event(10_000, "down", "marshal:8", badge=2),                          # bleeds out at 610,000
                make_event(20_000, "knocked_out", "marshal:8", badge=3),                   # wakes up at 320,000
                make_event(320_000, "woke", "timer", badge=3),
                make_event(620_000, "valhalla_checkin", "marshal:9", badge=2),
                make_event(5_000, "position", "tracker:301", device=301, lat=58.38, lon=26.72))])
        a.clock.advance_to(625_000)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        assert a.state.characters[2].condition == "unconscious" and not a.state.characters[2].in_valhalla
        a.engine.authority.state = OWNER                               # the timer lock taken: fire from now on
        took = Output()
        a.engine.take_timers(took)
        a.settle(took, a.engine.command(cmds.Poll()))
        assert [(e.t, e.data["badge"]) for e in a.events() if e.type == "died"] == [(610_000, 2)]
        assert a.state.characters[2].in_valhalla and not a.engine.fold.provisional
        folded = log_folded(shared)                                     # the log folded by itself says the same
        assert folded.characters[2].in_valhalla and folded.characters[2].condition == "dead"
    finally:
        a.close()


def test_a_late_registrations_death_before_the_import_is_fired_before_its_valhalla_checkin(shared, tmp_path):
    """(The game day's 24 refused Valhalla check-ins.)  A player not on the roster yet is downed and, after he bled
    out by the rules, checked in at Valhalla; the desk imports him later.  The refold over the new roster runs the
    rule timers again: his death is fired where it fell due, before the check-in, which then counts."""
    a = owner(shared, tmp_path, "a")
    try:
        with GameStore.open(shared, create=False) as other:           # what the stations stored before the import
            other.log.append([(ev, None, None) for ev in (
                make_event(10_000, "down", "marshal:8", badge=150),                        # bleeds out at 610,000
                make_event(620_000, "valhalla_checkin", "marshal:9", badge=150),
                make_event(630_000, "knocked_out", "marshal:8", badge=3))])
        a.clock.advance_to(640_000)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        assert 150 not in a.state.characters
        job_of = a.engine.refold_job

        def refold_job():                 # while the refold reads the log, another station stores a knock-out
            job = job_of()

            def run():
                fold = job()
                with GameStore.open(shared, create=False) as other:
                    other.log.append([make_event(641_000, "knocked_out", "marshal:8", badge=4)])
                a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
                return fold
            return run

        a.engine.refold_job = refold_job
        out = a.send(cmds.AddPlayers(1, tuple(read_roster_entries(LATE, default_profile())), True))
        assert out.refold and 150 in a.state.characters
        a.settle(a.engine.command(cmds.Poll()))
        died = [e for e in a.events() if e.type == "died" and e.data["badge"] == 150]
        assert [e.t for e in died] == [610_000]
        assert a.state.characters[150].in_valhalla and not a.engine.fold.provisional
        folded = log_folded(shared)                                     # the log folded by itself says the same
        assert folded.characters[150].in_valhalla and folded.characters[150].condition == "dead"
    finally:
        a.close()


def test_the_refold_over_a_new_roster_runs_the_late_registrations_timers_from_their_first_event(shared, tmp_path):
    """A late registration bled out by the rules before a marshal bound his wounds (too late); both were stored
    before the desk imported him.  Folded without its timers, the game would have him bound and alive; the refold
    over the new roster runs his timers from his first event: dead at the rules' time, the binding refused."""
    a = owner(shared, tmp_path, "a")
    try:
        with GameStore.open(shared, create=False) as other:
            other.log.append([(ev, None, None) for ev in (
                make_event(10_000, "down", "marshal:8", badge=150),                        # bleeds out at 610,000
                make_event(700_000, "bound", "marshal:8", badge=150),
                make_event(705_000, "knocked_out", "marshal:8", badge=3))])
        a.clock.advance_to(710_000)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        out = a.send(cmds.AddPlayers(1, tuple(read_roster_entries(LATE, default_profile())), True))
        assert out.refold
        a.settle(a.engine.command(cmds.Poll()))
        assert [e.t for e in a.events() if e.type == "died" and e.data["badge"] == 150] == [610_000]
        assert a.state.characters[150].condition == "dead" and not a.engine.fold.provisional
        assert [e.t for e in a.events() if e.type == "woke"] == []          # badge 3 wakes at 1,005,000 only
    finally:
        a.close()


def test_a_refold_whose_timers_ran_under_a_lock_lost_since_is_folded_again_without_them(shared, tmp_path):
    """The refold over a new roster ran the late registrations' timers while this station held the lock; it lost
    the lock before the swap: nothing of that run is stored, the game is folded again without firing."""
    a = owner(shared, tmp_path, "a")
    try:
        with GameStore.open(shared, create=False) as other:
            other.log.append([(ev, None, None) for ev in (
                make_event(10_000, "down", "marshal:8", badge=150),
                make_event(700_000, "knocked_out", "marshal:8", badge=3))])
        a.clock.advance_to(710_000)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        job_of, runs = a.engine.refold_job, []

        def refold_job():
            job = job_of()

            def run():
                fold = job()
                runs.append(len(fold.rerun))
                a.engine.authority.state = STANDBY          # the lock is lost while the refold ran
                return fold
            return run

        a.engine.refold_job = refold_job
        a.send(cmds.AddPlayers(1, tuple(read_roster_entries(LATE, default_profile())), True))
        assert runs == [1, 0]                           # the death fired under the lost lock, then a plain refold
        assert [e for e in a.events() if e.type == "died"] == [] and not a.engine.fold.provisional
        assert a.state.characters[150].condition == "unconscious"       # until the owner fires his death
    finally:
        a.close()


def test_the_refold_over_a_new_roster_keeps_the_others_deadlines_due(shared, tmp_path):
    """Running a late registration's timers passes over the other players' deadlines; one that fell due and was
    not stored yet when the refold read the log is still due in the new fold, and fired once."""
    a = owner(shared, tmp_path, "a")
    try:
        with GameStore.open(shared, create=False) as other:
            other.log.append([(ev, None, None) for ev in (
                make_event(10_000, "down", "marshal:8", badge=150),
                make_event(20_000, "knocked_out", "marshal:8", badge=3),              # wakes at 320,000
                make_event(330_000, "knocked_out", "marshal:8", badge=1))])
        a.engine.authority.state = STANDBY                              # (folded; nothing fired yet)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        a.engine.authority.state = OWNER
        a.clock.advance_to(330_000)
        a.send(cmds.AddPlayers(1, tuple(read_roster_entries(LATE, default_profile())), True))
        a.settle(a.engine.command(cmds.Poll()))
        assert [(e.type, e.t) for e in a.events() if e.source == "timer"].count(("woke", 320_000)) == 1
        assert a.state.characters[3].condition == "active" and not a.engine.fold.provisional
    finally:
        a.close()


LATE_HEALER = ("Nr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n151;Mari Mets;North;Otters;Ravitseja;jah;;\r\n"
               + "".join(f"{n};Mets {n};North;Otters;Sõdalane;jah;;\r\n" for n in range(152, 156)))  # a healer per 5


def test_a_late_healers_touch_before_the_import_saves_the_player_the_log_bled_out(shared, tmp_path):
    """(The game day's deadlines at other times than the rules'.)  A healer not on the roster yet touches a downed
    player; the touch is refused then, and the owner stores the player's death.  Once the desk imports the
    healer, the touch counts: the refold runs every timer again, the death is taken back."""
    a = owner(shared, tmp_path, "a")
    try:
        with GameStore.open(shared, create=False) as other:
            other.log.append([(ev, None, None) for ev in (
                make_event(10_000, "down", "marshal:8", badge=2),                          # bleeds out at 610,000
                make_event(20_000, "healer_touch", "marshal:8", badge=2, healer=151))])
        a.clock.advance_to(620_000)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]), a.engine.command(cmds.Poll()))
        assert a.state.characters[2].condition == "dead"                   # by the log as it stood
        out = a.send(cmds.AddPlayers(1, tuple(read_roster_entries(LATE_HEALER, default_profile())), True))
        assert out.refold
        a.settle(a.engine.command(cmds.Poll()))
        assert a.state.characters[2].condition == "active" and not a.engine.fold.provisional
        folded = log_folded(shared)                                     # the log folded by itself says the same
        assert folded.characters[2].condition == "active" and folded.deaths == []
    finally:
        a.close()


def test_a_station_taking_the_timers_over_runs_them_again_after_an_import_its_owner_did_not_run(shared, tmp_path):
    """The owner died before its run of the timers over the new roster was stored.  The station that takes the
    timers over runs them again itself: the late registration's death goes before his Valhalla check-in."""
    from controlroom.game.roster import Member

    a = Pump(shared, VirtualClock(0), open={"queue_path": str(tmp_path / "a.queue")})       # standby
    try:
        with GameStore.open(shared, create=False) as other:
            other.log.append([(ev, None, None) for ev in (
                make_event(10_000, "down", "marshal:8", badge=150),                        # bleeds out at 610,000
                make_event(620_000, "valhalla_checkin", "marshal:9", badge=150),
                make_event(630_000, "knocked_out", "marshal:8", badge=3))])
            other.save_roster([Member(150, "Õie Tamm", "North", "Wolves")], remove_missing=False)
            other.log.append([make_event(640_000, "roster_added", "gm", added=[150])])
        a.clock.advance_to(650_000)
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))     # folded again, as a standby
        assert a.state.characters[150].condition == "unconscious" and not a.state.characters[150].in_valhalla
        a.engine.fold.checkpoint_every, a.engine.fold.keep = 2, 2    # (the check-in falls out of what a fold keeps)
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(650_000 + 1_000 * i, "knocked_out", "marshal:8", badge=1 + i % 2)
                              for i in range(8)])
        a.settle(a.engine.logged([(s, None) for s in a.writer.read_after()]))
        a.engine.authority.state = OWNER                               # the owner is gone: the lock is a's
        took = Output()
        a.engine.take_timers(took)
        a.settle(took, a.engine.command(cmds.Poll()))
        gone = a.game.store.retracted()
        assert [ev.t for seq, ev in a.game.store.log.events() if seq not in gone and ev.type == "died"
                and ev.data["badge"] == 150] == [610_000]     # (fired at the end first, then moved before the check-in)
        assert a.state.characters[150].in_valhalla and not a.engine.fold.provisional
    finally:
        a.close()


def test_a_queue_delivered_on_its_own_is_folded_as_the_logs(shared, tmp_path, monkeypatch):
    """The storage thread delivers the local queue by itself when no batch waits (``StorageWriter._deliver``),
    or before a batch that then fails: what the delivery read back is folded (the kept report is the log's,
    and another station's event stored meanwhile counts), nothing stays provisional."""
    a = owner(shared, tmp_path, "a")
    try:
        monkeypatch.setattr(a.writer.store.log, "append", lambda *_a, **_k: (_ for _ in ()).throw(
            ServerUnreachable("the server is away")))
        a.clock.advance_to(10_000)
        a.submit("down", {"badge": 2}, "marshal:7")                      # kept on this laptop
        assert a.writer.spooled == 1 and a.engine.fold.provisional
        monkeypatch.undo()
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(12_000, "down", "marshal:8", badge=3)])
        a.settle(a.engine.delivered(a.writer.deliver_queue()))
        assert not a.writer.spooled and not a.engine.fold.provisional
        assert a.state.characters[3].condition == "unconscious"          # the other station's, read back with it
        assert [(e.type, e.data["badge"]) for e in a.events()] == [("down", 3), ("down", 2)]     # stored once
    finally:
        a.close()


def test_an_event_stored_by_another_station_while_the_game_opens_is_folded(shared, tmp_path, monkeypatch):
    """Another station stores a report while this one reads the log to open the game.  The opening reads on
    from where its fold read, not from the last seq afterwards: the report comes through the storage writer
    and is folded.  (A station started again mid-battle lost such reports, then took back the deaths they
    had caused when it became the timer owner: four deadlines missing from a game day.)"""
    real = GameStore.open_fold

    def open_fold_while_another_stores(store, *args, **kwargs):
        fold = real(store, *args, **kwargs)
        with GameStore.open(shared, create=False) as other:
            other.log.append([make_event(1_000, "down", "marshal:9", badge=2)])
        return fold

    monkeypatch.setattr(GameStore, "open_fold", open_fold_while_another_stores)
    pump = Pump(shared, VirtualClock(0), open={"queue_path": str(tmp_path / "a.queue")})
    monkeypatch.undo()
    try:
        assert pump.state.characters[2].condition == "active"     # not in the fold the opening read
        pump.engine.logged([(s, None) for s in pump.writer.read_after()])
        assert pump.state.characters[2].condition == "unconscious"
        assert [e.type for e in pump.events()] == ["down"]
    finally:
        pump.close()
