"""Every table and key a ruleset profile may have: anything else is refused, naming the nearest known name."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

# A spec is either VALUE (a key holding a value) or a dict: a table whose keys
# are listed.  A table spec with the key NAMES lets the organiser choose the
# names (classes, armour kinds, weapon categories); its value is the spec of
# each named entry.
VALUE = None
NAMES = "*"


class ProfileError(ValueError):
    """A ruleset profile is missing, unreadable or has a bad value."""

_CLASS = {"hit_points": VALUE, "healer_touches": VALUE, "max_cared": VALUE}
_NAMED_VALUES = {NAMES: VALUE}

SCHEMA: dict[str, Any] = {
    "name": VALUE,
    "names": _NAMED_VALUES,
    "classes": {NAMES: _CLASS},
    "groups": {"members_per_healer": VALUE},
    "combat": {
        "strike_damage": VALUE, "big_stone_damage": VALUE, "big_stone_on_shield_unconscious": VALUE,
        "knockout_unconscious": VALUE, "knockout_blocked_by_helmet": VALUE,
    },
    "death": {"unconscious_until_death": VALUE, "permanent_kill_count_seconds": VALUE},
    "healing": {"regen_bound": VALUE, "regen_cared": VALUE},
    "armour": {
        "max_total": VALUE, "inadequate_max": VALUE, "body_rounding": VALUE,
        "helmet": _NAMED_VALUES, "body": _NAMED_VALUES,
        "materials": {
            "body_leather_min_mm": VALUE, "body_metal_min_mm": VALUE, "helmet_leather_min_mm": VALUE,
            "helmet_metal_min_mm": VALUE, "chain_wire_over_mm": VALUE,
        },
        "helmet_made_of": _NAMED_VALUES,
        "body_made_of": _NAMED_VALUES,
    },
    "stopp": {"trivial_call_unconscious": VALUE, "overdue_alert": VALUE},
    "scenario": {"respawn_time": VALUE},
    "inspection": {
        "striking_padding_min_mm": VALUE, "tip_padding_min_mm": VALUE, "stopper_required_for_hollow": VALUE,
        "added_weights_allowed": VALUE,
        "length_categories": _NAMED_VALUES,
        "javelin_categories": _NAMED_VALUES,
        "materials": {
            "former": _NAMED_VALUES, "arrow_shaft": _NAMED_VALUES, "hollow_formers": VALUE,
            "small_weapon_formers": VALUE, "padding": VALUE, "covering": VALUE, "big_stone_filling": VALUE,
            "small_weapon_max_length": VALUE,
        },
        "ranged": {"max_weight_g": VALUE, "max_pull_kg": VALUE},
        "arrow": {"max_length": VALUE, "max_weight_g": VALUE, "fletching": VALUE, "tip_min_width_mm": VALUE,
                  "tip_padding_min_mm": VALUE},
        "big_stone": {"min_size": VALUE, "max_weight_g": VALUE},
        "siege_engine": {"max_pull_kg": VALUE},
        "siege_arrow": {"head_min_width": VALUE, "tip_padding_min": VALUE, "max_length": VALUE,
                        "max_weight_g_exclusive": VALUE},
        "shield": {"bash_min_width": VALUE, "forbidden_base": VALUE},
    },
}


def nearest(name: str, known, table: tuple[str, ...] | None = None) -> str:
    """`` (did you mean 'x'?)`` for the known name closest to a misspelt one (``[a.x]`` for a table), or nothing."""
    close = difflib.get_close_matches(name, [k for k in known if k != NAMES], n=1, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean '{close[0]}'?)" if table is None else f" (did you mean [{'.'.join(table + (close[0],))}]?)"


def _place(path: tuple[str, ...]) -> str:
    return f"in [{'.'.join(path)}]" if path else "at the top of the ruleset"


def unknown_keys(data: Mapping[str, Any], spec: Mapping[str, Any] = SCHEMA, path: tuple[str, ...] = ()) -> list[str]:
    """Every key and table of ``data`` the schema does not know, as sentences naming the place and the nearest name."""
    problems: list[str] = []
    for key, value in data.items():
        if key in spec:
            sub = spec[key]
        elif NAMES in spec:
            sub = spec[NAMES]
        else:
            if isinstance(value, Mapping):
                problems.append(f"unknown table [{'.'.join(path + (key,))}]{nearest(key, spec, path)}")
            else:
                problems.append(f"unknown key '{key}' {_place(path)}{nearest(key, spec)}")
            continue
        if sub is VALUE:
            if isinstance(value, Mapping):
                problems.append(f"'{key}' {_place(path)} is a value, not a table [{'.'.join(path + (key,))}]")
        elif not isinstance(value, Mapping):
            problems.append(f"[{'.'.join(path + (key,))}] must be a table, not the value {value!r}")
        else:
            problems += unknown_keys(value, sub, path + (key,))
    return problems
