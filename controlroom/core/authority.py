"""Whether this station may fire the game's rule deadlines: a game file always; a shared game, its lock holder."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal

from controlroom.core.stations import ALONE, OFFLINE, OWNER, STANDBY, TimerWatch

__all__ = ["ALONE", "OFFLINE", "OWNER", "STANDBY", "TimerAuthority"]


class TimerAuthority(QObject):
    """One station of a game fires its deadlines; this object says whether it is this one.

    On a game file the station is ALONE and always fires.  On a shared game
    (PostgreSQL) it fires only while it holds the game's advisory lock, and
    only once it has read every event appended before it took the lock
    (``caught_up``): the deadlines the previous owner fired are events in the
    log, so the new owner fires only what is still due.
    """

    changed = Signal(str)            # ALONE, OWNER, STANDBY, OFFLINE
    claim = Signal(int)              # the lock is ours: read the log up to now, then call caught_up(epoch)

    def __init__(self, dsn: str | None = None, interval_s: float = 2.0) -> None:
        super().__init__()
        self.state = ALONE if dsn is None else STANDBY
        self.epoch = 0               # the lock's session while this station fires under it
        self._watch = None if dsn is None else TimerWatch(dsn, interval_s)
        if self._watch is not None:
            q = Qt.ConnectionType.QueuedConnection
            self._watch.acquired.connect(self.claim, q)
            self._watch.lost.connect(self._lost, q)

    @property
    def may_fire(self) -> bool:
        return self.state in (ALONE, OWNER)

    def start(self) -> None:
        self.changed.emit(self.state)
        if self._watch is not None:
            self._watch.start()

    def stop(self) -> None:
        """Let the lock go (a standby station takes over at its next poll)."""
        if self._watch is not None:
            self._watch.stop()

    def caught_up(self, epoch: int) -> bool:
        """Every event before the lock was taken is folded: fire from now on (unless lost meanwhile)."""
        if self._watch is None or self._watch.lock.pid != epoch:
            return False
        self.epoch = epoch
        self._set(OWNER)
        return True

    def lost_lock(self) -> None:
        """Deadlines fired under the lock were refused: another station holds it now."""
        if self.state == OWNER:
            self._lost(STANDBY)
            if self._watch is not None:
                self._watch.recheck()

    def _lost(self, state: str) -> None:
        self.epoch = 0
        self._set(state)

    def _set(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.changed.emit(state)
