"""ArmourForm: Appendix 2 armour of one character (helmet, pieces worn, their material measured) and its points live."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from controlroom.rules.armour import ArmourPoints, armour_points
from controlroom.rules.armour_materials import BODY, HELMET, PieceCheck, check_armour, failures, measure_key
from controlroom.rules.profile import ProfileError, RulesProfile, default_profile
from controlroom.ui.desks.common import ERROR_STYLE, OK_STYLE, bigger, verdict_area

MATERIAL_LINES = 5          # the material verdict's box: longer verdicts scroll inside it
NOT_MEASURED = 0.0          # a thickness box at 0 shows "not measured"


class ArmourForm(QWidget):
    """The helmet and armour pieces a character wears and their measured material; ``points`` follows every change."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile = default_profile()
        self.form = QFormLayout(self)
        self._own_inadequate = False      # the game master's own choice, while thin material forces the box
        self._build()

    def set_profile(self, profile: RulesProfile) -> None:
        """The game's armour tables (the form is built again)."""
        self.profile = profile
        while self.form.rowCount():
            self.form.removeRow(0)
        self._build()

    def _thickness(self, parent: QWidget, part: str, name: str) -> QDoubleSpinBox:
        box = bigger(QDoubleSpinBox(parent), 1.2)
        box.setRange(NOT_MEASURED, 50.0)
        box.setDecimals(1)
        box.setSingleStep(0.1)
        made_of = (self.profile.helmet_made_of if part == HELMET else self.profile.body_made_of).get(name)
        box.setSuffix(self.tr(" mm wire") if made_of == "chain" else self.tr(" mm"))
        box.setSpecialValueText(self.tr("not measured"))
        box.setToolTip(self.tr("Appendix 2: the thickness of the material (of the wire, for chain)"))
        box.valueChanged.connect(self._changed)
        return box

    def _build(self) -> None:
        row = QWidget(self)
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        self.helmet = bigger(QComboBox(row), 1.2)
        self.helmet.addItem(self.tr("no helmet"), None)
        for name, points in sorted(self.profile.helmet_points.items()):
            self.helmet.addItem(self.tr("{0} ({1} AP)").format(name.replace("_", " "), points), name)
        self.helmet.currentIndexChanged.connect(self._changed)
        line.addWidget(self.helmet, 1)
        self.helmet_mm = self._thickness(row, HELMET, "")
        line.addWidget(self.helmet_mm)
        self.form.addRow(self.tr("Helmet"), row)
        pieces = QWidget(self)
        grid = QGridLayout(pieces)
        grid.setContentsMargins(0, 0, 0, 0)
        self.pieces: dict[str, QCheckBox] = {}
        self.thickness: dict[str, QDoubleSpinBox] = {}
        for i, (name, points) in enumerate(sorted(self.profile.body_points.items())):
            box = bigger(QCheckBox(self.tr("{0} ({1} AP)").format(name.replace("_", " "), points), pieces), 1.2)
            box.toggled.connect(self._changed)
            mm = self._thickness(pieces, BODY, name)
            grid.addWidget(box, i // 2, (i % 2) * 2)
            grid.addWidget(mm, i // 2, (i % 2) * 2 + 1)
            self.pieces[name] = box
            self.thickness[name] = mm
        self.form.addRow(self.tr("Armour worn"), pieces)
        self.inadequate = bigger(QCheckBox(self.tr("Inadequate material or no real protection (at most {0} AP)")
                                           .format(self.profile.armour_inadequate_max), self), 1.2)
        self.inadequate.toggled.connect(self._inadequate_toggled)
        self.form.addRow(self.inadequate)
        self.gm_points = bigger(QSpinBox(self), 1.2)
        self.gm_points.setRange(-1, self.profile.armour_max_total)
        self.gm_points.setValue(-1)
        self.gm_points.setSpecialValueText(self.tr("from the costume"))
        self.gm_points.valueChanged.connect(self._changed)
        self.form.addRow(self.tr("Game master's points"), self.gm_points)
        self.points_label = bigger(QLabel(self), 1.6, bold=True)
        self.form.addRow(verdict_area(self, self.points_label, 2))
        self.material_label = bigger(QLabel(self), 1.1)
        self.material_box = verdict_area(self, self.material_label, MATERIAL_LINES)
        self.form.addRow(self.material_box)
        self._own_inadequate = False
        self._changed()

    def set_armour(self, helmet: str | None = None, pieces=(), inadequate: bool = False, ap: int | None = None,
                   measures: dict[str, float] | None = None) -> None:
        """Fill the form (``measures`` in mm by ``helmet_mm`` and ``<piece>_mm``)."""
        measures = measures or {}
        self.helmet.setCurrentIndex(max(0, self.helmet.findData(helmet)))
        self.helmet_mm.setValue(measures.get("helmet_mm", NOT_MEASURED))
        for name, box in self.pieces.items():
            box.setChecked(name in pieces)
            self.thickness[name].setValue(measures.get(measure_key(BODY, name), NOT_MEASURED))
        self._own_inadequate = inadequate
        self.inadequate.setChecked(inadequate)
        self.gm_points.setValue(-1 if ap is None else ap)
        self._changed()

    def measures(self) -> dict[str, float]:
        """The thickness measured of what is worn, in mm (nothing for a piece not measured)."""
        out: dict[str, float] = {}
        if self.helmet.currentData() and self.helmet_mm.value() != NOT_MEASURED:
            out["helmet_mm"] = self.helmet_mm.value()
        for name, box in self.pieces.items():
            if box.isChecked() and self.thickness[name].value() != NOT_MEASURED:
                out[measure_key(BODY, name)] = self.thickness[name].value()
        return out

    def fields(self) -> dict[str, Any]:
        """The ``armour_set`` fields (without the badge)."""
        out: dict[str, Any] = {"armour": [n for n, box in self.pieces.items() if box.isChecked()],
                               "inadequate": self.inadequate.isChecked()}
        if self.helmet.currentData():
            out["helmet"] = self.helmet.currentData()
        if self.gm_points.value() >= 0:
            out["ap"] = self.gm_points.value()
        if self.measures():
            out["measures"] = self.measures()
        return out

    def checks(self) -> tuple[PieceCheck, ...]:
        """Each piece worn against Appendix 2's material minimums (not judged until measured)."""
        return check_armour(self.profile, self.helmet.currentData(),
                            [n for n, box in self.pieces.items() if box.isChecked()], self.measures())

    def points(self) -> ArmourPoints | str:
        """The armour points of what is entered, or what is wrong in words."""
        f = self.fields()
        try:
            return armour_points(self.profile, f.get("helmet"), f["armour"], f["inadequate"], f.get("ap"))
        except (ProfileError, ValueError) as exc:
            return str(exc)

    def _inadequate_toggled(self, checked: bool) -> None:
        if self.inadequate.isEnabled():         # the game master's own choice, not the one thin material forced
            self._own_inadequate = checked
        self._changed()

    def _changed(self, *_args) -> None:
        self.helmet_mm.setEnabled(bool(self.helmet.currentData()))
        for name, box in self.pieces.items():
            self.thickness[name].setEnabled(box.isChecked())
        checks = self.checks()
        thin = failures(checks)
        # Too thin is inadequate material: the box is ticked (and held) while a measurement says so.
        self.inadequate.blockSignals(True)
        self.inadequate.setChecked(bool(thin) or self._own_inadequate)
        self.inadequate.setEnabled(not thin)
        self.inadequate.blockSignals(False)
        self._show_material(checks, thin)
        ap = self.points()
        if isinstance(ap, str):
            self.points_label.setText(ap)
            self.points_label.setStyleSheet(ERROR_STYLE)
        else:
            self.points_label.setText(self.tr("Armour points: {total} (body {body} + helmet {helmet})").format(
                total=ap.total, body=ap.body, helmet=ap.helmet))
            self.points_label.setStyleSheet(OK_STYLE)
        self.changed.emit()

    def _show_material(self, checks: tuple[PieceCheck, ...], thin: tuple[PieceCheck, ...]) -> None:
        if not checks:
            self.material_label.setText("")
            self.material_label.setStyleSheet("")
            return
        marks = {True: "\u2713", False: "\u2717", None: "\u00b7"}
        lines = [f"{marks[c.passed]} {c.message}" for c in checks]
        if thin:
            lines.insert(0, self.tr("Inadequate material (Appendix 2): at most {0} armour points.").format(
                self.profile.armour_inadequate_max))
            style = ERROR_STYLE
        elif all(c.passed for c in checks):
            lines.insert(0, self.tr("The material meets Appendix 2."))
            style = OK_STYLE
        else:
            lines.insert(0, self.tr("Measure the material of what is worn (Appendix 2):"))
            style = ""
        self.material_label.setText("\n".join(lines))
        self.material_label.setStyleSheet(style)
