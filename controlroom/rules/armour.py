"""Armour points for costume (Appendix 2): pieces worn, the helmet, the caps."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

from controlroom.i18n import translate
from controlroom.rules.profile import ProfileError, RulesProfile

_tuple_new = tuple.__new__


class ArmourPoints(NamedTuple):
    """Armour points split into body armour and the helmet (depleted last)."""

    body: int = 0
    helmet: int = 0

    @property
    def total(self) -> int:
        return self.body + self.helmet


def _round(mean: float, how: str) -> int:
    """The body armour's mean as the ruleset rounds it (the seed: up)."""
    if how == "down":
        return math.floor(mean)
    if how == "nearest":
        return math.floor(mean + 0.5)
    return math.ceil(mean)


def armour_points(
    profile: RulesProfile,
    helmet: str | None = None,
    pieces: Iterable[str] = (),
    inadequate: bool = False,
    gm_points: int | None = None,
) -> ArmourPoints:
    """Armour points for what a character wears.

    Body armour is the arithmetic mean of the pieces worn, rounded up (or as
    the ruleset's ``body_rounding`` says); the helmet adds its full points.
    The total never exceeds the profile's cap (5); the body part is cut first
    because the helmet is depleted last.
    Inadequate material or no real protection: at most 3 points, the game
    master's choice (``gm_points``); ``gm_points`` also overrides any costume.
    """
    pieces = [p.strip().lower() for p in pieces if p and p.strip()]
    body_values = []
    for piece in pieces:
        if piece not in profile.body_points:
            known = ", ".join(sorted(profile.body_points))
            raise ProfileError(translate("rules", "unknown armour piece {piece} (known: {known})").format(
                piece=repr(piece), known=known))
        body_values.append(profile.body_points[piece])
    body = _round(sum(body_values) / len(body_values), profile.body_rounding) if body_values else 0
    head = 0
    if helmet:
        key = helmet.strip().lower()
        if key not in profile.helmet_points:
            known = ", ".join(sorted(profile.helmet_points))
            raise ProfileError(translate("rules", "unknown helmet {helmet} (known: {known})").format(
                helmet=repr(helmet), known=known))
        head = profile.helmet_points[key]
    cap = profile.armour_max_total
    if inadequate or gm_points is not None:
        cap = min(cap, profile.armour_inadequate_max) if inadequate else cap
        if gm_points is not None:
            if gm_points < 0:
                raise ValueError(f"armour points cannot be negative ({gm_points})")
            total = min(gm_points, cap)
            head = min(head, total)
            return ArmourPoints(body=total - head, helmet=head)
    head = min(head, cap)
    body = min(body, cap - head)
    return ArmourPoints(body=body, helmet=head)


def absorb(ap: ArmourPoints, damage: int, on_body_armour: bool) -> tuple[ArmourPoints, int]:
    """Take ``damage`` points through armour; return the armour left and the damage to hit points.

    A strike on body armour takes body points first, then the helmet's (the
    helmet protects the whole body and is depleted last); a strike where no
    body armour is worn meets only the helmet's points.
    """
    if damage < 0:
        raise ValueError(f"damage cannot be negative ({damage})")
    body, helmet = ap
    if on_body_armour and body:
        used = body if body < damage else damage
        body -= used
        damage -= used
    if helmet and damage:
        used = helmet if helmet < damage else damage
        helmet -= used
        damage -= used
    return _tuple_new(ArmourPoints, (body, helmet)), damage     # (without the named tuple's own __new__)
