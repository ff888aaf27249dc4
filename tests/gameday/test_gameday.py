"""A short game day in the test command: two stations on one PostgreSQL game, the timer owner killed and the
server stopped while a simulated battle goes on; then the stored game is checked against the field's record.

The whole day (three stations, 8,000 players, three game hours, every fault) is the benchmark
``python -m benchmarks.gameday``; this is its short form, with the same checks (tests/support/gameday).
"""

import pytest

from tests.support.gameday.run import Plan, play

SHORT = Plan(players=1000, groups=40, late=40, groups_per_marshal=2, gateways=4, stations=2, minutes=20, speed=20,
             kill_every=12, unplug_every=0, server_stop_s=20, disk_full=False, drain_s=15)


@pytest.fixture
def short_day(pg_url, pg_control, tmp_path):
    """The short day played once (about 80 s): its figures and checks."""
    return play(SHORT, pg_url, pg_control, tmp_path / "day", say=lambda _text: None)


def test_a_short_game_day_under_faults_keeps_every_promise(short_day):
    day = short_day
    faults = [what for _at, what, _detail in day["faults"]]
    assert {"kill_owner", "server_stop", "server_start", "roster_import"} <= set(faults), day["faults"]
    assert day["kills"] == 1 and day["owner_changes"] >= 1
    assert day["battle_complete"] and day["acked"] > 50
    # Every frame a handset saw acknowledged is stored, once.
    assert (day["lost"], day["doubled"]) == (0, 0)
    # Every deadline once, none missing, each at the time the rules say.
    assert day["deadlines_fired"] > 5
    assert (day["deadlines_doubled"], day["deadlines_missing"]) == (0, 0), day
    assert (day["deadlines_not_the_rules"], day["deadlines_the_rules_fire_unstored"]) == (0, 0), day
    # The players' states and the report's figures are the rules' own.
    assert day["players"] == 1040 and day["state_differences"] == 0, day["state_examples"]
    assert day["report_differences"] == 0, day["report_examples"]
    # Never long without a station running the timers, but for the server's outage.
    assert day["longest_without_owner_s"] < 2.0 + 5.0, day
