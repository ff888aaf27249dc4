"""Appendix 2's material minimums: is a helmet or an armour piece thick enough to earn armour points."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from controlroom.i18n import QT_TRANSLATE_NOOP, translate
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
        """The minimum in words: "at least 2 mm leather", "wire over 1 mm" (in the language spoken)."""
        if self.minimum_mm is None:
            return translate("armour", "no material minimum: the ruleset does not say what it is made of")
        if self.material == "chain":
            return translate("armour", "wire over {mm:g} mm").format(mm=self.minimum_mm)
        text = "over {mm:g} mm {material}" if self.strict else "at least {mm:g} mm {material}"
        return translate("armour", text).format(mm=self.minimum_mm, material=translate("words", self.material or ""))

    @property
    def message(self) -> str:
        """A sentence for the game master: what was measured against what the rules want."""
        name = translate("words", self.name.replace("_", " "))
        what = (translate("armour", "{name} helmet") if self.part == HELMET
                else translate("armour", "{name} armour")).format(name=name)
        if self.measured_mm is None:
            return translate("armour", "{what}: not measured ({requirement})").format(
                what=what, requirement=self.requirement)
        if self.passed is None:
            text = "{what}: wire {mm:g} mm ({requirement})" if self.material == "chain" \
                else "{what}: thickness {mm:g} mm ({requirement})"
        elif self.passed:
            text = "{what}: wire {mm:g} mm meets Appendix 2's {requirement}" if self.material == "chain" \
                else "{what}: thickness {mm:g} mm meets Appendix 2's {requirement}"
        else:
            text = "{what}: wire {mm:g} mm is below Appendix 2's {requirement}" if self.material == "chain" \
                else "{what}: thickness {mm:g} mm is below Appendix 2's {requirement}"
        return translate("armour", text).format(what=what, mm=self.measured_mm, requirement=self.requirement)


# Every text above, for the translators (the tools find them only as translate("ctx", "literal") calls).
_TEXTS = (
    QT_TRANSLATE_NOOP("armour", "over {mm:g} mm {material}"),
    QT_TRANSLATE_NOOP("armour", "at least {mm:g} mm {material}"),
    QT_TRANSLATE_NOOP("armour", "{what}: wire {mm:g} mm ({requirement})"),
    QT_TRANSLATE_NOOP("armour", "{what}: thickness {mm:g} mm ({requirement})"),
    QT_TRANSLATE_NOOP("armour", "{what}: wire {mm:g} mm meets Appendix 2's {requirement}"),
    QT_TRANSLATE_NOOP("armour", "{what}: thickness {mm:g} mm meets Appendix 2's {requirement}"),
    QT_TRANSLATE_NOOP("armour", "{what}: wire {mm:g} mm is below Appendix 2's {requirement}"),
    QT_TRANSLATE_NOOP("armour", "{what}: thickness {mm:g} mm is below Appendix 2's {requirement}"),
    QT_TRANSLATE_NOOP("words", "leather"), QT_TRANSLATE_NOOP("words", "metal"), QT_TRANSLATE_NOOP("words", "chain"),
    QT_TRANSLATE_NOOP("words", "hardened leather"), QT_TRANSLATE_NOOP("words", "chain on gambeson"),
    QT_TRANSLATE_NOOP("words", "plate"), QT_TRANSLATE_NOOP("words", "brigandine"),
)


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
        raise ValueError(f"measurement {extra[0]!r} is of nothing worn "
                         f"(measurements: {', '.join(sorted(known)) or 'none'})")
    return tuple(check_piece(profile, part, name, measures.get(measure_key(part, name))) for part, name in worn)


def failures(checks: Iterable[PieceCheck]) -> tuple[PieceCheck, ...]:
    """The pieces measured and found too thin: inadequate material."""
    return tuple(c for c in checks if c.passed is False)
