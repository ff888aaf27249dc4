"""The core worker: the one writer that owns the game state, fires rule timers and stores events.

It lives in its own QThread (see ``core.thread``).  Inputs arrive as queued
signals and are handled in batches: everything that arrived in one turn of
the event loop is folded, appended to the log in one durable transaction, and
published to the window as a delta at most ten times a second.  Rule
deadlines are fired by one precise single-shot timer set to the soonest
deadline; there is no polling loop.
"""

from __future__ import annotations

import collections
import gc
import logging
import time
from typing import Any, NamedTuple

from PySide6.QtCore import QCoreApplication, QMetaObject, QObject, Qt, QThread, QTimer, Signal, Slot

from controlroom.core.stations import SharedGameMixin
from controlroom.core.storage import BLOCKING, StorageWriter, deliver_queue
from controlroom.game.clock import Clock, WallClock
from controlroom.game.events import SOURCE_GM, SOURCE_TIMER, Event, EventError, validate
from controlroom.game.scheduler import Changes, Schedule, fire_due
from controlroom.game.state import GameState
from controlroom.game.views import SideTally, StoredView, character_view, make_delta, stopp_view
from controlroom.store.errors import StoreError
from controlroom.radio import codec
from controlroom.radio.ingest import ACCEPTED, SECURITY, Ingest
from controlroom.store.devices import devices
from controlroom.store.eventlog import RadioMeta
from controlroom.store.game import GameStore
from controlroom.store.pg import conninfo
from controlroom.store.spool import Spool, default_path

log = logging.getLogger(__name__)

MAX_TIMER_MS = 2**31 - 1
EPOCH_KEY = "clock_epoch_unix_ms"


class Alarm(NamedTuple):
    """Something a game master must see at once; it stays until acknowledged (by ``id``)."""

    id: str
    kind: str            # stopp, stopp_overdue, storage, marshal_silent, forged_frame, gateway_lost...
    message: str
    t: int


class CoreWorker(SharedGameMixin, QObject):
    """Owns GameState, the deadline schedule and the event log of one game.

    On a shared game (PostgreSQL) it also folds other stations' events and
    runs the rule timers only while it holds the game's timer lock (see
    ``core.stations``).
    """

    loaded = Signal(object)              # StateDelta(full=True), once the game is folded
    delta_published = Signal(object)     # StateDelta, at most every publish_interval_ms
    stopp_called = Signal(object)        # StoppView, at once
    character_died = Signal(object)      # CharacterView, at once
    alarm_raised = Signal(object)        # Alarm, at once
    events_stored = Signal(int)          # the last seq stored (by this station or, on a shared game, another)
    timers_changed = Signal(str)         # who runs the rule timers: owner, standby, alone, offline
    input_rejected = Signal(str)         # a command or report that could not become an event
    stopped = Signal()                   # everything received is stored; the thread may end
    ack_ready = Signal(int, str)         # a TX line for gateway N: an acknowledgement to send
    devices_known = Signal(object)       # {source: {"role", "label", "group", "engine"}}: no keys
    _append_requested = Signal(object)   # to the storage thread
    _epoch_requested = Signal(int)       # to the storage thread: the timer lock's session we fire under

    def __init__(
        self,
        db: str,
        clock: Clock | None = None,
        *,
        publish_interval_ms: int = 100,
        marshal_silence_ms: int = 600_000,
        speed: float | None = None,
        queue_path: str | None = None,
        lock_interval_s: float = 2.0,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.db = db
        self.clock = clock
        self.speed = speed
        self.queue_path = queue_path            # the local durable queue of a shared game (default: data folder)
        self.lock_interval_s = lock_interval_s  # how often a standby station tries the timer lock
        self.owns_timers = True
        self.timers = "alone"
        self._watch = self._notices = None
        self._folded_to = 0                     # the last seq folded by opening or refolding the game
        self.publish_interval_ms = publish_interval_ms
        self.marshal_silence_ms = marshal_silence_ms
        self.store: GameStore | None = None
        self.state: GameState | None = None
        self.schedule = Schedule()
        self._inbox: list[tuple[str, dict, str, RadioMeta | None]] = []
        self._in_flight = 0                          # events handed to the storage thread, not yet stored
        self._changes = Changes()
        self._stored: list[StoredView] = []
        self._new_warnings = 0
        self._last_publish = 0.0
        self._marshals: dict[str, int] = {}          # source -> last heard (game time)
        self._silent: set[str] = set()
        self._storage_error: str | None = None
        self._alarmed: dict[tuple, int] = {}
        self.links: dict[str, tuple[str, str]] = {}
        self.ingest: Ingest | None = None
        self.lateness_ms: collections.deque[float] = collections.deque(maxlen=100_000)
        self.fired_count = 0

    # -- life cycle --------------------------------------------------------
    @Slot()
    def start(self) -> None:
        """Open the game (in this thread), fold its log, schedule its deadlines, catch up on time."""
        self._tick_timer = self._timer(self._tick, precise=False)
        self._deadline_timer = self._timer(self._tick, precise=True)
        self._publish_timer = self._timer(self._publish, precise=False)
        self._silence_timer = QTimer(self)
        self._silence_timer.timeout.connect(self._check_silence)
        try:
            self.store = GameStore.open(self.db)
            spool = self._open_queue()
            self.state, last_seq = self.store.load_state()
            self._folded_to = last_seq
            # The timeline opens with the game's last events (the window reads no log itself).
            last_events = [StoredView(s.seq, s.wall, s.event) for s in self.store.log.read(after=max(0, last_seq - 2000))]
            self.ingest = Ingest(devices(self.store))
            highest, heard = self.store.log.radio_counters()
            self.ingest.remember(highest, heard, self.state.t)
            self.store.checkpoint_in_background()
            self._start_storage(last_seq, spool)
        except StoreError as exc:
            self.alarm_raised.emit(Alarm("storage:open", "storage", str(exc), 0))
            self.stopped.emit()
            return
        if self.clock is None:
            # A fast simulated game starts where its log ends; a real one counts real time, and so
            # does a shared one at any speed, so that every station keeps the same game time.
            shared = self.store.log.shared
            self.clock = WallClock(self.state.t, self.speed) if self.speed and not shared else \
                self._persistent_clock(self.speed or 1.0)
        self.schedule.rebuild(self.state)
        # The folded game is long-lived: keep the cyclic garbage collector from
        # walking it again and again (a full collection would delay timers).
        gc.collect()
        gc.freeze()
        self._tally = SideTally(self.state)
        self.devices_known.emit({d.source: {"role": d.role, "label": d.label, "group": d.group, "engine": d.siege_engine}
                                 for d in self.ingest.devices.values()})
        self.loaded.emit(make_delta(self.state, (), (), last_events, full=True, sides=self._tally.snapshot()))
        self._silence_timer.start(max(1000, min(30_000, self.marshal_silence_ms // 4)))
        self._start_stations(conninfo(self.store.engine) if self.store.log.shared else None)
        self._tick()            # deadlines that fell due while the program was closed

    def _open_queue(self) -> Spool | None:
        """A shared game's local durable queue; what a previous run left in it is stored first."""
        if not self.store.log.shared:
            return None
        spool = Spool(self.queue_path or default_path(str(self.store.engine.url)))
        if len(spool):
            deliver_queue(self.store, spool)    # fired deadlines of a lost timer session are dropped
        return spool

    def _start_storage(self, last_seq: int = 0, spool: Spool | None = None) -> None:
        self._storage_thread = QThread()
        self._storage_thread.setObjectName("controlroom-storage")
        self._writer = StorageWriter(self.store, last_seq, spool)
        self._writer.moveToThread(self._storage_thread)
        self._append_requested.connect(self._writer.append, Qt.ConnectionType.QueuedConnection)
        self._writer.stored.connect(self._on_stored, Qt.ConnectionType.QueuedConnection)
        self._writer.failed.connect(self._on_storage_failed, Qt.ConnectionType.QueuedConnection)
        self._storage_thread.start()

    def _drain_storage(self) -> None:
        """Block until every batch handed over is stored (or has failed its retries)."""
        QMetaObject.invokeMethod(self._writer, "drain", BLOCKING)
        QCoreApplication.sendPostedEvents(self)      # take the writer's "stored" reports now

    def _timer(self, slot, precise: bool) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setTimerType(Qt.TimerType.PreciseTimer if precise else Qt.TimerType.CoarseTimer)
        timer.timeout.connect(slot)
        return timer

    def _persistent_clock(self, speed: float = 1.0) -> WallClock:
        """Real time (or ``speed`` times it): the game's clock goes on while the program is closed."""
        now_unix = int(time.time() * 1000)
        key = EPOCH_KEY if speed == 1.0 else f"{EPOCH_KEY}@{speed:g}"
        epoch = int(self.store.meta_once(key, str(now_unix - int(self.state.t / speed))))
        return WallClock(start_ms=max(self.state.t, int((now_unix - epoch) * speed)), speed=speed)

    @Slot()
    def stop(self) -> None:
        """Handle everything received, store it, close the game; then emit ``stopped``."""
        if self.state is not None:
            self._tick()
            QMetaObject.invokeMethod(self._writer, "close", BLOCKING)
            QCoreApplication.sendPostedEvents(self)
            self._stop_stations()
            self._storage_thread.quit()
            self._storage_thread.wait()
            self._publish()
        for name in ("_tick_timer", "_deadline_timer", "_publish_timer", "_silence_timer"):
            timer = getattr(self, name, None)
            if timer is not None:
                timer.stop()
        if self.store is not None:
            self.store.close()
        if self._in_flight:
            log.error("%d events could not be stored before shutdown", self._in_flight)
        # Hand the object (and its timers) back to the main thread, which will delete it.
        app = QCoreApplication.instance()
        if app is not None:
            self.moveToThread(app.thread())
        self.stopped.emit()

    # -- inputs ------------------------------------------------------------
    @Slot(str, object, str)
    def submit(self, type_: str, fields: dict, source: str = SOURCE_GM) -> None:
        """A report or a game master's entry, as an event of ``type_`` happening now."""
        self._receive(type_, fields, source, None)

    @Slot(str, object, str, object)
    def submit_radio(self, type_: str, fields: dict, source: str, radio: RadioMeta) -> None:
        """An accepted radio frame's event, with its radio metadata."""
        self._receive(type_, fields, source, radio)

    @Slot(object)
    def frames_received(self, frames: list) -> None:
        """Frames the gateways heard since the last call: [(gateway, rssi, snr, frame bytes), ...]."""
        for gateway, rssi, snr, frame in frames:
            self.frame_received(gateway, rssi, snr, frame)

    @Slot(int, object, object, object)
    def frame_received(self, gateway: int, rssi, snr, frame: bytes) -> None:
        """A frame a gateway heard: authenticated, de-duplicated, acknowledged, then an event."""
        if self.state is None:
            return
        out = self.ingest.receive(frame, gateway, rssi, snr, self.clock.now_ms())
        if out.ack is not None:
            self.ack_ready.emit(gateway, codec.format_tx_line(out.ack))
        if out.verdict == ACCEPTED:
            type_, fields, source = out.event
            self._receive(type_, fields, source, out.radio)
            return
        self._request_publish()             # the radio panel's counters changed
        if out.verdict in SECURITY:
            key = (out.verdict, out.device)
            now = self.clock.now_ms()
            if now - self._alarmed.get(key, -10**12) >= 60_000:      # one alarm a minute per device and kind
                self._alarmed[key] = now
                self.alarm_raised.emit(Alarm(f"{out.verdict}:{out.device}:{now}", out.verdict, out.detail, now))

    @Slot(str, str)
    def line_rejected(self, gateway: str, reason: str) -> None:
        """A serial line from a gateway that failed its checksum or did not parse."""
        if self.state is not None:
            self.ingest.reject_line(gateway, reason)

    @Slot(str, str, str)
    def link_changed(self, link: str, state: str, detail: str) -> None:
        """A gateway's serial link: lost links are alarms, found ones end them."""
        now = self.clock.now_ms() if self.clock else 0
        self.links[link] = (state, detail)
        if state == "lost":
            self.alarm_raised.emit(Alarm(f"gateway:{link}:{now}", "gateway_lost", detail or f"gateway {link} lost", now))

    def _receive(self, type_: str, fields: dict, source: str, radio: RadioMeta | None) -> None:
        try:
            data = validate(type_, fields)
        except EventError as exc:
            self.input_rejected.emit(f"{source}: {exc}")
            return
        self._inbox.append((type_, data, source, radio))
        if not self._tick_timer.isActive():
            self._tick_timer.start(0)           # one batch per turn of the event loop

    @Slot(str, bool, float)
    def start_scenario(self, name: str, respawn: bool = False, respawn_time: float = 0.0) -> None:
        fields = {"name": name, "respawn": respawn}
        if respawn_time:
            fields["respawn_time"] = respawn_time
        self.submit("scenario_started", fields, SOURCE_GM)

    @Slot()
    def end_scenario(self) -> None:
        self.submit("scenario_ended", {}, SOURCE_GM)

    @Slot(str)
    def call_global_stopp(self, reason: str = "danger") -> None:
        n = sum(1 for s in (self.state.stopps if self.state else ()) if s.startswith("GM")) + 1
        self.submit("stopp_called", {"stopp": f"GM{n}", "reason": reason}, SOURCE_GM)

    @Slot(str, bool)
    def lift_stopp(self, stopp_id: str, trivial: bool = False) -> None:
        self.submit("stopp_lifted", {"stopp": stopp_id, "trivial": trivial}, SOURCE_GM)

    @Slot(str)
    def acknowledge(self, alarm_id: str) -> None:
        self.submit("alarm_acknowledged", {"alarm": alarm_id}, SOURCE_GM)

    @Slot(int, str)
    def retract(self, seq: int, reason: str = "") -> None:
        """Correct a wrong report: a new event that makes the game leave ``seq`` out."""
        fields: dict[str, Any] = {"seq": seq}
        if reason:
            fields["reason"] = reason
        self.submit("retracted", fields, SOURCE_GM)

    # -- the tick: fold, fire, store, publish --------------------------------
    @Slot()
    def _tick(self) -> None:
        state = self.state
        if state is None:
            return
        now = max(self.clock.now_ms(), state.t)
        deaths_before = len(state.deaths)
        batch: list[tuple[Event, RadioMeta | None]] = []
        refold = False
        shared = self.store.log.shared
        inbox, self._inbox = self._inbox, []
        for type_, data, source, radio in inbox:
            self._fire(now, batch)
            if radio is not None:       # copies heard by other gateways meanwhile: keep the best
                radio = self.ingest.best(radio)
            event = Event(now, type_, data, source)        # data was checked when it arrived
            batch.append((event, radio))
            if source.startswith(("marshal:", "tracker:")):
                self._marshals[source] = now
                self._silent.discard(source)
            if shared:
                continue                # folded in the log's order once stored (core.stations)
            warnings_before = len(state.warnings)
            state.apply(event)
            self._new_warnings += len(state.warnings) - warnings_before
            refold |= type_ == "retracted"
        self._fire(now, batch)
        self.schedule.sync(state, self._changes)
        if batch:
            self._in_flight += len(batch)
            self._append_requested.emit(batch)
            folded = [b for b in batch if b[0].source == SOURCE_TIMER] if shared else batch
            self._announce(folded, state.deaths[deaths_before:])
        if refold:
            self._drain_storage()
            self._refold()
        self._arm_deadline_timer()
        if self._changes or self._stored:
            self._request_publish()

    def _fire(self, now: int, batch: list) -> None:
        if not self.owns_timers:
            return              # another station runs the timers of this shared game
        before = len(batch)
        batch += [(e, None) for e in fire_due(self.state, self.schedule, now, changed=self._changes)]
        if len(batch) > before:
            real_now = self.clock.now_ms()
            for event, _ in batch[before:]:
                self.lateness_ms.append(self.clock.real_ms(max(0, real_now - event.t)))
            self.fired_count += len(batch) - before

    def _arm_deadline_timer(self) -> None:
        due = self.schedule.next_due()
        if due is None:
            self._deadline_timer.stop()
            return
        delay = self.clock.real_ms(due - self.clock.now_ms())
        self._deadline_timer.start(int(min(MAX_TIMER_MS, max(0.0, delay + 0.999))))

    @Slot(object)
    def _on_stored(self, result) -> None:
        self._in_flight -= len(result.stored) + len(result.duplicates)
        if self._storage_error is not None:
            self._storage_error = None
            self.alarm_raised.emit(Alarm("storage:ok", "storage", "the game is being stored again", self.state.t))
        if self.store.log.shared:
            return              # shown once read back in the log's order (core.stations)
        self._stored += [StoredView(s.seq, s.wall, s.event) for s in result.stored]
        if result.stored:
            self.events_stored.emit(result.stored[-1].seq)
            self._request_publish()

    @Slot(str)
    def _on_storage_failed(self, message: str) -> None:
        if message != self._storage_error:
            self._storage_error = message
            self.alarm_raised.emit(Alarm("storage:write", "storage", message, self.state.t if self.state else 0))

    def _announce(self, batch, deaths) -> None:
        """What a game master must see at once, without waiting for the next delta."""
        state = self.state
        for event, _ in batch:
            kind = event.type
            if kind == "stopp_called" and event.data["stopp"] in state.active_stopps:
                sv = stopp_view(state, event.data["stopp"])
                self.stopp_called.emit(sv)
                self.alarm_raised.emit(Alarm(f"stopp:{sv.id}", "stopp", f"STOPP {sv.id} called ({sv.reason})", event.t))
            elif kind == "stopp_overdue":
                sid = event.data["stopp"]
                self.alarm_raised.emit(Alarm(f"stopp_overdue:{sid}", "stopp_overdue", f"STOPP {sid} has lasted too long", event.t))
        for _t, badge, _cause, _source in deaths:
            self.character_died.emit(character_view(state, badge))

    def _refold(self) -> None:
        """After a correction the game is folded again from its log, without the retracted event."""
        self.state, self._folded_to = self.store.load_state()
        self.schedule.rebuild(self.state)
        self._tally = SideTally(self.state)
        self._changes = Changes(set(self.state.characters), set(self.state.stopps))

    @Slot()
    def _request_publish(self) -> None:
        if self._publish_timer.isActive():
            return
        wait = self._last_publish + self.publish_interval_ms / 1000 - time.monotonic()
        self._publish_timer.start(max(0, int(wait * 1000)))

    @Slot()
    def _publish(self) -> None:
        if self.state is None:
            return
        badges, stopps = self._changes.take()
        warnings = self.state.warnings[len(self.state.warnings) - self._new_warnings:] if self._new_warnings else ()
        self._new_warnings = 0
        events, self._stored = self._stored, []
        self._last_publish = time.monotonic()
        self._tally.update(self.state, badges)
        delta = make_delta(self.state, badges, stopps, events, warnings, sides=self._tally.snapshot())
        self.delta_published.emit(delta._replace(radio=self.radio_view()))

    def radio_view(self) -> dict[str, Any]:
        """What the radio panel shows: links, counters per gateway, devices heard, the last frames."""
        if self.ingest is None:
            return {}
        return {"links": dict(self.links), "counts": self.ingest.stats(), "heard": dict(self.ingest.heard),
                "recent": list(self.ingest.recent)[-200:]}

    @Slot()
    def _check_silence(self) -> None:
        if self.state is None:
            return
        now = self.clock.now_ms()
        for source, heard in self._marshals.items():
            if source not in self._silent and now - heard >= self.marshal_silence_ms:
                self._silent.add(source)
                minutes = (now - heard) // 60_000
                self.alarm_raised.emit(Alarm(f"silent:{source}:{heard}", "marshal_silent",
                                             f"{source} has not been heard for {minutes} minutes", now))

    @Slot()
    def poll(self) -> None:
        """Look at the clock now (a virtual clock in tests moves without a timer)."""
        self._tick()

    def health(self) -> dict[str, Any]:
        """Lateness of fired deadlines (real ms) and counts, for the radio and health panel."""
        late = sorted(self.lateness_ms)

        def pct(p: float) -> float:
            return round(late[min(len(late) - 1, int(p * len(late)))], 3) if late else 0.0

        return {"fired": self.fired_count, "late_p50_ms": pct(0.5), "late_p99_ms": pct(0.99),
                "late_max_ms": round(late[-1], 3) if late else 0.0, "pending": len(self.schedule),
                "unstored": self._in_flight, "timers": self.timers, "queued": getattr(self, "queued_count", 0),
                "dropped_deadlines": getattr(self, "dropped_deadlines", 0)}
