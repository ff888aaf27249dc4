"""The report's figures: folded by the rules, per scenario, equal to `controlroom replay --json`."""

import pytest

from controlroom.game.events import make_event
from controlroom.game.replay import replay_script
from controlroom.game.roster import Member
from controlroom.game.script import load_script
from controlroom.game.summary import summarize
from controlroom.report.gather import load_report, scenario_names
from controlroom.report.model import (
    ReportCancelled,
    UnknownScenario,
    build_report,
    deaths_per_side,
    reporter,
    what_happened,
)
from controlroom.rules.profile import default_profile
from controlroom.store.game import GameStore
from tests.support.report_helpers import SCRIPT, store_script


@pytest.fixture
def game(game_db):
    """The two-scenario game stored in a SQLite file, then in a PostgreSQL database (when CI gives one)."""
    result = store_script(game_db)
    return game_db, result


def _report(path, scenario=None, progress=None):
    with GameStore.open(path, create=False) as store:
        return load_report(store, scenario, progress)


def test_whole_game_figures_equal_the_replay_summary(game):
    path, result = game
    summary = summarize(result.state, "Lõuna lahing")
    report = _report(path)
    assert report.game == "Lõuna lahing" and report.scope == "the whole game"
    assert report.scenarios == ["Silla kaitse", "Lipu vallutus"]
    for tally in report.sides():
        assert tally.deaths == summary["sides"][tally.side]["deaths"]
    assert report.end_counts == summary["sides"]
    assert [(v.badge, v.checkins) for v in sorted(report.valhalla, key=lambda v: v.first)] == [
        (v["badge"], 1) for v in summary["valhalla"]]
    assert [(s.id, s.trivial, s.caller) for s in report.stopps] == [
        (s["id"], s["trivial"], s["caller"]) for s in summary["stopps"]]
    assert [(w.t, w.code) for w in report.warnings] == [
        (result.state.warnings[i].t, result.state.warnings[i].code) for i in range(len(summary["warnings"]))]
    assert report.totals().deaths == 5 == sum(c.counted and c.type in ("died", "permanent_kill")
                                              for c in report.casualties)


def test_each_players_figures_come_from_the_rules_not_from_the_reports(game):
    path, _ = game
    players = {p.badge: p for p in _report(path).players}
    assert players[14].deaths == 1                      # the strike on his body afterwards does not count
    assert players[2].deaths == 1 and players[2].valhalla == 1 and players[2].healed == 1
    assert players[4].knockouts == 1
    assert players[12].touches_used == 2                # Hilde healed Ivar, then Birgit
    assert players[3].deaths == 1 and players[3].fell == 1     # Carl's trivial STOPP: unconscious, bled out
    assert players[13].fell == 1 and players[13].healed == 1


def test_a_scenario_report_counts_only_that_scenarios_events(game):
    path, _ = game
    first, second = _report(path, "Silla kaitse"), _report(path, "Lipu vallutus")
    assert first.scope == "scenario Silla kaitse"
    assert {t.side: t.deaths for t in first.sides()} == {"Lõuna": 1, "Põhi": 2}
    assert {t.side: t.deaths for t in second.sides()} == {"Lõuna": 1, "Põhi": 1}
    whole = _report(path)
    assert first.totals().deaths + second.totals().deaths == whole.totals().deaths
    assert [s.id for s in first.stopps] == ["S1"] and [s.id for s in second.stopps] == ["S2"]
    assert [v.badge for v in second.valhalla] == [11]
    assert [x.looter for x in first.loot] == [1, 11] and second.loot == []
    assert {c.scenario for c in second.casualties} == {"Lipu vallutus"}
    assert [s.engine for s in first.siege_losses] == ["Jäär"] and second.siege_losses == []


def test_an_unknown_scenario_names_the_games_scenarios(game):
    path, _ = game
    with pytest.raises(UnknownScenario, match="'Silla kaitse', 'Lipu vallutus'"):
        _report(path, "Silla")
    with GameStore.open(path, create=False) as store:
        assert scenario_names(store) == ["Silla kaitse", "Lipu vallutus"]


def test_the_loot_chain_leaves_the_first_looter_owing_the_first_owner(game):
    path, _ = game
    loot = {(x.looter, x.owner): x for x in _report(path).loot}
    assert set(loot) == {(1, 2), (11, 1)}
    assert loot[(1, 2)].items == ("mõõk", "kilp") and not loot[(1, 2)].without_consent
    assert loot[(11, 1)].without_consent and loot[(11, 1)].looter_name == "Saara"


def test_reporters_and_sides_of_siege_engines_come_from_the_registered_devices(game):
    path, _ = game
    report = _report(path)
    loss, = report.siege_losses
    # A tracker is named by what it is on (its label "Ram tracker" is the game's, in whatever language).
    assert (loss.side, loss.status, loss.reported_by) == ("Põhi", "destroyed", "tracker 40 (Jäär)")
    s1 = report.stopps[0]
    assert s1.reported_by == "Tõnu Tamm (marshal handset 8)" and s1.caller_name == "Saara"
    assert s1.duration == 150_000 and s1.where == "58.38100, 26.72000; groups Ronkad"
    assert reporter("timer", {}) == "rule timer" and reporter("gm:Mari", {}) == "game master Mari"
    assert reporter("marshal:M2", {}) == "marshal handset M2" and reporter("weird", {}) == "weird"


def test_wall_times_give_the_games_date(game):
    path, _ = game
    report = _report(path)
    assert report.first_wall == 1_780_000_000_000
    assert report.date.startswith("2026-05-")


def test_each_row_has_its_own_wall_time_when_a_late_report_folds_before_others(game_db):
    """A late report is stored last and folds where it happened: the fold order is not the log's order, and
    each row keeps the wall time it was stored at (the walls were once read in log order beside events read
    in fold order, and paired by position)."""
    with GameStore.open(game_db) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves"), Member(2, "Õie", "South", "Ravens")])
        (first,) = store.log.append([make_event(1_000, "strike", "marshal:M1", badge=1, count=1)], 1_000_000).stored
        store.log.append([make_event(5_000, "strike", "marshal:M1", badge=2, count=1)], 2_000_000)
        store.log.append([(make_event(3_000, "strike", "marshal:M2", badge=1, count=1), None, first.seq + 0.5)],
                         3_000_000)                                          # heard late, happened between
    report = _report(game_db)
    assert [(r.t, r.badge, r.wall) for r in report.casualties] == [(1_000, 1, 1_000_000), (3_000, 1, 3_000_000),
                                                                    (5_000, 2, 2_000_000)]
    from controlroom.report.gis import load_gis

    with GameStore.open(game_db, create=False) as store:
        assert store.log.count() == 3 and [w for _s, w, _e in store.log.timed_events()] == [1_000_000, 3_000_000,
                                                                                             2_000_000]
        assert load_gis(store) is not None


def test_cancelling_stops_the_fold(game):
    path, _ = game
    calls = []

    def progress(done, total):
        calls.append((done, total))
        return False

    with pytest.raises(ReportCancelled):
        _report(path, progress=progress)
    assert calls and calls[-1][1] >= calls[-1][0]


def test_what_happened_says_it_in_words():
    names = {3: "Carl"}
    assert what_happened("strike", {"count": 2, "on_armour": False}, names) == "struck 2 times (not on armour)"
    assert what_happened("healer_touch", {"healer": 3}, names) == "healed by Carl (3)"
    assert what_happened("died", {"cause": "bled_out"}, names) == "died (bled out)"
    assert what_happened("big_stone", {"on_shield": True}, names).endswith("(knocked out)")


def test_deaths_over_time_are_cumulative_steps_per_side():
    members = [Member(1, "A", "N", "g", "warrior"), Member(2, "B", "S", "h", "warrior"),
               Member(3, "C", "N", "g", "warrior")]
    events = [make_event(0, "scenario_started", name="x"),
              make_event(60_000, "permanent_kill", badge=1), make_event(120_000, "permanent_kill", badge=3),
              make_event(180_000, "permanent_kill", badge=2), make_event(600_000, "note", text="end")]
    report = build_report("g", members, default_profile(), ((i + 1, 0, e) for i, e in enumerate(events)))
    assert deaths_per_side(report) == {"N": [(0, 0), (60_000, 1), (120_000, 2), (600_000, 2)],
                                       "S": [(0, 0), (180_000, 1), (600_000, 1)]}


def test_the_example_battle_report_matches_its_expectations():
    script = load_script(SCRIPT)
    result = replay_script(script)
    items = ((i + 1, 0, e) for i, e in enumerate(result.log))
    report = build_report(script.name, script.members, result.state.profile, items)
    assert {t.side: t.deaths for t in report.sides()} == {"Lõuna": 2, "Põhi": 3}
