"""Each rule of the seed, played through GameState and its timers."""

from controlroom.game.roster import Member
from controlroom.game.state import ACTIVE, DEAD, KNOCKED_OUT, UNCONSCIOUS
from tests.support.game_helpers import ROSTER, Game, ms


def test_unconscious_for_ten_minutes_is_death():
    g = Game()
    g.at("00:01:00", "down", badge=2)
    g.run_to("00:10:59.999")
    assert g.ch(2).condition == UNCONSCIOUS
    g.run_to("00:11:00")
    assert g.ch(2).condition == DEAD
    assert g.fired_of(2) == [(ms("00:11:00"), "died")]
    assert g.state.deaths[0][2] == "bled_out"


def test_hit_points_zero_means_unconscious():
    g = Game()
    g.at("00:00:10", "strike", badge=2)
    assert g.ch(2).condition == ACTIVE and g.ch(2).hp == 1
    g.at("00:00:20", "strike", badge=2)
    assert g.ch(2).condition == UNCONSCIOUS and g.ch(2).hp == 0


def test_valid_strike_takes_armour_points_first():
    g = Game()
    assert g.ch(1).ap.total == 3            # chain 2 + leather helmet 1
    g.at("00:00:10", "strike", badge=1, count=2)
    assert (g.ch(1).ap.body, g.ch(1).ap.helmet, g.ch(1).hp) == (0, 1, 2)
    g.at("00:00:20", "strike", badge=1)
    assert (g.ch(1).ap.total, g.ch(1).hp) == (0, 2)
    g.at("00:00:30", "strike", badge=1)
    assert g.ch(1).hp == 1


def test_big_stone_takes_two_hit_points_regardless_of_armour():
    g = Game()
    g.at("00:00:10", "big_stone", badge=1)
    assert g.ch(1).hp == 0 and g.ch(1).ap.total == 3
    assert g.ch(1).condition == UNCONSCIOUS


def test_big_stone_on_shield_no_hp_lost_but_unconscious_five_minutes():
    g = Game()
    g.at("00:01:00", "big_stone", badge=2, on_shield=True)
    assert g.ch(2).condition == KNOCKED_OUT and g.ch(2).hp == 2
    g.run_to("00:06:00")
    assert g.ch(2).condition == ACTIVE
    assert g.fired_of(2) == [(ms("00:06:00"), "woke")]


def test_knockout_unconscious_five_minutes():
    g = Game()
    g.at("00:01:00", "knocked_out", badge=2)
    assert g.ch(2).condition == KNOCKED_OUT
    g.run_to("00:05:59")
    assert g.ch(2).condition == KNOCKED_OUT
    g.run_to("00:06:00")
    assert g.ch(2).condition == ACTIVE


def test_knockout_impossible_on_helmeted_target():
    g = Game()
    warnings = g.at("00:01:00", "knocked_out", badge=5)
    assert [w.code for w in warnings] == ["knockout_refused"]
    assert g.ch(5).condition == ACTIVE


def test_knockout_impossible_when_target_saw_the_attacker():
    g = Game()
    warnings = g.at("00:01:00", "knocked_out", badge=2, saw_attacker=True)
    assert [w.code for w in warnings] == ["knockout_refused"]
    assert g.ch(2).condition == ACTIVE


def test_permanent_kill_is_death_at_once():
    g = Game()
    g.at("00:01:00", "permanent_kill", badge=2)
    assert g.ch(2).condition == DEAD and g.ch(2).deaths == 1
    assert g.state.deaths[0][2] == "permanent_kill"


def test_dead_report_to_valhalla_where_name_side_and_deaths_are_recorded():
    g = Game()
    g.at("00:01:00", "permanent_kill", badge=2)
    g.at("00:03:00", "valhalla_checkin", badge=2, source="marshal:V1")
    assert g.ch(2).in_valhalla
    assert g.state.valhalla == [(ms("00:03:00"), 2)]
    warnings = g.at("00:04:00", "valhalla_checkin", badge=4, source="marshal:V1")
    assert [w.code for w in warnings] == ["not_dead"]


def test_binding_wakes_the_unconscious_and_stops_the_dying():
    g = Game()
    g.at("00:01:00", "down", badge=2)
    g.at("00:05:00", "bound", badge=2, by=4)
    assert g.ch(2).condition == ACTIVE and g.ch(2).hp == 0
    g.run_to("00:11:00")
    assert g.ch(2).condition == ACTIVE


def test_bound_wounds_regain_one_hit_point_per_20_minutes():
    g = Game()
    g.at("00:01:00", "down", badge=2)
    g.at("00:02:00", "bound", badge=2)
    g.run_to("01:00:00")
    assert g.fired_of(2) == [(ms("00:22:00"), "hp_regained"), (ms("00:42:00"), "hp_regained")]
    assert g.ch(2).hp == 2 and not g.ch(2).bound


def test_cared_for_regains_one_hit_point_per_10_minutes():
    g = Game()
    g.at("00:01:00", "down", badge=2)
    g.at("00:02:00", "bound", badge=2)
    g.at("00:02:00", "cared_for", badge=2, carer=3)
    g.run_to("01:00:00")
    assert g.fired_of(2) == [(ms("00:12:00"), "hp_regained"), (ms("00:22:00"), "hp_regained")]


def test_care_starting_halfway_keeps_the_progress():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:00:00", "bound", badge=2)
    g.at("00:10:00", "cared_for", badge=2, carer=3)     # half a point healed, 10 min left at 20/HP
    g.run_to("00:15:00")                                # ... which take 5 min at 10/HP
    assert g.ch(2).hp == 1


def test_healer_cares_for_at_most_two_at_once():
    g = Game()
    for badge in (1, 2, 4):
        g.at("00:01:00", "down", badge=badge)
        g.at("00:02:00", "bound", badge=badge)
    assert not g.at("00:03:00", "cared_for", badge=1, carer=3)
    assert not g.at("00:03:00", "cared_for", badge=2, carer=3)
    warnings = g.at("00:03:00", "cared_for", badge=4, carer=3)
    assert [w.code for w in warnings] == ["care_limit"]
    assert g.ch(4).carer is None


def test_strenuous_activity_reopens_wounds_and_stops_regeneration():
    g = Game()
    g.at("00:00:00", "strike", badge=2)
    g.at("00:01:00", "bound", badge=2)
    g.at("00:10:00", "strenuous", badge=2)
    g.run_to("01:00:00")
    assert g.ch(2).hp == 1 and not g.ch(2).bound and g.ch(2).condition == ACTIVE
    assert g.fired_of(2) == []


def test_strenuous_at_zero_hit_points_is_unconscious_and_dying_again():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:05:00", "bound", badge=2)
    g.at("00:10:00", "strenuous", badge=2)
    assert g.ch(2).condition == UNCONSCIOUS
    g.run_to("00:20:00")                    # a fresh ten minutes from 00:10:00
    assert g.fired_of(2) == [(ms("00:20:00"), "died")]


def test_removing_the_bandage_reopens_the_wounds():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:05:00", "bound", badge=2)
    g.at("00:06:00", "bandage_removed", badge=2)
    assert g.ch(2).condition == UNCONSCIOUS and not g.ch(2).bound


def test_healer_touch_restores_all_hit_points_and_wakes():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:03:00", "healer_touch", badge=2, healer=3)
    assert g.ch(2).condition == ACTIVE and g.ch(2).hp == 2
    g.run_to("00:30:00")
    assert g.ch(2).condition == ACTIVE


def test_sixth_healer_touch_is_a_rule_warning():
    g = Game()
    for i in range(5):
        g.at(f"00:0{i}:00", "strike", badge=2)
        assert not g.at(f"00:0{i}:10", "healer_touch", badge=2, healer=3)
    g.at("00:06:00", "strike", badge=2)
    warnings = g.at("00:06:10", "healer_touch", badge=2, healer=3)
    assert [w.code for w in warnings] == ["touches_exhausted"]
    assert g.ch(2).hp == 1


def test_healer_touches_are_five_per_scenario():
    g = Game()
    for i in range(5):
        g.at(f"00:0{i}:00", "healer_touch", badge=2, healer=3)
    g.at("01:00:00", "scenario_started", name="second", source="gm")
    assert not g.at("01:01:00", "healer_touch", badge=2, healer=3)


def test_only_healers_heal_by_touch():
    g = Game()
    g.at("00:00:00", "strike", badge=2)
    warnings = g.at("00:00:10", "healer_touch", badge=2, healer=4)
    assert [w.code for w in warnings] == ["not_a_healer"]


def test_armour_points_restored_at_scenario_start_never_during():
    g = Game()
    g.at("00:00:00", "strike", badge=1, count=3)
    g.at("00:01:00", "healer_touch", badge=1, healer=3)
    assert g.ch(1).ap.total == 0               # a touch restores HP, not armour
    g.at("01:00:00", "scenario_started", name="second", source="gm")
    assert g.ch(1).ap.total == 3


def test_respawn_returns_the_dead_after_the_respawn_time_with_full_hp_and_ap():
    g = Game()
    g.at("00:00:00", "scenario_started", name="skirmish", respawn=True, respawn_time=600, source="gm")
    g.at("00:01:00", "strike", badge=1, count=4)
    g.at("00:01:30", "permanent_kill", badge=1)
    g.run_to("00:11:29")
    assert g.ch(1).condition == DEAD
    g.run_to("00:11:30")
    assert g.ch(1).condition == ACTIVE and g.ch(1).hp == 2 and g.ch(1).ap.total == 3


def test_no_respawn_in_a_scenario_without_respawn():
    g = Game()
    g.at("00:01:00", "permanent_kill", badge=1)
    g.run_to("10:00:00")
    assert g.ch(1).condition == DEAD and g.fired == []


def test_stopp_stops_game_time_only_for_the_characters_it_covers():
    g = Game()
    g.at("00:00:00", "down", badge=2)            # Wolves: dies 00:10:00 + stop
    g.at("00:00:00", "down", badge=11)           # Ravens: dies 00:10:00
    g.at("00:05:00", "stopp_called", stopp="S1", groups=["Wolves"], caller=4, reason="injury")
    g.at("00:08:00", "stopp_lifted", stopp="S1", source="gm")
    g.run_to("01:00:00")
    assert g.fired_of(11) == [(ms("00:10:00"), "died")]
    assert g.fired_of(2) == [(ms("00:13:00"), "died")]


def test_stopp_holds_deadlines_while_in_force():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:05:00", "stopp_called", stopp="S1", caller=4, reason="danger")
    g.run_to("02:00:00")
    assert g.ch(2).condition == UNCONSCIOUS
    (d,) = g.state.deadlines_of(2)
    assert d.due is None and d.remaining == ms("00:05:00")


def test_stopp_lasting_too_long_alerts_the_game_master():
    g = Game()
    g.at("00:05:00", "stopp_called", stopp="S1", caller=4, reason="injury")
    g.run_to("01:00:00")
    overdue = [e for e in g.fired if e.type == "stopp_overdue"]
    assert [(e.t, e.data["stopp"]) for e in overdue] == [(ms("00:20:00"), "S1")]


def test_trivial_stopp_makes_the_caller_unconscious():
    g = Game()
    g.at("00:05:00", "stopp_called", stopp="S1", caller=4, reason="unpleasant")
    g.at("00:06:00", "stopp_lifted", stopp="S1", trivial=True, source="gm")
    assert g.ch(4).condition == UNCONSCIOUS and g.ch(4).hp == 0
    g.run_to("00:16:00")
    assert g.ch(4).condition == DEAD


def test_strike_on_the_dead_is_a_rule_warning():
    g = Game()
    g.at("00:01:00", "permanent_kill", badge=2)
    warnings = g.at("00:02:00", "strike", badge=2)
    assert [w.code for w in warnings] == ["target_dead"]
    assert g.ch(2).deaths == 1


def test_death_reported_twice_counts_once():
    g = Game()
    g.at("00:01:00", "died", badge=2)
    warnings = g.at("00:01:05", "died", badge=2, source="marshal:M2")
    assert [w.code for w in warnings] == ["target_dead"]
    assert g.ch(2).deaths == 1 and len(g.state.deaths) == 1


def test_game_master_may_override_hit_points():
    g = Game(ROSTER + [Member(99, "Troll", "South", "Ravens", "warrior", hp=5)])
    assert g.ch(99).max_hp == 5 and g.ch(99).hp == 5
    g.at("00:00:00", "hp_set", badge=2, max_hp=3, source="gm")
    assert g.ch(2).hp == 3


def test_warrior_has_two_hit_points_and_healer_one():
    g = Game()
    assert g.ch(2).max_hp == 2 and g.ch(3).max_hp == 1


def test_unknown_badge_is_a_warning_not_a_crash():
    g = Game()
    warnings = g.at("00:00:00", "down", badge=777)
    assert [w.code for w in warnings] == ["unknown_badge"]


def test_scenario_end_cancels_rule_timers():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:05:00", "scenario_ended", source="gm")
    g.run_to("01:00:00")
    assert g.fired == [] and g.ch(2).condition == UNCONSCIOUS


def test_carer_going_down_ends_the_care():
    g = Game()
    g.at("00:00:00", "down", badge=2)
    g.at("00:00:00", "bound", badge=2)
    g.at("00:00:00", "cared_for", badge=2, carer=3)
    g.at("00:05:00", "down", badge=3)           # half of the 10 minutes done
    assert g.ch(2).carer is None
    g.run_to("00:15:00")                        # the other half at 20/HP takes 10 min
    assert g.ch(2).hp == 1
