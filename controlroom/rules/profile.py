"""Ruleset profiles: the seed's numbers, loaded from organiser-editable TOML."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from controlroom.i18n import language, translate
from controlroom.rules.inspection_limits import InspectionLimits
from controlroom.rules.profile_schema import ProfileError, nearest, unknown_keys

DEFAULT_PROFILE = "default"
REQUIRED = object()         # a key the ruleset must give
ABOVE_ZERO = object()       # a number that must be above 0 (a time, a rate)


@dataclass(frozen=True, slots=True)
class CharacterClass:
    name: str
    hit_points: int
    healer_touches: int = 0
    max_cared: int = 0


ARMOUR_MATERIALS = ("leather", "metal", "chain")
ROUNDINGS = ("up", "down", "nearest")
# What the seed's helmets and armour pieces are made of (Appendix 2), for rulesets that do not say.
SEED_HELMET_MADE_OF = {"leather": "leather", "metal": "metal"}
SEED_BODY_MADE_OF = {"leather": "leather", "hardened_leather": "leather", "chain": "chain",
                     "chain_on_gambeson": "chain", "plate": "metal", "brigandine": "metal"}


@dataclass(frozen=True, slots=True)
class MaterialMinimums:
    """Appendix 2: the least thickness, in mm, of the material that earns armour points."""

    body_leather_min_mm: float = 2.0
    body_metal_min_mm: float = 1.0
    helmet_leather_min_mm: float = 5.0
    helmet_metal_min_mm: float = 1.0
    chain_wire_over_mm: float = 1.0         # strictly over: "the thickness of the wire must be over 1mm"


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
    permanent_kill_count_ms: int = 10_000
    body_rounding: str = "up"
    materials: MaterialMinimums = MaterialMinimums()
    helmet_made_of: Mapping[str, str] = field(default_factory=dict)
    body_made_of: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)     # the ruleset's name per language ([names])

    def name_in(self, code: str | None = None) -> str:
        """The ruleset's name in a language (None: the language spoken): its ``[names]`` entry, else ``name``."""
        return self.names.get(code or language(), self.name)

    def character_class(self, name: str) -> CharacterClass:
        try:
            return self.classes[name.strip().lower()]
        except KeyError:
            known = ", ".join(sorted(self.classes))
            raise ProfileError(translate("rules", "unknown class {name} (this ruleset knows: {known})").format(
                name=repr(name), known=known)) from None


def _seconds(table: Mapping[str, Any], key: str, where: str, low: Any = 0, default: Any = REQUIRED) -> int:
    return int(round(_number(table, key, where, low, default) * 1000))


def _number(table: Mapping[str, Any], key: str, where: str, low: float = 0, default: Any = REQUIRED) -> float:
    """A finite number of at least ``low`` (above 0 when ``low`` is ABOVE_ZERO)."""
    if key not in table and default is not REQUIRED:
        return default
    try:
        value = table[key]
    except KeyError:
        raise ProfileError(f"{where}: missing '{key}'") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ProfileError(f"{where}: '{key}' must be a number, not {value!r}")
    if low is ABOVE_ZERO:
        if value <= 0:
            raise ProfileError(f"{where}: '{key}' must be above 0, not {value!r}")
    elif value < low:
        raise ProfileError(f"{where}: '{key}' must be at least {low}, not {value!r}")
    return value


def _int(table: Mapping[str, Any], key: str, where: str, low: int = 0, default: Any = REQUIRED) -> int:
    value = _number(table, key, where, low, default)
    if int(value) != value:
        raise ProfileError(f"{where}: '{key}' must be a whole number, not {value!r}")
    return int(value)


def _bool(table: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise ProfileError(f"{where}: '{key}' must be true or false, not {value!r}")
    return value


def _table(data: Mapping[str, Any], key: str, where: str, required: bool = True) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise ProfileError(f"{where}: missing table [{key}]")
    return value


def _points(table: Mapping[str, Any], where: str, cap: int) -> dict[str, int]:
    out = {}
    for name in table:
        points = _int(table, name, where)
        if points > cap:
            raise ProfileError(f"{where}: '{name}' gives {points} armour points, but no character can have "
                               f"over max_total = {cap}")
        out[name.lower()] = points
    return out


def _made_of(table: Mapping[str, Any], pieces: Mapping[str, int], seed: Mapping[str, str], where: str,
             allowed: tuple[str, ...]) -> dict[str, str]:
    """What each armour piece is made of: the ruleset's table (complete), or the seed's for the seed's pieces."""
    if not table:
        return {name: seed[name] for name in pieces if name in seed}
    out = {}
    for name, material in table.items():
        if name.lower() not in pieces:
            raise ProfileError(f"{where}: unknown armour piece '{name}'{nearest(name, pieces)}")
        if material not in allowed:
            raise ProfileError(f"{where}: '{name}' must be made of {', '.join(allowed)}, not {material!r}")
        out[name.lower()] = material
    missing = sorted(set(pieces) - set(out))
    if missing:
        raise ProfileError(f"{where}: say what '{missing[0]}' is made of ({', '.join(allowed)})")
    return out


def profile_from_dict(data: Mapping[str, Any], source: str = "") -> RulesProfile:
    """Build a profile from parsed TOML, with messages naming the bad key (unknown keys are refused)."""
    where = source or "ruleset"
    unknown = unknown_keys(data)
    if unknown:
        raise ProfileError("\n".join(f"{where}: {problem}" for problem in unknown))
    classes_t = _table(data, "classes", where)
    classes = {}
    for cname, ctable in classes_t.items():
        w = f"{where} [classes.{cname}]"
        classes[cname.lower()] = CharacterClass(
            name=cname.lower(),
            hit_points=_int(ctable, "hit_points", w, low=1),
            healer_touches=_int(ctable, "healer_touches", w, default=0),
            max_cared=_int(ctable, "max_cared", w, default=0),
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
    name = data.get("name", source or "unnamed ruleset")
    if not isinstance(name, str) or not name.strip():
        raise ProfileError(f"{where}: 'name' must be a text, not {name!r}")
    names = _table(data, "names", where, required=False)
    for code, text in names.items():
        if not isinstance(text, str) or not text.strip():
            raise ProfileError(f"{where} [names]: '{code}' must be a text, not {text!r}")
    w_armour = f"{where} [armour]"
    max_total = _int(armour, "max_total", w_armour)
    inadequate_max = _int(armour, "inadequate_max", w_armour)
    if inadequate_max > max_total:
        raise ProfileError(f"{w_armour}: 'inadequate_max' ({inadequate_max}) cannot be above 'max_total' ({max_total})")
    rounding = armour.get("body_rounding", "up")
    if rounding not in ROUNDINGS:
        raise ProfileError(f"{w_armour}: 'body_rounding' must be one of {', '.join(ROUNDINGS)}, not {rounding!r}")
    helmet_points = _points(_table(armour, "helmet", w_armour), f"{where} [armour.helmet]", max_total)
    body_points = _points(_table(armour, "body", w_armour), f"{where} [armour.body]", max_total)
    mat = _table(armour, "materials", w_armour, required=False)
    w_mat = f"{where} [armour.materials]"
    seed = MaterialMinimums()
    materials = MaterialMinimums(**{f: float(_number(mat, f, w_mat, default=getattr(seed, f)))
                                    for f in MaterialMinimums.__slots__})
    inspection = data.get("inspection", {})
    if inspection:
        InspectionLimits.from_profile(inspection)
    return RulesProfile(
        name=name,
        names={code.lower(): text.strip() for code, text in names.items()},
        classes=classes,
        members_per_healer=_int(groups, "members_per_healer", f"{where} [groups]", low=1),
        strike_damage=_int(combat, "strike_damage", f"{where} [combat]", low=1),
        big_stone_damage=_int(combat, "big_stone_damage", f"{where} [combat]", low=1),
        big_stone_on_shield_ms=_seconds(combat, "big_stone_on_shield_unconscious", f"{where} [combat]", ABOVE_ZERO),
        knockout_ms=_seconds(combat, "knockout_unconscious", f"{where} [combat]", ABOVE_ZERO),
        knockout_blocked_by_helmet=_bool(combat, "knockout_blocked_by_helmet", f"{where} [combat]", True),
        dying_ms=_seconds(death, "unconscious_until_death", f"{where} [death]", ABOVE_ZERO),
        permanent_kill_count_ms=_seconds(death, "permanent_kill_count_seconds", f"{where} [death]", default=10),
        regen_bound_ms=_seconds(healing, "regen_bound", f"{where} [healing]", ABOVE_ZERO),
        regen_cared_ms=_seconds(healing, "regen_cared", f"{where} [healing]", ABOVE_ZERO),
        armour_max_total=max_total,
        armour_inadequate_max=inadequate_max,
        body_rounding=rounding,
        helmet_points=helmet_points,
        body_points=body_points,
        materials=materials,
        helmet_made_of=_made_of(_table(armour, "helmet_made_of", w_armour, required=False), helmet_points,
                                SEED_HELMET_MADE_OF, f"{where} [armour.helmet_made_of]", ("leather", "metal")),
        body_made_of=_made_of(_table(armour, "body_made_of", w_armour, required=False), body_points,
                              SEED_BODY_MADE_OF, f"{where} [armour.body_made_of]", ARMOUR_MATERIALS),
        trivial_stopp_unconscious=_bool(stopp, "trivial_call_unconscious", f"{where} [stopp]", True),
        stopp_overdue_ms=_seconds(stopp, "overdue_alert", f"{where} [stopp]", ABOVE_ZERO),
        respawn_ms=_seconds(scenario, "respawn_time", f"{where} [scenario]"),
        inspection=inspection,
        source=source,
    )


def load_profile(name_or_path: str | Path = DEFAULT_PROFILE) -> RulesProfile:
    """Load a bundled profile by name (``default``) or a TOML file by path."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ProfileError(translate("rules", "cannot read the ruleset {path}: {error}").format(
                path=path, error=exc.strerror or exc)) from None
        source = str(path)
    else:
        res = resources.files("controlroom.resources").joinpath("rules", f"{name_or_path}.toml")
        if not res.is_file():
            raise ProfileError(translate("rules", "there is no ruleset named {name} with controlroom").format(
                name=repr(str(name_or_path))))
        text = res.read_text(encoding="utf-8")
        source = f"{name_or_path}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(translate("rules", "{source}: not a valid TOML file: {error}").format(
            source=source, error=exc)) from None
    return profile_from_dict(data, source)


_default: RulesProfile | None = None


def default_profile() -> RulesProfile:
    """The bundled seed profile, loaded once."""
    global _default
    if _default is None:
        _default = load_profile(DEFAULT_PROFILE)
    return _default
