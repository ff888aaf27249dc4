"""PlayerCard: one player's state, hit and armour points, deadlines, history and the devices that reported."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from controlroom.game.clock import format_time
from controlroom.game.devices import NOT_AUTHENTICATED
from controlroom.game.views import CharacterView, StoredView
from controlroom.ui.panels.timeline import details
from controlroom.ui.panels.words import CONDITIONS, DEADLINE_KINDS, EVENT_TYPES, countdown, word


class PlayerCard(QDialog):
    """A window of its own about one badge, kept up to date while open; ``correct_requested(seq)`` asks
    the window to correct the history's selected report."""

    correct_requested = Signal(int)

    REFRESH_MS = 1000

    def __init__(self, badge: int, now_ms: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.badge = badge
        self.now_ms = now_ms
        self.character: CharacterView | None = None
        self.history_rows: list[StoredView] = []
        self.retracted: set[int] = set()
        self.title = QLabel(self)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.3)
        self.title.setFont(font)
        self.state = QLabel(self)
        self.state.setWordWrap(True)
        self.deadlines = QLabel(self)
        self.deadlines.setWordWrap(True)
        self.devices = QLabel(self)
        self.devices.setWordWrap(True)
        self.history = QTableWidget(0, 4, self)
        self.history.setHorizontalHeaderLabels([self.tr("Time"), self.tr("Event"), self.tr("Details"),
                                                self.tr("Source")])
        self.history.verticalHeader().setVisible(False)
        self.history.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.history.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.history.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.history.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.correct = QPushButton(self.tr("Correct this report\u2026"), self)
        self.correct.setEnabled(False)
        self.correct.clicked.connect(self._correct)
        self.history.itemSelectionChanged.connect(
            lambda: self.correct.setEnabled(self.selected_seq() is not None))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.correct)
        layout = QVBoxLayout(self)
        for w in (self.title, self.state, self.deadlines, self.devices):
            layout.addWidget(w)
        layout.addWidget(QLabel(self.tr("History"), self))
        layout.addWidget(self.history, 1)
        layout.addLayout(buttons)
        self.resize(640, 480)
        self.timer = QTimer(self)
        self.timer.setInterval(self.REFRESH_MS)
        self.timer.timeout.connect(self._show_deadlines)
        self.timer.start()

    def set_character(self, c: CharacterView) -> None:
        self.character = c
        self.setWindowTitle(self.tr("{name} (badge {badge})").format(name=c.name, badge=c.badge))
        self.title.setText(self.tr("{name} \u00b7 badge {badge}").format(name=c.name, badge=c.badge))
        extra = []
        if c.bound:
            extra.append(self.tr("bound"))
        if c.carer is not None:
            extra.append(self.tr("cared for by {0}").format(c.carer))
        if c.in_valhalla:
            extra.append(self.tr("in Valhalla"))
        self.state.setText(self.tr(
            "{side} / {group} \u00b7 {cls}\nState: {condition}{extra}\nHit points {hp} of {max_hp} \u00b7 "
            "armour points {ap} of {max_ap} \u00b7 {deaths} deaths").format(
            side=c.side, group=c.group, cls=c.cls, condition=word(CONDITIONS, c.condition),
            extra=(" (" + ", ".join(extra) + ")") if extra else "", hp=c.hp, max_hp=c.max_hp, ap=c.ap,
            max_ap=c.max_ap, deaths=c.deaths))
        self._show_deadlines()

    def set_history(self, events: Iterable[StoredView], retracted: Iterable[int] = (),
                    device_names: dict[str, str] | None = None, tak_sources: Iterable[str] = ()) -> None:
        """The events about this badge (oldest first); struck out when retracted.  ``tak_sources``: the devices
        whose positions come from a TAK phone (their trust is said: not authenticated)."""
        self.retracted = set(retracted)
        self.history_rows = [s for s in events if s.event.data.get("badge") == self.badge]
        self.history.setRowCount(len(self.history_rows))
        for row, s in enumerate(self.history_rows):
            source = s.event.source + (" " + self.tr("(TAK, not authenticated)") if s.via in NOT_AUTHENTICATED else "")
            texts = (format_time(s.event.t), word(EVENT_TYPES, s.event.type), details(s.event.data), source)
            for col, text in enumerate(texts):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, s.seq)
                if s.seq in self.retracted:
                    font = QFont(item.font())
                    font.setStrikeOut(True)
                    item.setFont(font)
                    item.setToolTip(self.tr("Retracted: a wrong report, left out of the game."))
                self.history.setItem(row, col, item)
        names = device_names or {}
        tak = set(tak_sources)
        sources = list(dict.fromkeys(s.event.source for s in self.history_rows))
        shown = []
        for s in sources:
            text = f"{names[s]} ({s})" if names.get(s) else s
            if s in tak:
                text += " · " + self.tr("position by TAK, not authenticated")
            shown.append(text)
        self.devices.setText(self.tr("Reported by: {0}").format(", ".join(shown) or self.tr("nobody yet")))

    def selected_seq(self) -> int | None:
        rows = {i.row() for i in self.history.selectedItems()}
        if len(rows) != 1:
            return None
        seq = self.history_rows[rows.pop()].seq
        return None if seq in self.retracted else seq

    def _correct(self) -> None:
        seq = self.selected_seq()
        if seq is not None:
            self.correct_requested.emit(seq)

    def _show_deadlines(self) -> None:
        c = self.character
        if c is None:
            return
        now = self.now_ms()
        parts = []
        for d in c.deadlines:
            if d.kind == "stopp_overdue":
                continue
            left = d.remaining if d.due is None else d.due - now
            held = self.tr(" (held by a STOPP)") if d.due is None else ""
            parts.append(f"{word(DEADLINE_KINDS, d.kind)} {countdown(left)}{held}")
        self.deadlines.setText(self.tr("Deadlines: {0}").format("; ".join(parts) if parts else self.tr("none")))
