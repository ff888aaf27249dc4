"""Armour points (Appendix 2), hit points, strikes, big stones, knock-outs, healer limits."""

import dataclasses

import pytest

from controlroom.rules.armour import ArmourPoints, absorb, armour_points
from controlroom.rules.combat import Vitals, big_stone, class_hit_points, knockout_refusal, max_healers, strike
from controlroom.rules.profile import ProfileError, default_profile

P = default_profile()


def test_warrior_class_has_two_hit_points():
    assert class_hit_points(P, "warrior") == 2


def test_healer_class_has_one_hit_point():
    assert class_hit_points(P, "Healer") == 1


def test_game_master_may_override_any_characters_hit_points():
    assert class_hit_points(P, "healer", override=4) == 4
    with pytest.raises(ValueError):
        class_hit_points(P, "warrior", override=0)


def test_unknown_class_is_named_in_the_error():
    with pytest.raises(ProfileError, match="unknown class 'mage'.*healer, warrior"):
        class_hit_points(P, "mage")


def test_body_armour_is_the_mean_of_the_pieces_rounded_up():
    # leather 1 + plate 3 -> 2; leather 1 + chain 2 -> 1.5 -> 2; leather + leather + plate -> 5/3 -> 2
    assert armour_points(P, None, ["leather", "plate"]).body == 2
    assert armour_points(P, None, ["leather", "chain"]).body == 2
    assert armour_points(P, None, ["leather", "leather", "chain"]).body == 2
    assert armour_points(P, None, ["plate"]).body == 3


def test_helmet_adds_its_full_points():
    ap = armour_points(P, "metal", ["leather", "chain"])
    assert (ap.body, ap.helmet, ap.total) == (2, 2, 4)


def test_armour_total_never_above_five():
    ap = armour_points(P, "metal", ["plate", "plate"])
    assert ap.total == 5 and ap.helmet == 2        # the body part is cut, the helmet kept


def test_inadequate_material_gives_at_most_three():
    assert armour_points(P, "metal", ["plate"], inadequate=True).total == 3
    assert armour_points(P, None, [], inadequate=True, gm_points=5).total == 3
    assert armour_points(P, None, [], inadequate=True, gm_points=2).total == 2


def test_unknown_armour_piece_is_named():
    with pytest.raises(ProfileError, match="unknown armour piece 'mithril'"):
        armour_points(P, None, ["mithril"])


def test_helmet_points_are_depleted_last():
    ap, rest = absorb(ArmourPoints(body=2, helmet=1), 2, on_body_armour=True)
    assert ap == ArmourPoints(0, 1) and rest == 0
    ap, rest = absorb(ap, 2, on_body_armour=True)
    assert ap == ArmourPoints(0, 0) and rest == 1


def test_strike_where_no_body_armour_is_worn_meets_only_the_helmet():
    ap, rest = absorb(ArmourPoints(body=3, helmet=1), 2, on_body_armour=False)
    assert ap == ArmourPoints(3, 0) and rest == 1


def test_valid_strike_removes_one_point_armour_first():
    v = Vitals(hp=2, max_hp=2, ap=ArmourPoints(1, 0))
    v = strike(P, v)
    assert (v.hp, v.ap.total) == (2, 0)
    v = strike(P, v)
    assert v.hp == 1


def test_hit_points_never_go_below_zero():
    v = strike(P, Vitals(hp=1, max_hp=2), count=5)
    assert v.hp == 0


def test_big_stone_removes_two_hit_points_regardless_of_armour():
    v = big_stone(P, Vitals(hp=2, max_hp=2, ap=ArmourPoints(3, 2)))
    assert v.hp == 0 and v.ap.total == 5


def test_big_stone_on_a_shield_removes_no_hit_points():
    v = Vitals(hp=2, max_hp=2)
    assert big_stone(P, v, on_shield=True) == v


def test_knockout_refused_on_a_helmet_or_when_seen():
    assert knockout_refusal(P, wears_helmet=False, saw_attacker=False) is None
    assert "helmet" in knockout_refusal(P, wears_helmet=True, saw_attacker=False)
    assert "sees" in knockout_refusal(P, wears_helmet=False, saw_attacker=True)


def test_group_may_have_one_healer_per_five_paid_members():
    assert [max_healers(P, n) for n in (0, 4, 5, 9, 10, 11)] == [0, 0, 1, 1, 2, 2]


def test_profile_numbers_default_to_the_seed():
    assert P.dying_ms == 600_000 and P.knockout_ms == 300_000
    assert P.big_stone_on_shield_ms == 300_000
    assert P.regen_bound_ms == 1_200_000 and P.regen_cared_ms == 600_000
    assert P.classes["healer"].healer_touches == 5 and P.classes["healer"].max_cared == 2
    assert P.armour_max_total == 5 and P.armour_inadequate_max == 3
    assert P.members_per_healer == 5 and P.big_stone_damage == 2


def test_edited_profile_changes_the_rules():
    p = dataclasses.replace(P, big_stone_damage=1)
    assert big_stone(p, Vitals(hp=2, max_hp=2)).hp == 1
