"""InspectionForm: the measurements of one weapon, shield, arrow or siege engine, and its Appendix 1 verdict live."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from controlroom.rules.inspection import Verdict
from controlroom.rules.inspection_kinds import WEAPON_KINDS, inspect_measures, material_choices, measures_of
from controlroom.rules.inspection_limits import InspectionLimits, material_words
from controlroom.ui.desks.common import ERROR_STYLE, OK_STYLE, bigger, verdict_area
from controlroom.ui.panels.words import tr, word

VERDICT_LINES = 8          # the verdict's box: longer verdicts scroll inside it
KINDS = {
    "weapon": QT_TRANSLATE_NOOP("panels", "melee weapon or javelin"),
    "ranged_weapon": QT_TRANSLATE_NOOP("panels", "bow or crossbow"),
    "arrow": QT_TRANSLATE_NOOP("panels", "arrow"),
    "big_stone": QT_TRANSLATE_NOOP("panels", "big stone"),
    "shield": QT_TRANSLATE_NOOP("panels", "shield"),
    "siege_engine": QT_TRANSLATE_NOOP("panels", "siege engine"),
    "siege_arrow": QT_TRANSLATE_NOOP("panels", "siege-engine arrow"),
}
MEASURES = {
    "length_cm": QT_TRANSLATE_NOOP("panels", "Length (cm, handle included)"),
    "former": QT_TRANSLATE_NOOP("panels", "Former (core)"),
    "former_width_mm": QT_TRANSLATE_NOOP("panels", "Former width (mm)"),
    "padding": QT_TRANSLATE_NOOP("panels", "Padding"),
    "covering": QT_TRANSLATE_NOOP("panels", "Covering"),
    "striking_padding_mm": QT_TRANSLATE_NOOP("panels", "Padding on the striking surface (mm)"),
    "tip_padding_mm": QT_TRANSLATE_NOOP("panels", "Padding on the tip (mm)"),
    "has_stopper": QT_TRANSLATE_NOOP("panels", "Has a stopper"),
    "added_weights": QT_TRANSLATE_NOOP("panels", "Weights added"),
    "is_javelin": QT_TRANSLATE_NOOP("panels", "Short spear or javelin"),
    "thrusting": QT_TRANSLATE_NOOP("panels", "Used for thrusting"),
    "weight_g": QT_TRANSLATE_NOOP("panels", "Weight (g)"),
    "pull_kg": QT_TRANSLATE_NOOP("panels", "Pulling strength (kg)"),
    "wholly_padded": QT_TRANSLATE_NOOP("panels", "Wholly covered with padding"),
    "fletching": QT_TRANSLATE_NOOP("panels", "Fletching"),
    "tip_width_mm": QT_TRANSLATE_NOOP("panels", "Tip width (mm)"),
    "shaft": QT_TRANSLATE_NOOP("panels", "Shaft"),
    "shaft_width_mm": QT_TRANSLATE_NOOP("panels", "Shaft width (mm)"),
    "size_cm": QT_TRANSLATE_NOOP("panels", "Size (cm, at its thinnest)"),
    "filling": QT_TRANSLATE_NOOP("panels", "Filling"),
    "width_cm": QT_TRANSLATE_NOOP("panels", "Width (cm, at its widest)"),
    "padded_edge": QT_TRANSLATE_NOOP("panels", "Edge covered with padding"),
    "protruding_details": QT_TRANSLATE_NOOP("panels", "Sharp or protruding details"),
    "base_material": QT_TRANSLATE_NOOP("panels", "Base material"),
    "used_for_bashing": QT_TRANSLATE_NOOP("panels", "Used for bashing"),
    "head_width_cm": QT_TRANSLATE_NOOP("panels", "Arrowhead width (cm)"),
    "tip_padding_cm": QT_TRANSLATE_NOOP("panels", "Padding over the tip (cm)"),
    "shaft_fully_padded": QT_TRANSLATE_NOOP("panels", "Shaft fully padded"),
}


class InspectionForm(QWidget):
    """Choose the kind, enter the measurements; ``verdict`` follows every change (``changed``)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.limits: InspectionLimits | None = None
        self.inputs: dict[str, QWidget] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.kind = bigger(QComboBox(self), 1.3)
        for code in WEAPON_KINDS:
            self.kind.addItem(word(KINDS, code), code)
        self.kind.currentIndexChanged.connect(self._rebuild)
        layout.addWidget(self.kind)
        self.fields_box = QWidget(self)
        self.form = QFormLayout(self.fields_box)
        layout.addWidget(self.fields_box)
        self.verdict_label = bigger(QLabel(self), 1.3)
        self.verdict_box = verdict_area(self, self.verdict_label, VERDICT_LINES)
        layout.addWidget(self.verdict_box)
        layout.addStretch(1)
        self._entered = False           # no verdict in red before anything is entered
        self._rebuild()

    def set_limits(self, limits: InspectionLimits) -> None:
        """The game's Appendix 1 numbers and materials (the form is built again)."""
        self.limits = limits
        self._rebuild()

    def set_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def _rebuild(self, _index: int = 0) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.inputs = {}
        kind = self.kind.currentData()
        for m in measures_of(kind):
            if m.type == "float":
                box = QDoubleSpinBox(self.fields_box)
                box.setRange(0.0, 100_000.0)
                box.setDecimals(1)
                box.valueChanged.connect(self._changed)
                self.form.addRow(tr(MEASURES.get(m.name, m.name)), box)
            elif m.type == "bool":
                box = QCheckBox(tr(MEASURES.get(m.name, m.name)), self.fields_box)
                box.setChecked(bool(m.default))
                box.toggled.connect(self._changed)
                self.form.addRow(box)
            else:
                box = QComboBox(self.fields_box)
                for material in material_choices(kind, m.name, self.limits):
                    box.addItem(material_words(material), material)
                box.currentIndexChanged.connect(self._changed)
                self.form.addRow(tr(MEASURES.get(m.name, m.name)), box)
            bigger(box, 1.2)
            self.inputs[m.name] = box
        self._entered = False
        self._show()

    def set_measures(self, measures: dict[str, Any]) -> None:
        """Fill the form (a desk test, a re-inspection)."""
        for name, value in measures.items():
            box = self.inputs[name]
            if isinstance(box, QDoubleSpinBox):
                box.setValue(float(value))
            elif isinstance(box, QCheckBox):
                box.setChecked(bool(value))
            else:
                box.setCurrentIndex(box.findData(value))
        self._entered = True
        self._show()

    def measures(self) -> dict[str, Any]:
        """The measurements as entered, by name."""
        out: dict[str, Any] = {}
        for name, box in self.inputs.items():
            if isinstance(box, QDoubleSpinBox):
                out[name] = box.value()
            elif isinstance(box, QCheckBox):
                out[name] = box.isChecked()
            else:
                out[name] = box.currentData() or ""
        return out

    def verdict(self) -> Verdict | str:
        """The Appendix 1 verdict of the measurements, or what is wrong with them in words."""
        try:
            return inspect_measures(self.kind.currentData(), self.measures(), self.limits)
        except ValueError as exc:
            return self.tr("Cannot judge these measurements: {0}").format(exc)

    def _changed(self, *_args) -> None:
        self._entered = True
        self._show()

    def _show(self) -> None:
        verdict = self.verdict()
        if not self._entered:
            self.verdict_label.setText(self.tr("Enter the measurements: the verdict follows each one."))
            self.verdict_label.setStyleSheet("")
        elif isinstance(verdict, str):
            self.verdict_label.setText(verdict)
            self.verdict_label.setStyleSheet(ERROR_STYLE)
        elif verdict.passed:
            text = self.tr("PASSES Appendix 1")
            if verdict.category:
                text += self.tr(" \u00b7 {0}").format(verdict.category.replace("_", "-"))
            self.verdict_label.setText(text)
            self.verdict_label.setStyleSheet(OK_STYLE)
        else:
            lines = [self.tr("FAILS Appendix 1 on %n criteria:", "", len(verdict.failures))]
            lines += [f"\u2022 {f.message}\n    {f.rule}" for f in verdict.failures]
            self.verdict_label.setText("\n".join(lines))
            self.verdict_label.setStyleSheet(ERROR_STYLE)
        self.changed.emit()
