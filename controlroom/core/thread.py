"""CoreThread: the core worker in its own QThread; the window and the commands talk only to this object.

Its signals mirror the worker's, delivered in the thread that made the
CoreThread (the GUI thread); its request signals are queued into the
worker's thread.  What the window may know of the game besides deltas
(``info``: name, ruleset, speed, map, ports) and the game's time now
(``game_time``) are read here, never from the worker.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from controlroom import pacing
from controlroom.core.jobs import Jobs
from controlroom.core.worker import CoreWorker, GameInfo
from controlroom.game.clock import Clock

_Q = Qt.ConnectionType.QueuedConnection
MIRRORED = ("opened", "loaded", "delta_published", "stopp_called", "characters_died", "alarm_raised",
            "events_stored", "timers_changed", "input_rejected", "devices_known", "stats_reported", "stopped",
            "roster_answered")


class CoreThread(QObject):
    """Owns the core's thread and its jobs' thread; every command to the core is a queued signal."""

    opened = Signal(object)               # GameInfo
    loaded = Signal(object)
    delta_published = Signal(object)
    stopp_called = Signal(object)
    characters_died = Signal(object)
    alarm_raised = Signal(object)
    events_stored = Signal(int)
    timers_changed = Signal(str)          # alone (a game file), owner, standby, offline (server gone)
    input_rejected = Signal(str)
    devices_known = Signal(object)
    stats_reported = Signal(object)       # counters and health, when the core stops
    stopped = Signal()
    roster_answered = Signal(object)      # RosterAnswer: to players_requested

    submit_requested = Signal(str, object, str)
    scenario_start_requested = Signal(str, bool, float)
    scenario_end_requested = Signal()
    global_stopp_requested = Signal(str)
    stopp_lift_requested = Signal(str, bool)
    acknowledge_requested = Signal(str)
    retract_requested = Signal(int, str)
    poll_requested = Signal()
    stop_requested = Signal()
    frame_heard = Signal(int, object, object, object)     # gateway, rssi, snr, frame bytes
    frames_heard = Signal(object)                          # [(gateway, rssi, snr, frame bytes), ...]
    line_rejected = Signal(str, str, str)                  # gateway id (or link name), reason, detail
    link_changed = Signal(str, str, str)                   # link, state, detail
    mesh_heard = Signal(object)                            # [radio.mesh_ingest.MeshHeard, ...]
    players_requested = Signal(int, object, bool)          # request, [(line, Member)], store (False: only check)

    def __init__(self, db: str, clock: Clock | None = None, parent: QObject | None = None, **worker_options) -> None:
        super().__init__(parent)
        self.db = str(db)
        self.thread = QThread()
        self.thread.setObjectName("controlroom-core")
        self.worker = CoreWorker(self.db, clock, **worker_options)
        self.worker.moveToThread(self.thread)
        self.jobs = Jobs(self.db, self)
        self.info: GameInfo | None = None
        self.stats: dict = {}
        self.scenarios: tuple[str, ...] = ()          # the scenarios started so far (for reports on one)
        self._t, self._at = 0, time.monotonic()
        self.thread.started.connect(self.worker.start)
        # quit() is thread-safe: called directly, it does not wait for the (blocked) main thread.
        self.worker.stopped.connect(self.thread.quit, Qt.ConnectionType.DirectConnection)
        self.worker.stats_reported.connect(self._keep_stats, Qt.ConnectionType.DirectConnection)
        w = self.worker
        for signal, slot in (
            (self.submit_requested, w.submit),
            (self.scenario_start_requested, w.start_scenario),
            (self.scenario_end_requested, w.end_scenario),
            (self.global_stopp_requested, w.call_global_stopp),
            (self.stopp_lift_requested, w.lift_stopp),
            (self.acknowledge_requested, w.acknowledge),
            (self.retract_requested, w.retract),
            (self.poll_requested, w.poll),
            (self.stop_requested, w.stop),
            (self.frame_heard, w.frame_received),
            (self.frames_heard, w.frames_received),
            (self.line_rejected, w.line_rejected),
            (self.link_changed, w.link_changed),
            (self.mesh_heard, w.mesh_received),
            (self.players_requested, w.add_players),
        ):
            signal.connect(slot, _Q)
        for name in MIRRORED:
            getattr(w, name).connect(getattr(self, name), _Q)
        self.opened.connect(self._on_opened)
        self.loaded.connect(self._on_delta)
        self.delta_published.connect(self._on_delta)

    def _keep_stats(self, stats: dict) -> None:
        self.stats = stats

    @Slot(object)
    def _on_opened(self, info: GameInfo) -> None:
        self.info = info

    @Slot(object)
    def _on_delta(self, delta) -> None:
        self._t, self._at = delta.t, time.monotonic()
        self.scenarios = delta.scenarios

    def game_time(self) -> int:
        """The game's time now (ms), from the last delta and the clock's speed: it runs between deltas."""
        speed = self.info.speed if self.info is not None else 1.0
        return self._t + int((time.monotonic() - self._at) * 1000 * speed)

    def wait_for_window(self, seconds: float = 1.0) -> None:
        """Before ``start``: a window will say when it has painted the opened game (``window_painted``); the
        core's opening completes its fold only then (at most ``seconds`` later), not while the window paints."""
        self.worker.window_wait_s = seconds

    def window_painted(self) -> None:
        """The window has painted the game the core loaded (thread-safe; again later: nothing)."""
        self.worker.window_shown.set()

    def start(self) -> None:
        self.thread.start()

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Ask the worker to store everything and stop; wait for the threads to end."""
        done = True
        with pacing.window_waiting():           # (the fold snapshot being kept need not rest for it)
            if self.thread.isRunning():
                self.stop_requested.emit()
                done = self.thread.wait(timeout_ms)
            return self.jobs.shutdown(timeout_ms) and done
