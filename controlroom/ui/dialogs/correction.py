"""CorrectionDialog ("Correct this report…"): take a wrong report back with a reason, optionally replace it.

The wrong report is never edited: a ``retracted`` event makes the fold
leave it out, and the replacement (the same report on the right badge, or
another report) is appended as a new event.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from controlroom.game.clock import format_time
from controlroom.game.events import SCHEMA, EventError, validate
from controlroom.game.views import StoredView
from controlroom.ui.panels.controls import MANUAL_TYPES
from controlroom.ui.panels.timeline import details
from controlroom.ui.panels.words import EVENT_TYPES, word

ERROR_STYLE = "color: #c9302c;"


def replacement_fields(original: dict[str, Any], type_: str, badge: int) -> dict[str, Any]:
    """The original report's fields that ``type_`` takes, on ``badge``."""
    known = {name for name, _kind, _default in SCHEMA[type_]}
    fields = {k: v for k, v in original.items() if k in known}
    fields["badge"] = badge
    return fields


class CorrectionDialog(QDialog):
    """Asks why a report is wrong and what (if anything) replaces it; read ``retraction`` and ``replacement``."""

    def __init__(self, stored: StoredView, who: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Correct this report"))
        self.stored = stored
        event = stored.event
        self.retraction: tuple[int, str] | None = None
        self.replacement: tuple[str, dict[str, Any]] | None = None
        summary = QLabel(self.tr("{time}  {what}  {who}  {details}  (from {source})").format(
            time=format_time(event.t), what=word(EVENT_TYPES, event.type), who=who,
            details=details(event.data), source=event.source), self)
        summary.setWordWrap(True)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("why it is wrong, e.g. the marshal gave the wrong badge"))
        self.replace = QCheckBox(self.tr("Replace it with a corrected report"), self)
        self.type = QComboBox(self)
        for type_ in MANUAL_TYPES:
            self.type.addItem(word(EVENT_TYPES, type_), type_)
        if event.type in MANUAL_TYPES:
            self.type.setCurrentIndex(MANUAL_TYPES.index(event.type))
        self.badge = QLineEdit(self)
        self.badge.setPlaceholderText(self.tr("badge number"))
        if event.data.get("badge") is not None:
            self.badge.setText(str(event.data["badge"]))
        self.type.setEnabled(False)
        self.badge.setEnabled(False)
        self.replace.toggled.connect(self.type.setEnabled)
        self.replace.toggled.connect(self.badge.setEnabled)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        form = QFormLayout()
        form.addRow(self.tr("Reason"), self.reason)
        form.addRow(self.replace)
        form.addRow(self.tr("What happened"), self.type)
        form.addRow(self.tr("Badge"), self.badge)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Take it back"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def accept(self) -> None:
        """Check the form; on success, keep what to send and close."""
        reason = self.reason.text().strip()
        if not reason:
            return self._say(self.tr("Say why the report is wrong: the reason goes into the record and the report."))
        replacement = None
        if self.replace.isChecked():
            text = self.badge.text().strip()
            if not text.isdigit() or int(text) < 1:
                return self._say(self.tr("\u201c{0}\u201d is not a badge number.").format(text))
            type_ = self.type.currentData()
            try:
                fields = validate(type_, replacement_fields(self.stored.event.data, type_, int(text)))
            except EventError as exc:
                return self._say(self.tr("The corrected report is not complete: {0}").format(exc))
            replacement = (type_, fields)
        self.retraction = (self.stored.seq, reason)
        self.replacement = replacement
        super().accept()

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(ERROR_STYLE)
