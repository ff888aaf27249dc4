"""CoreThread: the core worker in its own QThread; the window and the commands talk only to this object.

Its signals are the core's facts (``core.facts.FACTS``), mirrored from the
worker and delivered in the thread that made the CoreThread (the GUI
thread).  Every command goes to the worker by one queued signal
(``send(command)``, an ``engine.commands`` value); what the links hear goes
into its ``heard`` queue.  What the window may know of the game besides
deltas (``info``: name, ruleset, speed, map, ports) and the game's time now
(``game_time``) are read here, never from the worker.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from controlroom import pacing
from controlroom.core.facts import NAMES, Facts
from controlroom.core.jobs import Jobs
from controlroom.core.worker import CoreWorker
from controlroom.engine import commands as cmds
from controlroom.engine.opening import GameInfo
from controlroom.game.clock import Clock
from controlroom.radio.link import HeardQueue

_Q = Qt.ConnectionType.QueuedConnection


class CoreThread(Facts):
    """Owns the core's thread and its jobs' thread."""

    _command = Signal(object)
    _stop = Signal()

    def __init__(self, db: str, clock: Clock | None = None, parent: QObject | None = None, **worker_options) -> None:
        super().__init__(parent)
        self.db = str(db)
        self.thread = QThread()
        self.thread.setObjectName("controlroom-core")
        self.heard = HeardQueue()
        self.worker = CoreWorker(self.db, clock, heard=self.heard, **worker_options)
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
        self._command.connect(self.worker.handle, _Q)
        self._stop.connect(self.worker.stop, _Q)
        for name in NAMES:
            getattr(self.worker, name).connect(getattr(self, name), _Q)
        self.opened.connect(self._on_opened)
        self.loaded.connect(self._on_delta)
        self.delta_published.connect(self._on_delta)

    # -- commands (any thread) ------------------------------------------------------------------
    @Slot(object)
    def send(self, command: cmds.Command) -> None:
        """A command for the core (``engine.commands``), carried out in its thread."""
        if not isinstance(command, cmds.COMMANDS):
            raise TypeError(f"not a command of the core's: {command!r}")
        self._command.emit(command)

    def submit(self, type_: str, fields: dict, source: str = "gm") -> None:
        """A report or an entry as an event of ``type_`` happening now (``send(Submit(...))``)."""
        self.send(cmds.Submit(type_, fields, source))

    def poll(self) -> None:
        """Look at the clock now: fire what is due, publish (a virtual clock in tests moves without a timer)."""
        self.send(cmds.Poll())

    def request_stop(self) -> None:
        """Ask the worker to store what it has and stop (``shutdown`` also waits for it)."""
        self._stop.emit()

    # -- what the window reads --------------------------------------------------------------------
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

    # -- life ------------------------------------------------------------------------------------------
    def start(self) -> None:
        self.thread.start()

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Ask the worker to store everything and stop; wait for the threads to end."""
        done = True
        with pacing.window_waiting():           # (the fold snapshot being kept need not rest for it)
            if self.thread.isRunning():
                self.request_stop()
                done = self.thread.wait(timeout_ms)
            return self.jobs.shutdown(timeout_ms) and done
