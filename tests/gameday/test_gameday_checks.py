"""The game day's checks can fail: each is shown a stored game spoiled the way it must catch."""

from controlroom.game.events import SOURCE_TIMER, make_event
from controlroom.game.roster import Member
from controlroom.rules.profile import default_profile
from tests.support.gameday import checks

MEMBERS = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
           Member(11, "Gerd", "South", "Ravens")]


def game(*events, retracted=(), frames=()):
    rows = [(seq, float(seq), 0, ev) for seq, ev in enumerate(events, start=1)]
    return checks.StoredGame(MEMBERS, default_profile(), rows, list(frames), set(retracted))


def down_and_died():
    """Aldo goes down at 1 s; the rules kill him at 10 min 1 s."""
    return [make_event(1_000, "down", "marshal:7", badge=1),
            make_event(601_000, "died", SOURCE_TIMER, badge=1, cause="bled_out")]


def test_a_clean_game_passes_every_check():
    g = game(*down_and_died(), frames=[(7, 1)])
    assert checks.frames_check([(7, 1)], g) == {"frames_stored": 1, "acked": 1, "lost": 0, "doubled": 0}
    d = checks.deadlines_check(g, 900_000)
    assert (d["deadlines_fired"], d["deadlines_doubled"], d["deadlines_missing"], d["deadlines_not_the_rules"],
            d["deadlines_the_rules_fire_unstored"]) == (1, 0, 0, 0, 0)
    s = checks.states_check(g, 900_000)
    assert s["state_differences"] == 0 and s["reference"]["deaths"] == {"North": 1}


def test_a_lost_ack_is_caught():
    assert checks.frames_check([(7, 1), (7, 2)], game(frames=[(7, 1)]))["lost"] == 1


def test_a_frame_stored_twice_is_caught():
    assert checks.frames_check([(7, 1)], game(frames=[(7, 1), (7, 1)]))["doubled"] == 1


def test_a_doubled_deadline_is_caught():
    events = down_and_died() + [make_event(601_000, "died", SOURCE_TIMER, badge=1, cause="bled_out")]
    assert checks.deadlines_check(game(*events), 900_000)["deadlines_doubled"] == 1


def test_a_deadline_taken_back_and_fired_again_is_not_doubled():
    events = down_and_died() + [make_event(601_000, "retracted", SOURCE_TIMER, seq=2, reason="moved"),
                                make_event(601_000, "died", SOURCE_TIMER, badge=1, cause="bled_out")]
    assert checks.deadlines_check(game(*events, retracted={2}), 900_000)["deadlines_doubled"] == 0


def test_a_missing_deadline_is_caught_and_so_is_the_state_it_leaves():
    g = game(make_event(1_000, "down", "marshal:7", badge=1))        # nobody fired his death
    d = checks.deadlines_check(g, 900_000)
    assert d["deadlines_missing"] == 1 and d["deadlines_the_rules_fire_unstored"] == 1
    assert d["missing_examples"] == ["died|1||601000"]


def test_a_deadline_at_the_wrong_time_is_caught():
    events = [make_event(1_000, "down", "marshal:7", badge=1),
              make_event(650_000, "died", SOURCE_TIMER, badge=1, cause="bled_out")]       # 49 s late in game time
    d = checks.deadlines_check(game(*events), 900_000)
    assert d["deadlines_not_the_rules"] == 1 and d["not_the_rules_examples"] == ["died|1||650000"]


def test_a_state_the_rules_do_not_give_is_caught():
    # His death fired late (650 s, not 601 s): a bind reported at 620 s saved him, where the rules say he died.
    events = [make_event(1_000, "down", "marshal:7", badge=1), make_event(620_000, "bound", "marshal:7", badge=1),
              make_event(650_000, "died", SOURCE_TIMER, badge=1, cause="bled_out")]
    s = checks.states_check(game(*events), 900_000)
    assert s["state_differences"] == 1 and s["state_examples"][0][0] == 1


def test_a_report_figure_unlike_the_rules_is_caught():
    reference = checks.states_check(game(*down_and_died()), 900_000)["reference"]
    assert checks.report_check({"deaths": {"North": 1}, "valhalla": {}, "stopps": 0}, reference)[
        "report_differences"] == 0
    assert checks.report_check({"deaths": {"North": 2}, "valhalla": {}, "stopps": 0}, reference)[
        "report_differences"] == 1


def test_time_without_an_owner_counts_only_outside_the_outages():
    transitions = [(1.0, "a", "owner"), (10.0, "a", "gone"), (12.5, "b", "owner"), (20.0, "b", "offline"),
                   (40.0, "b", "owner")]
    out = checks.owners_check(transitions, 50.0, [(19.0, 41.0)], start=0.0)
    assert out["owner_changes"] == 1 and out["longest_without_owner_s"] == 2.5 and out["without_owner_s"] == 3.5


def test_ack_delays_count_outside_the_outage_and_apart_from_the_kills():
    # (real s at the ack, ms): one slow ack during the outage, one after a kill, the rest quick
    delays = [(300.0 + i, 20.0) for i in range(50)] + [(50.0, 9_000.0), (130.0, 7_000.0)]
    out = checks.acks_check(delays, outages=[(45.0, 55.0)], kills=[(120.0, 210.0)])
    assert out["acks_timed"] == 51 and out["ack_p99_ms"] == 7_000.0        # the kill's retry counts ...
    assert out["acks_outside_kills"] == 50 and out["ack_p99_outside_kills_ms"] == 20.0     # ... but not here
