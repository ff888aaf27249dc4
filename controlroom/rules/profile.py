"""Ruleset profiles: the seed's numbers, loaded from organiser-editable TOML."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

DEFAULT_PROFILE = "default"


class ProfileError(ValueError):
    """A ruleset profile is missing, unreadable or has a bad value."""


@dataclass(frozen=True, slots=True)
class CharacterClass:
    name: str
    hit_points: int
    healer_touches: int = 0
    max_cared: int = 0


@dataclass(frozen=True, slots=True)
class RulesProfile:
    """Every quantified rule the game engine uses.  Times are in milliseconds."""

    name: str
    classes: Mapping[str, CharacterClass]
    members_per_healer: int
    strike_damage: int
    big_stone_damage: int
    big_stone_on_shield_ms: int
    knockout_ms: int
    knockout_blocked_by_helmet: bool
    dying_ms: int
    regen_bound_ms: int
    regen_cared_ms: int
    armour_max_total: int
    armour_inadequate_max: int
    helmet_points: Mapping[str, int]
    body_points: Mapping[str, int]
    trivial_stopp_unconscious: bool
    stopp_overdue_ms: int
    respawn_ms: int
    inspection: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""

    def character_class(self, name: str) -> CharacterClass:
        try:
            return self.classes[name.strip().lower()]
        except KeyError:
            known = ", ".join(sorted(self.classes))
            raise ProfileError(f"unknown class {name!r} (this ruleset knows: {known})") from None


def _seconds(table: Mapping[str, Any], key: str, where: str) -> int:
    return int(round(_number(table, key, where) * 1000))


def _number(table: Mapping[str, Any], key: str, where: str) -> float:
    try:
        value = table[key]
    except KeyError:
        raise ProfileError(f"{where}: missing '{key}'") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ProfileError(f"{where}: '{key}' must be a number >= 0, not {value!r}")
    return value


def _int(table: Mapping[str, Any], key: str, where: str) -> int:
    value = _number(table, key, where)
    if int(value) != value:
        raise ProfileError(f"{where}: '{key}' must be a whole number, not {value!r}")
    return int(value)


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ProfileError(f"{where}: missing table [{key}]")
    return value


def _points(table: Mapping[str, Any], where: str) -> dict[str, int]:
    return {name: _int(table, name, where) for name in table}


def profile_from_dict(data: Mapping[str, Any], source: str = "") -> RulesProfile:
    """Build a profile from parsed TOML, with messages naming the bad key."""
    where = source or "ruleset"
    classes_t = _table(data, "classes", where)
    classes = {}
    for cname, ctable in classes_t.items():
        if not isinstance(ctable, dict):
            raise ProfileError(f"{where}: [classes.{cname}] must be a table")
        w = f"{where} [classes.{cname}]"
        classes[cname.lower()] = CharacterClass(
            name=cname.lower(),
            hit_points=_int(ctable, "hit_points", w),
            healer_touches=_int(ctable, "healer_touches", w) if "healer_touches" in ctable else 0,
            max_cared=_int(ctable, "max_cared", w) if "max_cared" in ctable else 0,
        )
    if not classes:
        raise ProfileError(f"{where}: [classes] names no class")
    groups = _table(data, "groups", where)
    combat = _table(data, "combat", where)
    death = _table(data, "death", where)
    healing = _table(data, "healing", where)
    armour = _table(data, "armour", where)
    stopp = _table(data, "stopp", where)
    scenario = _table(data, "scenario", where)
    return RulesProfile(
        name=str(data.get("name", source or "unnamed ruleset")),
        classes=classes,
        members_per_healer=_int(groups, "members_per_healer", f"{where} [groups]"),
        strike_damage=_int(combat, "strike_damage", f"{where} [combat]"),
        big_stone_damage=_int(combat, "big_stone_damage", f"{where} [combat]"),
        big_stone_on_shield_ms=_seconds(combat, "big_stone_on_shield_unconscious", f"{where} [combat]"),
        knockout_ms=_seconds(combat, "knockout_unconscious", f"{where} [combat]"),
        knockout_blocked_by_helmet=bool(combat.get("knockout_blocked_by_helmet", True)),
        dying_ms=_seconds(death, "unconscious_until_death", f"{where} [death]"),
        regen_bound_ms=_seconds(healing, "regen_bound", f"{where} [healing]"),
        regen_cared_ms=_seconds(healing, "regen_cared", f"{where} [healing]"),
        armour_max_total=_int(armour, "max_total", f"{where} [armour]"),
        armour_inadequate_max=_int(armour, "inadequate_max", f"{where} [armour]"),
        helmet_points=_points(_table(armour, "helmet", f"{where} [armour]"), f"{where} [armour.helmet]"),
        body_points=_points(_table(armour, "body", f"{where} [armour]"), f"{where} [armour.body]"),
        trivial_stopp_unconscious=bool(stopp.get("trivial_call_unconscious", True)),
        stopp_overdue_ms=_seconds(stopp, "overdue_alert", f"{where} [stopp]"),
        respawn_ms=_seconds(scenario, "respawn_time", f"{where} [scenario]"),
        inspection=data.get("inspection", {}),
        source=source,
    )


def load_profile(name_or_path: str | Path = DEFAULT_PROFILE) -> RulesProfile:
    """Load a bundled profile by name (``default``) or a TOML file by path."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ProfileError(f"cannot read ruleset {path}: {exc.strerror or exc}") from None
        source = str(path)
    else:
        res = resources.files("controlroom.resources").joinpath("rules", f"{name_or_path}.toml")
        if not res.is_file():
            raise ProfileError(f"no bundled ruleset named {str(name_or_path)!r}")
        text = res.read_text(encoding="utf-8")
        source = f"{name_or_path}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: not valid TOML: {exc}") from None
    return profile_from_dict(data, source)


_default: RulesProfile | None = None


def default_profile() -> RulesProfile:
    """The bundled seed profile, loaded once."""
    global _default
    if _default is None:
        _default = load_profile(DEFAULT_PROFILE)
    return _default
