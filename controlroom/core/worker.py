"""The core worker: runs one game's engine in the core thread, with its timers, its storage thread and its signals.

The engine (``controlroom.engine``) decides; this object only runs it:

- it opens the game (``engine.opening``), shows it (``opened``, ``loaded``),
  and completes the fold once the window has painted it;
- it hands the engine what the links heard (``take_heard``, when the
  station's ``HeardQueue`` wakes it) and the window's commands (``handle``);
- it sends each batch to the storage thread (``core.storage``) and gives the
  engine what became of it;
- it fires rule deadlines with one precise single-shot timer set to the
  soonest deadline, publishes at most every ``publish_interval_ms``, and
  looks for silent marshals now and then;
- it turns every ``engine.output.Output`` into acknowledgements sent through
  the links (``acks``, thread-safe) and into its signals (``core.facts``).
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, QTimer, Signal, Slot

from controlroom import pacing
from controlroom.collecting import no_collection
from controlroom.core.facts import WorkerFacts
from controlroom.core.fold_saver import FoldSaver
from controlroom.core.server_watch import Notices, TimerWatch
from controlroom.core.storage import StorageWriter
from controlroom.engine import commands as cmds
from controlroom.engine.engine import Engine
from controlroom.engine.opening import open_game
from controlroom.engine.output import Output, device_view
from controlroom.game.alarms import Alarm
from controlroom.game.clock import Clock
from controlroom.game.fold_release import let_go
from controlroom.paths import without_password
from controlroom.radio.link import Ack, HeardQueue
from controlroom.rules.profile import ProfileError
from controlroom.store.errors import StoreError
from controlroom.store.pg import conninfo

log = logging.getLogger(__name__)
SLOW_S = 0.5        # a step of the core thread that took longer is written to the log (acks and deadlines waited)


def _slow(began: float, what: str, *args) -> None:
    took = time.monotonic() - began
    if took >= SLOW_S:
        log.info(what + ": %.1f s", *args, took)

MAX_TIMER_MS = 2**31 - 1
STOP_BUDGET_S = 2.5          # at shutdown: how long to wait for the last batch to be stored

AckSink = Callable[[Ack], None]         # sends an answer through the links (thread-safe)
LinkStats = Callable[[], dict]          # each link's own counters, by name (its TX queue...): thread-safe


class CoreWorker(WorkerFacts):
    """Runs the engine of game ``db`` in the thread it is moved to (``core.thread.CoreThread``)."""

    _append_requested = Signal(int, object)
    _take_over_requested = Signal(int)
    _close_requested = Signal()
    _refold_done = Signal(object)

    def __init__(self, db: str, clock: Clock | None = None, *, heard: HeardQueue | None = None,
                 acks: AckSink | None = None, publish_interval_ms: int = 100, marshal_silence_ms: int = 600_000,
                 speed: float | None = None, queue_path: str | None = None, lock_interval_s: float = 2.0,
                 ports: list[str] | None = None, remember_ports: bool = True, link_stats: LinkStats | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db = db
        self.ports = None if ports is None else list(ports)     # None: the ports kept with the game
        self.remember_ports = remember_ports
        self.clock = clock
        self.speed = speed
        self.heard = heard if heard is not None else HeardQueue()
        self.acks = acks
        self.link_stats = link_stats
        self.queue_path = queue_path
        self.lock_interval_s = lock_interval_s
        self.publish_interval_ms = publish_interval_ms
        self.marshal_silence_ms = marshal_silence_ms
        # A window that says when it has painted the opened game (CoreThread.wait_for_window): the opening's
        # completion waits for it, at most this long (0: no window waits, a headless station).
        self.window_wait_s = 0.0
        self.window_shown = threading.Event()
        self.engine: Engine | None = None
        self.unstored = 0
        self._last_publish = 0.0
        self._stopping = False
        self._watch: TimerWatch | None = None
        self._notices: Notices | None = None
        self._fold_saver: FoldSaver | None = None
        self._storage_thread: QThread | None = None
        self._refold_thread: threading.Thread | None = None

    @property
    def fold(self):
        return self.engine.fold if self.engine is not None else None

    @property
    def state(self):
        return self.engine.fold.state if self.engine is not None else None

    # -- the opening --------------------------------------------------------------------------
    @Slot()
    def start(self) -> None:
        """Open the game (in this thread), fold its log, schedule its deadlines, catch up on time."""
        # No automatic collection while the game opens: the fold makes about a million long-lived objects,
        # and a collection set off by the first allocation after it would walk them all (0.3-1 s of the
        # opening of the benchmarks' 200,000-event game).  They are frozen once the game is open.
        with no_collection():
            self._start()

    def _start(self) -> None:
        self._tick_timer = self._timer(self._tick, precise=False)
        self._deadline_timer = self._timer(self._tick, precise=True)
        self._publish_timer = self._timer(self._publish, precise=False)
        self._flood_timer = self._timer(self._flush_flood, precise=False)
        self._silence_timer = QTimer(self)
        self._silence_timer.timeout.connect(self._check_silence)
        try:
            game = open_game(self.db, clock=self.clock, speed=self.speed, queue_path=self.queue_path,
                             ports=self.ports, remember_ports=self.remember_ports)
        except (StoreError, ProfileError) as exc:
            self._fail_to_open(str(exc))
            return
        except Exception as exc:          # a game that cannot open must say so and stop
            log.exception("opening %s", without_password(self.db))
            self._fail_to_open(f"the game could not be opened: {type(exc).__name__}: {exc}")
            return
        self.clock = game.clock
        engine = self.engine = Engine(game, marshal_silence_ms=self.marshal_silence_ms)
        self._start_storage(game)
        shared = game.store.log.shared
        self.opened.emit(game.info)
        self.devices_known.emit(device_view(game.ingest.devices))
        self.loaded.emit(engine.opened())
        self._let_the_window_paint()
        again = engine.complete(pacing.breathe)          # it rests now and then while the window draws
        if again is not None:
            self.loaded.emit(again)
        # The folded game is long-lived: keep the cyclic garbage collector from walking it again and again.
        # Nothing is collected while the game opens (start), so this one freeze, once the fold is complete,
        # holds the fold and the checkpoints its completion took (frozen before the completion, the
        # checkpoints stayed young and the window's first collection walked them all in the GUI thread).
        # No collection first: the fold makes no reference cycles, and garbage is collected in the GUI thread
        # only (ui/collector.py: a widget in it must not be destroyed in this thread).
        gc.freeze()
        self._fold_saver = FoldSaver(game.store, engine.fold, self)
        self._fold_saver.start()
        self._silence_timer.start(max(1000, min(30_000, self.marshal_silence_ms // 4)))
        self.timers_changed.emit(engine.authority.state)
        if shared:
            q = Qt.ConnectionType.QueuedConnection
            self._notices = Notices(conninfo(game.store.engine))
            self._notices.arrived.connect(self._writer.fetch, q)
            self._notices.start()
            self._watch = TimerWatch(conninfo(game.store.engine), self.lock_interval_s)
            self._watch.acquired.connect(self._lock_acquired, q)
            self._watch.lost.connect(self._lock_lost, q)
            self._watch.start()
        self.heard.wake = self._heard_later
        self._tick()            # deadlines that fell due while the program was closed
        if len(self.heard):
            self._heard_later()

    def _let_the_window_paint(self) -> None:
        """Wait until the window has painted the game just loaded (``window_shown``), at most ``window_wait_s``.

        Completing the fold (the tail's checkpoints, the index of a kept
        fold's head: 0.5-1 s of Python for the 200,000-event game of the
        benchmarks) would otherwise share the GIL with the window's first
        delta and paint.  Nothing folds on meanwhile either way: the commands
        and frames that came wait until the opening is done.
        """
        if self.window_wait_s > 0 and not self.window_shown.wait(self.window_wait_s):
            log.info("the window did not paint the game within %.1f s: the opening goes on", self.window_wait_s)

    def _fail_to_open(self, message: str) -> None:
        self.alarm_raised.emit(Alarm("storage:open", "storage", message, 0))
        self._hand_back()
        self.stopped.emit()

    def _start_storage(self, game) -> None:
        self._storage_thread = QThread()
        self._storage_thread.setObjectName("controlroom-storage")
        self._writer = StorageWriter(game.store, game.last_seq, game.spool)
        self._writer.moveToThread(self._storage_thread)
        q = Qt.ConnectionType.QueuedConnection
        self._append_requested.connect(self._writer.append, q)
        self._take_over_requested.connect(self._writer.take_over, q)
        self._close_requested.connect(self._writer.close, q)
        self._writer.committed.connect(self._on_committed, q)
        self._writer.logged.connect(self._on_logged, q)
        self._writer.delivered.connect(self._on_delivered, q)
        self._writer.failed.connect(self._on_storage_failed, q)
        self._writer.recovered.connect(self._on_storage_recovered, q)
        self._writer.queued.connect(self._on_queued, q)
        self._writer.caught_up.connect(self._on_caught_up, q)
        self._refold_done.connect(self._on_refolded, q)
        self._storage_thread.start()

    def _timer(self, slot, precise: bool) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setTimerType(Qt.TimerType.PreciseTimer if precise else Qt.TimerType.CoarseTimer)
        timer.timeout.connect(slot)
        return timer

    # -- inputs --------------------------------------------------------------------------------
    @Slot(object)
    def handle(self, cmd: cmds.Command) -> None:
        """A command of the window's or the desk's (``engine.commands``)."""
        if self.engine is None:
            if isinstance(cmd, cmds.AddPlayers):
                from controlroom.engine.output import RosterAnswer
                from controlroom.i18n import translate

                self.roster_answered.emit(RosterAnswer(cmd.request, False, (), 0,
                                                       (translate("roster", "the game is not open"),)))
            elif isinstance(cmd, cmds.FormReport):
                from controlroom.engine.output import FormAnswer
                from controlroom.i18n import translate

                self.report_answered.emit(FormAnswer(cmd.request, False, translate("web", "the game is not open yet: "
                                                                                         "send it again"), False))
            return
        self._apply(self.engine.command(cmd))

    def _heard_later(self) -> None:
        """(In a link's thread.)  Something was heard: take it in this thread."""
        QTimer.singleShot(0, self, self.take_heard)

    @Slot()
    def take_heard(self) -> None:
        """Everything the links heard since the last take."""
        items = self.heard.take()
        if items and self.engine is not None and not self._stopping:
            self._apply(self.engine.heard(items))

    # -- the batch ------------------------------------------------------------------------------
    @Slot()
    def _tick(self) -> None:
        """Send the next batch, once the last one is stored; else wait for the soonest deadline."""
        engine = self.engine
        if engine is None:
            return
        batch = engine.next_batch()
        if batch is not None:
            self._append_requested.emit(batch.id, batch.items)
            return
        delay = engine.next_due_ms() if not self._stopping else None
        if delay is None:
            self._deadline_timer.stop()
        else:
            self._deadline_timer.start(int(min(MAX_TIMER_MS, max(0.0, delay + 0.999))))

    @Slot(int, object)
    def _on_committed(self, batch_id: int, result) -> None:
        if self.engine is not None:
            began = time.monotonic()
            out = self.engine.committed(batch_id, result)
            _slow(began, "folding the batch stored (%d events read with it)", len(result.logged))
            self._apply(out)

    @Slot(object)
    def _on_logged(self, items: list) -> None:
        if self.engine is not None:
            began = time.monotonic()
            out = self.engine.logged(items)
            _slow(began, "folding %d events read from the log", len(items))
            self._apply(out)

    @Slot(object)
    def _on_delivered(self, result) -> None:
        if self.engine is not None:
            began = time.monotonic()
            out = self.engine.delivered(result)
            _slow(began, "folding the local queue delivered")
            self._apply(out)

    @Slot(str)
    def _on_storage_failed(self, message: str) -> None:
        if self.engine is not None:
            self._apply(self.engine.storage_failed(message))

    @Slot()
    def _on_storage_recovered(self) -> None:
        if self.engine is not None:
            self._apply(self.engine.storage_recovered())

    @Slot(int)
    def _on_queued(self, count: int) -> None:
        if self.engine is not None:
            self.engine.queued = count

    # -- the timer lock of a shared game ------------------------------------------------------------
    @Slot(int)
    def _lock_acquired(self, epoch: int) -> None:
        if self.engine is not None:
            log.info("timer lock taken (session %d): the log is read before the timers run", epoch)
            self.engine.lock_acquired(epoch)
            self._take_over_requested.emit(epoch)      # read the log up to now, then caught_up

    @Slot(str)
    def _lock_lost(self, state: str) -> None:
        if self.engine is not None:
            self._apply(self.engine.lock_lost(state))

    @Slot(int)
    def _on_caught_up(self, epoch: int) -> None:
        if self.engine is not None:
            began = time.monotonic()
            out = self.engine.caught_up(epoch)
            _slow(began, "taking the timers over (session %d: what fell due meanwhile folded in)", epoch)
            self._apply(out)

    # -- what the engine asks for ------------------------------------------------------------------
    def _apply(self, out: Output) -> None:
        """Carry out one step's Output: acks first (the handsets wait), then what the window must see."""
        for ack in out.acks:
            self._send_ack(ack)
        for text in out.rejected:
            self.input_rejected.emit(text)
        for link in out.links:
            self.link_changed.emit(link.link, link.state, link.detail)
        for sv in out.stopps:
            self.stopp_called.emit(sv)
        for alarm in out.alarms:
            self.alarm_raised.emit(alarm)
        if out.died:
            self.characters_died.emit(tuple(out.died))
        for answer in out.roster:
            self.roster_answered.emit(answer)
        for reply in out.answers:
            self.report_answered.emit(reply)
        if out.devices is not None:
            self.devices_known.emit(out.devices)
        if out.stored is not None:
            self.events_stored.emit(out.stored)
        if out.timers is not None:
            log.info("rule timers: %s", out.timers)
            self.timers_changed.emit(out.timers)
        if out.recheck and self._watch is not None:
            self._watch.recheck()
        if out.flood_later and not self._flood_timer.isActive():
            self._flood_timer.start(self.engine.intake.flood.update_ms)
        if out.refold:
            self._refold()
        if out.retired is not None:
            self._let_go(out.retired)
        if out.publish:
            self._request_publish()
        if out.tick and not self._tick_timer.isActive():
            self._tick_timer.start(0)           # one batch per turn of the event loop

    def _send_ack(self, ack: Ack) -> None:
        if self.acks is not None:
            try:
                self.acks(ack)
            except Exception:          # a broken radio link must not stop the core
                log.exception("sending an answer (%s)", type(ack).__name__)

    def _refold(self) -> None:
        """Fold the game again over its stored roster, in a thread of its own; swapped in here once done."""
        if self._refold_thread is not None and self._refold_thread.is_alive():
            return
        job = self.engine.refold_job(self._live_work_first())

        def work() -> None:
            try:
                with pacing.switching_often():
                    result = job()
            except Exception as exc:   # the log cannot be read now: the next roster_added or a restart folds it
                result = exc
            self._refold_done.emit(result)

        self._refold_thread = threading.Thread(target=work, name="controlroom-refold", daemon=True)
        self._refold_thread.start()

    def _let_go(self, fold) -> None:
        """The fold a refold replaced, emptied a piece at a time in a thread (game.fold_release), not freed here."""
        if self._fold_saver is None or self._fold_saver.lets_go_of(fold):    # (else the snapshot's thread frees it)
            threading.Thread(target=let_go, args=(fold, self._live_work_first()), name="fold-let-go").start()

    def _live_work_first(self) -> Callable[[], None]:
        """A pause for background work: it rests whenever live work waits (frames heard, a batch on its way)."""
        engine, heard = self.engine, self.heard
        return pacing.for_live_work(lambda: bool(len(heard)) or engine.busy())

    @Slot(object)
    def _on_refolded(self, fold) -> None:
        if self._refold_thread is not None:
            self._refold_thread.join()  # (it ends as it emits: another refold may be asked for at once)
        if self.engine is not None:
            self._apply(self.engine.refolded(fold))

    # -- publishing -------------------------------------------------------------------------------
    @Slot()
    def _request_publish(self) -> None:
        if self._publish_timer.isActive():
            return
        wait = self._last_publish + self.publish_interval_ms / 1000 - time.monotonic()
        self._publish_timer.start(max(0, int(wait * 1000)))

    @Slot()
    def _publish(self) -> None:
        if self.engine is not None:
            # Reports first: what was heard goes into its batch, on its way to storage while the delta is made.
            self.take_heard()
            if self._tick_timer.isActive():
                self._tick_timer.stop()
                self._tick()
            self._last_publish = time.monotonic()
            self.delta_published.emit(self._with_links(self.engine.publish()))

    def _with_links(self, delta):
        """The delta with each link's own counters in its radio view (``link_stats``): what only the links know."""
        if self.link_stats is None:
            return delta
        try:
            stats = self.link_stats()
        except Exception:                  # a link that cannot say must not stop the delta
            log.exception("reading the links' counters")
            return delta
        return delta._replace(radio={**delta.radio, "link_stats": stats})

    @Slot()
    def _check_silence(self) -> None:
        if self.engine is not None:
            self._apply(self.engine.check_silence())

    @Slot()
    def _flush_flood(self) -> None:
        if self.engine is not None:
            self._apply(self.engine.flush_flood())

    @Slot()
    def poll(self) -> None:
        """Look at the clock now (a virtual clock in tests moves without a timer) and say what time it is."""
        self.handle(cmds.Poll())

    def stats(self) -> dict:
        return self.engine.stats() if self.engine is not None else {"health": {}, "radio": {}}

    # -- the end ----------------------------------------------------------------------------------
    @Slot()
    def stop(self) -> None:
        """Store what was received (waiting at most a few seconds), close the game; then emit ``stopped``."""
        self._stopping = True
        engine = self.engine
        if self._fold_saver is not None:
            self._fold_saver.hold()
        if engine is not None:
            engine.stop()
            self._tick()
            deadline = time.monotonic() + STOP_BUDGET_S
            while engine.batcher.busy and time.monotonic() < deadline:
                QCoreApplication.processEvents()
                if engine.batcher.in_flight is None:
                    self._tick()
                QThread.msleep(5)
            self.unstored = engine.batcher.unstored()
            if self.unstored:
                log.error("%d events could not be stored before shutdown (none of them was acknowledged)",
                          self.unstored)
            for watcher in (self._notices, self._watch):
                if watcher is not None:
                    watcher.stop()
            self._close_requested.emit()        # the writer stops its timers and ends its thread
            if self._storage_thread is not None and not self._storage_thread.wait(2000):
                log.error("the storage thread did not end in time")
            self._flush_flood()                 # the merged security alarms' last counts
            self._publish()
            self.stats_reported.emit(self.stats())
        for name in ("_tick_timer", "_deadline_timer", "_publish_timer", "_silence_timer", "_flood_timer"):
            timer = getattr(self, name, None)
            if timer is not None:
                timer.stop()
        if self._fold_saver is not None:
            self._fold_saver.stop()
        if self._refold_thread is not None:
            self._refold_thread.join(10)
        if engine is not None:
            engine.store.close()
        self._hand_back()
        self.stopped.emit()

    def _hand_back(self) -> None:
        """Hand the object (and its timers) back to the main thread, which will delete it."""
        app = QCoreApplication.instance()
        if app is not None:
            self.moveToThread(app.thread())
