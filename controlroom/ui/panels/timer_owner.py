"""The status bar's word on who runs the rule timers of the game (one station of several, on a shared game)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from controlroom.core.thread import CoreThread


class TimerOwnerLabel(QLabel):
    """Shows the core's ``timers_changed``: this station, another one (standby), or the server gone.

    Shown only on a game shared by stations: on a game file the one laptop runs the timers, always.
    """

    def __init__(self, core: CoreThread) -> None:
        super().__init__()
        self.state = ""
        self.setObjectName("timerOwner")
        core.timers_changed.connect(self.show_state)

    def show_state(self, state: str) -> None:
        self.state = state
        texts = {
            "alone": (self.tr("Timers: this station"), self.tr("This laptop runs the game's rule timers.")),
            "owner": (self.tr("Timers: this station"),
                      self.tr("This station runs the rule timers for every station of the game.")),
            "standby": (self.tr("Timers: another station"),
                        self.tr("Another station runs the rule timers; this one takes over if it disappears.")),
            "offline": (self.tr("Timers: server unreachable"),
                        self.tr("The database server cannot be reached: reports are kept on this laptop, "
                                "and the timers wait until the server is back.")),
        }
        text, tip = texts.get(state, (state, ""))
        self.setText(text)
        self.setToolTip(tip)
        self.setStyleSheet("color: #c62828; font-weight: bold;" if state == "offline" else "")
        # A game file on one laptop: nothing to tell (and the status bar of a laptop needs the room).
        self.setHidden(state == "alone")
