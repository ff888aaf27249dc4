"""The roster: who plays, on which side and in which group, with class and armour."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controlroom.i18n import translate
from controlroom.rules.armour import ArmourPoints, armour_points
from controlroom.rules.combat import class_hit_points, max_healers
from controlroom.rules.profile import ProfileError, RulesProfile


class RosterError(ValueError):
    """A roster entry or a roster as a whole breaks a rule."""


@dataclass(frozen=True, slots=True)
class Member:
    """One registered player and the character they play."""

    badge: int
    name: str
    side: str
    group: str
    cls: str = "warrior"
    paid: bool = True
    helmet: str | None = None
    armour: tuple[str, ...] = ()
    hp: int | None = None          # a game master's override of the class's hit points
    ap: int | None = None          # a game master's armour points (inadequate material etc.)
    inadequate: bool = False

    def max_hp(self, profile: RulesProfile) -> int:
        return class_hit_points(profile, self.cls, self.hp)

    def armour_points(self, profile: RulesProfile) -> ArmourPoints:
        return armour_points(profile, self.helmet, self.armour, self.inadequate, self.ap)

    def to_dict(self) -> dict[str, Any]:
        d = {
            "badge": self.badge, "name": self.name, "side": self.side, "group": self.group,
            "class": self.cls, "paid": self.paid, "helmet": self.helmet, "armour": list(self.armour),
        }
        if self.hp is not None:
            d["hp"] = self.hp
        if self.ap is not None:
            d["ap"] = self.ap
        if self.inadequate:
            d["inadequate"] = True
        return d


_MEMBER_FIELDS = {"badge", "name", "side", "group", "class", "paid", "helmet", "armour", "hp", "ap", "inadequate"}


def member_from_dict(d: Mapping[str, Any], profile: RulesProfile) -> Member:
    """A roster entry from a JSON-like mapping, checked against the ruleset."""
    extra = sorted(set(d) - _MEMBER_FIELDS)
    if extra:
        raise RosterError(f"unknown roster field {extra[0]!r} (fields: {', '.join(sorted(_MEMBER_FIELDS))})")
    badge = d.get("badge")
    if isinstance(badge, bool) or not isinstance(badge, int) or badge < 1:
        raise RosterError(f"badge must be a whole number above 0, not {badge!r}")
    texts = {}
    for key in ("name", "side", "group"):
        value = d.get(key)
        if not isinstance(value, str) or not value.strip():
            raise RosterError(f"badge {badge}: missing {key}")
        texts[key] = value.strip()
    armour = d.get("armour") or ()
    if isinstance(armour, str):
        armour = [a for a in armour.split("+") if a.strip()]
    for key in ("hp", "ap"):
        value = d.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise RosterError(f"badge {badge}: {key} must be a whole number, not {value!r}")
    member = Member(
        badge=badge,
        cls=str(d.get("class") or "warrior").strip().lower(),
        paid=_yes(d.get("paid", True), badge, "paid"),
        helmet=(str(d["helmet"]).strip().lower() or None) if d.get("helmet") else None,
        armour=tuple(str(a).strip().lower() for a in armour),
        hp=d.get("hp"),
        ap=d.get("ap"),
        inadequate=_yes(d.get("inadequate", False), badge, "inadequate"),
        **texts,
    )
    check_member(member, profile)
    return member


_YES = {"yes", "y", "true", "1", "jah", "j"}
_NO = {"no", "n", "false", "0", "ei", "e"}


def _yes(value: Any, badge: int, key: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise RosterError(f"badge {badge}: {key} must be yes or no, not {value!r}")


def check_member(member: Member, profile: RulesProfile) -> None:
    """Raise RosterError when the class, helmet, armour or overrides are not in the ruleset."""
    try:
        member.max_hp(profile)
        member.armour_points(profile)
    except (ProfileError, ValueError) as exc:
        raise RosterError(f"badge {member.badge}: {exc}") from None


@dataclass(frozen=True, slots=True)
class HealerExcess:
    group: str
    healers: int
    paid: int
    limit: int

    def message(self) -> str:
        healers = (translate("roster", "1 healer") if self.healers == 1
                   else translate("roster", "{count} healers").format(count=self.healers))
        paid = (translate("roster", "1 paid member allows") if self.paid == 1
                else translate("roster", "{count} paid members allow").format(count=self.paid))
        return translate("roster", "group {group} has {healers} but {paid} at most {limit} "
                                   "(one healer per five paid members)").format(
            group=repr(self.group), healers=healers, paid=paid, limit=self.limit)


def healer_excess(members: Iterable[Member], profile: RulesProfile) -> list[HealerExcess]:
    """Groups with more healers than one per five registered and paid members."""
    paid: Counter[str] = Counter()
    healers: Counter[str] = Counter()
    for m in members:
        if m.paid:
            paid[m.group] += 1
        if profile.character_class(m.cls).healer_touches > 0:
            healers[m.group] += 1
    out = []
    for group in sorted(healers):
        limit = max_healers(profile, paid[group])
        if healers[group] > limit:
            out.append(HealerExcess(group, healers[group], paid[group], limit))
    return out


@dataclass(slots=True)
class Roster:
    """Members by badge, with the groups of each side."""

    members: dict[int, Member] = field(default_factory=dict)
    _groups: dict[str, list[int]] | None = None

    @classmethod
    def of(cls, members: Iterable[Member]) -> Roster:
        roster = cls()
        for m in members:
            if m.badge in roster.members:
                raise RosterError(f"duplicate badge {m.badge}")
            roster.members[m.badge] = m
        return roster

    def groups(self) -> dict[str, list[int]]:
        """Badges by group (computed once: a roster does not change during a fold)."""
        if self._groups is None:
            out: dict[str, list[int]] = defaultdict(list)
            for m in self.members.values():
                out[m.group].append(m.badge)
            self._groups = dict(out)
        return self._groups

    def __len__(self) -> int:
        return len(self.members)
