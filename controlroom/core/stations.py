"""Several stations on one game: the timer lock's watcher and the live notices, as Qt signals.

Both wait on the database server in plain Python threads (a blocking
socket, no Qt inside) and report through signals, delivered queued in the
receiver's thread.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from controlroom.store.pg import Listener, TimerLock

OWNER = "owner"          # this station runs the game's rule timers
STANDBY = "standby"      # another station does; this one takes over if it disappears
ALONE = "alone"          # a game file: the one station runs the timers
OFFLINE = "offline"      # the server cannot be reached: nobody here runs the timers


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


class SharedGameMixin:
    """The CoreWorker's part in a shared game: fold other stations' events, run timers only as the owner.

    On a game file the station is ALONE and always fires the timers.  On a
    shared game it fires them only while it holds the timer lock, and only
    after it has read every event appended before it took the lock: the
    deadlines the previous owner fired are events in the log, folded like
    any other, so the new owner fires only what is still due.
    """

    def _start_stations(self, dsn: str | None) -> None:
        from PySide6.QtCore import Qt

        self.queued_count = 0
        self.dropped_deadlines = 0
        q = Qt.ConnectionType.QueuedConnection
        w = self._writer
        w.logged.connect(self._on_logged, q)
        w.kept.connect(self._on_kept, q)
        w.caught_up.connect(self._on_caught_up, q)
        w.resynced.connect(self._on_resynced, q)
        w.queued.connect(self._on_queued, q)
        self._epoch_requested.connect(w.set_epoch, q)
        if dsn is None:
            self.owns_timers = True
            self.timers = ALONE
            self.timers_changed.emit(ALONE)
            return
        self.owns_timers = False
        self.timers = STANDBY
        self.timers_changed.emit(STANDBY)
        self._notices = Notices(dsn)
        self._notices.arrived.connect(w.fetch, q)
        self._watch = TimerWatch(dsn, self.lock_interval_s)
        self._watch.acquired.connect(w.take_over, q)
        self._watch.lost.connect(self._on_lock_lost, q)
        self._notices.start()
        self._watch.start()

    def _stop_stations(self) -> None:
        """After the last events are stored: let the timer lock go, stop listening."""
        for part in (self._watch, self._notices):
            if part is not None:
                part.stop()

    def _on_caught_up(self, epoch: int) -> None:
        if self.state is None or self._watch is None or self._watch.lock.pid != epoch:
            return              # lost again meanwhile
        self.owns_timers = True
        self.timers = OWNER
        self._epoch_requested.emit(epoch)
        self.timers_changed.emit(OWNER)
        self._tick()            # what fell due while the previous owner was gone

    def _on_lock_lost(self, state: str) -> None:
        self.owns_timers = False
        self.timers = state
        self._epoch_requested.emit(0)
        self.timers_changed.emit(state)

    def _on_queued(self, count: int) -> None:
        self.queued_count = count

    def _on_resynced(self, dropped: int, lost: bool) -> None:
        """Fired deadlines were not stored (another station owns the timers): fold the log again.

        ``lost``: the lock this station fires under is held by another
        session now; it stops firing at once, before its watcher notices.
        """
        if lost and self.owns_timers:
            self._on_lock_lost(STANDBY)
            if self._watch is not None:
                self._watch.recheck()
        self._in_flight -= dropped
        self.dropped_deadlines += dropped
        self._drain_storage()
        self._refold()
        self._arm_deadline_timer()
        self._request_publish()

    def _on_kept(self, pairs: list) -> None:
        """Own reports kept on this laptop while the server is gone: folded now, so the station shows them."""
        self._fold([(event, radio, None) for event, radio in pairs])

    def _on_logged(self, items: list) -> None:
        """A shared game's events in log order, every station's: each folded once, shown, announced."""
        if self.state is None:
            return
        from controlroom.game.views import StoredView

        now = self.clock.now_ms()
        todo = []
        for s, fold in items:
            if s.seq <= self._folded_to:
                continue        # already in a refold
            if s.radio is not None:
                self.ingest.note_stored(s.radio, now)      # copies heard here from now on are duplicates
            self._stored.append(StoredView(s.seq, s.wall, s.event))
            if fold:
                todo.append((s.event, s.radio, s.seq))
        self._fold(todo)
        self.events_stored.emit(items[-1][0].seq)
        self._request_publish()

    def _fold(self, todo: list) -> None:
        state = self.state
        if state is None or not todo:
            return
        now = self.clock.now_ms()
        deaths_before = len(state.deaths)
        refold = False
        for event, _radio, _seq in todo:
            warnings_before = len(state.warnings)
            state.apply(event)
            self._new_warnings += len(state.warnings) - warnings_before
            refold |= event.type == "retracted"
            if event.source.startswith(("marshal:", "tracker:")):
                self._marshals[event.source] = now
                self._silent.discard(event.source)
        self.schedule.sync(state, self._changes)
        self._announce([(e, r) for e, r, _ in todo], state.deaths[deaths_before:])
        if refold:
            self._drain_storage()
            self._refold()
        self._arm_deadline_timer()
        self._request_publish()
