"""AlarmBanner: the alarms a game master has not acknowledged yet, each with an Acknowledge button."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QTimer, Signal
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from controlroom.game.alarms import Alarm
from controlroom.game.clock import format_time
from controlroom.game.views import StateDelta
from controlroom.ui.panels.words import word

ALARM_KINDS = {
    "stopp": QT_TRANSLATE_NOOP("panels", "STOPP"),
    "stopp_overdue": QT_TRANSLATE_NOOP("panels", "STOPP lasts too long"),
    "rejected_auth": QT_TRANSLATE_NOOP("panels", "Forged radio frame"),
    "rejected_replay": QT_TRANSLATE_NOOP("panels", "Replayed radio frame"),
    "rejected_unknown_device": QT_TRANSLATE_NOOP("panels", "Unknown radio device"),
    "gateway_lost": QT_TRANSLATE_NOOP("panels", "Gateway lost"),
    "marshal_silent": QT_TRANSLATE_NOOP("panels", "Marshal silent"),
    "storage": QT_TRANSLATE_NOOP("panels", "Storage"),
}
FLASHING_KINDS = frozenset({"stopp", "stopp_overdue"})

# The label inside takes the colour too, so night mode's pale text never lands on the orange.
STYLE_NORMAL = "QFrame#alarm { background: #f0ad4e; } QFrame#alarm QLabel { color: black; }"
STYLE_FLASH_ON = "QFrame#alarm { background: #d9534f; } QFrame#alarm QLabel { color: white; }"
STYLE_FLASH_OFF = "QFrame#alarm { background: #fbe3e2; } QFrame#alarm QLabel { color: black; }"


class AlarmRow(QFrame):
    """One alarm: what, when, the message and its Acknowledge button."""

    def __init__(self, alarm: Alarm, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("alarm")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.button = QPushButton(self.tr("Acknowledge"), self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self.set_alarm(alarm)

    def set_alarm(self, alarm: Alarm) -> None:
        self.alarm = alarm
        self.label.setText(self.tr("{kind} at {time}: {message}").format(
            kind=word(ALARM_KINDS, alarm.kind), time=format_time(alarm.t), message=alarm.message))
        self.flashes = alarm.kind in FLASHING_KINDS
        self.set_lit(True)

    def set_lit(self, lit: bool) -> None:
        self.lit = lit
        if not self.flashes:
            self.setStyleSheet(STYLE_NORMAL)
        else:
            self.setStyleSheet(STYLE_FLASH_ON if lit else STYLE_FLASH_OFF)


class AlarmBanner(QWidget):
    """Unacknowledged alarms, newest first; hidden when there are none (once it has a parent).

    Connect ``add_alarm`` to CoreThread.alarm_raised and ``acknowledged`` to
    CoreThread.acknowledge_requested.  STOPP alarms flash until acknowledged.
    ``sound`` is called once per new alarm (QApplication.beep by default;
    replace it with a sound player, or ``lambda: None`` for silence).
    """

    acknowledged = Signal(str)

    FLASH_MS = 500
    MAX_ROWS = 5

    def __init__(self, parent: QWidget | None = None, sound: Callable[[], None] | None = None) -> None:
        super().__init__(parent)
        self.sound: Callable[[], None] = sound if sound is not None else QApplication.beep
        self.rows: dict[str, AlarmRow] = {}          # alarm id -> row, in the order raised
        self.more = QLabel(self)
        self.more.hide()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        self._layout.addWidget(self.more)
        self.flash_timer = QTimer(self)
        self.flash_timer.setInterval(self.FLASH_MS)
        self.flash_timer.timeout.connect(self._flash)
        if parent is not None:
            self.setVisible(False)

    # -- slots -----------------------------------------------------------------
    def add_alarm(self, alarm: Alarm) -> None:
        """Show ``alarm`` until it is acknowledged (an alarm raised again under its id replaces it)."""
        row = self.rows.get(alarm.id)
        if row is not None:
            row.set_alarm(alarm)
        else:
            row = AlarmRow(alarm, self)
            row.button.clicked.connect(lambda _=False, i=alarm.id: self.acknowledge(i))
            self.rows[alarm.id] = row
            self._layout.insertWidget(0, row)
            self.sound()
        self._update()

    def acknowledge(self, alarm_id: str) -> None:
        """The game master saw ``alarm_id``: remove it and emit ``acknowledged``."""
        if self.remove(alarm_id):
            self.acknowledged.emit(alarm_id)

    def remove(self, alarm_id: str) -> bool:
        """Take ``alarm_id`` off the banner without emitting (acknowledged elsewhere); True if shown."""
        row = self.rows.pop(alarm_id, None)
        if row is None:
            return False
        self._layout.removeWidget(row)
        row.hide()
        row.deleteLater()
        self._update()
        return True

    def apply_delta(self, delta: StateDelta) -> None:
        """Remove the alarms another game master (or a replayed log) acknowledged."""
        for stored in delta.events:
            if stored.event.type == "alarm_acknowledged":
                self.remove(stored.event.data.get("alarm", ""))

    # -- reading ---------------------------------------------------------------
    def alarm_ids(self) -> list[str]:
        """Unacknowledged alarm ids, newest first."""
        return list(reversed(self.rows))

    def is_flashing(self) -> bool:
        return self.flash_timer.isActive()

    # -- inside ----------------------------------------------------------------
    def _update(self) -> None:
        ordered = list(reversed(self.rows.values()))
        for i, row in enumerate(ordered):
            row.setVisible(i < self.MAX_ROWS)
        hidden = len(ordered) - self.MAX_ROWS
        self.more.setVisible(hidden > 0)
        if hidden > 0:
            self.more.setText(self.tr("and %n more alarm(s)", "", hidden))
        flashing = any(r.flashes for r in ordered)
        if flashing and not self.flash_timer.isActive():
            self.flash_timer.start()
        elif not flashing and self.flash_timer.isActive():
            self.flash_timer.stop()
        if self.parentWidget() is not None:     # never pop up as a window of its own
            self.setVisible(bool(self.rows))

    def _flash(self) -> None:
        for row in self.rows.values():
            if row.flashes:
                row.set_lit(not row.lit)
