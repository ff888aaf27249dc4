"""The timeline's model: the stored events in order, their texts made once, rows added in chunks or held a moment."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QFont

from controlroom.game.clock import format_time
from controlroom.game.devices import NOT_AUTHENTICATED, WEAKER_TRUST
from controlroom.game.views import StateDelta, StoredView
from controlroom.ui.panels.table import RowTable
from controlroom.ui.panels.words import EVENT_TYPES, who, word

MAX_ROWS = 20_000
#: How long the window's timeline holds rows that come live before adding them (ms): see TimelineModel.hold_ms.
LIVE_HOLD_MS = 500
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
        # Rows are added at most every hold_ms (0: as they come).  Each addition makes a view that follows the
        # newest event scroll and paint all its rows again (12 ms of the GUI thread at 1366x768); at ten deltas
        # a second that alone kept the window late (bench_map).  The window holds them 500 ms (LIVE_HOLD_MS).
        self.hold_ms = 0
        self._added_at = -1e9

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
        self._added_at = -1e9                   # (a game opened shows its rows at once)
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
        """Add ``events`` after the rows (those already shown or given before are left out), CHUNK at a time;
        at most one addition every :attr:`hold_ms` (what comes in between is added together then)."""
        events = events if isinstance(events, list) else list(events)
        for i in range(0, len(events), self.CHUNK):
            self._pending.append(events[i:i + self.CHUNK])
        if not self._pending or self._drainer.isActive():
            return                                      # (added when the timer comes)
        wait = self._added_at + self.hold_ms / 1000 - time.monotonic()
        if wait > 0:
            self._drainer.start(max(1, int(wait * 1000) + 1))
        elif len(self._pending) == 1:
            self._add(self._pending.popleft())          # a delta's few events: at once
        else:
            self._drain()

    def everything(self) -> tuple[list[StoredView], set[int]]:
        """The rows and those given but not added yet (held, or in chunks to come), and the seqs retracted
        among them: what a player's card shows of a badge's history, held rows included."""
        rows = list(self.rows)
        retracted = set(self.retracted)
        for chunk in self._pending:
            for e in chunk:
                if e.seq > (rows[-1].seq if rows else 0):
                    rows.append(e)
                    if e.event.type == "retracted" and "seq" in e.event.data:
                        retracted.add(e.event.data["seq"])
        return rows, retracted

    @Slot()
    def _drain(self) -> None:
        """Add the given rows: a chunk in this turn of the event loop, the next chunk in the next turn."""
        if len(self._pending) > 1 and len(self._pending[0]) + len(self._pending[1]) <= self.CHUNK:
            # Deltas held back together (hold_ms): their events are one chunk, one addition.
            merged: list[StoredView] = []
            while self._pending and len(merged) + len(self._pending[0]) <= self.CHUNK:
                merged += self._pending.popleft()
            self._pending.appendleft(merged)
        if self._pending:
            self._add(self._pending.popleft())
        if self._pending:
            self._drainer.start(0)

    def _add(self, events: list[StoredView]) -> None:
        self._added_at = time.monotonic()
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

    def multiData(self, index: QModelIndex | QPersistentModelIndex, span) -> None:
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
        if role == Qt.ItemDataRole.ToolTipRole and stored.via in NOT_AUTHENTICATED:
            return self.tr("A TAK phone's position: anyone on the TAK network could have sent it in this name. "
                           "Shown on the map; no rule uses it.")
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
        if via in NOT_AUTHENTICATED:            # a TAK phone's report: nothing authenticates it
            return source + " " + self.tr("(TAK, not authenticated)")
        return source
