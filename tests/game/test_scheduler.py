"""The pure deadline schedule on a virtual clock."""

from controlroom.game.scheduler import Schedule
from controlroom.game.state import DIES, GameState
from tests.support.game_helpers import ROSTER, Game, ms


def test_ten_game_minutes_of_dying_run_without_waiting():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    assert g.schedule.next_due() == ms("00:10:00")
    g.run_to("00:10:00")
    assert g.fired_of(2) == [(ms("00:10:00"), "died")] and len(g.schedule) == 0


def test_stopp_on_one_group_holds_only_its_deadlines_in_the_schedule():
    g = Game()
    g.at("00:00:00", "down", badge=2)        # Wolves
    g.at("00:00:00", "down", badge=11)       # Ravens
    g.at("00:01:00", "stopp_called", stopp="S", groups=["Ravens"])
    due = {d.badge: d.due for d in g.schedule if d.kind == DIES}
    assert due == {2: ms("00:10:00")}         # Ravens' deadline is held, not scheduled
    g.at("00:03:00", "stopp_lifted", stopp="S", source="gm")
    due = {d.badge: d.due for d in g.schedule if d.kind == DIES}
    assert due == {2: ms("00:10:00"), 11: ms("00:12:00")}


def test_healing_cancels_the_deadline():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:04:00", "healer_touch", badge=2, healer=3)
    assert [d for d in g.schedule if d.badge == 2] == []
    assert g.schedule.next_due() is None
    g.run_to("01:00:00")
    assert g.fired_of(2) == []


def test_a_moved_deadline_fires_once_at_its_new_time():
    g = Game()
    g.at("00:00:00", "knocked_out", badge=2)
    g.at("00:01:00", "stopp_called", stopp="S", groups=["Wolves"])
    g.at("00:02:00", "stopp_lifted", stopp="S", source="gm")
    g.run_to("00:30:00")
    assert g.fired_of(2) == [(ms("00:06:00"), "woke")]


def test_restart_from_the_log_schedules_the_same_deadlines():
    g = Game()
    g.at("00:00:00", "down", badge=1)
    g.at("00:00:30", "knocked_out", badge=2)
    g.at("00:01:00", "strike", badge=4)
    g.at("00:01:30", "bound", badge=4)
    g.at("00:02:00", "stopp_called", stopp="S", groups=["Ravens"])
    g.at("00:02:00", "down", badge=14)
    g.run_to("00:03:00")
    live = sorted((d.kind, d.badge, d.stopp, d.due) for d in g.schedule)

    # A program started afresh folds the same log and schedules from the state alone.
    fold = GameState(ROSTER)
    for event in g.applied:
        fold.apply(event)
    fold.t = ms("00:03:00")
    restarted = Schedule()
    restarted.rebuild(fold)
    assert sorted((d.kind, d.badge, d.stopp, d.due) for d in restarted) == live


def test_many_deadlines_come_out_in_order():
    import random

    rng = random.Random(5)
    s = Schedule()
    dues = {}
    for badge in range(1, 2001):
        due = rng.randint(0, 10**6)
        s.set(DIES, due, badge=badge)
        dues[badge] = due
    for badge in range(1, 2001, 3):              # moved
        dues[badge] += 5000
        s.set(DIES, dues[badge], badge=badge)
    for badge in range(2, 2001, 7):              # cancelled
        dues.pop(badge, None)
        s.set(DIES, None, badge=badge)
    out = []
    while s.next_due() is not None:
        d = s.pop()
        out.append((d.due, d.badge))
    assert out == sorted((due, b) for b, due in dues.items())


def test_side_tally_follows_the_changes_like_a_full_count():
    from controlroom.game.views import SideTally, side_counts

    g = Game()
    tally = SideTally(g.state)
    g.at("00:00:00", "down", badge=2)
    g.at("00:00:10", "permanent_kill", badge=11)
    g.at("00:00:20", "valhalla_checkin", badge=11)
    g.at("00:00:30", "knocked_out", badge=4)
    g.run_to("00:20:00")
    tally.update(g.state, [2, 11, 4])
    assert tally.snapshot() == side_counts(g.state)
