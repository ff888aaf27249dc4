"""The inspection tests' reference items (each at the limits of Appendix 1 of the seed ruleset, each passing), and
``only``: a verdict that fails exactly one criterion, with a message and the rule it cites."""

from __future__ import annotations

import copy
from dataclasses import replace

from controlroom.rules.inspection import RULES, Arrow, BigStone, RangedWeapon, Shield, SiegeArrow, Verdict, Weapon
from controlroom.rules.profile import default_profile

SWORD = Weapon(length_cm=80, former="fiberglass", former_width_mm=10, padding="polyethylene_foam",
               covering="latex", striking_padding_mm=10, tip_padding_mm=50)
PVC_SWORD = replace(SWORD, former="pvc_tube", former_width_mm=30, has_stopper=True)
BOW = RangedWeapon(weight_g=300, pull_kg=18, wholly_padded=True)
ARROW = Arrow(length_cm=100, weight_g=150, fletching="quill", tip_width_mm=50, tip_padding_mm=50,
              has_stopper=True, shaft="wooden_round_strip", shaft_width_mm=10)
STONE = BigStone(size_cm=30, weight_g=300, filling="porolon")
BOLT = SiegeArrow(head_width_cm=30, tip_padding_cm=10, has_stopper=True, shaft_fully_padded=True,
                  length_cm=160, weight_g=299)
SHIELD = Shield(width_cm=55, padded_edge=True, protruding_details=False, base_material="plywood",
                used_for_bashing=True)


def only(verdict: Verdict, criterion: str) -> None:
    """The verdict fails exactly this one criterion, with a message and a cited rule."""
    assert not verdict.passed
    assert verdict.criteria == (criterion,)
    failure = verdict.failures[0]
    assert failure.message and failure.rule
    assert failure.rule in RULES.values()


def profile_dict() -> dict:
    return copy.deepcopy(dict(default_profile().inspection))
