"""Tests for weapon inspection (Appendix 1 of the seed ruleset): lengths, materials, padding, dual wielding,
the limits and bad input; ranged weapons, arrows, stones, siege engines and shields: test_inspection_ranged.py."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controlroom.rules.inspection import (
    InspectionLimits,
    SiegeEngine,
    Weapon,
    inspect_arrow,
    inspect_big_stone,
    inspect_dual_wield,
    inspect_ranged_weapon,
    inspect_shield,
    inspect_siege_arrow,
    inspect_siege_engine,
    inspect_weapon,
    weapon_category,
)
from controlroom.rules.profile import ProfileError, default_profile
from tests.support.inspection_items import ARROW, BOLT, BOW, PVC_SWORD, SHIELD, STONE, SWORD, only, profile_dict

# --- the valid reference items pass -----------------------------------------------------------

@pytest.mark.parametrize("verdict", [
    inspect_weapon(SWORD), inspect_weapon(PVC_SWORD), inspect_ranged_weapon(BOW), inspect_arrow(ARROW),
    inspect_big_stone(STONE), inspect_siege_engine(SiegeEngine(40)), inspect_siege_arrow(BOLT),
    inspect_shield(SHIELD),
])
def test_items_at_every_limit_pass(verdict):
    assert verdict.passed
    assert verdict.failures == ()


# --- weapon length categories -----------------------------------------------------------------

@pytest.mark.parametrize("length, category", [
    (30, "one_handed"), (90, "one_handed"), (90.5, "one_and_half_handed"), (120, "one_and_half_handed"),
    (121, "two_handed"), (180, "two_handed"),
])
def test_weapon_length_is_categorised_by_total_length(length, category):
    verdict = inspect_weapon(replace(SWORD, length_cm=length, thrusting=False))
    assert verdict.passed
    assert verdict.category == category


@pytest.mark.parametrize("length", [29, 181, 250])
def test_weapon_length_outside_every_category_fails(length):
    verdict = inspect_weapon(replace(SWORD, length_cm=length))
    only(verdict, "length_category")
    assert verdict.category is None
    assert f"{length} cm" in verdict.failures[0].message


def test_javelin_of_150_cm_is_one_and_a_half_handed_but_a_sword_is_two_handed():
    assert inspect_weapon(replace(SWORD, length_cm=150, is_javelin=True)).category == "one_and_half_handed"
    assert inspect_weapon(replace(SWORD, length_cm=150)).category == "two_handed"


@pytest.mark.parametrize("length, category", [(50, "one_handed"), (100, "one_handed"),
                                              (101, "one_and_half_handed"), (160, "one_and_half_handed")])
def test_javelin_uses_the_javelin_categories(length, category):
    assert weapon_category(replace(SWORD, length_cm=length, is_javelin=True)) == category


@pytest.mark.parametrize("length", [40, 161])
def test_javelin_outside_the_javelin_categories_fails(length):
    verdict = inspect_weapon(replace(SWORD, length_cm=length, is_javelin=True))
    only(verdict, "length_category")
    assert "short spear or a javelin" in verdict.failures[0].rule


# --- materials --------------------------------------------------------------------------------

def test_former_of_a_material_not_in_the_list_fails_naming_the_allowed_ones():
    verdict = inspect_weapon(replace(SWORD, former="steel pipe"))
    only(verdict, "former_material")
    message = verdict.failures[0].message
    for allowed in ("PVC tube", "bamboo", "fiberglass", "cloth or leather"):     # in words, not profile codes
        assert allowed in message
    assert "_" not in message


def test_material_names_are_normalised():
    assert inspect_weapon(replace(SWORD, former="Fiberglass", padding="Polyethylene foam",
                                  covering="  LATEX ")).passed


@pytest.mark.parametrize("former, limit", [("pvc_tube", 30), ("bamboo", 20), ("fiberglass", 10)])
def test_former_wider_than_its_maximum_fails(former, limit):
    base = replace(SWORD, former=former, has_stopper=True)
    assert inspect_weapon(replace(base, former_width_mm=limit)).passed
    verdict = inspect_weapon(replace(base, former_width_mm=limit + 1))
    only(verdict, "former_width")
    assert f"{limit + 1} mm" in verdict.failures[0].message
    assert f"{limit} mm maximum" in verdict.failures[0].message


def test_cloth_or_leather_former_only_in_small_weapons():
    dagger = replace(SWORD, length_cm=50, former="cloth_or_leather", former_width_mm=40)
    assert inspect_weapon(dagger).passed
    only(inspect_weapon(replace(dagger, length_cm=51)), "small_weapon_former")


def test_padding_material_not_in_the_list_fails():
    verdict = inspect_weapon(replace(SWORD, padding="cotton wool"))
    only(verdict, "padding_material")
    assert "tubular insulation" in verdict.failures[0].message


def test_covering_material_not_in_the_list_fails():
    verdict = inspect_weapon(replace(SWORD, covering="plastic_wrap"))
    only(verdict, "covering_material")
    assert "duct tape" in verdict.failures[0].message and "plastic wrap" in verdict.failures[0].message


# --- padding, stopper, weights ----------------------------------------------------------------

def test_striking_padding_under_10_mm_fails():
    verdict = inspect_weapon(replace(SWORD, striking_padding_mm=9))
    only(verdict, "striking_padding")
    assert verdict.failures[0].message == "striking-surface padding 9 mm is below the 10 mm minimum"


def test_tip_padding_under_50_mm_fails():
    verdict = inspect_weapon(replace(SWORD, tip_padding_mm=40))
    only(verdict, "tip_padding")
    assert verdict.failures[0].message == "tip padding 40 mm is below the 50 mm minimum"
    assert "thrusting surface" in verdict.failures[0].rule


def test_tip_padding_is_not_checked_on_a_weapon_without_a_thrusting_tip():
    assert inspect_weapon(replace(SWORD, tip_padding_mm=0, thrusting=False)).passed


@pytest.mark.parametrize("former", ["pvc_tube", "bamboo"])
def test_hollow_former_without_stopper_fails(former):
    weapon = replace(SWORD, former=former, former_width_mm=20, has_stopper=False)
    only(inspect_weapon(weapon), "stopper")
    assert inspect_weapon(replace(weapon, has_stopper=True)).passed


def test_solid_former_needs_no_stopper():
    assert inspect_weapon(replace(SWORD, has_stopper=False)).passed


def test_weapon_with_added_weights_fails():
    only(inspect_weapon(replace(SWORD, added_weights=True)), "added_weights")


def test_weapon_breaking_three_criteria_gets_three_failures():
    verdict = inspect_weapon(replace(PVC_SWORD, striking_padding_mm=5, has_stopper=False, added_weights=True))
    assert verdict.criteria == ("striking_padding", "stopper", "added_weights")
    assert len({f.rule for f in verdict.failures}) == 3


def test_every_failed_weapon_criterion_is_listed():
    verdict = inspect_weapon(Weapon(length_cm=200, former="pvc_tube", former_width_mm=35, padding="wool",
                                    covering="paint", striking_padding_mm=0, tip_padding_mm=0,
                                    added_weights=True))
    assert set(verdict.criteria) == {"length_category", "former_width", "padding_material",
                                     "covering_material", "striking_padding", "tip_padding", "stopper",
                                     "added_weights"}


# --- dual wielding ----------------------------------------------------------------------------

def test_two_one_handed_weapons_may_be_wielded_together():
    verdict = inspect_dual_wield([SWORD, replace(SWORD, length_cm=90)], wielder_height_cm=170)
    assert verdict.passed
    assert verdict.category == "one_handed + one_handed"


def test_one_and_a_half_handed_plus_one_handed_up_to_the_wielders_height_passes():
    long_sword = replace(SWORD, length_cm=110)
    assert inspect_dual_wield([long_sword, replace(SWORD, length_cm=70)], wielder_height_cm=180).passed


def test_one_and_a_half_handed_plus_one_handed_longer_than_the_wielder_fails():
    verdict = inspect_dual_wield([replace(SWORD, length_cm=110), replace(SWORD, length_cm=71)],
                                 wielder_height_cm=180)
    only(verdict, "dual_wield_length")
    assert "181 cm" in verdict.failures[0].message and "180 cm" in verdict.failures[0].message


def test_two_one_and_a_half_handed_weapons_fail():
    long_sword = replace(SWORD, length_cm=100)
    only(inspect_dual_wield([long_sword, long_sword], wielder_height_cm=250), "dual_wield_pair")


def test_a_two_handed_weapon_cannot_be_dual_wielded():
    only(inspect_dual_wield([replace(SWORD, length_cm=150), replace(SWORD, length_cm=40)],
                            wielder_height_cm=250), "dual_wield_pair")


def test_dual_wield_javelin_uses_the_javelin_category():
    javelin = replace(SWORD, length_cm=100, is_javelin=True)
    assert inspect_dual_wield([javelin, javelin], wielder_height_cm=200).passed


def test_two_one_handed_weapons_longer_than_the_wielder_fail():
    verdict = inspect_dual_wield([replace(SWORD, length_cm=90), replace(SWORD, length_cm=90)],
                                 wielder_height_cm=175)
    only(verdict, "dual_wield_length")


@pytest.mark.parametrize("weapons, height", [([SWORD], 180), ([SWORD] * 3, 180), ([SWORD] * 2, 0),
                                             ([SWORD] * 2, -1)])
def test_dual_wield_bad_input_raises(weapons, height):
    with pytest.raises(ValueError):
        inspect_dual_wield(weapons, height)


# --- boundaries: exactly at the limit passes, just over fails ---------------------------------

@pytest.mark.parametrize("inspect, item, field, ok, bad", [
    (inspect_weapon, SWORD, "striking_padding_mm", 10, 9.9),
    (inspect_weapon, SWORD, "tip_padding_mm", 50, 49.9),
    (inspect_ranged_weapon, BOW, "weight_g", 300, 300.1),
    (inspect_ranged_weapon, BOW, "pull_kg", 18, 18.1),
    (inspect_arrow, ARROW, "length_cm", 100, 100.1),
    (inspect_arrow, ARROW, "weight_g", 150, 150.1),
    (inspect_arrow, ARROW, "tip_width_mm", 50, 49.9),
    (inspect_arrow, ARROW, "shaft_width_mm", 10, 10.1),
    (inspect_big_stone, STONE, "size_cm", 30, 29.9),
    (inspect_big_stone, STONE, "weight_g", 300, 300.1),
    (inspect_siege_engine, SiegeEngine(40), "pull_kg", 40, 40.1),
    (inspect_siege_arrow, BOLT, "head_width_cm", 30, 29.9),
    (inspect_siege_arrow, BOLT, "tip_padding_cm", 10, 9.9),
    (inspect_siege_arrow, BOLT, "length_cm", 160, 160.1),
    (inspect_siege_arrow, BOLT, "weight_g", 299.9, 300),
    (inspect_shield, SHIELD, "width_cm", 55, 54.9),
])
def test_boundary_at_the_limit_passes_and_just_past_it_fails(inspect, item, field, ok, bad):
    assert inspect(replace(item, **{field: ok})).passed
    assert len(inspect(replace(item, **{field: bad})).failures) == 1


# --- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: replace(SWORD, length_cm=-1),
    lambda: replace(SWORD, tip_padding_mm=-0.5),
    lambda: replace(SWORD, length_cm=float("nan")),
    lambda: replace(SWORD, length_cm="80"),
    lambda: replace(SWORD, former=None),
    lambda: replace(SWORD, has_stopper="yes"),
    lambda: replace(ARROW, weight_g=-3),
    lambda: replace(STONE, size_cm=float("inf")),
    lambda: SiegeEngine(pull_kg=-1),
    lambda: replace(BOLT, length_cm=True),
    lambda: replace(SHIELD, width_cm=-55),
])
def test_bad_input_raises_value_error(make):
    with pytest.raises(ValueError):
        make()


def test_negative_length_error_names_the_field():
    with pytest.raises(ValueError, match=r"Weapon\.length_cm cannot be negative"):
        replace(SWORD, length_cm=-10)


# --- the profile drives the verdicts ----------------------------------------------------------

def test_limits_come_from_the_default_profile():
    limits = InspectionLimits.from_profile(default_profile())
    assert limits == InspectionLimits.from_profile(default_profile().inspection)
    assert limits.tip_padding_min_mm == 50
    assert limits.formers["pvc_tube"] == 30
    assert limits.siege_arrow_max_weight_g == 300
    assert [c[0] for c in limits.length_categories] == ["one_handed", "one_and_half_handed", "two_handed"]


def test_modified_profile_dict_changes_the_verdict():
    data = profile_dict()
    data["tip_padding_min_mm"] = 40
    data["arrow"]["max_length"] = 120
    data["length_categories"]["two_handed"] = [120, 200]
    limits = InspectionLimits.from_profile(data)
    weapon = replace(SWORD, tip_padding_mm=45)
    assert not inspect_weapon(weapon).passed
    assert inspect_weapon(weapon, limits).passed
    assert not inspect_arrow(replace(ARROW, length_cm=110)).passed
    assert inspect_arrow(replace(ARROW, length_cm=110), limits).passed
    assert inspect_weapon(replace(SWORD, length_cm=190), limits).category == "two_handed"


def test_modified_profile_message_uses_the_new_limit():
    data = profile_dict()
    data["striking_padding_min_mm"] = 15
    verdict = inspect_weapon(replace(SWORD, striking_padding_mm=12), InspectionLimits.from_profile(data))
    assert verdict.failures[0].message == "striking-surface padding 12 mm is below the 15 mm minimum"


def test_profile_may_name_extra_materials():
    data = profile_dict()
    data["materials"]["former"]["carbon_rod"] = 8
    limits = InspectionLimits.from_profile(data)
    assert inspect_weapon(replace(SWORD, former="carbon_rod", former_width_mm=8), limits).passed
    only(inspect_weapon(replace(SWORD, former="carbon_rod", former_width_mm=9), limits), "former_width")


def test_profile_allowing_added_weights_and_no_stopper():
    data = profile_dict()
    data["added_weights_allowed"] = True
    data["stopper_required_for_hollow"] = False
    limits = InspectionLimits.from_profile(data)
    assert inspect_weapon(replace(PVC_SWORD, has_stopper=False, added_weights=True), limits).passed


@pytest.mark.parametrize("mutate", [
    lambda d: d.pop("tip_padding_min_mm"),
    lambda d: d.__setitem__("striking_padding_min_mm", -1),
    lambda d: d["length_categories"].__setitem__("one_handed", [90, 30]),
    lambda d: d["materials"].__setitem__("covering", "duct_tape"),
    lambda d: d.pop("siege_arrow"),
])
def test_bad_profile_raises_profile_error(mutate):
    data = profile_dict()
    mutate(data)
    with pytest.raises(ProfileError):
        InspectionLimits.from_profile(data)


# --- properties -------------------------------------------------------------------------------

@given(st.floats(min_value=0, max_value=400, allow_nan=False))
def test_weapon_category_matches_the_length_table(length):
    weapon = replace(SWORD, length_cm=length, thrusting=False)
    verdict = inspect_weapon(weapon)
    assert verdict.passed == (30 <= length <= 180)
    assert (verdict.category is None) == ("length_category" in verdict.criteria)


@given(st.floats(min_value=0, max_value=100, allow_nan=False),
       st.floats(min_value=0, max_value=100, allow_nan=False))
def test_padding_failures_follow_the_minima(striking, tip):
    verdict = inspect_weapon(replace(SWORD, striking_padding_mm=striking, tip_padding_mm=tip))
    assert ("striking_padding" in verdict.criteria) == (striking < 10)
    assert ("tip_padding" in verdict.criteria) == (tip < 50)
