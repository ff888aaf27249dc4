"""TimelinePanel: the events of the game, newest at the bottom, filterable, the last 20,000 kept."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QSize, QSortFilterProxyModel, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHeaderView,
    QLineEdit,
    QMenu,
    QStyle,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from controlroom.game.clock import format_time
from controlroom.game.views import StateDelta, StoredView
from controlroom.ui.panels.table import read_only_view
from controlroom.ui.panels.timeline_model import (  # noqa: F401  (re-exported: the panel's names)
    COLUMNS,
    LIVE_HOLD_MS,
    MAX_ROWS,
    SEQ_ROLE,
    TimelineModel,
    details,
)
from controlroom.ui.panels.words import EVENT_TYPES, word


class TimelinePanel(QWidget):
    """The event timeline with a filter box; double-clicking a row emits ``event_activated(seq)``."""

    event_activated = Signal(int)
    correct_requested = Signal(int)     # "Correct this report…" on a row: its seq
    card_requested = Signal(int)        # "Player card" on a row about a player: the badge

    #: Rows always shown: the window never makes the panel smaller than this.
    MIN_ROWS = 5
    #: The panel scrolls its own rows: the window puts it in a dock as it is.
    scrolls_itself = True

    def __init__(self, parent: QWidget | None = None, max_rows: int = MAX_ROWS, hold_ms: int = 0) -> None:
        super().__init__(parent)
        self.model = TimelineModel(self, max_rows)
        self.model.hold_ms = hold_ms            # rows coming live added at most this often (the window: LIVE_HOLD_MS)
        # The filter: a proxy between the model and the view only while a filter is typed.  Without one the view
        # shows the model itself: a proxy made in Python costs each cell painted a mapping and a dozen calls
        # that look for Python overrides, and each row added or dropped an update of its mapping of every row
        # (a sampling profile of the panel alone scrolled at 20,000 rows: a quarter of its time in the proxy).
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Filter: a name, a badge, an event, a source..."))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        self.view = read_only_view(self, self.model, QHeaderView.ResizeMode.Interactive)
        self.view.doubleClicked.connect(self._activated)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._menu)
        # Every row the same height, never measured: a row's height asked of its cells would be Python calls.
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.setWordWrap(False)            # one line a row: a long name or detail elided ("…"), not cut in two
        # The columns of short words are as wide as their widest text among the rows (measured once a text
        # first comes, not by Qt's ResizeToContents, which asks the cells of the rows in view again at every
        # change of the rows); the game master may widen or narrow them, and they stay as the game master made
        # them.  The details take what is left.
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.by_hand: set[int] = set()
        self._fitting = False
        self._measured: dict[int, set[str]] = {}     # the texts measured for each fitted column
        self._widest: dict[int, int] = {}            # and the widest of them
        header.sectionResized.connect(self._resized)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.filter)
        layout.addWidget(self.view)
        self._fit_rows()
        self._fit_columns()
        self.model.new_texts.connect(self._fit_columns)
        # The view follows the newest event while its scroll bar is at the bottom, where the game master left
        # it; a view made smaller (the docks arranged at start, a tab shown) keeps following.
        self.following = True
        bar = self.view.verticalScrollBar()
        bar.valueChanged.connect(self._scrolled)
        bar.rangeChanged.connect(self._range_changed)
        # At the cap the oldest rows go as new ones come: the rows the game master scrolled up to read stay put.
        self.model.rowsRemoved.connect(self._model_rows_removed)
        self.proxy.rowsRemoved.connect(self._proxy_rows_removed)

    #: The columns fitted to their texts: time, event, source.
    FITTED = (0, 1, 4)

    @Slot()
    def _fit_columns(self) -> None:
        """Each fitted column as wide as its widest text (and its title), unless the game master sized it.

        Only the texts not measured before are measured (in a live game the trackers' and marshals' handsets
        bring new Source texts delta after delta); the widths grow, never shrink, until the font changes.
        """
        model, view = self.model, self.view
        header = view.horizontalHeader()
        texts = {0: [format_time(1)], 1: [word(EVENT_TYPES, t) for t in model.kinds], 4: model.sources}
        option = QStyleOptionViewItem()             # a cell as the delegate draws it, measured as Qt measures it
        option.initFrom(view)
        option.font = view.font()
        option.features = QStyleOptionViewItem.ViewItemFeature.HasDisplay
        grid = 1 if view.showGrid() else 0
        style = view.style()

        def width_of(text: str) -> int:
            option.text = text
            return style.sizeFromContents(QStyle.ContentsType.CT_ItemViewItem, option, QSize(), view).width() + grid

        self._fitting = True
        try:
            for column in self.FITTED:
                measured = self._measured.setdefault(column, set())
                new = [t for t in texts[column] if t not in measured]
                if new:
                    measured.update(new)
                    self._widest[column] = max(self._widest.get(column, 0), max(width_of(t) for t in new))
                if column in self.by_hand:
                    continue
                width = max(self._widest.get(column, 0), header.sectionSizeHint(column))
                if width != header.sectionSize(column):
                    header.resizeSection(column, width)
        finally:
            self._fitting = False

    @Slot(int, int, int)
    def _resized(self, column: int, _old: int, _new: int) -> None:
        if not self._fitting and column in self.FITTED and self.view.isVisible():
            self.by_hand.add(column)

    @Slot(str)
    def _filter_changed(self, text: str) -> None:
        """The proxy filters while there is a filter; without, the view shows the model again."""
        if text:
            if self.proxy.sourceModel() is not self.model:
                self.proxy.setSourceModel(self.model)
            self.proxy.setFilterFixedString(text)
            self._show(self.proxy)
        elif self.view.model() is not self.model:
            self._show(self.model)
            self.proxy.setSourceModel(None)         # no longer kept up to date as rows come and go

    def _show(self, model) -> None:
        """The view on ``model``: the row chosen stays chosen and in view; else a view following keeps following."""
        view = self.view
        if view.model() is model:
            return
        chosen = view.model().data(view.currentIndex(), SEQ_ROLE) if view.currentIndex().isValid() else None
        following = self.following
        old = view.selectionModel()
        header = view.horizontalHeader()
        widths = [header.sectionSize(c) for c in range(header.count())]
        self._fitting = True                        # not the game master's sizing: the columns as they were
        try:
            view.setModel(model)
            header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
            header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
            for column in self.FITTED:
                header.resizeSection(column, widths[column])
            view.setColumnHidden(4, self.width() < self.SOURCE_MIN_WIDTH)
        finally:
            self._fitting = False
        old.deleteLater()
        row = self.row_of(chosen) if chosen is not None else None
        if row is not None:
            index = model.index(row, 0)
            view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            view.scrollTo(index, QTableView.ScrollHint.PositionAtCenter)
        elif following:
            view.scrollToBottom()

    def row_of(self, seq: int) -> int | None:
        """The row of the view showing event ``seq`` (None when it is not shown)."""
        model = self.view.model()
        rows = self.model.rows
        lo, hi = 0, len(rows)                       # the rows are in the order of their seqs
        while lo < hi:
            mid = (lo + hi) // 2
            if rows[mid].seq < seq:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(rows) or rows[lo].seq != seq:
            return None
        if model is self.model:
            return lo
        index = self.proxy.mapFromSource(self.model.index(lo, 0))
        return index.row() if index.isValid() else None

    def _fit_rows(self) -> None:
        """The table's height for MIN_ROWS rows at the font in use, with its header and scroll bar."""
        view = self.view
        rows = view.verticalHeader().defaultSectionSize() * self.MIN_ROWS
        view.setMinimumHeight(rows + view.horizontalHeader().sizeHint().height()
                              + view.horizontalScrollBar().sizeHint().height() + 2 * view.frameWidth())

    #: Below this width the Source column is left out: the details need the room more.
    SOURCE_MIN_WIDTH = 700

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_rows()
            self._measured.clear()                  # every text measured again in the new font
            self._widest.clear()
            self._fit_columns()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.view.setColumnHidden(4, self.width() < self.SOURCE_MIN_WIDTH)

    @Slot(int)
    def _scrolled(self, value: int) -> None:
        self.following = value >= self.view.verticalScrollBar().maximum()

    @Slot(int, int)
    def _range_changed(self, _low: int, high: int) -> None:
        if self.following:
            self.view.verticalScrollBar().setValue(high)

    @Slot(QModelIndex, int, int)
    def _model_rows_removed(self, parent: QModelIndex, first: int, last: int) -> None:
        if self.view.model() is self.model:
            self._rows_removed(first, last)

    @Slot(QModelIndex, int, int)
    def _proxy_rows_removed(self, parent: QModelIndex, first: int, last: int) -> None:
        if self.view.model() is self.proxy:
            self._rows_removed(first, last)

    def _rows_removed(self, first: int, last: int) -> None:
        """Rows gone above the view (the oldest, at the cap): the view moves up with the rows it shows."""
        if self.following:
            return
        bar = self.view.verticalScrollBar()
        value = bar.value()
        if self.view.verticalScrollMode() == QTableView.ScrollMode.ScrollPerPixel:
            row = max(1, self.view.verticalHeader().defaultSectionSize())
            above = max(0, min(last + 1, value // row) - first) * row
        else:
            above = max(0, min(last + 1, value) - first)
        if above:
            bar.setValue(value - above)

    def apply_delta(self, delta: StateDelta) -> None:
        """Append the delta's events (the view follows the newest while the game master leaves it at the bottom)."""
        self.model.apply_delta(delta)

    def set_events(self, events: Iterable[StoredView]) -> None:
        self.model.set_events(events)
        self.view.scrollToBottom()

    def set_filter(self, text: str) -> None:
        self.filter.setText(text)

    def stored_at(self, index: QModelIndex) -> StoredView | None:
        """The stored event of a row of the view."""
        seq = self.view.model().data(index, SEQ_ROLE) if index.isValid() else None
        return next((s for s in reversed(self.model.rows) if s.seq == seq), None) if seq is not None else None

    def menu_for(self, stored: StoredView) -> QMenu:
        """The row's menu: correct it (unless already retracted or itself a correction), the player's card."""
        menu = QMenu(self)
        correct = menu.addAction(self.tr("Correct this report\u2026"))
        correct.setEnabled(stored.seq not in self.model.retracted
                           and stored.event.type not in ("retracted", "alarm_acknowledged"))
        correct.triggered.connect(lambda _=False, seq=stored.seq: self.correct_requested.emit(seq))
        badge = stored.event.data.get("badge")
        if badge is not None:
            card = menu.addAction(self.tr("Player card"))
            card.triggered.connect(lambda _=False, b=badge: self.card_requested.emit(int(b)))
        return menu

    def _menu(self, pos) -> None:
        stored = self.stored_at(self.view.indexAt(pos))
        if stored is not None:
            self.menu_for(stored).popup(self.view.viewport().mapToGlobal(pos))

    def _activated(self, index: QModelIndex) -> None:
        seq = index.data(SEQ_ROLE)
        if seq is not None:
            self.event_activated.emit(int(seq))
