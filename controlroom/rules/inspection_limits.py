"""Appendix 1's numbers and material lists, read from a ruleset profile for the inspections."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from controlroom.rules.profile_schema import ProfileError

if TYPE_CHECKING:
    from controlroom.rules.profile import RulesProfile


def _n(value: float) -> str:
    return f"{value:g}"


def _label(category: str) -> str:
    return category.replace("_", "-")


def material_words(name: str) -> str:
    """A material's name as people write it: ``pvc_tube`` -> ``PVC tube`` (names in the profile are codes)."""
    words = name.strip().replace("_", " ").split()
    return " ".join(w.upper() if w.lower() in ("pvc", "ptfe", "epdm") else w for w in words)


def _norm(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").split())


Category = tuple[str, float, float]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _categories(table: Any, where: str) -> tuple[Category, ...]:
    if not isinstance(table, Mapping) or not table:
        raise ProfileError(f"ruleset [{where}] must be a table of [min, max] lengths")
    out = []
    for name, span in table.items():
        if not (isinstance(span, list) and len(span) == 2 and all(_is_number(v) and v >= 0 for v in span)
                and span[0] <= span[1]):
            raise ProfileError(f"ruleset [{where}]: '{name}' must be [min, max] with 0 <= min <= max, "
                               f"not {span!r}")
        out.append((str(name), float(span[0]), float(span[1])))
    return tuple(sorted(out, key=lambda c: (c[1], c[2])))


@dataclass(frozen=True)
class InspectionLimits:
    """Every number and material list of Appendix 1, read from a ruleset profile."""

    striking_padding_min_mm: float
    tip_padding_min_mm: float
    stopper_required_for_hollow: bool
    added_weights_allowed: bool
    length_categories: tuple[Category, ...]     # sorted (name, min_cm, max_cm)
    javelin_categories: tuple[Category, ...]
    formers: Mapping[str, float]                # name -> max width in mm, 0 = no limit
    hollow_formers: tuple[str, ...]
    small_weapon_formers: tuple[str, ...]
    small_weapon_max_length_cm: float
    arrow_shafts: Mapping[str, float]           # name -> max width in mm, 0 = no limit
    padding_materials: tuple[str, ...]
    covering_materials: tuple[str, ...]
    big_stone_fillings: tuple[str, ...]
    ranged_max_weight_g: float
    ranged_max_pull_kg: float
    arrow_max_length_cm: float
    arrow_max_weight_g: float
    arrow_fletching: tuple[str, ...]
    arrow_tip_min_width_mm: float
    arrow_tip_padding_min_mm: float
    big_stone_min_size_cm: float
    big_stone_max_weight_g: float
    siege_engine_max_pull_kg: float
    siege_arrow_head_min_width_cm: float
    siege_arrow_tip_padding_min_cm: float
    siege_arrow_max_length_cm: float
    siege_arrow_max_weight_g: float             # exclusive: the weight must be under it
    shield_bash_min_width_cm: float
    shield_forbidden_bases: tuple[str, ...]

    @classmethod
    def from_profile(cls, profile: RulesProfile | Mapping[str, Any]) -> InspectionLimits:
        """Build the limits from a profile, or from its raw ``[inspection]`` dict."""
        data = profile if isinstance(profile, Mapping) else profile.inspection

        def table(*path: str) -> Mapping[str, Any]:
            node: Any = data
            for key in path:
                node = node.get(key) if isinstance(node, Mapping) else None
            if not isinstance(node, Mapping):
                raise ProfileError(f"ruleset: missing table [{'.'.join(('inspection',) + path)}]")
            return node

        def num(key: str, *path: str) -> float:
            value = table(*path).get(key)
            if not isinstance(value, (int, float)) or not _is_number(value) or value < 0:
                where = ".".join(("inspection",) + path)
                raise ProfileError(f"ruleset [{where}]: '{key}' must be a number >= 0, not {value!r}")
            return float(value)

        def names(key: str, *path: str, default: Any = None) -> tuple[str, ...]:
            value = table(*path).get(key, default)
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                where = ".".join(("inspection",) + path)
                raise ProfileError(f"ruleset [{where}]: '{key}' must be a list of names, not {value!r}")
            return tuple(_norm(v) for v in value)

        def flag(key: str, default: bool) -> bool:
            value = data.get(key, default)
            if not isinstance(value, bool):
                raise ProfileError(f"ruleset [inspection]: '{key}' must be true or false, not {value!r}")
            return value

        def widths(*path: str) -> dict[str, float]:
            return {_norm(k): num(k, *path) for k in table(*path)}

        m = "materials"
        return cls(
            striking_padding_min_mm=num("striking_padding_min_mm"),
            tip_padding_min_mm=num("tip_padding_min_mm"),
            stopper_required_for_hollow=flag("stopper_required_for_hollow", True),
            added_weights_allowed=flag("added_weights_allowed", False),
            length_categories=_categories(data.get("length_categories"), "inspection.length_categories"),
            javelin_categories=_categories(data.get("javelin_categories"), "inspection.javelin_categories"),
            formers=widths(m, "former"),
            hollow_formers=names("hollow_formers", m),
            small_weapon_formers=names("small_weapon_formers", m, default=["cloth_or_leather"]),
            small_weapon_max_length_cm=num("small_weapon_max_length", m),
            arrow_shafts=widths(m, "arrow_shaft"),
            padding_materials=names("padding", m),
            covering_materials=names("covering", m),
            big_stone_fillings=names("big_stone_filling", m),
            ranged_max_weight_g=num("max_weight_g", "ranged"),
            ranged_max_pull_kg=num("max_pull_kg", "ranged"),
            arrow_max_length_cm=num("max_length", "arrow"),
            arrow_max_weight_g=num("max_weight_g", "arrow"),
            arrow_fletching=names("fletching", "arrow"),
            arrow_tip_min_width_mm=num("tip_min_width_mm", "arrow"),
            arrow_tip_padding_min_mm=num("tip_padding_min_mm", "arrow"),
            big_stone_min_size_cm=num("min_size", "big_stone"),
            big_stone_max_weight_g=num("max_weight_g", "big_stone"),
            siege_engine_max_pull_kg=num("max_pull_kg", "siege_engine"),
            siege_arrow_head_min_width_cm=num("head_min_width", "siege_arrow"),
            siege_arrow_tip_padding_min_cm=num("tip_padding_min", "siege_arrow"),
            siege_arrow_max_length_cm=num("max_length", "siege_arrow"),
            siege_arrow_max_weight_g=num("max_weight_g_exclusive", "siege_arrow"),
            shield_bash_min_width_cm=num("bash_min_width", "shield"),
            shield_forbidden_bases=names("forbidden_base", "shield", default=[]),
        )
