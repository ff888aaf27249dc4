"""SiegePanel ("Siege engines"): the latest report of every siege engine, from ``delta.field["siege"]``."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from controlroom.game.clock import format_time
from controlroom.game.views import StateDelta, merge_field
from controlroom.ui.panels.table import RowTable, read_only_view
from controlroom.ui.panels.words import word

SIEGE_STATUSES = {
    "moved": QT_TRANSLATE_NOOP("panels", "moved"),
    "firing": QT_TRANSLATE_NOOP("panels", "firing"),
    "damaged": QT_TRANSLATE_NOOP("panels", "damaged"),
    "destroyed": QT_TRANSLATE_NOOP("panels", "destroyed"),
    "captured": QT_TRANSLATE_NOOP("panels", "captured"),
}
STATUS_COLOURS = {
    "damaged": QColor("#f0ad4e"),
    "destroyed": QColor("#d9534f"),
    "captured": QColor("#d9534f"),
}
ENGINE_ROLE = Qt.ItemDataRole.UserRole + 1   # the engine's name (str), on every cell

COLUMNS = (
    ("engine", QT_TRANSLATE_NOOP("panels", "Engine")),
    ("status", QT_TRANSLATE_NOOP("panels", "Status")),
    ("reported", QT_TRANSLATE_NOOP("panels", "Last report")),
    ("lat", QT_TRANSLATE_NOOP("panels", "Latitude")),
    ("lon", QT_TRANSLATE_NOOP("panels", "Longitude")),
)


class SiegeRow(NamedTuple):
    engine: str
    t: int
    status: str
    lat: float | None
    lon: float | None


def coordinate(value) -> str:
    return "" if value is None else f"{float(value):.5f}"


class SiegeModel(RowTable):
    """The siege engines by name, each with its latest status, report time and position."""

    titles = tuple(title for _key, title in COLUMNS)

    def set_siege(self, siege: dict) -> None:
        self.beginResetModel()
        self.rows = sorted((SiegeRow(str(engine), *entry) for engine, entry in siege.items()),
                           key=lambda r: r.engine)
        self.endResetModel()

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        column = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "engine":
                return row.engine
            if column == "status":
                return word(SIEGE_STATUSES, row.status)
            if column == "reported":
                return format_time(row.t)
            return coordinate(row.lat if column == "lat" else row.lon)
        if role == ENGINE_ROLE:
            return row.engine
        if role == Qt.ItemDataRole.ForegroundRole and column == "status" and row.status in STATUS_COLOURS:
            return QBrush(STATUS_COLOURS[row.status])
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("lat", "lon"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column in ("lat", "lon") and row.lat is None:
            return self.tr("No position reported")
        return None


class SiegePanel(QWidget):
    """Siege engines: status, last report and position; double click emits ``engine_activated(engine)``."""

    engine_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = SiegeModel(self)
        self._field: dict = {}                  # the field's "siege" part, as the deltas brought it
        self.title = QLabel(self.tr("Siege engines"), self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.view = read_only_view(self, self.model)
        self.view.doubleClicked.connect(self._activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.view)

    def apply_delta(self, delta: StateDelta) -> None:
        """Show the siege engines of ``delta.field`` (an empty field, or one without "siege", keeps them)."""
        field = delta.field or {}
        if field.get("siege") is None or (field.get("partial") and not field["siege"]):
            return                              # (a partial field: no engine reported since the last delta)
        self.model.set_siege(merge_field(self._field, field, ("siege",))["siege"])

    def _activated(self, index: QModelIndex) -> None:
        engine = self.model.data(index, ENGINE_ROLE)
        if engine is not None:
            self.engine_activated.emit(engine)
