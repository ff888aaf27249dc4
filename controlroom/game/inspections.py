"""The weapon-check ledger of GameState: Appendix 1 inspections by tag, the latest one counting."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controlroom.game.events import Event
from controlroom.game.fold_parts import StatePart
from controlroom.i18n import QT_TRANSLATE_NOOP, wording
from controlroom.rules.inspection_kinds import inspect_measures
from controlroom.rules.inspection_limits import InspectionLimits
from controlroom.rules.profile import ProfileError


@dataclass(frozen=True, slots=True)
class Inspection:
    """One recorded inspection of the item with tag ``tag``."""

    t: int
    badge: int
    tag: str
    kind: str
    passed: bool
    failed: tuple[str, ...] = ()
    category: str | None = None
    measures: Mapping[str, Any] = field(default_factory=dict)


class InspectionLedger(StatePart):
    """Mixed into GameState: ``inspections`` holds the latest inspection of each tag."""

    if not TYPE_CHECKING:
        __slots__ = ()          # GameState holds the attributes

    def _init_inspections(self) -> None:
        self.inspections: dict[str, Inspection] = {}
        self.inspection_count = 0             # every inspection recorded, re-inspections included
        self._inspection_limits: InspectionLimits | None = None

    def _e_weapon_inspected(self, ev: Event) -> None:
        d = ev.data
        record = Inspection(self.t, d["badge"], d["tag"], d["kind"], d["passed"], tuple(d.get("failed", ())),
                            d.get("category"), dict(d.get("measures") or {}))
        self.inspection_count += 1
        previous = self.inspections.pop(record.tag, None)     # re-inserted: the dict stays in inspection order
        self.inspections[record.tag] = record
        if previous is not None and previous.badge != record.badge:
            self._warn("tag_reused", wording("warnings", "tag {tag} was on badge {before}'s {kind} and is now on "
                                                       "badge {now}'s",
                tag=record.tag, before=previous.badge, kind=wording("words", previous.kind.replace("_", " ")),
                now=record.badge))
        if record.measures:
            self._check_verdict(record)

    def _check_verdict(self, record: Inspection) -> None:
        """Warn when the measurements recorded do not give the verdict recorded (the inspector's word stands)."""
        try:
            if self._inspection_limits is None:
                self._inspection_limits = InspectionLimits.from_profile(self.profile)
            verdict = inspect_measures(record.kind, record.measures, self._inspection_limits)
        except (ValueError, ProfileError) as exc:
            self._warn("bad_measures", wording("warnings", "tag {tag}: {problem}",
                tag=record.tag, problem=str(exc)))
            return
        if verdict.passed != record.passed:
            text = ("tag {tag} was recorded as passed, but its measurements fail Appendix 1{reasons}" if record.passed
                    else "tag {tag} was recorded as failed, but its measurements pass Appendix 1{reasons}")
            reasons = f" ({', '.join(verdict.criteria)})" if verdict.criteria else ""
            self._warn("verdict_mismatch", wording("warnings", text, tag=record.tag, reasons=reasons))

    def inspections_of(self, badge: int) -> list[Inspection]:
        """The latest inspection of every tag presented by ``badge``, in the order they were recorded."""
        return [i for i in self.inspections.values() if i.badge == badge]

    def failed_tags(self, badge: int) -> list[str]:
        """Tags of ``badge``'s items whose latest inspection failed: not to be used in the game."""
        return [i.tag for i in self.inspections_of(badge) if not i.passed]

    def inspection_of(self, tag: str) -> Inspection | None:
        """The latest inspection of the item with this tag, or None when it was never inspected."""
        return self.inspections.get(tag.strip())


# Texts chosen at run time above, for the translators.
_TEXTS = (
    QT_TRANSLATE_NOOP("warnings", "tag {tag} was recorded as passed, but its measurements fail Appendix 1{reasons}"),
    QT_TRANSLATE_NOOP("warnings", "tag {tag} was recorded as failed, but its measurements pass Appendix 1{reasons}"),
)
