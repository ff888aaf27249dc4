"""The core worker: the one writer of a game, in one order from the radio to the record.

Every input takes the same road:

    frame heard -> authenticated -> appended and committed durably -> folded in the log's order
    -> acknowledged -> deltas and alarms published

A report (a radio frame or a game master's entry) waits in the inbox until
the batch before it is stored; then everything waiting becomes the next
batch, together with the rule deadlines that fell due (fired by this station
only when ``TimerAuthority.may_fire``).  The storage thread commits it and
reads the log back; ``_on_committed`` folds the log in fold order
(``game.fold``), sends the acknowledgements of the frames it stored, and only
then shows the game master what changed.  A batch that cannot be stored is
retried and nothing of it is acknowledged, so the handsets retry too.

The worker lives in its own QThread (``core.thread``); rule deadlines are
fired by one precise single-shot timer set to the soonest deadline.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

from controlroom.core.alarm_words import late_report_alarm, stopp_alarm
from controlroom.core.authority import ALONE, TimerAuthority
from controlroom.core.commands import GM_STOPP_KEY, GameMasterCommands, RosterAnswer
from controlroom.core.fold_saver import FoldSaver
from controlroom.core.intake import DOWNLINK_KEY, Incoming, RadioIntake
from controlroom.core.opening import EPOCH_KEY, GameInfo, GameOpening
from controlroom.core.stations import Notices
from controlroom.core.storage import Committed, Pending
from controlroom.game.alarms import Alarm, SecurityFlood
from controlroom.game.clock import Clock
from controlroom.game.events import SOURCE_GM, Event, EventError, validate
from controlroom.game.fold import Confirmed, Correction, Fold
from controlroom.game.views import FieldSent, SideTally, StoredView, character_view, make_delta, stopp_view
from controlroom.i18n import translate
from controlroom.radio.ingest import Ingest
from controlroom.radio.mesh_ingest import MeshIngest
from controlroom.store.game import GameStore

# Names other modules and tests know from here, kept where they were found.
__all__ = ["CoreWorker", "GameInfo", "RosterAnswer", "Incoming", "Alarm", "stopp_alarm",
           "DOWNLINK_KEY", "EPOCH_KEY", "GM_STOPP_KEY"]

log = logging.getLogger(__name__)

MAX_TIMER_MS = 2**31 - 1
STOP_BUDGET_S = 2.5          # at shutdown: how long to wait for the last batch to be stored

AckSink = Callable[[int, Any], None]         # (gateway, ack frame bytes or a radio.mesh_ingest.MeshReply): thread-safe


@dataclass(slots=True)
class _Batch:
    id: int
    items: list[Pending]
    incoming: list[Incoming | None]
    deaths: list = field(default_factory=list)     # deaths the deadlines of this batch recorded
    fired: list[Event] = field(default_factory=list)


class CoreWorker(GameOpening, RadioIntake, GameMasterCommands, QObject):
    """Owns the game's fold, its deadline schedule and its event log; nothing else writes them.

    Its parts: opening the game (``core.opening``), what the radio hears
    (``core.intake``), the game master's commands (``core.commands``); here,
    the one road every input takes: the batch stored, folded, acknowledged
    and published.
    """

    opened = Signal(object)              # GameInfo, once the game is open
    loaded = Signal(object)              # StateDelta(full=True), once the game is folded
    delta_published = Signal(object)     # StateDelta, at most every publish_interval_ms
    stopp_called = Signal(object)        # StoppView, as soon as it is stored
    characters_died = Signal(object)     # tuple of CharacterView, as soon as the deaths are stored (a burst at once)
    alarm_raised = Signal(object)        # Alarm
    events_stored = Signal(int)          # the last seq folded (this station's or another's)
    timers_changed = Signal(str)         # who runs the rule timers: alone, owner, standby, offline
    input_rejected = Signal(str)         # a command or report that could not become an event
    devices_known = Signal(object)       # {source: {"role", "label", "group", "engine"}}: no keys
    stats_reported = Signal(object)      # counters and health, when the worker stops
    stopped = Signal()                   # everything that could be stored is stored; the thread may end
    roster_answered = Signal(object)     # RosterAnswer, to a check or an addition of players (add_players)
    _append_requested = Signal(int, object)
    _close_requested = Signal()

    def __init__(self, db: str, clock: Clock | None = None, *, acks: AckSink | None = None,
                 publish_interval_ms: int = 100, marshal_silence_ms: int = 600_000, speed: float | None = None,
                 queue_path: str | None = None, lock_interval_s: float = 2.0, ports: list[str] | None = None,
                 remember_ports: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db = db
        self.ports = None if ports is None else list(ports)     # None: the ports kept with the game
        self.remember_ports = remember_ports
        self.clock = clock
        self.speed = speed
        self.acks = acks
        self.queue_path = queue_path
        self.lock_interval_s = lock_interval_s
        self.publish_interval_ms = publish_interval_ms
        self.marshal_silence_ms = marshal_silence_ms
        # A window that says when it has painted the opened game (CoreThread.wait_for_window): the opening's
        # completion waits for it, at most this long (0: no window waits, a headless station).
        self.window_wait_s = 0.0
        self.window_shown = threading.Event()
        self.store: GameStore | None = None
        self.fold: Fold | None = None
        self.ingest: Ingest | None = None
        self.mesh: MeshIngest | None = None
        self.authority: TimerAuthority | None = None
        self.links: dict[str, tuple[str, str]] = {}
        self.lateness_ms: collections.deque[float] = collections.deque(maxlen=100_000)
        self.fired_count = 0
        self.unstored = 0
        self.queued = 0
        self.dropped_deadlines = 0
        self._inbox: list[Incoming] = []
        # Reports received and not yet stored (or found stored, or kept on this laptop): one number, counted down
        # only once their batch is committed, so another thread reading it never sees 0 while a batch is made.
        self._waiting = 0
        self._corrections: list[Correction] = []
        self._in_flight: _Batch | None = None
        self._batch_id = 0
        self._unstored_frames: dict[tuple[int, int], Incoming] = {}
        self._buffer: list[tuple] = []               # the log read back while a batch is in flight
        self._stored: list[StoredView] = []
        self._full = False
        self._field_sent = FieldSent()      # what of the field the deltas have carried
        self._warnings_seen = 0
        self._last_publish = 0.0
        self._marshals: dict[str, int] = {}
        self._silent: set[str] = set()
        self._storage_error: str | None = None
        self._flood = SecurityFlood()           # security alarms: one row per kind and minute
        self._gm_stopps = 0                     # the number of the last STOPP called by a game master here
        self._notices: Notices | None = None
        self._stopping = False
        self._fold_saver: FoldSaver | None = None     # keeps the fold snapshot with the game (core.fold_saver)
        self._players_waiting: list[tuple[int, list]] = []     # additions waiting for the batch in flight
        self._folded_upto = 0           # after _fold_again: the highest seq its fold read (see _fold)
        self._roster_stale = False              # a roster_added event was folded: fold again over the new roster

    @property
    def state(self):
        return self.fold.state if self.fold is not None else None

    @Slot()
    def stop(self) -> None:
        """Store what was received (waiting at most a few seconds), close the game; then emit ``stopped``."""
        self._stopping = True
        if self._fold_saver is not None:
            self._fold_saver.hold()
        if self.fold is not None:
            self._tick()
            deadline = time.monotonic() + STOP_BUDGET_S
            while (self._in_flight is not None or self._inbox) and time.monotonic() < deadline:
                QCoreApplication.processEvents()
                if self._in_flight is None and self._inbox:
                    self._tick()
                QThread.msleep(5)
            self.unstored = len(self._inbox) + (len(self._in_flight.items) if self._in_flight else 0)
            if self.unstored:
                log.error("%d events could not be stored before shutdown (none of them was acknowledged)",
                          self.unstored)
            if self._notices is not None:
                self._notices.stop()
            if self.authority is not None:
                self.authority.stop()
            self._close_requested.emit()        # the writer stops its timers and ends its thread
            if not self._storage_thread.wait(2000):
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
        if self.store is not None:
            self.store.close()
        self._hand_back()
        self.stopped.emit()

    def _hand_back(self) -> None:
        """Hand the object (and its timers) back to the main thread, which will delete it."""
        app = QCoreApplication.instance()
        if app is not None:
            self.moveToThread(app.thread())

    # -- inputs ------------------------------------------------------------
    @Slot(str, object, str)
    def submit(self, type_: str, fields: dict, source: str = SOURCE_GM) -> None:
        """A report or a game master's entry, as an event of ``type_`` happening now."""
        try:
            data = validate(type_, fields)
        except EventError as exc:
            self.input_rejected.emit(f"{source}: {exc}")
            return
        self._receive(Incoming(type_, data, source))

    def _receive(self, item: Incoming) -> None:
        self._inbox.append(item)
        self._waiting += 1
        if not self._tick_timer.isActive():
            self._tick_timer.start(0)           # one batch per turn of the event loop

    # -- the batch: fire, store ------------------------------------------------
    @Slot()
    def _tick(self) -> None:
        """Send the next batch (when the last one is stored): corrections, deadlines due, then reports."""
        fold = self.fold
        if fold is None or self._in_flight is not None:
            return
        now = max(self.clock.now_ms(), fold.state.t)
        batch = _Batch(self._batch_id + 1, [], [])
        epoch = self.authority.epoch or None if self.authority is not None else None
        for c in self._corrections:
            batch.items.append(Pending(c.event, None, c.pos, epoch, c.token))
            batch.incoming.append(None)
        self._corrections = []
        if self.authority is not None and self.authority.may_fire:
            deaths_before = len(fold.state.deaths)
            real_now = self.clock.now_ms()
            for token, event in fold.fire(now):
                batch.items.append(Pending(event, None, None, epoch, token))
                batch.incoming.append(None)
                batch.fired.append(event)
                self.lateness_ms.append(self.clock.real_ms(max(0, real_now - event.t)))
            self.fired_count += len(batch.fired)
            batch.deaths = fold.state.deaths[deaths_before:]
        inbox, self._inbox = self._inbox, []
        for item in inbox:
            t, pos, radio = now, None, item.radio
            if radio is not None:
                if radio.via is None:                   # (a Meshtastic packet id says nothing of order)
                    radio = self.ingest.best(radio)     # copies heard by other gateways meanwhile
                place = fold.place(radio.device if radio.via is None else None, radio.counter, now,
                                   self._happened(item.pressed_ms, now))
                if place is not None:
                    pos, t = place
                if item.source.startswith(("marshal:", "tracker:")):
                    self._marshals[item.source] = now
                    self._silent.discard(item.source)
            batch.items.append(Pending(Event(t, item.type, item.data, item.source), radio, pos))
            batch.incoming.append(item)
        if batch.items:
            self._batch_id = batch.id
            self._in_flight = batch
            self._append_requested.emit(batch.id, batch.items)
        else:
            self._arm_deadline_timer()

    def _happened(self, pressed_ms: int | None, now: int) -> int | None:
        """The game time of a key press given in wall time (unix ms), or None."""
        if pressed_ms is None:
            return None
        age = max(0.0, time.time() * 1000 - pressed_ms)
        return max(0, now - int(age * self.clock.speed))

    def _arm_deadline_timer(self) -> None:
        due = self.fold.next_due() if self.fold is not None else None
        if due is None or self._stopping:
            self._deadline_timer.stop()
            return
        delay = self.clock.real_ms(due - self.clock.now_ms())
        self._deadline_timer.start(int(min(MAX_TIMER_MS, max(0.0, delay + 0.999))))

    # -- stored: fold, acknowledge, show ------------------------------------------
    @Slot(int, object)
    def _on_committed(self, batch_id: int, result: Committed) -> None:
        batch = self._in_flight
        if batch is None or batch.id != batch_id:
            return
        self._in_flight = None
        self._waiting -= sum(1 for item in batch.incoming if item is not None)
        fold = self.fold
        if result.kept:                 # on this laptop until the server is back: durable, so acknowledged
            for pending, item in zip(batch.items, batch.incoming):
                if item is not None:
                    pending.token = fold.prefold(pending.event)
            self._acknowledge(batch, range(len(batch.items)))
            self._announce(Confirmed(applied=[p.event for p, i in zip(batch.items, batch.incoming) if i]), batch)
        else:
            if result.dropped:          # deadlines fired under a timer lock that is no longer ours
                self.dropped_deadlines += len(result.dropped)
                self._after_refold(fold.withdraw([batch.items[i].token for i in result.dropped]))
                self.authority.lost_lock()
            items = self._buffer + [(s, None if i is None else batch.items[i].token) for s, i in result.logged]
            self._buffer = []
            stored = {i for _s, i in result.logged if i is not None}
            self._fold(items)
            self._acknowledge(batch, sorted(stored | set(result.duplicates)))
            self._announce(None, batch, [p.event for i, p in enumerate(batch.items) if i in stored and p.token])
        if self._players_waiting:
            waiting, self._players_waiting = self._players_waiting, []
            for request, entries in waiting:
                self.add_players(request, entries, True)
        self._tick()

    @Slot(object)
    def _on_logged(self, items: list) -> None:
        """The log read back: other stations' events, and this station's queued ones delivered."""
        if self._in_flight is not None:
            self._buffer += items           # folded together with the batch in flight
            return
        self._fold(items)
        self._tick()

    def _fold(self, items: list) -> None:
        if not items or self.fold is None:
            return
        fold = self.fold
        now = self.clock.now_ms()
        for s, _tok in items:
            if s.radio is not None:
                self.ingest.note_stored(s.radio, now)       # copies heard here from now on are duplicates
                self._unstored_frames.pop((s.radio.device, s.radio.counter), None)
            if s.event.source.startswith(("marshal:", "tracker:")):
                self._marshals[s.event.source] = now
                self._silent.discard(s.event.source)
        may_fire = self.authority is not None and self.authority.may_fire
        to_fold = items
        if self._folded_upto:           # folded again (_fold_again): what it read is in the fold already
            to_fold = [(s, tok) for s, tok in items if s.seq > self._folded_upto]
            if len(to_fold) == len(items):
                self._folded_upto = 0
        out = fold.confirm(to_fold, may_fire) if to_fold else Confirmed()
        self._stored += [StoredView(s.seq, s.wall, s.event, s.radio.via if s.radio else None) for s, _t in items]
        if out.refolded:
            self._after_refold(out)
        if out.corrections:
            self._corrections += out.corrections
            self._tell_corrections(out)
        self._announce(out)
        self.events_stored.emit(max(s.seq for s, _t in items))
        self._request_publish()
        if any(s.event.type == "roster_added" for s, _t in items):
            self._roster_stale = True
        self._refresh_roster()

    def _acknowledge(self, batch: _Batch, indexes) -> None:
        for i in indexes:
            item = batch.incoming[i]
            if item is None:
                continue
            if item.radio is not None:
                self._unstored_frames.pop((item.radio.device, item.radio.counter), None)
            for gateway, ack in item.acks:
                self._send_ack(gateway, ack)
            item.acks = []

    def _send_ack(self, gateway: int, ack: bytes) -> None:
        if self.acks is not None:
            try:
                self.acks(gateway, ack)
            except Exception:          # a broken radio link must not stop the core
                log.exception("sending an acknowledgement through gateway %s", gateway)

    def _after_refold(self, out: Confirmed) -> None:
        if not out.refolded:
            return
        self._full = True
        self._tally = SideTally(self.fold.state)
        self._warnings_seen = 0

    def _tell_corrections(self, out: Confirmed) -> None:
        """A late report changed what the rule timers did: tell the game master, in words."""
        self.alarm_raised.emit(late_report_alarm(self.fold.state, out.corrections, self.clock.now_ms()))

    def _announce(self, out: Confirmed | None, batch: _Batch | None = None, fired: list[Event] = ()) -> None:
        """What a game master must see at once, once it is stored: STOPPs, deaths, deaths undone."""
        state = self.fold.state
        events = list(out.applied) if out is not None else []
        events += list(fired)
        for event in events:
            kind = event.type
            if kind == "stopp_called" and event.data["stopp"] in state.active_stopps:
                sv = stopp_view(state, event.data["stopp"])
                self.stopp_called.emit(sv)
                self.alarm_raised.emit(stopp_alarm(state, sv, event.t))
            elif kind == "stopp_overdue":
                sid = event.data["stopp"]
                self.alarm_raised.emit(Alarm(f"stopp_overdue:{sid}", "stopp_overdue",
                                             translate("alarms", "STOPP {stopp} has lasted too long").format(
                                                 stopp=sid), event.t))
        deaths = list(out.deaths) if out is not None else []
        if batch is not None and out is None:
            deaths += batch.deaths
        # One signal for a burst (a timer ends many bleed-outs at once): 2,000 deaths sent one by one were 2,000
        # events the GUI thread took in one go, a stall of half a second (bench_map).
        died = tuple(character_view(state, badge) for _t, badge, _cause, _source in deaths if badge in state.characters)
        if died:
            self.characters_died.emit(died)

    # -- storage and timer ownership -------------------------------------------
    @Slot(object)
    def _on_withdrawn(self, tokens: list) -> None:
        if self.fold is not None:
            self._after_refold(self.fold.withdraw(tokens))
            self._request_publish()

    @Slot(str)
    def _on_storage_failed(self, message: str) -> None:
        if message != self._storage_error:
            self._storage_error = message
            t = self.fold.state.t if self.fold is not None else 0
            self.alarm_raised.emit(Alarm("storage:write", "storage", message, t))
        # Players waiting for the batch that cannot be stored: told now, not left waiting.
        waiting, self._players_waiting = self._players_waiting, []
        for request, _entries in waiting:
            self.roster_answered.emit(RosterAnswer(request, False, (), 0, (self._not_storing(),)))

    @Slot()
    def _on_storage_recovered(self) -> None:
        if self._storage_error is not None:
            self._storage_error = None
            t = self.fold.state.t if self.fold is not None else 0
            self.alarm_raised.emit(Alarm("storage:ok", "storage",
                                         translate("alarms", "the game is being stored again"), t))

    @Slot(int)
    def _on_queued(self, count: int) -> None:
        self.queued = count

    @Slot(int)
    def _on_caught_up(self, epoch: int) -> None:
        if self.authority is not None and self.authority.caught_up(epoch):
            self._tick()            # what fell due while the previous owner was gone

    # -- publishing -------------------------------------------------------------
    @Slot()
    def _request_publish(self) -> None:
        if self._publish_timer.isActive():
            return
        wait = self._last_publish + self.publish_interval_ms / 1000 - time.monotonic()
        self._publish_timer.start(max(0, int(wait * 1000)))

    @Slot()
    def _publish(self) -> None:
        if self.fold is None:
            return
        state = self.fold.state
        badges, stopps = self.fold.changes.take()
        full, self._full = self._full, False
        warnings = tuple(state.warnings[self._warnings_seen:])
        self._warnings_seen = len(state.warnings)
        events, self._stored = self._stored, []
        self._last_publish = time.monotonic()
        self._tally.update(state, badges)
        field = self._field_sent.changes(state, whole=full)
        delta = make_delta(state, badges, stopps, events, warnings, full=full, sides=self._tally.snapshot(),
                           field=field)
        # The delta's time is the game's time now, not the last event's: clocks and countdowns run on it.
        self.delta_published.emit(delta._replace(t=max(delta.t, self.clock.now_ms()), radio=self.radio_view()))

    @Slot()
    def poll(self) -> None:
        """Look at the clock now (a virtual clock in tests moves without a timer) and say what time it is."""
        self._tick()
        self._request_publish()

    def stats(self) -> dict[str, Any]:
        """The radio counters and the core's health, for ``headless --stats-json`` and the radio panel."""
        late = sorted(self.lateness_ms)

        def pct(p: float) -> float:
            return round(late[min(len(late) - 1, int(p * len(late)))], 3) if late else 0.0

        health = {"fired": self.fired_count, "late_p50_ms": pct(0.5), "late_p99_ms": pct(0.99),
                  "late_max_ms": round(late[-1], 3) if late else 0.0,
                  "pending": len(self.fold.schedule) if self.fold is not None else 0,
                  "unstored": self.unstored, "timers": self.authority.state if self.authority else ALONE,
                  "queued": self.queued, "dropped_deadlines": self.dropped_deadlines,
                  "waiting": self._waiting}
        out = {"health": health, "radio": self.ingest.stats() if self.ingest is not None else {}}
        if getattr(self, "mesh", None) is not None and self.mesh.counts:
            out["meshtastic"] = self.mesh.stats()
        return out
