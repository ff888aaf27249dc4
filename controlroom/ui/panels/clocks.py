"""ClockBar: game time, wall time and the scenario's running time, ticking every second."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QSizePolicy, QWidget

from controlroom.game.clock import format_time
from controlroom.game.views import StateDelta
from controlroom.ui.panels.fitted import FittedLabel


def whole_seconds(ms: int) -> str:
    """``HH:MM:SS``, the seconds cut (a clock shows the second it is in)."""
    return format_time(max(0, int(ms)) // 1000 * 1000)


class ClockBar(FittedLabel):
    """The clocks of the status bar; they follow their own timer, not the deltas.

    ``game_time()`` gives the game's time in ms (CoreThread.game_time), and
    ``wall()`` the local time as a struct_time (time.localtime).

    A long scenario name is cut ("The siege of Castle Nor…: running 00:41:07")
    when the bar is short of room, down to ``NAME_LETTERS`` letters (a name
    that short is never cut: the side counts give way first): the clocks
    themselves are always whole, and a long name never pushes the side counts
    out of the bar or is itself clipped mid-letter (a 74-letter name in
    large text asked for 1,209 pixels of a 1280-pixel screen).  ``text()``
    and the tooltip are always whole.
    """

    TICK_MS = 1000
    NAME_LETTERS = 20

    def __init__(self, game_time: Callable[[], int], parent: QWidget | None = None,
                 wall: Callable[[], time.struct_time] = time.localtime) -> None:
        super().__init__(parent)
        self.game_time = game_time
        self.wall = wall
        self.scenario = ""
        self.started: int | None = None
        self.ended: int | None = None
        self._parts = ("", "", "")          # (clocks, scenario name, its running time): the whole text joined
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
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
        clocks = self.tr("Game {game}   Wall {wall}").format(
            game=whole_seconds(now), wall=time.strftime("%H:%M:%S", self.wall()))
        name = running = ""
        if self.started is not None:
            end = self.ended if self.ended is not None else now
            name = self.scenario
            running = (self.tr("{scenario}: running {running}") if self.ended is None
                       else self.tr("{scenario}: ended after {running}")).format(
                scenario="\0", running=whole_seconds(end - self.started))
        grew = len(name) != len(self._parts[1]) or len(running) != len(self._parts[2])
        self._parts = (clocks, name, running)
        self.setToolTip(self.text())
        if grew:
            self.updateGeometry()
        self._fit()

    def text(self) -> str:
        """The clocks and the scenario, whole (what is shown may have the scenario's name cut)."""
        return self._compose(self._parts[1])

    def shown(self) -> str:
        return super().text()

    def _compose(self, name: str) -> str:
        clocks, _name, running = self._parts
        return clocks + ("   " + running.replace("\0", name) if running else "")

    def _short_name(self) -> str:
        name = self._parts[1]
        return name if len(name) <= self.NAME_LETTERS + 1 else name[:self.NAME_LETTERS].rstrip() + "\u2026"

    def _fit(self) -> None:
        """The whole text when it fits; else the scenario's name cut to the room there is (at least its first
        letters)."""
        fm, room = self.fontMetrics(), self.contentsRect().width() - 2 * self.margin()
        whole = self.text()
        shown = whole
        if room > 0 and fm.horizontalAdvance(whole) > room and self._parts[2]:
            rest = fm.horizontalAdvance(self._compose(""))
            name = fm.elidedText(self._parts[1], Qt.TextElideMode.ElideRight, max(0, room - rest))
            shown = self._compose(name if len(name) > self.NAME_LETTERS else self._short_name())
        if shown != super().text():
            super().setText(shown)

    def sizeHint(self):
        hint = super().sizeHint()
        hint.setWidth(self.fontMetrics().horizontalAdvance(self.text()) + 2 * self.margin() + 4)
        return hint

    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(self.fontMetrics().horizontalAdvance(self._compose(self._short_name())) + 2 * self.margin() + 4)
        return hint
