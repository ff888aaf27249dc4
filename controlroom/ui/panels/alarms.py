"""AlarmBanner: the alarms not yet acknowledged, by class (safety, game, radio security, link), repeats merged.

Each class has its colour, icon, word and sound.  A safety alarm (STOPP,
injury) or a storage alarm is acknowledged on its own; the others a class at
a time ("Acknowledge all radio security").  At most three rows show, the most
urgent first, then "+N more": a click on it asks for the list of them all
(``show_all_requested``; the window opens ui/dialogs/alarm_list.py).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QStyle, QVBoxLayout, QWidget

from controlroom.game.alarms import GAME, LINK, ONE_BY_ONE, SAFETY, SECURITY, STORAGE, Alarm, AlarmBoard, AlarmRowState
from controlroom.game.clock import format_time
from controlroom.game.views import StateDelta
from controlroom.ui.panels.fitted import FittedLabel
from controlroom.ui.panels.words import word

ALARM_KINDS = {
    "stopp": QT_TRANSLATE_NOOP("panels", "STOPP"),
    "injury": QT_TRANSLATE_NOOP("panels", "Injury"),
    "death": QT_TRANSLATE_NOOP("panels", "Death"),
    "stopp_overdue": QT_TRANSLATE_NOOP("panels", "STOPP lasts too long"),
    "late_report": QT_TRANSLATE_NOOP("panels", "Late report"),
    "rejected_auth": QT_TRANSLATE_NOOP("panels", "Forged radio frame"),
    "rejected_replay": QT_TRANSLATE_NOOP("panels", "Replayed radio frame"),
    "rejected_unknown_device": QT_TRANSLATE_NOOP("panels", "Unknown radio device"),
    "gateway_lost": QT_TRANSLATE_NOOP("panels", "Gateway lost"),
    "weak_spot": QT_TRANSLATE_NOOP("panels", "Weak radio spot"),
    "marshal_silent": QT_TRANSLATE_NOOP("panels", "Marshal silent"),
    "storage": QT_TRANSLATE_NOOP("panels", "Storage"),
}
CLASS_WORDS = {
    SAFETY: QT_TRANSLATE_NOOP("panels", "SAFETY"),
    STORAGE: QT_TRANSLATE_NOOP("panels", "STORAGE"),
    GAME: QT_TRANSLATE_NOOP("panels", "GAME"),
    SECURITY: QT_TRANSLATE_NOOP("panels", "RADIO SECURITY"),
    LINK: QT_TRANSLATE_NOOP("panels", "LINK"),
}
ACK_ALL = {
    GAME: QT_TRANSLATE_NOOP("panels", "Acknowledge all game"),
    SECURITY: QT_TRANSLATE_NOOP("panels", "Acknowledge all radio security"),
    LINK: QT_TRANSLATE_NOOP("panels", "Acknowledge all link"),
}
#: Background and text colour of each class (every pair reads at 4.5:1 or better).
CLASS_COLOURS = {
    SAFETY: ("#c9302c", "#ffffff"),
    STORAGE: ("#37474f", "#ffffff"),
    GAME: ("#f0ad4e", "#000000"),
    SECURITY: ("#5e35b1", "#ffffff"),
    LINK: ("#0062b8", "#ffffff"),
}
#: A safety row flashing, its dark phase.
FLASH_OFF = ("#fbe3e2", "#000000")
CLASS_ICONS = {
    SAFETY: QStyle.StandardPixmap.SP_MessageBoxCritical,
    STORAGE: QStyle.StandardPixmap.SP_DriveHDIcon,
    GAME: QStyle.StandardPixmap.SP_MessageBoxWarning,
    SECURITY: QStyle.StandardPixmap.SP_MessageBoxInformation,
    LINK: QStyle.StandardPixmap.SP_DriveNetIcon,
}
FLASHING_KINDS = frozenset({"stopp", "injury", "stopp_overdue"})


def row_style(background: str, text: str) -> str:
    return (f"QFrame#alarm {{ background: {background}; }} "
            f"QFrame#alarm QLabel {{ color: {text}; background: transparent; }}")


class ElidedLabel(FittedLabel):
    """A one-line label that cuts its text with an ellipsis to fit (the whole text in its tooltip)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def set_full_text(self, text: str) -> None:
        self.full = text
        self.setToolTip(text)
        self._fit()

    def _fit(self) -> None:
        self.setText(self.fontMetrics().elidedText(self.full, Qt.TextElideMode.ElideRight, max(20, self.width())))


class AlarmRow(QFrame):
    """One row: class icon and word, what and when (with how many merged), and its Acknowledge button."""

    def __init__(self, state: AlarmRowState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("alarm")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)     # one line, never taller
        self.icon = QLabel(self)
        self.cls_label = QLabel(self)
        self.cls_label.setObjectName("alarm_text")
        font = self.cls_label.font()
        font.setBold(True)
        self.cls_label.setFont(font)
        self.label = ElidedLabel(self)
        self.label.setObjectName("alarm_text")
        self.button = QPushButton(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 1, 6, 1)
        layout.addWidget(self.icon)
        layout.addWidget(self.cls_label)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self.set_state(state)

    def set_state(self, state: AlarmRowState) -> None:
        """Show ``state``; only what changed is set again (a burst of merged repeats changes only the count)."""
        previous = getattr(self, "state", None)
        self.state = state
        alarm = state.latest
        if previous is None or previous.cls != state.cls:
            size = self.fontMetrics().height()
            icon = self.style().standardIcon(CLASS_ICONS.get(state.cls, CLASS_ICONS[GAME]))
            self.icon.setPixmap(icon.pixmap(size, size))
            self.cls_label.setText(word(CLASS_WORDS, state.cls))
            self.button.setText(self.tr("Acknowledge") if state.cls in ONE_BY_ONE else word(ACK_ALL, state.cls))
        text = self.tr("{kind} at {time}: {message}").format(
            kind=word(ALARM_KINDS, alarm.kind), time=format_time(alarm.t), message=alarm.message)
        if state.count > 1:
            text = self.tr("{text} (\u00d7{count})").format(text=text, count=state.count)
        self.label.set_full_text(text)
        self.flashes = alarm.kind in FLASHING_KINDS
        self.set_lit(True)

    def set_lit(self, lit: bool) -> None:
        self.lit = lit
        colours = CLASS_COLOURS.get(self.state.cls, CLASS_COLOURS[GAME])
        style = row_style(*(colours if lit or not self.flashes else FLASH_OFF))
        if style != getattr(self, "_style", None):       # a style sheet set again restyles the whole row
            self._style = style
            self.setStyleSheet(style)


class AlarmBanner(QWidget):
    """Unacknowledged alarms by class, repeats merged; hidden when there are none (once it has a parent).

    Connect ``add_alarm`` to CoreThread.alarm_raised and ``acknowledged`` to
    the core as ``Acknowledge`` commands (one per alarm id acknowledged).
    ``sound(cls)`` is called once per new row with the alarm's class (an
    :class:`~controlroom.ui.panels.sound.AlarmSounds` by default).
    """

    acknowledged = Signal(str)
    # "+N more" was clicked: show every alarm waiting (the window opens the list).
    show_all_requested = Signal()
    # The rows changed (an alarm added, merged or acknowledged): an open list follows.
    changed = Signal()
    # A new row (AlarmRowState), as it rings: the spoken alarms (panels/speech.py) read it aloud.
    rang = Signal(object)

    FLASH_MS = 500
    MAX_ROWS = 3

    def __init__(self, parent: QWidget | None = None, sound: Callable[[str], None] | None = None) -> None:
        super().__init__(parent)
        if sound is None:
            from controlroom.ui.panels.sound import AlarmSounds

            sound = AlarmSounds(self)
        self.sound: Callable[[str], None] = sound
        self.board = AlarmBoard()
        self.rows: dict[str, AlarmRow] = {}          # row key -> its widget
        self.more = QPushButton(self)
        self.more.setFlat(True)
        self.more.setCursor(Qt.CursorShape.PointingHandCursor)
        self.more.setToolTip(self.tr("Show every alarm waiting, and acknowledge them there"))
        self.more.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self.more.clicked.connect(self.show_all_requested)
        self.more.hide()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(1)
        self._layout.addWidget(self.more)
        self.flash_timer = QTimer(self)
        self.flash_timer.setInterval(self.FLASH_MS)
        self.flash_timer.timeout.connect(self._flash)
        if parent is not None:
            self.setVisible(False)

    # -- slots -----------------------------------------------------------------
    def add_alarm(self, alarm: Alarm) -> None:
        """Show ``alarm`` until it is acknowledged: a new row, or a count more on its repeats' row."""
        state, new = self.board.add(alarm)
        if new:
            self.sound(state.cls)
            self.rang.emit(state)
        self._update()

    def add_alarms(self, alarms: list[Alarm]) -> None:
        """Several alarms at once (a burst of deaths): the rows are laid out once, not once per alarm."""
        for alarm in alarms:
            state, new = self.board.add(alarm)
            if new:
                self.sound(state.cls)
                self.rang.emit(state)
        if alarms:
            self._update()

    def acknowledge(self, key: str) -> None:
        """The game master saw row ``key`` (or its class, for game, radio security and link)."""
        state = next((r for r in self.board.rows() if r.key == key), None)      # shown or under "+N more"
        if state is None:
            return
        cls = state.cls
        ids = self.board.acknowledge(key) if cls in ONE_BY_ONE else self.board.acknowledge_class(cls)
        self._update()
        for alarm_id in ids:
            self.acknowledged.emit(alarm_id)

    def acknowledge_class(self, cls: str) -> None:
        """Acknowledge every alarm of a class at once (not safety or storage)."""
        ids = self.board.acknowledge_class(cls)
        self._update()
        for alarm_id in ids:
            self.acknowledged.emit(alarm_id)

    def remove(self, alarm_id: str) -> bool:
        """Take ``alarm_id`` off the banner without emitting (acknowledged elsewhere); True if shown."""
        if self.board.remove_id(alarm_id):
            self._update()
            return True
        return False

    def apply_delta(self, delta: StateDelta) -> None:
        """Remove the alarms another game master (or a replayed log) acknowledged."""
        for stored in delta.events:
            if stored.event.type == "alarm_acknowledged":
                self.remove(stored.event.data.get("alarm", ""))

    # -- reading ---------------------------------------------------------------
    def row_keys(self) -> list[str]:
        """Every row's key, most urgent first (shown or not)."""
        return [r.key for r in self.board.rows()]

    def alarm_ids(self) -> list[str]:
        """Every unacknowledged alarm id, rows most urgent first."""
        return [i for r in self.board.rows() for i in reversed(r.ids)]

    def shown_rows(self) -> list[AlarmRow]:
        return [self.rows[k] for k in self.row_keys() if k in self.rows and not self.rows[k].isHidden()]

    def is_flashing(self) -> bool:
        return self.flash_timer.isActive()

    # -- inside ----------------------------------------------------------------
    def _update(self) -> None:
        shown, hidden = self.board.visible(self.MAX_ROWS)
        keys = [s.key for s in shown]
        for key in [k for k in self.rows if k not in keys]:
            row = self.rows.pop(key)
            self._layout.removeWidget(row)
            row.hide()
            row.deleteLater()
        for i, state in enumerate(shown):
            row = self.rows.get(state.key)
            if row is None:
                row = AlarmRow(state, self)
                row.button.clicked.connect(lambda _=False, k=state.key: self.acknowledge(k))
                self.rows[state.key] = row
            elif row.state != state:
                row.set_state(state)
            self._layout.insertWidget(i, row)
            row.show()
        self.more.setVisible(hidden > 0)
        if hidden > 0:
            self.more.setText(self.tr("+%n more", "", hidden))
        flashing = any(r.flashes for r in self.rows.values())
        if flashing and not self.flash_timer.isActive():
            self.flash_timer.start()
        elif not flashing and self.flash_timer.isActive():
            self.flash_timer.stop()
        if self.parentWidget() is not None:     # never pop up as a window of its own
            self.setVisible(bool(len(self.board)))
        self.changed.emit()

    def _flash(self) -> None:
        for row in self.rows.values():
            if row.flashes:
                row.set_lit(not row.lit)
