"""Tests for the inspection of ranged weapons, arrows, big stones, siege engines, siege arrows and shields
(Appendix 1 of the seed ruleset); swords and the rest: test_inspection.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controlroom.rules.inspection import (
    SiegeEngine,
    inspect_arrow,
    inspect_big_stone,
    inspect_ranged_weapon,
    inspect_shield,
    inspect_siege_arrow,
    inspect_siege_engine,
)
from tests.support.inspection_items import ARROW, BOLT, BOW, SHIELD, STONE, only

# --- ranged weapons and arrows ----------------------------------------------------------------

def test_ranged_weapon_not_wholly_padded_fails():
    only(inspect_ranged_weapon(replace(BOW, wholly_padded=False)), "ranged_padding")


def test_ranged_weapon_heavier_than_300_g_fails():
    only(inspect_ranged_weapon(replace(BOW, weight_g=301)), "ranged_weight")


def test_ranged_weapon_pulling_more_than_18_kg_fails():
    verdict = inspect_ranged_weapon(replace(BOW, pull_kg=18.5))
    only(verdict, "ranged_pull")
    assert verdict.failures[0].message == "pulling strength 18.5 kg is over the 18 kg maximum"


def test_arrow_longer_than_100_cm_fails():
    only(inspect_arrow(replace(ARROW, length_cm=101)), "arrow_length")


def test_arrow_heavier_than_150_g_fails():
    only(inspect_arrow(replace(ARROW, weight_g=151)), "arrow_weight")


@pytest.mark.parametrize("fletching", ["quill", "paper", "Paper"])
def test_arrow_with_quill_or_paper_fletching_passes(fletching):
    assert inspect_arrow(replace(ARROW, fletching=fletching)).passed


def test_arrow_with_other_fletching_fails():
    verdict = inspect_arrow(replace(ARROW, fletching="plastic vanes"))
    only(verdict, "fletching")
    assert "quill" in verdict.failures[0].message and "paper" in verdict.failures[0].message


def test_arrow_tip_narrower_than_50_mm_fails():
    only(inspect_arrow(replace(ARROW, tip_width_mm=49)), "arrow_tip_width")


def test_arrow_tip_padding_under_50_mm_over_the_shaft_fails():
    only(inspect_arrow(replace(ARROW, tip_padding_mm=49)), "arrow_tip_padding")


def test_arrow_without_stopper_fails():
    only(inspect_arrow(replace(ARROW, has_stopper=False)), "arrow_stopper")


def test_arrow_shaft_of_a_material_not_in_the_list_fails():
    verdict = inspect_arrow(replace(ARROW, shaft="steel_rod"))
    only(verdict, "arrow_shaft_material")
    assert "carbon fiber tube" in verdict.failures[0].message


def test_arrow_shaft_wider_than_10_mm_fails():
    only(inspect_arrow(replace(ARROW, shaft="carbon_fiber_tube", shaft_width_mm=11)), "arrow_shaft_width")


# --- big stone, siege engines, siege arrows ---------------------------------------------------

def test_big_stone_thinner_than_30_cm_fails():
    only(inspect_big_stone(replace(STONE, size_cm=29)), "big_stone_size")


def test_big_stone_heavier_than_300_g_fails():
    only(inspect_big_stone(replace(STONE, weight_g=301)), "big_stone_weight")


def test_big_stone_filling_not_in_the_list_fails():
    verdict = inspect_big_stone(replace(STONE, filling="sand"))
    only(verdict, "big_stone_filling")
    assert "straw or grass" in verdict.failures[0].message


def test_big_stone_with_added_weights_fails():
    only(inspect_big_stone(replace(STONE, added_weights=True)), "added_weights")


def test_siege_engine_pulling_more_than_40_kg_fails():
    only(inspect_siege_engine(SiegeEngine(pull_kg=41)), "siege_engine_pull")


def test_siege_arrow_head_narrower_than_30_cm_fails():
    only(inspect_siege_arrow(replace(BOLT, head_width_cm=29)), "siege_arrow_head")


def test_siege_arrow_tip_padding_under_10_cm_fails():
    only(inspect_siege_arrow(replace(BOLT, tip_padding_cm=9.5)), "siege_arrow_tip")


def test_siege_arrow_without_stopper_fails():
    only(inspect_siege_arrow(replace(BOLT, has_stopper=False)), "siege_arrow_stopper")


def test_siege_arrow_without_fully_padded_shaft_fails():
    only(inspect_siege_arrow(replace(BOLT, shaft_fully_padded=False)), "siege_arrow_shaft")


def test_siege_arrow_longer_than_160_cm_fails():
    only(inspect_siege_arrow(replace(BOLT, length_cm=161)), "siege_arrow_length")


def test_siege_arrow_of_exactly_300_g_fails_and_299_passes():
    assert inspect_siege_arrow(replace(BOLT, weight_g=299)).passed
    verdict = inspect_siege_arrow(replace(BOLT, weight_g=300))
    only(verdict, "siege_arrow_weight")
    assert "300 g" in verdict.failures[0].message


# --- shields ----------------------------------------------------------------------------------

def test_shield_without_padded_edge_fails():
    only(inspect_shield(replace(SHIELD, padded_edge=False)), "shield_edge")


def test_shield_with_sharp_or_protruding_details_fails():
    only(inspect_shield(replace(SHIELD, protruding_details=True)), "shield_face")


def test_shield_with_metal_base_fails():
    only(inspect_shield(replace(SHIELD, base_material="Metal")), "shield_base")


def test_shield_narrower_than_55_cm_cannot_be_used_for_bashing():
    verdict = inspect_shield(replace(SHIELD, width_cm=54))
    only(verdict, "shield_bash_width")
    assert "54 cm" in verdict.failures[0].message and "55 cm" in verdict.failures[0].message


def test_narrow_shield_not_used_for_bashing_passes():
    assert inspect_shield(replace(SHIELD, width_cm=30, used_for_bashing=False)).passed
