"""Appendix 2's material minimums: is a helmet or an armour piece thick enough to earn armour points."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from controlroom.rules.profile import RulesProfile

HELMET, BODY = "helmet", "body"
_QUOTES = {
    HELMET: 'Appendix 2, Helmet: "A helmet has to be made from at least 5mm thick leather or 1mm thick metal."',
    BODY: 'Appendix 2, Armor worn on the body: "Body armor has to be made from at least 2mm thick leather or '
          '1mm thick metal."',
    "chain": 'Appendix 2, Chain armor: "The thickness of the wire must be over 1mm."',
}


@dataclass(frozen=True, slots=True)
class PieceCheck:
    """One helmet or armour piece against its material minimum; ``passed`` is None until it is measured."""

    part: str                   # HELMET or BODY
    name: str                   # the piece's name in the ruleset (leather, chain, plate...)
    material: str | None        # leather, metal or chain; None when the ruleset does not say
    minimum_mm: float | None
    strict: bool                # the thickness must be over the minimum, not just reach it (chain wire)
    measured_mm: float | None
    passed: bool | None
    rule: str

    @property
    def requirement(self) -> str:
        """The minimum in words: "at least 2 mm leather", "wire over 1 mm"."""
        if self.minimum_mm is None:
            return "no material minimum: the ruleset does not say what it is made of"
        if self.material == "chain":
            return f"wire over {self.minimum_mm:g} mm"
        return f"{'over' if self.strict else 'at least'} {self.minimum_mm:g} mm {self.material}"

    @property
    def message(self) -> str:
        """A sentence for the game master: what was measured against what the rules want."""
        what = f"{self.name.replace('_', ' ')} {'helmet' if self.part == HELMET else 'armour'}"
        if self.measured_mm is None:
            return f"{what}: not measured ({self.requirement})"
        thing = "wire" if self.material == "chain" else "thickness"
        verdict = "meets" if self.passed else "is below"
        if self.passed is None:
            return f"{what}: {thing} {self.measured_mm:g} mm ({self.requirement})"
        return f"{what}: {thing} {self.measured_mm:g} mm {verdict} Appendix 2's {self.requirement}"


def measure_key(part: str, name: str) -> str:
    """The name a measurement has in an ``armour_set`` event: ``helmet_mm`` or ``<piece>_mm``."""
    return "helmet_mm" if part == HELMET else f"{name}_mm"


def _minimum(profile: RulesProfile, part: str, material: str | None) -> tuple[float | None, bool]:
    m = profile.materials
    if material == "chain":
        return m.chain_wire_over_mm, True
    if material == "leather":
        return (m.helmet_leather_min_mm if part == HELMET else m.body_leather_min_mm), False
    if material == "metal":
        return (m.helmet_metal_min_mm if part == HELMET else m.body_metal_min_mm), False
    return None, False


def check_piece(profile: RulesProfile, part: str, name: str, measured_mm: float | None = None) -> PieceCheck:
    """A helmet (``part`` HELMET) or a body armour piece against Appendix 2; not judged until measured."""
    made_of = profile.helmet_made_of if part == HELMET else profile.body_made_of
    material = made_of.get(name)
    minimum, strict = _minimum(profile, part, material)
    if measured_mm is not None and (isinstance(measured_mm, bool) or not isinstance(measured_mm, (int, float))
                                    or not math.isfinite(measured_mm) or measured_mm < 0):
        raise ValueError(f"the {name.replace('_', ' ')} {part} thickness must be a number of mm >= 0, "
                         f"not {measured_mm!r}")
    passed = None
    if measured_mm is not None and minimum is not None:
        passed = measured_mm > minimum if strict else measured_mm >= minimum
    rule = _QUOTES["chain"] if material == "chain" else _QUOTES[part]
    return PieceCheck(part, name, material, minimum, strict, measured_mm, passed, rule)


def check_armour(profile: RulesProfile, helmet: str | None, pieces: Iterable[str],
                 measures: Mapping[str, Any] | None = None) -> tuple[PieceCheck, ...]:
    """Every piece worn against Appendix 2, with the thickness measured (``measures`` by measure_key).

    Raises ValueError for a measurement of something not worn or a bad number.
    """
    measures = dict(measures or {})
    worn = ([(HELMET, helmet)] if helmet else []) + [(BODY, p) for p in pieces]
    known = {measure_key(part, name) for part, name in worn}
    extra = sorted(set(measures) - known)
    if extra:
        raise ValueError(f"measurement {extra[0]!r} is of nothing worn (measurements: {', '.join(sorted(known)) or 'none'})")
    return tuple(check_piece(profile, part, name, measures.get(measure_key(part, name))) for part, name in worn)


def failures(checks: Iterable[PieceCheck]) -> tuple[PieceCheck, ...]:
    """The pieces measured and found too thin: inadequate material."""
    return tuple(c for c in checks if c.passed is False)
