"""ArmourForm: Appendix 2 armour of one character (helmet, pieces worn, inadequate material) and its points live."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGridLayout, QLabel, QSpinBox, QWidget

from controlroom.rules.armour import ArmourPoints, armour_points
from controlroom.rules.profile import ProfileError, RulesProfile, default_profile
from controlroom.ui.desk_common import ERROR_STYLE, OK_STYLE, bigger


class ArmourForm(QWidget):
    """The helmet and armour pieces a character wears; ``points`` follows every change (``changed``)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile = default_profile()
        self.form = QFormLayout(self)
        self._build()

    def set_profile(self, profile: RulesProfile) -> None:
        """The game's armour tables (the form is built again)."""
        self.profile = profile
        while self.form.rowCount():
            self.form.removeRow(0)
        self._build()

    def _build(self) -> None:
        self.helmet = bigger(QComboBox(self), 1.2)
        self.helmet.addItem(self.tr("no helmet"), None)
        for name, points in sorted(self.profile.helmet_points.items()):
            self.helmet.addItem(self.tr("{0} ({1} AP)").format(name.replace("_", " "), points), name)
        self.helmet.currentIndexChanged.connect(self._changed)
        self.form.addRow(self.tr("Helmet"), self.helmet)
        pieces = QWidget(self)
        grid = QGridLayout(pieces)
        grid.setContentsMargins(0, 0, 0, 0)
        self.pieces: dict[str, QCheckBox] = {}
        for i, (name, points) in enumerate(sorted(self.profile.body_points.items())):
            box = bigger(QCheckBox(self.tr("{0} ({1} AP)").format(name.replace("_", " "), points), pieces), 1.2)
            box.toggled.connect(self._changed)
            grid.addWidget(box, i // 2, i % 2)
            self.pieces[name] = box
        self.form.addRow(self.tr("Armour worn"), pieces)
        self.inadequate = bigger(QCheckBox(self.tr("Inadequate material or no real protection (at most {0} AP)")
                                           .format(self.profile.armour_inadequate_max), self), 1.2)
        self.inadequate.toggled.connect(self._changed)
        self.form.addRow(self.inadequate)
        self.gm_points = bigger(QSpinBox(self), 1.2)
        self.gm_points.setRange(-1, self.profile.armour_max_total)
        self.gm_points.setValue(-1)
        self.gm_points.setSpecialValueText(self.tr("from the costume"))
        self.gm_points.valueChanged.connect(self._changed)
        self.form.addRow(self.tr("Game master's points"), self.gm_points)
        self.points_label = bigger(QLabel(self), 1.6, bold=True)
        self.points_label.setWordWrap(True)
        self.form.addRow(self.points_label)
        self._changed()

    def set_armour(self, helmet: str | None = None, pieces=(), inadequate: bool = False, ap: int | None = None) -> None:
        """Fill the form."""
        self.helmet.setCurrentIndex(max(0, self.helmet.findData(helmet)))
        for name, box in self.pieces.items():
            box.setChecked(name in pieces)
        self.inadequate.setChecked(inadequate)
        self.gm_points.setValue(-1 if ap is None else ap)

    def fields(self) -> dict[str, Any]:
        """The ``armour_set`` fields (without the badge)."""
        out: dict[str, Any] = {"armour": [n for n, box in self.pieces.items() if box.isChecked()],
                               "inadequate": self.inadequate.isChecked()}
        if self.helmet.currentData():
            out["helmet"] = self.helmet.currentData()
        if self.gm_points.value() >= 0:
            out["ap"] = self.gm_points.value()
        return out

    def points(self) -> ArmourPoints | str:
        """The armour points of what is entered, or what is wrong in words."""
        f = self.fields()
        try:
            return armour_points(self.profile, f.get("helmet"), f["armour"], f["inadequate"], f.get("ap"))
        except (ProfileError, ValueError) as exc:
            return str(exc)

    def _changed(self, *_args) -> None:
        ap = self.points()
        if isinstance(ap, str):
            self.points_label.setText(ap)
            self.points_label.setStyleSheet(ERROR_STYLE)
        else:
            self.points_label.setText(self.tr("Armour points: {total} (body {body} + helmet {helmet})").format(
                total=ap.total, body=ap.body, helmet=ap.helmet))
            self.points_label.setStyleSheet(OK_STYLE)
        self.changed.emit()
