"""WeaponDesk: Appendix 1 inspections recorded per weapon with verdict and tag, Appendix 2 armour per character."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from controlroom.game.clock import format_time
from controlroom.game.events import EventError, validate
from controlroom.game.views import CharacterView, StateDelta, StoredView
from controlroom.rules.inspection_limits import InspectionLimits
from controlroom.rules.profile import ProfileError, RulesProfile
from controlroom.ui.desks.armour import ArmourForm
from controlroom.ui.desks.common import ERROR_STYLE, OK_STYLE, bigger, describe, parse_badge, say
from controlroom.ui.desks.inspection import KINDS, InspectionForm
from controlroom.ui.panels.table import RowTable, read_only_view
from controlroom.ui.panels.words import word


class InspectionModel(RowTable):
    """The inspections recorded (stored ``weapon_inspected`` events), newest first."""

    titles = (QT_TRANSLATE_NOOP("panels", "Time"), QT_TRANSLATE_NOOP("panels", "Tag"),
              QT_TRANSLATE_NOOP("panels", "Who"), QT_TRANSLATE_NOOP("panels", "Kind"),
              QT_TRANSLATE_NOOP("panels", "Verdict"), QT_TRANSLATE_NOOP("panels", "Failed criteria"))
    LIMIT = 500

    def __init__(self, names: dict[int, CharacterView], parent=None) -> None:
        super().__init__(parent)
        self.names = names
        self._seqs: set[int] = set()

    def add(self, stored: list[StoredView]) -> None:
        new = [s for s in stored if s.event.type == "weapon_inspected" and s.seq not in self._seqs]
        if not new:
            return
        self.beginResetModel()
        self._seqs.update(s.seq for s in new)
        self.rows = sorted(self.rows + new, key=lambda s: -s.seq)[:self.LIMIT]
        self.endResetModel()

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole or not 0 <= index.row() < len(self.rows):
            return None
        s = self.rows[index.row()]
        d = s.event.data
        c = self.names.get(d.get("badge"))
        return (
            format_time(s.event.t),
            str(d.get("tag", "")),
            (QCoreApplication.translate("panels", "{name} ({badge})").format(name=c.name, badge=c.badge) if c
             else str(d.get("badge"))),
            word(KINDS, d.get("kind", "")),
            (QCoreApplication.translate("panels", "passed") if d.get("passed")
             else QCoreApplication.translate("panels", "FAILED")),
            ", ".join(str(f).replace("_", " ") for f in d.get("failed", ())),
        )[index.column()]


class WeaponDesk(QWidget):
    """The weapon-check desk: badge, then inspections (tag and verdict) and armour, sent as events (``entry``)."""

    SOURCE = "gm:weapons"
    entry = Signal(str, object)             # event type, fields

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.characters: dict[int, CharacterView] = {}
        self.armour_of: int | None = None        # the badge whose stored armour the armour form was filled with
        layout = QVBoxLayout(self)
        layout.addWidget(bigger(QLabel(self.tr("Weapon-check desk"), self), 2.0, bold=True))
        row = QHBoxLayout()
        row.addWidget(bigger(QLabel(self.tr("Badge"), self), 2.0, bold=True))
        self.badge_field = bigger(QLineEdit(self), 2.4, bold=True)
        self.badge_field.setPlaceholderText(self.tr("badge number, then Enter"))
        self.badge_field.returnPressed.connect(self.choose_badge)
        self.badge_field.textChanged.connect(self._update)
        row.addWidget(self.badge_field, 1)
        layout.addLayout(row)
        self.first_field = self.badge_field
        self.who = bigger(QLabel(self.tr("Type the badge number of the player whose kit is checked."), self), 1.5)
        self.who.setWordWrap(True)
        layout.addWidget(self.who)
        boxes = QHBoxLayout()
        boxes.addWidget(self._inspection_box(), 3)
        boxes.addWidget(self._armour_box(), 2)
        layout.addLayout(boxes, 3)
        layout.addWidget(bigger(QLabel(self.tr("Inspections recorded"), self), 1.3, bold=True))
        self.model = InspectionModel(self.characters, self)
        self.view = bigger(read_only_view(self, self.model), 1.2)
        layout.addWidget(self.view, 2)
        self._update()

    def _inspection_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Appendix 1: weapon inspection"), self)
        layout = QVBoxLayout(box)
        self.inspection = InspectionForm(box)
        self.inspection.changed.connect(self._update)
        layout.addWidget(self.inspection, 1)
        row = QHBoxLayout()
        row.addWidget(bigger(QLabel(self.tr("Tag number"), box), 1.5, bold=True))
        self.tag = bigger(QLineEdit(box), 1.8, bold=True)
        self.tag.setPlaceholderText(self.tr("the number on the tag tied to it"))
        self.tag.textChanged.connect(self._update)
        self.tag.returnPressed.connect(self.record_inspection)
        row.addWidget(self.tag, 1)
        self.record_button = bigger(QPushButton(self.tr("Record inspection"), box), 1.5, bold=True)
        self.record_button.clicked.connect(self.record_inspection)
        row.addWidget(self.record_button)
        layout.addLayout(row)
        self.inspection_message = bigger(QLabel(box), 1.2)
        self.inspection_message.setWordWrap(True)
        layout.addWidget(self.inspection_message)
        return box

    def _armour_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Appendix 2: armour points"), self)
        layout = QVBoxLayout(box)
        self.armour = ArmourForm(box)
        self.armour.changed.connect(self._update)
        layout.addWidget(self.armour)
        self.armour_button = bigger(QPushButton(self.tr("Record armour"), box), 1.5, bold=True)
        self.armour_button.clicked.connect(self.record_armour)
        layout.addWidget(self.armour_button)
        self.armour_message = bigger(QLabel(box), 1.2)
        self.armour_message.setWordWrap(True)
        layout.addWidget(self.armour_message)
        layout.addStretch(1)
        return box

    # -- data in ---------------------------------------------------------------
    def set_profile(self, profile: RulesProfile) -> None:
        """The open game's ruleset: its Appendix 1 limits and Appendix 2 armour tables."""
        try:
            self.inspection.set_limits(InspectionLimits.from_profile(profile))
        except ProfileError as exc:
            say(self.inspection_message, self.tr("The game's ruleset has no usable Appendix 1: {0}").format(exc),
                ERROR_STYLE)
        self.armour.set_profile(profile)

    def apply_delta(self, delta: StateDelta) -> None:
        if delta.full:
            self.characters.clear()
        for c in delta.characters:
            self.characters[c.badge] = c
        self.model.add(list(delta.events))
        self._update()

    # -- the player ------------------------------------------------------------
    def character(self) -> CharacterView | None:
        badge = parse_badge(self.badge_field.text())
        return self.characters.get(badge) if badge is not None else None

    def failed_tags(self, badge: int) -> list[str]:
        """Tags of the player's items whose latest inspection shown here failed."""
        latest: dict[str, dict] = {}
        for s in self.model.rows:                       # newest first: the first of a tag is its latest
            latest.setdefault(s.event.data["tag"], s.event.data)
        return [tag for tag, d in latest.items() if d.get("badge") == badge and not d.get("passed")]

    def choose_badge(self) -> None:
        """Enter in the badge field: the player is chosen, the tag field is next."""
        if self.character() is not None:
            self.tag.setFocus()

    def _update(self, *_args) -> None:
        c = self.character()
        text = self.badge_field.text().strip()
        if c is not None and c.badge != self.armour_of:
            self.fill_armour(c)
        if c is not None:
            failed = self.failed_tags(c.badge)
            line = describe(self, c) + "\n" + self.tr("Armour points {0} of {1}").format(c.ap, c.max_ap)
            if failed:
                line += " \u00b7 " + self.tr("failed tags: {0}").format(", ".join(failed))
            say(self.who, line)
        elif text:
            say(self.who, self.tr("No player has badge \u201c{0}\u201d in this game's roster.").format(text),
                ERROR_STYLE)
        verdict = self.inspection.verdict()
        self.record_button.setEnabled(c is not None and bool(self.tag.text().strip()) and not isinstance(verdict, str))
        self.armour_button.setEnabled(c is not None and not isinstance(self.armour.points(), str))

    def fill_armour(self, c: CharacterView) -> None:
        """The armour form shows the player's armour as last recorded (so Record armour keeps what is not changed)."""
        self.armour_of = c.badge                # first: filling the form calls _update again
        a = c.armour or {}
        self.armour.set_armour(helmet=a.get("helmet"), pieces=tuple(a.get("pieces", ())),
                               inadequate=bool(a.get("inadequate")), ap=a.get("ap"), measures=a.get("measures") or {})

    # -- commands --------------------------------------------------------------
    def record_inspection(self) -> None:
        """Send the inspection (verdict, failed criteria, measurements, tag) as a ``weapon_inspected`` event."""
        c, verdict, tag = self.character(), self.inspection.verdict(), self.tag.text().strip()
        if c is None or not tag or isinstance(verdict, str):
            say(self.inspection_message, verdict if isinstance(verdict, str) else
                self.tr("Choose the player (badge) and enter the tag number first."), ERROR_STYLE)
            return
        fields = {"badge": c.badge, "tag": tag, "kind": self.inspection.kind.currentData(), "passed": verdict.passed,
                  "failed": list(verdict.criteria), "measures": self.inspection.measures()}
        if verdict.category:
            fields["category"] = verdict.category
        try:
            fields = validate("weapon_inspected", fields)
        except EventError as exc:
            say(self.inspection_message, self.tr("Not recorded: {0}").format(exc), ERROR_STYLE)
            return
        outcome = self.tr("passed") if verdict.passed else self.tr("FAILED")
        say(self.inspection_message, self.tr("Recorded tag {tag} for {name}: {outcome}.").format(
            tag=tag, name=c.name, outcome=outcome), OK_STYLE if verdict.passed else ERROR_STYLE)
        self.entry.emit("weapon_inspected", fields)
        self.tag.clear()
        self.tag.setFocus()

    def record_armour(self) -> None:
        """Send the character's armour as an ``armour_set`` event."""
        c, ap = self.character(), self.armour.points()
        if c is None or isinstance(ap, str):
            say(self.armour_message, ap if isinstance(ap, str) else self.tr("Choose the player (badge) first."),
                ERROR_STYLE)
            return
        try:
            fields = validate("armour_set", {"badge": c.badge, **self.armour.fields()})
        except EventError as exc:
            say(self.armour_message, self.tr("Not recorded: {0}").format(exc), ERROR_STYLE)
            return
        say(self.armour_message, self.tr("Recorded armour for {name}: {total} armour points.").format(
            name=c.name, total=ap.total), OK_STYLE)
        self.entry.emit("armour_set", fields)
