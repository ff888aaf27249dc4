"""ClockBar: game time, wall time and the scenario's running time, ticking every second."""

from __future__ import annotations

import time
from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

from controlroom.game.clock import format_time
from controlroom.game.views import StateDelta


def whole_seconds(ms: int) -> str:
    """``HH:MM:SS``, the seconds cut (a clock shows the second it is in)."""
    return format_time(max(0, int(ms)) // 1000 * 1000)


class ClockBar(QLabel):
    """The clocks of the status bar; they follow their own timer, not the deltas.

    ``game_time()`` gives the game's time in ms (CoreThread.game_time), and
    ``wall()`` the local time as a struct_time (time.localtime).
    """

    TICK_MS = 1000

    def __init__(self, game_time: Callable[[], int], parent: QWidget | None = None,
                 wall: Callable[[], time.struct_time] = time.localtime) -> None:
        super().__init__(parent)
        self.game_time = game_time
        self.wall = wall
        self.scenario = ""
        self.started: int | None = None
        self.ended: int | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(self.TICK_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.refresh()

    def apply_delta(self, delta: StateDelta) -> None:
        """The scenario and when it started (and ended), from the core's delta."""
        self.scenario = delta.scenario if delta.scenario_started is not None else ""
        self.started, self.ended = delta.scenario_started, delta.scenario_ended
        self.refresh()

    def refresh(self) -> None:
        now = self.game_time()
        text = self.tr("Game {game}   Wall {wall}").format(
            game=whole_seconds(now), wall=time.strftime("%H:%M:%S", self.wall()))
        if self.started is not None:
            end = self.ended if self.ended is not None else now
            text += "   " + (self.tr("{scenario}: running {running}") if self.ended is None
                             else self.tr("{scenario}: ended after {running}")).format(
                scenario=self.scenario, running=whole_seconds(end - self.started))
        self.setText(text)
