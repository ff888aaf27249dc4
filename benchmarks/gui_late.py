"""How late the GUI thread is: a 10 ms timer in it notes how far past its 10 ms each tick came, for so long."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QTimer

INTERVAL_MS = 10


class LateProbe:
    """Started on construction in the GUI thread: ``late`` (ms past each 10 ms tick); ``app`` quits after
    ``seconds``.  ``stop()`` ends both timers."""

    def __init__(self, app, seconds: float) -> None:
        self.late: list[float] = []
        self._clock = QElapsedTimer()
        self._clock.start()
        self._last = self._clock.nsecsElapsed()
        self._probe = QTimer()
        self._probe.setInterval(INTERVAL_MS)
        self._probe.timeout.connect(self._tick)
        self._probe.start()
        self._end = QTimer()
        self._end.setSingleShot(True)
        self._end.timeout.connect(app.quit)
        self._end.start(int(seconds * 1000))

    def _tick(self) -> None:
        now = self._clock.nsecsElapsed()
        self.late.append(max(0.0, (now - self._last) / 1e6 - INTERVAL_MS))
        self._last = now

    def stop(self) -> None:
        self._probe.stop()
        self._end.stop()
