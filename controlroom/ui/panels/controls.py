"""GameControls: start and end scenarios, call and lift STOPPs, enter reports heard on the voice radio."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from controlroom.game.events import STOPP_REASONS as REASON_CODES
from controlroom.game.events import EventError, validate
from controlroom.game.views import StateDelta
from controlroom.rules.profile import RulesProfile, default_profile
from controlroom.ui.panels.words import EVENT_TYPES, STOPP_REASONS, tr, word

# The casualty reports a game master may enter by hand, in the order a marshal meets them.
MANUAL_TYPES = (
    "strike", "big_stone", "knocked_out", "down", "bound", "cared_for", "care_ended", "strenuous",
    "bandage_removed", "healer_touch", "died", "permanent_kill", "valhalla_checkin", "respawned",
)
# Types with a second badge: (field, label, what it is in a sentence, required).
SECOND_BADGE = {
    "bound": ("by", QT_TRANSLATE_NOOP("panels", "Bound by (optional)"),
              QT_TRANSLATE_NOOP("panels", "the badge number of who bound the wounds"), False),
    "cared_for": ("carer", QT_TRANSLATE_NOOP("panels", "Healer caring"),
                  QT_TRANSLATE_NOOP("panels", "the badge number of the healer caring"), True),
    "healer_touch": ("healer", QT_TRANSLATE_NOOP("panels", "Healer"),
                     QT_TRANSLATE_NOOP("panels", "the badge number of the healer"), True),
    "permanent_kill": ("by", QT_TRANSLATE_NOOP("panels", "Killed by (optional)"),
                       QT_TRANSLATE_NOOP("panels", "the badge number of the killer"), False),
}

ERROR_STYLE = "color: #c9302c;"
OK_STYLE = "color: #2d7d2d;"
NOTE_STYLE = "color: #555555; font-style: italic;"
NOT_REPORTED = -1       # the kill form's count when the marshal did not say how long it was counted


def _ask(parent: QWidget, question: str) -> bool:
    answer = QMessageBox.question(parent, QCoreApplication.translate("panels", "Please confirm"), question)
    return answer == QMessageBox.StandardButton.Yes


class GameControls(QWidget):
    """The game master's commands, as signals the window connects to CoreThread's command signals.

    ``confirm(question) -> bool`` is asked before ending a scenario (a dialog
    by default; tests replace it).
    """

    scenario_start = Signal(str, bool, float)   # name, respawn, respawn time in seconds (0: the rules' default)
    scenario_end = Signal()
    stopp_call = Signal(str)                    # reason: unpleasant, injury or danger
    stopp_lift = Signal(str, bool)              # STOPP id, ruled trivial (its caller falls unconscious)
    manual_entry = Signal(str, object)          # event type, validated fields

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.confirm: Callable[[str], bool] = lambda question: _ask(self, question)
        self._stopps: dict = {}
        self.profile = default_profile()
        layout = QVBoxLayout(self)
        layout.addWidget(self._scenario_box())
        layout.addWidget(self._stopp_box())
        layout.addWidget(self._entry_box())
        layout.addStretch(1)
        self._type_changed()
        self.set_active_stopps(())

    # -- building ------------------------------------------------------------
    def _scenario_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Scenario"), self)
        self.scenario_name = QLineEdit(box)
        self.scenario_name.setPlaceholderText(self.tr("name of the scenario"))
        self.respawn = QCheckBox(self.tr("Respawn the dead"), box)
        self.respawn_minutes = QDoubleSpinBox(box)
        self.respawn_minutes.setRange(0.0, 600.0)
        self.respawn_minutes.setDecimals(1)
        self.respawn_minutes.setSuffix(self.tr(" min"))
        self.respawn_minutes.setSpecialValueText(self.tr("rules' default"))
        self.respawn_minutes.setEnabled(False)
        self.respawn.toggled.connect(self.respawn_minutes.setEnabled)
        self.start_button = QPushButton(self.tr("Start scenario"), box)
        self.end_button = QPushButton(self.tr("End scenario"), box)
        self.start_button.clicked.connect(self.start_scenario)
        self.end_button.clicked.connect(self.end_scenario)
        self.scenario_message = QLabel(box)
        self.scenario_message.setWordWrap(True)
        form = QFormLayout(box)
        form.addRow(self.tr("Name"), self.scenario_name)
        form.addRow(self.respawn, self.respawn_minutes)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.end_button)
        form.addRow(buttons)
        form.addRow(self.scenario_message)
        return box

    def _stopp_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("STOPP"), self)
        self.stopp_reason = QComboBox(box)
        for code in REASON_CODES:
            self.stopp_reason.addItem(word(STOPP_REASONS, code), code)
        self.stopp_reason.setCurrentIndex(REASON_CODES.index("danger"))
        self.stopp_button = QPushButton(self.tr("STOPP for everyone"), box)
        self.stopp_button.setStyleSheet("font-weight: bold;")
        self.stopp_button.clicked.connect(self.call_stopp)
        self.lift_choice = QComboBox(box)
        self.trivial = QCheckBox(self.tr("Ruled trivial"), box)
        self.trivial.setToolTip(self.tr("A STOPP ruled trivial: the caller falls unconscious."))
        trivial_note = QLabel(self.tr("(the caller falls unconscious)"), box)
        trivial_note.setWordWrap(True)
        self.lift_button = QPushButton(self.tr("Lift STOPP"), box)
        self.lift_button.clicked.connect(self.lift_stopp)
        form = QFormLayout(box)
        form.addRow(self.tr("Reason"), self.stopp_reason)
        form.addRow(self.stopp_button)
        form.addRow(self.tr("Active STOPP"), self.lift_choice)
        form.addRow(self.trivial, trivial_note)
        form.addRow(self.lift_button)
        return box

    def _entry_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Report by voice radio"), self)
        self.entry_type = QComboBox(box)
        for code in MANUAL_TYPES:
            self.entry_type.addItem(word(EVENT_TYPES, code), code)
        self.entry_type.currentIndexChanged.connect(self._type_changed)
        self.badge = QLineEdit(box)
        self.badge.setPlaceholderText(self.tr("badge number"))
        self.second_label = QLabel(box)
        self.second_badge = QLineEdit(box)
        self.second_badge.setPlaceholderText(self.tr("badge number"))
        self.count = QSpinBox(box)
        self.count.setRange(1, 20)
        self.count_label = QLabel(self.tr("Valid strikes"), box)
        self.counted = QSpinBox(box)
        self.counted.setRange(NOT_REPORTED, 600)
        self.counted.setValue(NOT_REPORTED)
        self.counted.setSuffix(self.tr(" s"))
        self.counted.setSpecialValueText(self.tr("not reported"))
        self.counted_label = QLabel(self.tr("Seconds counted aloud"), box)
        # What the rules ask of the one who acts (the carer's distance and hands, the kill's count...).
        self.rule_note = QLabel(box)
        self.rule_note.setWordWrap(True)
        self.rule_note.setStyleSheet(NOTE_STYLE)
        self.submit_button = QPushButton(self.tr("Submit"), box)
        self.submit_button.clicked.connect(self.submit_entry)
        self.badge.returnPressed.connect(self.submit_entry)
        self.second_badge.returnPressed.connect(self.submit_entry)
        self.entry_message = QLabel(box)
        self.entry_message.setWordWrap(True)
        form = QFormLayout(box)
        form.addRow(self.tr("What happened"), self.entry_type)
        form.addRow(self.tr("Badge"), self.badge)
        form.addRow(self.second_label, self.second_badge)
        form.addRow(self.count_label, self.count)
        form.addRow(self.counted_label, self.counted)
        form.addRow(self.rule_note)
        form.addRow(self.submit_button)
        form.addRow(self.entry_message)
        return box

    def _type_changed(self, _index: int = 0) -> None:
        second = SECOND_BADGE.get(self.entry_type.currentData())
        self.second_label.setVisible(second is not None)
        self.second_badge.setVisible(second is not None)
        if second is not None:
            self.second_label.setText(tr(second[1]))
        strike = self.entry_type.currentData() == "strike"
        self.count_label.setVisible(strike)
        self.count.setVisible(strike)
        kill = self.entry_type.currentData() == "permanent_kill"
        self.counted_label.setVisible(kill)
        self.counted.setVisible(kill)
        note = self.rule_note_text(self.entry_type.currentData())
        self.rule_note.setText(note)
        self.rule_note.setVisible(bool(note))

    def rule_note_text(self, type_: str) -> str:
        """What the rules ask of whoever acts in a report of ``type_``, in the game's ruleset's numbers."""
        p = self.profile
        if type_ == "cared_for":
            most = max((c.max_cared for c in p.classes.values()), default=0)
            text = self.tr("The carer stays within 1 m of the wounded, wears no weapons and does nothing else; "
                           "the wounded lies still, tended and bound. The carer must be conscious.")
            if most:
                text += " " + self.tr("A healer cares for at most %n at a time.", "", most)
            return text
        if type_ == "bound":
            return self.tr("A bandage (a white strip of cloth at least 5 cm wide and 50 cm long) on the wound; "
                           "whoever binds must be conscious.")
        if type_ == "healer_touch":
            return self.tr("The healer's hands are free and pressed on the target; the healer must be conscious.")
        if type_ == "permanent_kill":
            return self.tr("Hacking the body for at least {0} s, counted aloud; the killer must be conscious. "
                           "A shorter count is recorded as a rule warning.").format(
                f"{p.permanent_kill_count_ms / 1000:g}")
        return ""

    def set_profile(self, profile: RulesProfile) -> None:
        """The open game's ruleset: the numbers the form's notes quote."""
        self.profile = profile
        self._type_changed()

    # -- data in -------------------------------------------------------------
    def set_active_stopps(self, stopps) -> None:
        """Offer these StoppViews (the ones not lifted) in the Lift choice."""
        current = self.lift_choice.currentData()
        self.lift_choice.clear()
        for s in stopps:
            if s.lifted is None:
                text = s.id if s.caller is None else self.tr("{0} (called by badge {1})").format(s.id, s.caller)
                self.lift_choice.addItem(text, s.id)
        i = self.lift_choice.findData(current)
        if i >= 0:
            self.lift_choice.setCurrentIndex(i)
        self.lift_button.setEnabled(self.lift_choice.count() > 0)
        self.trivial.setEnabled(self.lift_choice.count() > 0)

    def apply_delta(self, delta: StateDelta) -> None:
        """Keep the list of active STOPPs up to date."""
        known = {} if delta.full else dict(self._stopps)
        for s in delta.stopps:
            known[s.id] = s
        self._stopps = {k: s for k, s in known.items() if s.lifted is None}
        self.set_active_stopps(sorted(self._stopps.values(), key=lambda s: s.called))

    # -- commands ------------------------------------------------------------
    def start_scenario(self) -> None:
        name = self.scenario_name.text().strip()
        if not name:
            self._say(self.scenario_message, self.tr("Give the scenario a name first."), error=True)
            return
        respawn = self.respawn.isChecked()
        seconds = self.respawn_minutes.value() * 60.0 if respawn else 0.0
        fields: dict[str, Any] = {"name": name, "respawn": respawn}
        if seconds:
            fields["respawn_time"] = seconds
        try:
            validate("scenario_started", fields)
        except EventError as exc:
            self._say(self.scenario_message, self.tr("Not started: {0}").format(str(exc)), error=True)
            return
        self._say(self.scenario_message, self.tr("Starting \u201c{0}\u201d.").format(name))
        self.scenario_start.emit(name, respawn, seconds)

    def end_scenario(self) -> None:
        if self.confirm(self.tr("End the scenario? Every running timer (dying, waking, respawn) stops.")):
            self._say(self.scenario_message, self.tr("Ending the scenario."))
            self.scenario_end.emit()

    def call_stopp(self) -> None:
        self.stopp_call.emit(self.stopp_reason.currentData())

    def lift_stopp(self) -> None:
        stopp_id = self.lift_choice.currentData()
        if stopp_id:
            self.stopp_lift.emit(stopp_id, self.trivial.isChecked())
            self.trivial.setChecked(False)

    def submit_entry(self) -> None:
        """Check the form; emit ``manual_entry`` with the validated fields, or say what is wrong."""
        type_ = self.entry_type.currentData()
        fields = self.entry_fields()
        if isinstance(fields, str):
            self._say(self.entry_message, fields, error=True)
            return
        try:
            fields = validate(type_, fields)
        except EventError as exc:
            self._say(self.entry_message, self.tr("Not sent: {0}").format(str(exc)), error=True)
            return
        sent = self.tr("Sent: {0}, badge {1}.").format(word(EVENT_TYPES, type_), fields["badge"])
        needed = self.profile.permanent_kill_count_ms / 1000
        if fields.get("counted") is not None and fields["counted"] < needed:
            sent += " " + self.tr("Counted {0} s, less than the rules' {1} s: the kill is recorded as a rule "
                                  "warning, not a death.").format(f"{fields['counted']:g}", f"{needed:g}")
        self._say(self.entry_message, sent)
        self.manual_entry.emit(type_, fields)
        self.badge.clear()
        self.second_badge.clear()
        self.count.setValue(1)
        self.counted.setValue(NOT_REPORTED)
        self.badge.setFocus()

    def entry_fields(self) -> dict[str, Any] | str:
        """The form's fields, or what is wrong with them in words."""
        type_ = self.entry_type.currentData()
        badge = self._badge(self.badge.text(), self.tr("the badge number of the player"))
        if isinstance(badge, str):
            return badge
        fields: dict[str, Any] = {"badge": badge}
        second = SECOND_BADGE.get(type_)
        if second is not None:
            name, _label, what, required = second
            text = self.second_badge.text()
            if text.strip() or required:
                other = self._badge(text, tr(what))
                if isinstance(other, str):
                    return other
                fields[name] = other
        if type_ == "strike":
            fields["count"] = self.count.value()
        if type_ == "permanent_kill" and self.counted.value() != NOT_REPORTED:
            fields["counted"] = self.counted.value()
        return fields

    def _badge(self, text: str, what: str) -> int | str:
        text = text.strip()
        if not text:
            return self.tr("Enter {0}.").format(what)
        if not text.isdigit() or int(text) < 1:
            return self.tr("\u201c{0}\u201d is not a badge number: enter {1} as a whole number, like 42.").format(
                text, what)
        return int(text)

    def _say(self, label: QLabel, text: str, error: bool = False) -> None:
        label.setText(text)
        label.setStyleSheet(ERROR_STYLE if error else OK_STYLE)
