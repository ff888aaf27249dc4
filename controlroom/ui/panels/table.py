"""The read-only table model the panels share: rows of named tuples under translated column titles."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QHeaderView, QTableView

from controlroom.ui.panels.words import tr


class RowTable(QAbstractTableModel):
    """Rows (a list) under ``titles`` (untranslated words, translated when shown); ``now`` for countdowns."""

    titles: tuple[str, ...] = ()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list = []
        self.now = 0

    def set_now(self, now: int) -> None:
        """Move countdowns to game time ``now`` (the rows stay as they are)."""
        self.now = now
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(self.titles) - 1))

    def replace_rows(self, rows: list, key=None) -> None:
        """Show ``rows`` instead: when they are the same rows as before (by ``key``, in the same order), only
        the span of rows that differ is announced (``dataChanged``); otherwise the model is reset.

        A reset makes every view lay out and measure its rows again; at ten deltas a second, with hundreds
        of rows, that kept the window busy (bench_map).
        """
        key = key or (lambda row: row)
        old = self.rows
        if len(old) == len(rows) and all(key(a) == key(b) for a, b in zip(old, rows)):
            changed = [i for i, (a, b) in enumerate(zip(old, rows)) if a != b]
            self.rows = rows
            if changed:
                self.dataChanged.emit(self.index(changed[0], 0), self.index(changed[-1], len(self.titles) - 1))
            return
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.titles)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self.titles)):
            return tr(self.titles[section])
        return None


def read_only_view(parent, model, resize=QHeaderView.ResizeMode.ResizeToContents) -> QTableView:
    """A table view of whole rows, not editable, the last column stretched: how every panel shows a model."""
    view = QTableView(parent)
    view.setModel(model)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(resize)
    # Sized to contents from the visible rows and 20 more, not from every row: measuring a thousand rows
    # (a Python call per cell) on each update kept the window busy at 200 frames a second (bench_map).
    header.setResizeContentsPrecision(20)
    header.setStretchLastSection(True)
    return view
