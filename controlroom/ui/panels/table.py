"""The read-only table model the panels share: rows of named tuples under translated column titles."""

from __future__ import annotations

import time

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Slot
from PySide6.QtWidgets import QHeaderView, QTableView, QWidget

from controlroom.ui.panels.words import tr


class RowTable(QAbstractTableModel):
    """Rows (a list) under ``titles`` (untranslated words, translated when shown); ``now`` for countdowns."""

    titles: tuple[str, ...] = ()
    #: The columns whose texts follow ``now`` (countdowns, "12 s ago"); None: every column.
    now_columns: tuple[int, ...] | None = None

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list = []
        self.now = 0

    def set_now(self, now: int) -> None:
        """Move countdowns to game time ``now`` (the rows stay as they are).

        Only the :attr:`now_columns` are announced changed (and the whole rows :meth:`rows_changed_by_now`
        names): a view repaints the cells announced, each asking ``data()`` (Python) for a dozen roles, and
        the dying list's 500 ms redraw of every column took a paint of 12 ms of the GUI thread (bench_map).
        """
        before, self.now = self.now, now
        if not self.rows:
            return
        last = len(self.rows) - 1
        columns = self.now_columns if self.now_columns is not None else range(len(self.titles))
        if columns:
            self.dataChanged.emit(self.index(0, min(columns)), self.index(last, max(columns)))
        rows = self.rows_changed_by_now(before, now)
        if rows:
            self.dataChanged.emit(self.index(rows[0], 0), self.index(rows[-1], len(self.titles) - 1))

    def rows_changed_by_now(self, before: int, now: int) -> list[int]:
        """Rows (ascending) that show more than their :attr:`now_columns` differently at ``now`` than at
        ``before`` (a colour that changes with the time left); none by default."""
        return []

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

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.titles)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self.titles)):
            return tr(self.titles[section])
        return None


def hidden_in_shown_window(widget: QWidget) -> bool:
    """Whether the widget is out of sight in a window that is shown (a desk not chosen, a dock behind
    another's tab: Qt moves such a dock out of the window rather than hiding it).

    Such a widget may leave its tables as they are until it shows (its
    ``showEvent``, its dock's ``visibilityChanged`` and its ``resizeEvent``
    draw them): a game of 8,000 players opens without sorting them for
    tables nobody sees.  A widget on its own (a test's) draws at once.
    """
    return widget.window().isVisible() and (not widget.isVisible() or widget.visibleRegion().isEmpty())


class ColumnFitter(QObject):
    """Fits a view's columns to their contents after its model changed, at most once every :attr:`FIT_MS`.

    A header in Qt's ResizeToContents mode measures its columns again after
    every change of the model: each cell of the rows it samples asks the
    model's ``data()`` (Python) for a dozen roles.  With ten deltas a second
    changing the live tables, that measuring took a fifth of the GUI thread at
    200 frames a second (bench_map, a native profile).  A view not shown (a
    tab behind another, a desk not open) is fitted when it is shown.  A column
    the user widened or narrowed by hand is left as the user made it.  A fit
    that changed no width doubles the wait before the next (up to
    :attr:`MAX_FIT_MS`): a table whose texts keep their widths (the frame log,
    the devices' "12 s ago") is measured every half minute, not every second;
    rows inserted with a text wider than its column, or a model made anew, bring
    the wait back to :attr:`FIT_MS` (the rows inserted are measured alone: the
    deadlines take a row at each report, 10 a second at 200 frames/s, and
    measuring the whole table each second blocked the window ~5 ms a time).
    """

    FIT_MS = 1000
    MAX_FIT_MS = 32_000
    MEASURE_ROWS = 20                    # rows inserted at once measured alone; more: the table is fitted soon

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self.view = view
        self.fits = 0
        self.by_hand: set[int] = set()
        self._fitting = False
        self._pending = True                 # changed while not shown (or never fitted): fitted when shown
        self._fitted_at = -1e9               # time.monotonic() of the last fit
        self.interval_ms = self.FIT_MS       # the least time from one fit to the next
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.fit)
        model = view.model()
        model.rowsInserted.connect(self._rows_inserted)
        for signal in (model.modelReset, model.layoutChanged):
            signal.connect(self._new_rows)
        for signal in (model.rowsRemoved, model.dataChanged):
            signal.connect(self.schedule)
        view.horizontalHeader().sectionResized.connect(self._resized)
        view.installEventFilter(self)

    #: The events after which a view may have come into sight (a dock's tab brought to the front moves it back).
    SIGHT_EVENTS = (QEvent.Type.Show, QEvent.Type.Move, QEvent.Type.Resize)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._pending and event.type() in self.SIGHT_EVENTS:
            self.schedule()
        return False

    def _out_of_sight(self) -> bool:
        return not self.view.isVisible() or hidden_in_shown_window(self.view)

    @Slot()
    def schedule(self, *_args) -> None:
        """Fit once the model's changes of this moment are in, and no sooner than FIT_MS after the last fit."""
        if self._out_of_sight():
            self._pending = True
            return
        if not self._timer.isActive():
            wait = self._fitted_at + self.interval_ms / 1000 - time.monotonic()
            self._timer.start(max(0, min(self.interval_ms, int(wait * 1000))))

    @Slot()
    def _new_rows(self, *_args) -> None:
        """New texts may be wider than any before: fitted within FIT_MS, however long the wait had grown."""
        if self.interval_ms > self.FIT_MS:
            self.interval_ms = self.FIT_MS
            self._timer.stop()
        self.schedule()

    @Slot(QModelIndex, int, int)
    def _rows_inserted(self, _parent: QModelIndex, first: int, last: int) -> None:
        if last - first >= self.MEASURE_ROWS or self._out_of_sight() or self._wider(first, last):
            self._new_rows()
        else:
            self.schedule()

    def _fitted_columns(self) -> list[int]:
        """The columns a fit sizes: not sized by hand, not hidden, not stretched, not in a mode of Qt's own."""
        header = self.view.horizontalHeader()
        last = header.count() - 1
        return [column for column in range(header.count())
                if not (column in self.by_hand or self.view.isColumnHidden(column)
                        or header.sectionResizeMode(column) != QHeaderView.ResizeMode.Interactive
                        or (column == last and header.stretchLastSection()))]

    def _wider(self, first: int, last: int) -> bool:
        """Whether a cell of rows ``first`` to ``last`` needs more than its column's width (as a fit measures)."""
        view, model = self.view, self.view.model()
        header, grid = view.horizontalHeader(), 1 if view.showGrid() else 0
        for column in self._fitted_columns():
            width = header.sectionSize(column)
            if any(view.sizeHintForIndex(model.index(row, column)).width() + grid > width
                   for row in range(first, last + 1)):
                return True
        return False

    @Slot()
    def fit(self) -> None:
        if self._out_of_sight():
            self._pending = True
            return
        self._pending = False
        self._fitted_at = time.monotonic()
        self.fits += 1
        header = self.view.horizontalHeader()
        widths = [header.sectionSize(c) for c in range(header.count())]
        self._fitting = True
        try:
            for column in self._fitted_columns():
                self.view.resizeColumnToContents(column)
        finally:
            self._fitting = False
        same = widths == [header.sectionSize(c) for c in range(header.count())]
        self.interval_ms = min(2 * self.interval_ms, self.MAX_FIT_MS) if same else self.FIT_MS

    @Slot(int, int, int)
    def _resized(self, column: int, old: int, new: int) -> None:
        # (A column hidden or shown again goes to or from width 0, and a stretched one follows the view's
        # width: neither is a width the user chose.)
        header = self.view.horizontalHeader()
        if (not self._fitting and self.view.isVisible() and old and new
                and header.sectionResizeMode(column) == QHeaderView.ResizeMode.Interactive
                and not (column == header.count() - 1 and header.stretchLastSection())):
            self.by_hand.add(column)


def read_only_view(parent, model, resize=None) -> QTableView:
    """A table view of whole rows, not editable, the last column stretched: how every panel shows a model.

    The columns are fitted to their contents by a :class:`ColumnFitter` (at most once a second, as the
    rows change), unless ``resize`` names a mode of Qt's own for them all.
    """
    view = QTableView(parent)
    view.setModel(model)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive if resize is None else resize)
    # Sized to contents from the visible rows and 20 more, not from every row: measuring a thousand rows
    # (a Python call per cell) on each update kept the window busy at 200 frames a second (bench_map).
    header.setResizeContentsPrecision(20)
    header.setStretchLastSection(True)
    if resize is None:
        view.fitter = ColumnFitter(view)
    return view
