"""The kinds of Appendix 1 inspection, their measurements by name, and one entry point for all of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any, NamedTuple

from controlroom.rules.inspection import (
    Arrow,
    BigStone,
    RangedWeapon,
    Shield,
    SiegeArrow,
    SiegeEngine,
    Verdict,
    Weapon,
    _limits,
    inspect_arrow,
    inspect_big_stone,
    inspect_ranged_weapon,
    inspect_shield,
    inspect_siege_arrow,
    inspect_siege_engine,
    inspect_weapon,
)
from controlroom.rules.inspection_limits import InspectionLimits

_KINDS: dict[str, tuple[type, Callable[..., Verdict]]] = {
    "weapon": (Weapon, inspect_weapon),
    "ranged_weapon": (RangedWeapon, inspect_ranged_weapon),
    "arrow": (Arrow, inspect_arrow),
    "big_stone": (BigStone, inspect_big_stone),
    "shield": (Shield, inspect_shield),
    "siege_engine": (SiegeEngine, inspect_siege_engine),
    "siege_arrow": (SiegeArrow, inspect_siege_arrow),
}
WEAPON_KINDS: tuple[str, ...] = tuple(_KINDS)

# Shield bases offered besides the forbidden ones (any other base is allowed too).
SHIELD_BASES = ("wood", "plywood", "plastic", "foam")


class Measure(NamedTuple):
    """One measurement of an inspected item: its name, "float", "bool" or "str", and its default."""

    name: str
    type: str
    default: Any


def measures_of(kind: str) -> tuple[Measure, ...]:
    """The measurements an inspection of ``kind`` takes, in the order of the rules' checks."""
    cls, _ = _kind(kind)
    return tuple(Measure(f.name, str(f.type), None if f.default is MISSING else f.default) for f in fields(cls))


def material_choices(kind: str, name: str, limits: InspectionLimits | None = None) -> tuple[str, ...]:
    """The materials the rules name for a text measurement (for a shield's base: common ones and the forbidden)."""
    lim = _limits(limits)
    table: dict[tuple[str, str], tuple[str, ...]] = {
        ("weapon", "former"): tuple(lim.formers),
        ("weapon", "padding"): lim.padding_materials,
        ("weapon", "covering"): lim.covering_materials,
        ("arrow", "fletching"): lim.arrow_fletching,
        ("arrow", "shaft"): tuple(lim.arrow_shafts),
        ("big_stone", "filling"): lim.big_stone_fillings,
        ("shield", "base_material"): SHIELD_BASES + tuple(b for b in lim.shield_forbidden_bases
                                                          if b not in SHIELD_BASES),
    }
    return table.get((kind, name), ())


def inspect_measures(kind: str, measures: Mapping[str, Any], limits: InspectionLimits | None = None) -> Verdict:
    """Inspect an item of ``kind`` from its measurements by name (missing ones take their defaults).

    Raises ValueError naming an unknown kind, an unknown, missing or bad measurement.
    """
    cls, inspect = _kind(kind)
    known = {m.name for m in measures_of(kind)}
    extra = sorted(set(measures) - known)
    if extra:
        raise ValueError(f"{kind}: unknown measurement {extra[0]!r} (measurements: {', '.join(sorted(known))})")
    try:
        item = cls(**measures)
    except TypeError:
        missing = [m.name for m in measures_of(kind) if m.default is None and m.name not in measures]
        raise ValueError(f"{kind}: missing measurement {missing[0]!r}") from None
    return inspect(item, limits)


def _kind(kind: str) -> tuple[type, Callable[..., Verdict]]:
    try:
        return _KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown kind of inspection {kind!r} (kinds: {', '.join(WEAPON_KINDS)})") from None
