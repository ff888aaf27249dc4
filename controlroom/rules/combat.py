"""Combat rules: strikes, big stones, knock-outs, class hit points and healer limits."""

from __future__ import annotations

from typing import NamedTuple

from controlroom.i18n import QT_TRANSLATE_NOOP
from controlroom.rules.armour import ArmourPoints, absorb
from controlroom.rules.profile import RulesProfile

_tuple_new = tuple.__new__


class _VitalsTuple(NamedTuple):
    hp: int
    max_hp: int
    ap: ArmourPoints = ArmourPoints()


class Vitals(_VitalsTuple):
    """Hit points and armour points of one character at one moment (checked when made)."""

    __slots__ = ()

    def __new__(cls, hp: int, max_hp: int, ap: ArmourPoints = ArmourPoints()) -> Vitals:
        if max_hp < 1:
            raise ValueError(f"a character needs at least 1 hit point (got {max_hp})")
        if not 0 <= hp <= max_hp:
            raise ValueError(f"hit points {hp} outside 0..{max_hp}")
        return _tuple_new(cls, (hp, max_hp, ap))      # (the named tuple's own __new__: one call more, per strike)


def class_hit_points(profile: RulesProfile, class_name: str, override: int | None = None) -> int:
    """Starting hit points of a class; a game master may set any character's number."""
    if override is not None:
        if override < 1:
            raise ValueError(f"a game master's hit points must be at least 1 (got {override})")
        return override
    return profile.character_class(class_name).hit_points


def strike(profile: RulesProfile, v: Vitals, count: int = 1, on_body_armour: bool = True) -> Vitals:
    """Valid weapon strikes: one point each, armour points first; hit points never below 0."""
    if count < 1:
        raise ValueError(f"a strike report needs a count of at least 1 (got {count})")
    ap, damage = absorb(v.ap, profile.strike_damage * count, on_body_armour)
    hp, max_hp, _ap = v
    return Vitals(hp - damage if hp > damage else 0, max_hp, ap)


def big_stone(profile: RulesProfile, v: Vitals, on_shield: bool = False) -> Vitals:
    """A big stone removes 2 hit points regardless of armour and helmet; on a shield, none."""
    if on_shield:
        return v
    hp, max_hp, ap = v
    damage = profile.big_stone_damage
    return Vitals(hp - damage if hp > damage else 0, max_hp, ap)


def knockout_refusal(profile: RulesProfile, wears_helmet: bool, saw_attacker: bool) -> str | None:
    """Why a knock-out does not work, or None when it does."""
    if wears_helmet and profile.knockout_blocked_by_helmet:
        return QT_TRANSLATE_NOOP("warnings", "a knock-out does not work on a target wearing a helmet")
    if saw_attacker:
        return QT_TRANSLATE_NOOP("warnings", "a knock-out does not work when the target sees the attacker")
    return None


def max_healers(profile: RulesProfile, paid_members: int) -> int:
    """Healers a group may have: one for every five registered and paid members."""
    if paid_members < 0:
        raise ValueError(f"member count cannot be negative ({paid_members})")
    return paid_members // profile.members_per_healer
