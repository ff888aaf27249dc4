"""Watching the server of a shared game: the timer lock and the live notices of other stations' appends.

Both wait on the database server in plain Python threads (a blocking
socket, no Qt inside) and report through signals, delivered queued in the
receiver's thread.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from controlroom.engine.authority import OFFLINE, OWNER, STANDBY
from controlroom.store.pg import Listener, TimerLock


class TimerWatch(QObject):
    """Polls the game's timer lock every ``interval_s`` seconds: takes it when free, checks it while held."""

    acquired = Signal(int)     # the lock's session (the server process id): this station is the owner
    lost = Signal(str)         # OWNER lost it (server gone); STANDBY or OFFLINE now

    def __init__(self, dsn: str, interval_s: float = 2.0) -> None:
        super().__init__()
        self.lock = TimerLock(dsn)
        self.interval_s = interval_s
        self.state = STANDBY
        self._halt = threading.Event()
        self._wake = threading.Event()
        self._suspect = False
        self._thread = threading.Thread(target=self._run, name="controlroom-timer-lock", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while True:
            if self._suspect:           # the lock was found held by another session: start afresh
                self._suspect = False
                self.lock.close()
                self.state = STANDBY    # what the worker has made itself already
            held = self.lock.poll()
            if self._halt.is_set():
                break
            reachable = self.lock.connected
            state = OWNER if held else STANDBY if reachable else OFFLINE
            if state != self.state:
                self.state = state
                if held:
                    self.acquired.emit(self.lock.pid)
                else:
                    self.lost.emit(state)
            self._wake.wait(self.interval_s)
            self._wake.clear()
            if self._halt.is_set():
                break
        self.lock.close()

    def recheck(self) -> None:
        """The lock is not ours after all (another station holds it): look again now."""
        self._suspect = True
        self._wake.set()

    def stop(self) -> None:
        """Let the lock go (a standby station takes over at its next poll)."""
        self._halt.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self.lock.close()


class Notices(QObject):
    """LISTENs for other stations' appends; ``arrived`` carries the newest seq (None: read to catch up)."""

    arrived = Signal(object)
    lost = Signal(str)

    def __init__(self, dsn: str) -> None:
        super().__init__()
        self.listener = Listener(dsn, self.arrived.emit, self.lost.emit)

    def start(self) -> None:
        self.listener.start()

    def stop(self) -> None:
        self.listener.stop()
