"""DeadlinePanel ("Dying and waking"): every pending rule deadline as a live countdown, soonest first."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import NamedTuple

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QLabel, QSizePolicy, QStyle, QVBoxLayout, QWidget

from controlroom.game.views import CharacterView, StateDelta
from controlroom.ui.panels.table import RowTable, read_only_view
from controlroom.ui.panels.words import DEADLINE_KINDS, countdown, who, word

RED_MS = 2 * 60_000        # a character dying within 2 minutes
ORANGE_MS = 5 * 60_000     # ... within 5 minutes

CRITICAL, WARNING, NORMAL, HELD = "critical", "warning", "normal", "held"
URGENCY_COLOURS = {
    CRITICAL: QColor("#d9534f"),
    WARNING: QColor("#f0ad4e"),
    HELD: QColor("#b0b0b0"),
}
URGENCY_ROLE = Qt.ItemDataRole.UserRole + 1     # "critical", "warning", "normal" or "held"
REMAINING_ROLE = Qt.ItemDataRole.UserRole + 2   # ms left (int), for sorting and tests
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

COLUMNS = (
    ("countdown", QT_TRANSLATE_NOOP("panels", "Due in")),
    ("what", QT_TRANSLATE_NOOP("panels", "What")),
    ("who", QT_TRANSLATE_NOOP("panels", "Who")),
    ("group", QT_TRANSLATE_NOOP("panels", "Group")),
    ("side", QT_TRANSLATE_NOOP("panels", "Side")),
)


class DeadlineRow(NamedTuple):
    """One pending deadline of one character, with what the panel shows about them."""

    badge: int
    name: str
    group: str
    side: str
    kind: str
    due: int | None        # game ms on the timeline; None while a STOPP holds it
    remaining: int         # ms left when the delta was made (what is left while held)

    def left(self, now: int) -> int:
        """Milliseconds left at game time ``now`` (frozen while held)."""
        return self.remaining if self.due is None else self.due - now

    def urgency(self, now: int) -> str:
        if self.due is None:
            return HELD
        if self.kind == "dies":
            left = self.left(now)
            if left < RED_MS:
                return CRITICAL
            if left < ORANGE_MS:
                return WARNING
        return NORMAL

    def sort_key(self) -> tuple:
        # Held deadlines last (by what is left), the others by when they fall due.
        return (self.due is None, self.remaining if self.due is None else self.due, self.badge, self.kind)


def rows_of(character: CharacterView) -> tuple[DeadlineRow, ...]:
    """The deadline rows of one character (none when nothing is pending)."""
    c = character
    return tuple(
        DeadlineRow(c.badge, c.name, c.group, c.side, d.kind, d.due, d.remaining)
        for d in c.deadlines
        if d.kind != "stopp_overdue"
    )


_BRUSHES: dict[str, QBrush] = {}
_TEXT_ON_COLOUR = "text on colour"      # (a key of _brush: black, the text on red and orange rows)


def _brush(urgency: str) -> QBrush:
    """The one brush of an urgency's colour (or of :data:`_TEXT_ON_COLOUR`)."""
    brush = _BRUSHES.get(urgency)
    if brush is None:
        brush = _BRUSHES[urgency] = QBrush(URGENCY_COLOURS.get(urgency, QColor("black")))
    return brush


class DeadlineTable:
    """Deadlines by badge, merged from deltas; pure Python (tested without a model)."""

    def __init__(self) -> None:
        self.by_badge: dict[int, tuple[DeadlineRow, ...]] = {}

    def apply(self, full: bool, characters: Iterable[CharacterView]) -> None:
        if full:
            self.by_badge = {}
        for c in characters:
            rows = rows_of(c)
            if rows:
                self.by_badge[c.badge] = rows
            else:
                self.by_badge.pop(c.badge, None)

    def set_rows(self, badge: int, rows: tuple[DeadlineRow, ...]) -> tuple[DeadlineRow, ...]:
        """Replace one character's rows; returns the rows it had."""
        old = self.by_badge.pop(badge, ()) if not rows else self.by_badge.get(badge, ())
        if rows:
            self.by_badge[badge] = rows
        return old

    def sorted_rows(self) -> list[DeadlineRow]:
        return sorted((r for rows in self.by_badge.values() for r in rows), key=DeadlineRow.sort_key)


def _due_key(row: DeadlineRow) -> tuple:
    return row.sort_key()[:2]


class DeadlineModel(RowTable):
    """The deadlines, soonest first, as a table whose countdowns follow ``now``."""

    titles = tuple(title for _key, title in COLUMNS)
    now_columns = (0,)                  # "Due in"

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.table = DeadlineTable()
        self.rows: list[DeadlineRow] = []
        self.now = 0

    # -- updates -------------------------------------------------------------
    #: A delta changing more characters than this resets the model (one reset is cheaper than many inserts).
    RESET_OVER = 200

    def apply_delta(self, delta: StateDelta, now: int | None = None) -> None:
        """The characters of ``delta``: their rows removed and inserted where they sort, not a reset.

        A full delta, or one changing more than :attr:`RESET_OVER` characters,
        resets the model.  The countdowns are then read at ``now`` (the panel's timer redraws them).
        """
        now = delta.t if now is None else now
        if not delta.full and not delta.characters:
            # Positions only: no deadline changed.  The countdowns are read at ``now`` from here on, and
            # redrawn by the panel's timer (every 500 ms), not at each delta (ten a second).
            self.now = now
            return
        if delta.full or len(delta.characters) > self.RESET_OVER:
            self.beginResetModel()
            self.table.apply(delta.full, delta.characters)
            self.rows = self.table.sorted_rows()
            self.now = now
            self.endResetModel()
            return
        for c in delta.characters:
            new = rows_of(c)
            old = self.table.set_rows(c.badge, new)
            if new == old:
                continue
            for row in old:
                self._remove(row)
            for row in new:
                self._insert(row)
        self.now = now

    def rows_changed_by_now(self, before: int, now: int) -> list[int]:
        """The rows of the dying whose colour changes between ``before`` and ``now``: those falling due in
        2 (red) or 5 (orange) minutes from one and not from the other.  The rows sort by when they fall
        due (held ones last), so each threshold is a span found by bisection, not a pass over 2,000 rows."""
        if now < before:                    # the clock went back (a replay's seek): every row may differ
            return list(range(len(self.rows)))
        changed: set[int] = set()
        for limit in (RED_MS, ORANGE_MS):
            # The rows whose due lies in [before + limit, now + limit) crossed this threshold.
            lo = bisect.bisect_left(self.rows, (False, before + limit), key=_due_key)
            hi = bisect.bisect_left(self.rows, (False, now + limit), key=_due_key)
            changed.update(i for i in range(lo, hi) if self.rows[i].kind == "dies")
        return sorted(changed)

    def _find(self, row: DeadlineRow) -> int:
        i = bisect.bisect_left(self.rows, row.sort_key(), key=DeadlineRow.sort_key)
        while i < len(self.rows) and self.rows[i] != row and self.rows[i].sort_key() == row.sort_key():
            i += 1
        return i if i < len(self.rows) and self.rows[i] == row else self.rows.index(row)

    def _remove(self, row: DeadlineRow) -> None:
        i = self._find(row)
        self.beginRemoveRows(QModelIndex(), i, i)
        del self.rows[i]
        self.endRemoveRows()

    def _insert(self, row: DeadlineRow) -> None:
        i = bisect.bisect_right(self.rows, row.sort_key(), key=DeadlineRow.sort_key)
        self.beginInsertRows(QModelIndex(), i, i)
        self.rows.insert(i, row)
        self.endInsertRows()

    # -- the model -----------------------------------------------------------
    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        return self._value(row, COLUMNS[index.column()][0], int(role), row.urgency(self.now))

    def multiData(self, index: QModelIndex | QPersistentModelIndex, span) -> None:
        """Every role a view's delegate asks a cell for at once (seven for each cell it paints), as data()
        gives them: one call from Qt into Python a cell, the row's urgency found once (2,000 dying, their
        rows painted at each countdown's redraw)."""
        r = index.row()
        if not 0 <= r < len(self.rows):
            for item in span:
                item.clearData()
            return
        row = self.rows[r]
        column = COLUMNS[index.column()][0]
        urgency = row.urgency(self.now)
        for item in span:                   # the delegate's items are used again: each role set or cleared
            value = self._value(row, column, item.role(), urgency)
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def _value(self, row: DeadlineRow, column: str, role: int, urgency: str):
        if role == _DISPLAY:
            return self._text(row, column)
        if role == _BACKGROUND:
            return _brush(urgency) if urgency in (CRITICAL, WARNING) else None
        if role == _FOREGROUND:
            if urgency == HELD:
                return _brush(HELD)
            return _brush(_TEXT_ON_COLOUR) if urgency in (CRITICAL, WARNING) else None
        if role == _ALIGNMENT:
            return _RIGHT if column == "countdown" else None
        if role == URGENCY_ROLE:
            return urgency
        if role == REMAINING_ROLE:
            return row.left(self.now)
        if role == _TOOLTIP and row.due is None:
            return self.tr("Held: a STOPP covers this character; the time stands still until it is lifted.")
        return None

    def held(self, left: str) -> str:
        """A countdown held by a STOPP."""
        return self.tr("held {0}").format(left)

    def _text(self, row: DeadlineRow, column: str) -> str:
        if column == "countdown":
            left = countdown(row.left(self.now))
            return self.held(left) if row.due is None else left
        if column == "what":
            return word(DEADLINE_KINDS, row.kind)
        if column == "who":
            return who(row.name, row.badge)
        return row.group if column == "group" else row.side


class DeadlinePanel(QWidget):
    """Dying and waking: live countdowns of every pending rule deadline, redrawn every 500 ms.

    ``now_ms`` gives the game clock (timeline ms); the countdowns follow it
    between deltas, which only bring new deadlines.
    """

    REFRESH_MS = 500
    #: Rows inserted or removed: whether group and side fit is decided again this long after (once a burst).
    FIT_MS = 1000
    #: The columns always shown whole (countdown, what, who); group and side only when there is room.
    ALWAYS = (0, 1, 2)
    #: The panel scrolls its own rows: the window puts it in a dock as it is, with the room it needs.
    scrolls_itself = True

    def __init__(self, now_ms: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.now_ms = now_ms
        self.model = DeadlineModel(self)
        self.title = QLabel(self.tr("Dying and waking"), self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.view = read_only_view(self, self.model)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        # The columns are fitted to their texts by the view's ColumnFitter (at most once a second), not by
        # Qt's ResizeToContents, which measured them again at each redraw of the countdowns.
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)     # the name takes what is left
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        # Rows come and go one by one, or all at once (a mass death resets the model): whether group and side
        # still fit is decided again once after a burst, not at each row (it measures the rows shown).
        self.model.modelReset.connect(self._fit_later)
        self._fit_soon = QTimer(self)
        self._fit_soon.setSingleShot(True)
        self._fit_soon.setInterval(self.FIT_MS)
        self._fit_soon.timeout.connect(self.fit_columns)
        self.model.rowsInserted.connect(self._fit_later)
        self.model.rowsRemoved.connect(self._fit_later)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addWidget(self.view)
        self.timer = QTimer(self)
        self.timer.setInterval(self.REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self._update_summary()

    def column_needs(self, column: int) -> int:
        """Pixels a column needs to show its title and its widest text whole."""
        return max(self.view.sizeHintForColumn(column), self.view.horizontalHeader().sectionSizeHint(column))

    def needed_width(self) -> int:
        """The width of the panel that shows countdown, what and name whole (for the window's layout)."""
        sample = self.fontMetrics()
        # A cell needs its text and the view's margins: Qt's text margin each side, the grid line and rounding.
        margin = self.view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.view)
        pad = 2 * (margin + 1) + 2
        # Rows to come are measured by a long name and the longest word for what falls due.
        name = sample.horizontalAdvance("Wolfgang Amadeus (1234)") + pad
        what = max(sample.horizontalAdvance(word(DEADLINE_KINDS, k)) for k in ("dies", "wakes", "regains_hp",
                                                                               "respawns")) + pad
        clock = sample.horizontalAdvance(self.model.held("00:00")) + pad
        columns = [max(self.column_needs(c), need) for c, need in zip(self.ALWAYS, (clock, what, name))]
        margins = self.layout().contentsMargins()
        return (sum(columns) + self.view.verticalScrollBar().sizeHint().width() + 2 * self.view.frameWidth()
                + margins.left() + margins.right())

    def fit_columns(self) -> None:
        """Show group and side only while countdown, what and name still fit whole."""
        room = self.view.viewport().width()
        used = sum(self.column_needs(c) for c in self.ALWAYS)
        for column in (3, 4):
            need = self.column_needs(column)
            fits = used + need <= room
            self.view.setColumnHidden(column, not fits)
            if fits:
                used += need

    def _fit_later(self, *_args) -> None:
        if not self._fit_soon.isActive():
            self._fit_soon.start()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.setMinimumWidth(self.needed_width())
            self.fit_columns()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.setMinimumWidth(self.needed_width())
        self.fit_columns()

    def apply_delta(self, delta: StateDelta) -> None:
        """Replace the deadlines of the characters in ``delta`` (all of them when ``delta.full``)."""
        self.model.apply_delta(delta, self.now_ms())
        if delta.full or delta.characters:
            self._update_summary()          # (else only the clock moved: the timer's refresh counts again)

    def refresh(self) -> None:
        """Redraw the countdowns at the game clock's time."""
        self.model.set_now(self.now_ms())
        self._update_summary()

    def _update_summary(self) -> None:
        rows = self.model.rows
        # The rows sort by when they fall due, the held ones last: each count is a span found by bisection
        # (2,000 casualties counted at every delta and twice a second).
        ticking = bisect.bisect_left(rows, (True,), key=_due_key)
        soon = bisect.bisect_left(rows, (False, self.model.now + RED_MS), key=_due_key)
        held = len(rows) - ticking
        dying = sum(1 for r in rows[:ticking] if r.kind == "dies")
        critical = sum(1 for r in rows[:soon] if r.kind == "dies")
        self.summary.setText(
            self.tr("{0} dying ({1} within 2 minutes), {2} held by a STOPP").format(dying, critical, held)
        )
