"""The rule of the seed each rule warning stands for, by warning code (for the report's appendix)."""

from __future__ import annotations

_NO_INTERACTION = "Hit Points"          # "Unconscious character cannot move or interact with others"

RULE_OF_WARNING: dict[str, str] = {
    "target_dead": "Death",
    "not_conscious": "Knocking Out",
    "knockout_refused": "Knocking Out",
    "no_wounds": "Tending and binding",
    "not_bound": "Tending and binding",
    "self_care": "Tending and binding",
    "binder_not_conscious": _NO_INTERACTION,
    "carer_not_conscious": _NO_INTERACTION,
    "healer_not_conscious": _NO_INTERACTION,
    "killer_not_conscious": _NO_INTERACTION,
    "looter_not_conscious": _NO_INTERACTION,
    "kill_count_short": "Death",             # "at least 10 seconds, counting the seconds loud and clear"
    "care_limit": "Appendix 3: Healer",
    "not_a_healer": "Appendix 3: Healer",
    "touches_exhausted": "Appendix 3: Healer",
    "not_dead": "Valhalla",
    "already_in_valhalla": "Valhalla",
    "bad_armour": "Appendix 2",
    "armour_material": "Appendix 2",
    "loot_without_consent": "Spoils of war",
    "nothing_owed": "Responsibility",
    "not_owed": "Responsibility",
    "stopp_active": "STOPP rule",
    "stopp_unknown": "STOPP rule",
    "stopp_in_force": "STOPP rule",      # "avoid movement and interaction during the game stop"
    "tag_reused": "Appendix 1",
    "bad_measures": "Appendix 1",
    "verdict_mismatch": "Appendix 1",
    "stale_timer": "(rule timer)",
    "unknown_badge": "(roster)",
    "unknown_type": "(report type)",
}


def rule_of(code: str) -> str:
    """The seed's rule a warning code stands for, or the code itself for one not listed."""
    return RULE_OF_WARNING.get(code, code.replace("_", " "))
