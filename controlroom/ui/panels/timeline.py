"""TimelinePanel: the events of the game, newest at the bottom, filterable, the last 20,000 kept."""

from __future__ import annotations

from typing import Iterable

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal,
    Slot,
)
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHeaderView, QLineEdit, QMenu, QTableView, QVBoxLayout, QWidget

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
        self.endResetModel()
        self.append(events)

    def append(self, events: Iterable[StoredView]) -> None:
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
        marked = [e.event.data["seq"] for e in new if e.event.type == "retracted" and "seq" in e.event.data]
        if marked:
            self.retracted.update(marked)
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(COLUMNS) - 1),
                                  [Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ToolTipRole])

    # -- the model -----------------------------------------------------------
    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if role not in _ROLES:          # most of what a view asks a cell for (decoration, colours, alignment...)
            return None
        row = index.row()               # -1 for an invalid index
        if not 0 <= row < len(self.rows):
            return None
        stored = self.rows[row]
        if role == Qt.ItemDataRole.DisplayRole:
            texts = self._texts.get(stored.seq)
            if texts is None:
                texts = self._texts[stored.seq] = tuple(self._text(stored, key) for key, _title in COLUMNS)
            return texts[index.column()]
        if role == SEQ_ROLE:
            return stored.seq
        if role == Qt.ItemDataRole.FontRole and stored.seq in self.retracted:
            font = QFont()
            font.setStrikeOut(True)
            return font
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
        if stored.via in WEAKER_TRUST:          # a Meshtastic channel message: weaker than our own signed frames
            return event.source + " " + self.tr("(channel key)")
        return event.source


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
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Filter: a name, a badge, an event, a source..."))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.view = read_only_view(self, self.proxy, QHeaderView.ResizeMode.Interactive)
        self.view.doubleClicked.connect(self._activated)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._menu)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)      # the details take what is left
        for column in (0, 1, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.filter)
        layout.addWidget(self.view)
        self._fit_rows()
        # The view follows the newest event while its scroll bar is at the bottom, where the game master left
        # it; a view made smaller (the docks arranged at start, a tab shown) keeps following.
        self.following = True
        bar = self.view.verticalScrollBar()
        bar.valueChanged.connect(self._scrolled)
        bar.rangeChanged.connect(self._range_changed)
        # At the cap the oldest rows go as new ones come: the rows the game master scrolled up to read stay put.
        self.proxy.rowsRemoved.connect(self._rows_removed)

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
    def _rows_removed(self, _parent: QModelIndex, first: int, last: int) -> None:
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
        seq = self.proxy.data(index, SEQ_ROLE)
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
        seq = self.proxy.data(index, SEQ_ROLE)
        if seq is not None:
            self.event_activated.emit(int(seq))
