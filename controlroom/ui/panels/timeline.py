"""TimelinePanel: the events of the game, newest at the bottom, filterable, the last 20,000 kept."""

from __future__ import annotations

from collections import deque
from typing import Iterable

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QItemSelectionModel, QModelIndex, QPersistentModelIndex,
    QSize, QSortFilterProxyModel, Qt, QTimer, Signal, Slot,
)
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHeaderView, QLineEdit, QMenu, QStyle, QStyleOptionViewItem, QTableView, QVBoxLayout, QWidget,
)

from controlroom.game.clock import format_time
from controlroom.game.devices import WEAKER_TRUST
from controlroom.game.views import StateDelta, StoredView
from controlroom.ui.panels.table import RowTable, read_only_view
from controlroom.ui.panels.words import EVENT_TYPES, tr, who, word

MAX_ROWS = 20_000
SEQ_ROLE = Qt.ItemDataRole.UserRole + 1

COLUMNS = (
    ("time", QT_TRANSLATE_NOOP("panels", "Time")),
    ("type", QT_TRANSLATE_NOOP("panels", "Event")),
    ("who", QT_TRANSLATE_NOOP("panels", "Who")),
    ("details", QT_TRANSLATE_NOOP("panels", "Details")),
    ("source", QT_TRANSLATE_NOOP("panels", "Source")),
)
_WHO_FIELDS = ("badge", "device")
_DISPLAY, _FONT = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.FontRole)
_ROLES = frozenset(int(r) for r in (Qt.ItemDataRole.DisplayRole, SEQ_ROLE, Qt.ItemDataRole.FontRole,
                                     Qt.ItemDataRole.ToolTipRole))


def details(data) -> str:
    """The fields of an event besides who it is about, as ``name: value`` text."""
    parts = []
    for key, value in data.items():
        if key in _WHO_FIELDS:
            continue
        if isinstance(value, (list, tuple)):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = QCoreApplication.translate("panels", "yes") if value else QCoreApplication.translate("panels", "no")
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return "; ".join(parts)


class TimelineModel(RowTable):
    """Stored events in order; names looked up from the characters the deltas brought."""

    new_texts = Signal()        # an event type or a Source text not among the rows before came

    titles = tuple(title for _key, title in COLUMNS)

    def __init__(self, parent=None, max_rows: int = MAX_ROWS) -> None:
        super().__init__(parent)
        self.max_rows = max_rows
        self.rows: list[StoredView] = []
        self.names: dict[int, str] = {}
        self.retracted: set[int] = set()
        self.last_seq = 0
        # The texts of the rows shown (seq -> one text a column), made once: a view asks for each cell again at
        # every paint (bench_timeline: scrolling took twice a plain QStandardItemModel's time).
        self._texts: dict[int, tuple[str, ...]] = {}
        # The event types and the Source texts among the rows since the last set_events (the panel fits the
        # columns to them; ``new_texts`` when one came that was not there before).
        self.kinds: set[str] = set()
        self.sources: set[str] = set()
        self._came: set[tuple[str, str, str | None]] = set()     # (type, source, via) of the rows
        # Rows given and not added yet, in chunks (see CHUNK); the timer adds the next at the next turn.
        self._pending: deque[list[StoredView]] = deque()
        self._drainer = QTimer(self)
        self._drainer.setSingleShot(True)
        self._drainer.setInterval(0)
        self._drainer.timeout.connect(self._drain)

    def apply_delta(self, delta: StateDelta) -> None:
        """Learn names from the delta's characters and append its events."""
        names = self.names
        learned = False
        for c in delta.characters:
            if names.get(c.badge) != c.name:
                names[c.badge] = c.name
                learned = True
        if learned:
            self._texts.clear()         # a name new or changed: the Who texts are made again
        self.append(delta.events)

    def set_events(self, events: Iterable[StoredView]) -> None:
        """Replace every row (opening a game: the log's last events)."""
        self.beginResetModel()
        self.rows, self.retracted, self.last_seq = [], set(), 0
        self._texts.clear()
        self.kinds, self.sources, self._came = set(), set(), set()
        self._pending.clear()
        self._drainer.stop()
        self.endResetModel()
        events = list(events)
        self.append(events[-self.max_rows:])

    #: The most rows added in one turn of the event loop: more (the 20,000 of the cap, or 200,000 given to
    #: a panel whose cap was raised) come CHUNK at a time, one turn after another, so that the window is held
    #: for a few milliseconds a turn, not at once (200,000 at once held it 0.3 s on the dev machine).
    CHUNK = 5_000

    @property
    def pending_rows(self) -> int:
        """Rows given but not added yet (they come CHUNK a turn of the event loop)."""
        return sum(len(chunk) for chunk in self._pending)

    def append(self, events: Iterable[StoredView]) -> None:
        """Add ``events`` after the rows (those already shown or given before are left out), CHUNK at a time."""
        events = events if isinstance(events, list) else list(events)
        for i in range(0, len(events), self.CHUNK):
            self._pending.append(events[i:i + self.CHUNK])
        if len(self._pending) == 1 and not self._drainer.isActive():
            self._add(self._pending.popleft())          # a delta's few events: at once
        elif self._pending and not self._drainer.isActive():
            self._drain()

    @Slot()
    def _drain(self) -> None:
        """Add the next chunk of the rows given; the one after in the next turn of the event loop."""
        if self._pending:
            self._add(self._pending.popleft())
        if self._pending:
            self._drainer.start()

    def _add(self, events: list[StoredView]) -> None:
        new = [e for e in events if e.seq > self.last_seq]
        if not new:
            return
        self.last_seq = new[-1].seq
        new = new[-self.max_rows:]
        drop = len(self.rows) + len(new) - self.max_rows
        if drop > 0:
            self.beginRemoveRows(QModelIndex(), 0, drop - 1)
            texts = self._texts
            for gone in self.rows[:drop]:
                texts.pop(gone.seq, None)
            del self.rows[:drop]
            self.endRemoveRows()
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
        self.rows.extend(new)
        self.endInsertRows()
        came = {(e.event.type, e.event.source, e.via) for e in new} - self._came
        if came:
            self._came |= came
            kinds = {kind for kind, _source, _via in came} - self.kinds
            sources = {self._source_text(source, via) for _kind, source, via in came} - self.sources
            if kinds or sources:
                self.kinds |= kinds
                self.sources |= sources
                self.new_texts.emit()
        marked = [e.event.data["seq"] for e in new if e.event.type == "retracted" and "seq" in e.event.data]
        if marked:
            self.retracted.update(marked)
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(COLUMNS) - 1),
                                  [Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ToolTipRole])

    # -- the model -----------------------------------------------------------
    def texts(self, row: int) -> tuple[str, ...]:
        """The shown texts of a row (one a column), made the first time they are asked for."""
        stored = self.rows[row]
        texts = self._texts.get(stored.seq)
        if texts is None:
            texts = self._texts[stored.seq] = tuple(self._text(stored, key) for key, _title in COLUMNS)
        return texts

    def multiData(self, index: QModelIndex | QPersistentModelIndex, span) -> None:  # noqa: N802 (Qt's name)
        """Every role a view's delegate asks a cell for at once (seven for each cell it paints): one call from
        Qt into Python a cell instead of seven; only the text and a retracted row's font are set, the other
        roles cleared (the delegate keeps its items from one cell to the next)."""
        row = index.row()
        shown = 0 <= row < len(self.rows)
        for item in span:                   # the delegate's items are used again: each role set or cleared
            role = item.role()
            if shown and role == _DISPLAY:
                item.setData(self.texts(row)[index.column()])
            elif shown and role == _FONT and self.rows[row].seq in self.retracted:
                item.setData(self._struck_out())
            else:
                item.clearData()

    def _struck_out(self) -> QFont:
        font = QFont()
        font.setStrikeOut(True)
        return font

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if role not in _ROLES:          # most of what a view asks a cell for (decoration, colours, alignment...)
            return None
        row = index.row()               # -1 for an invalid index
        if not 0 <= row < len(self.rows):
            return None
        stored = self.rows[row]
        if role == _DISPLAY:
            return self.texts(row)[index.column()]
        if role == SEQ_ROLE:
            return stored.seq
        if role == _FONT and stored.seq in self.retracted:
            return self._struck_out()
        if role == Qt.ItemDataRole.ToolTipRole and stored.seq in self.retracted:
            return self.tr("Retracted: a wrong report, left out of the game.")
        if role == Qt.ItemDataRole.ToolTipRole and stored.via in WEAKER_TRUST:
            return self.tr("Sent on a Meshtastic channel: anyone holding the channel's key could have sent it "
                           "in this name.")
        return None

    def _text(self, stored: StoredView, column: str) -> str:
        event = stored.event
        if column == "time":
            return format_time(event.t)
        if column == "type":
            return word(EVENT_TYPES, event.type)
        if column == "who":
            badge = event.data.get("badge", event.data.get("device"))
            if badge is None:
                return ""
            name = self.names.get(badge)
            return who(name, badge) if name else str(badge)
        if column == "details":
            return details(event.data)
        return self._source_text(event.source, stored.via)

    def _source_text(self, source: str, via: str | None) -> str:
        if via in WEAKER_TRUST:                 # a Meshtastic channel message: weaker than our own signed frames
            return source + " " + self.tr("(channel key)")
        return source


class TimelinePanel(QWidget):
    """The event timeline with a filter box; double-clicking a row emits ``event_activated(seq)``."""

    event_activated = Signal(int)
    correct_requested = Signal(int)     # "Correct this report…" on a row: its seq
    card_requested = Signal(int)        # "Player card" on a row about a player: the badge

    #: Rows always shown: the window never makes the panel smaller than this.
    MIN_ROWS = 5
    #: The panel scrolls its own rows: the window puts it in a dock as it is.
    scrolls_itself = True

    def __init__(self, parent: QWidget | None = None, max_rows: int = MAX_ROWS) -> None:
        super().__init__(parent)
        self.model = TimelineModel(self, max_rows)
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

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_rows()
            self._measured.clear()                  # every text measured again in the new font
            self._widest.clear()
            self._fit_columns()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
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
