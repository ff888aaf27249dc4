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
import gc
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, NamedTuple

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, QTimer, Signal, Slot

from controlroom.collecting import no_collection
from controlroom.core.authority import ALONE, TimerAuthority
from controlroom.core.fold_saver import FoldSaver
from controlroom.core.stations import Notices
from controlroom.core.storage import Committed, Pending, StorageWriter, deliver_queue
from controlroom.game.alarms import Alarm, SecurityFlood
from controlroom.i18n import QT_TRANSLATE_NOOP, translate
from controlroom.game.clock import Clock, WallClock, format_time
from controlroom.game.devices import RadioMeta
from controlroom.game.events import SOURCE_GM, Event, EventError, validate
from controlroom.game.fold import Confirmed, Correction, Fold
from controlroom.game.roster_addition import plan_addition
from controlroom.game.views import FieldSent, SideTally, StoredView, character_view, make_delta, stopp_view
from controlroom.radio.ingest import ACCEPTED, DUPLICATE, SECURITY, DownlinkCounter, Ingest
from controlroom.radio.mesh_ingest import ACCEPTED as MESH_ACCEPTED, REQUIRE_PKI_KEY, MeshIngest
from controlroom.rules.profile import ProfileError, RulesProfile
from controlroom.store.devices import devices
from controlroom.store.errors import StoreError
from controlroom.store.engine import data_dir
from controlroom.store.game import GameStore
from controlroom.store.maps import StoredMap, current_map, map_file, save_ports, stored_ports
from controlroom.store.pg import conninfo
from controlroom.store.spool import Spool, default_path

log = logging.getLogger(__name__)

MAX_TIMER_MS = 2**31 - 1
EPOCH_KEY = "clock_epoch_unix_ms"
GM_STOPP_KEY = "gm_stopp_counter"      # the highest number given to a game master's STOPP (GM1, GM2...)
DOWNLINK_KEY = "downlink_counter"       # the highest downlink counter reserved (PROTOCOL.md section 4)
STOP_BUDGET_S = 2.5          # at shutdown: how long to wait for the last batch to be stored

AckSink = Callable[[int, Any], None]         # (gateway, ack frame bytes or a radio.mesh_ingest.MeshReply): thread-safe


class GameInfo(NamedTuple):
    """What the window may know of the open game (read once it is open)."""

    name: str
    db: str
    where: str
    profile: RulesProfile
    speed: float                         # game ms per real ms as the clock runs (0: a virtual clock, in tests)
    shared: bool
    ports: tuple[str, ...] = ()          # the gateways: as given, else those kept with the game
    map: StoredMap | None = None         # the map kept with the game, and its file on this laptop
    map_path: Path | None = None
    map_problem: str = ""


class RosterAnswer(NamedTuple):
    """The core's answer to players offered for the open game (``CoreWorker.add_players``)."""

    request: int                         # the asker's number for its question
    stored: bool                         # True: the players are in the game file (then folded in, published)
    added: tuple = ()                    # the new players (Member): added, or to be added when ``stored`` is False
    unchanged: int = 0                   # players of the file the game has already, exactly as the file has them
    problems: tuple[str, ...] = ()       # what stands in the way, by line: nothing was stored


@dataclass(slots=True)
class Incoming:
    """A report waiting for the next batch."""

    type: str
    data: dict
    source: str
    radio: RadioMeta | None = None
    acks: list = field(default_factory=list)       # [(gateway, ack bytes)] to send once stored
    pressed_ms: int | None = None                  # unix ms of the key press (protocol v2), if known


@dataclass(slots=True)
class _Batch:
    id: int
    items: list[Pending]
    incoming: list[Incoming | None]
    deaths: list = field(default_factory=list)     # deaths the deadlines of this batch recorded
    fired: list[Event] = field(default_factory=list)


def stopp_alarm(state, sv, t: int) -> Alarm:
    """A STOPP's alarm: kind "injury" when it was called for an injury or medical emergency, else "stopp".

    Both are safety alarms acknowledged one by one; the id is the STOPP's either
    way (the map flashes the STOPP until ``stopp:<id>`` is acknowledged).  An
    injury is its own kind, not a second row: the game master needs one row
    that says "someone is hurt, there", with its own word and flashing.
    """
    caller = ""
    if sv.caller is not None:
        ch = state.characters.get(sv.caller)
        caller = translate("alarms", " by {name} (badge {badge}, {group})").format(
            name=ch.member.name, badge=sv.caller, group=ch.member.group) if ch is not None \
            else translate("alarms", " by badge {badge}").format(badge=sv.caller)
    where = translate("alarms", " near {groups}").format(groups=", ".join(sv.groups)) if sv.groups else ""
    if sv.reason == "injury":
        return Alarm(f"stopp:{sv.id}", "injury", translate(
            "alarms", "STOPP {stopp} called for an injury or medical emergency").format(stopp=sv.id) + caller + where, t)
    reason = translate("alarms", STOPP_REASON_WORDS[sv.reason]) if sv.reason in STOPP_REASON_WORDS else sv.reason
    return Alarm(f"stopp:{sv.id}", "stopp", translate("alarms", "STOPP {stopp} called ({reason})").format(
        stopp=sv.id, reason=reason) + caller + where, t)


# A STOPP's reason (the event's code) in the alarm's words.
STOPP_REASON_WORDS = {
    "unpleasant": QT_TRANSLATE_NOOP("alarms", "unpleasant"),
    "injury": QT_TRANSLATE_NOOP("alarms", "injury"),
    "danger": QT_TRANSLATE_NOOP("alarms", "danger"),
}


class CoreWorker(QObject):
    """Owns the game's fold, its deadline schedule and its event log; nothing else writes them."""

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

    # -- life cycle --------------------------------------------------------
    @Slot()
    def start(self) -> None:
        """Open the game (in this thread), fold its log, schedule its deadlines, catch up on time."""
        # No automatic collection while the game opens: the fold makes about a million long-lived objects,
        # and a collection set off by the first allocation after it would walk them all (0.3-1 s of the
        # opening of tests/bench's 200,000-event game).  They are frozen once the game is open (_start).
        with no_collection():
            self._start()

    def _start(self) -> None:
        self._tick_timer = self._timer(self._tick, precise=False)
        self._deadline_timer = self._timer(self._tick, precise=True)
        self._publish_timer = self._timer(self._publish, precise=False)
        self._silence_timer = QTimer(self)
        self._silence_timer.timeout.connect(self._check_silence)
        self._flood_timer = self._timer(self._flush_flood, precise=False)
        try:
            self._open()
            info = self._info()
        except (StoreError, ProfileError) as exc:
            self._fail_to_open(str(exc))
            return
        except Exception as exc:          # noqa: BLE001 - a game that cannot open must say so and stop
            log.exception("opening %s", self.db)
            self._fail_to_open(f"the game could not be opened: {type(exc).__name__}: {exc}")
            return
        self._start_storage()
        shared = self.store.log.shared
        self.authority = TimerAuthority(conninfo(self.store.engine) if shared else None, self.lock_interval_s)
        self.authority.changed.connect(self.timers_changed)
        self.authority.claim.connect(self._writer.take_over, Qt.ConnectionType.QueuedConnection)
        # The folded game is long-lived: keep the cyclic garbage collector from walking it again and again.
        # No collection first: the fold makes no reference cycles (opening the 200,000-event game of
        # tests/bench found none), walking the 400,000 objects took 0.3-0.6 s of the opening, and
        # garbage is collected in the GUI thread only (ui/collector.py: a widget in it must not be
        # destroyed in this thread).
        gc.freeze()
        self.opened.emit(info)
        self.devices_known.emit({d.source: {"role": d.role, "label": d.label, "group": d.group, "engine": d.siege_engine}
                                 for d in self.ingest.devices.values()})
        self._tally = SideTally(self.state)
        self._warnings_seen = len(self.state.warnings)
        delta = make_delta(self.state, (), (), self._opening_events, full=True, sides=self._tally.snapshot(),
                           field=self._field_sent.changes(self.state, whole=True))
        self.loaded.emit(delta._replace(t=max(delta.t, self.clock.now_ms())))
        self._opening_events = []
        self._complete_fold()
        self._fold_saver = FoldSaver(self.store, self.fold, self)
        self._fold_saver.start()
        self._silence_timer.start(max(1000, min(30_000, self.marshal_silence_ms // 4)))
        if shared:
            self._notices = Notices(conninfo(self.store.engine))
            self._notices.arrived.connect(self._writer.fetch, Qt.ConnectionType.QueuedConnection)
            self._notices.start()
        self.authority.start()
        self._tick()            # deadlines that fell due while the program was closed

    def _open(self) -> None:
        self.store = GameStore.open(self.db)
        spool = None
        if self.store.log.shared:       # what a previous run kept on this laptop is stored first
            spool = Spool(self.queue_path or default_path(str(self.store.engine.url)))
            if len(spool):
                deliver_queue(self.store, spool)
        self._spool = spool
        self.fold = self.store.open_fold(complete=False)       # completed once the window has the game (_start)
        self._last_seq = self.store.log.last_seq()
        self._opening_events = [StoredView(s.seq, s.wall, s.event, s.radio.via if s.radio else None)
                                for s in self.store.log.read(after=max(0, self._last_seq - 2000))]
        # The downlink counter (PROTOCOL.md section 4): this session's block is reserved now, while the game is open.
        reserved = self.store.reserve_block(DOWNLINK_KEY, DownlinkCounter.BLOCK)
        known = devices(self.store)
        self.ingest = Ingest(known, downlink=DownlinkCounter(reserved - DownlinkCounter.BLOCK, reserved,
                                                             reserve=self._downlink_reserve))
        self.mesh = MeshIngest(known, require_pki=self.store.meta(REQUIRE_PKI_KEY) == "1")
        highest, heard = self.store.log.radio_counters()
        self.ingest.remember(highest, heard, self.state.t)
        self.store.checkpoint_in_background()
        if self.clock is None:
            # A fast simulated game starts where its log ends; a real one counts real time, and so
            # does a shared one at any speed, so that every station keeps the same game time.
            fast = self.speed and not self.store.log.shared
            self.clock = WallClock(self.state.t, self.speed) if fast else self._persistent_clock(self.speed or 1.0)

    def _info(self) -> GameInfo:
        """The game's name, ruleset and speed; its gateways and its map, kept with it."""
        store = self.store
        if self.ports and self.remember_ports:
            save_ports(store, self.ports)
        ports = tuple(self.ports) if self.ports is not None else tuple(stored_ports(store))
        if self.ports is None and ports:
            log.info("gateways kept with the game: %s", ", ".join(ports))
        kept, path, problem = None, None, ""
        try:
            kept = current_map(store)
            if kept is not None:
                path = map_file(store, kept, data_dir() / "maps")
        except (StoreError, OSError) as exc:
            problem = str(exc)
        speed = self.clock.speed if getattr(self.clock, "runs", True) else 0.0
        return GameInfo(store.name, self.db, store.where, self.state.profile, speed, store.log.shared,
                        ports, kept, path, problem)

    def _complete_fold(self) -> None:
        """The index of the log before the fold snapshot the game opened from, read while the window draws it
        (before anything folds on).  Should the log have changed under it meanwhile, the game is folded again
        in full and shown again."""
        try:
            self.fold.complete()
            return
        except (ValueError, StoreError):
            log.exception("completing the fold of %s: folded again from the whole log", self.db)
        self.fold = self.store.open_fold(saved=False)
        self._tally = SideTally(self.state)
        self._warnings_seen = len(self.state.warnings)
        delta = make_delta(self.state, (), (), [], full=True, sides=self._tally.snapshot())
        self.loaded.emit(delta._replace(t=max(delta.t, self.clock.now_ms())))

    def _fail_to_open(self, message: str) -> None:
        self.alarm_raised.emit(Alarm("storage:open", "storage", message, 0))
        if self.store is not None:
            self.store.close()
            self.store = None
        self.fold = None
        self._hand_back()
        self.stopped.emit()

    def _start_storage(self) -> None:
        self._storage_thread = QThread()
        self._storage_thread.setObjectName("controlroom-storage")
        self._writer = StorageWriter(self.store, self._last_seq, self._spool)
        self._writer.moveToThread(self._storage_thread)
        q = Qt.ConnectionType.QueuedConnection
        self._append_requested.connect(self._writer.append, q)
        self._close_requested.connect(self._writer.close, q)
        self._writer.committed.connect(self._on_committed, q)
        self._writer.logged.connect(self._on_logged, q)
        self._writer.withdrawn.connect(self._on_withdrawn, q)
        self._writer.failed.connect(self._on_storage_failed, q)
        self._writer.recovered.connect(self._on_storage_recovered, q)
        self._writer.queued.connect(self._on_queued, q)
        self._writer.caught_up.connect(self._on_caught_up, q)
        self._storage_thread.start()

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

    @Slot(object)
    def frames_received(self, frames) -> None:
        """Frames the gateways heard since the last call: [(gateway, rssi, snr, frame bytes), ...]."""
        for gateway, rssi, snr, frame in frames:
            self.frame_received(gateway, rssi, snr, frame)

    @Slot(int, object, object, object)
    def frame_received(self, gateway: int, rssi, snr, frame: bytes) -> None:
        """A frame a gateway heard: authenticated, de-duplicated; its event waits for the next batch."""
        if self.fold is None or self._stopping:
            return                      # not acknowledged: the handset tries again
        out = self.ingest.receive(frame, gateway, rssi, snr, self.clock.now_ms())
        if out.verdict == ACCEPTED:
            type_, fields, source = out.event
            try:
                data = validate(type_, fields)
            except EventError as exc:
                self.input_rejected.emit(f"{source}: {exc}")
                return
            item = Incoming(type_, data, source, out.radio, [(gateway, out.ack)] if out.ack else [],
                            getattr(out, "pressed_ms", None))
            self._unstored_frames[(out.device, out.counter)] = item
            self._receive(item)
            return
        if out.verdict == DUPLICATE and out.ack is not None:
            waiting = self._unstored_frames.get((out.device, out.counter))
            if waiting is not None:
                waiting.acks.append((gateway, out.ack))     # acknowledged once it is stored
            else:
                self._send_ack(gateway, out.ack)            # stored before: acknowledged again
        self._request_publish()             # the radio panel's counters changed
        if out.verdict in SECURITY:
            alarm = self._flood.note(out.verdict, out.device, out.detail, int(time.monotonic() * 1000),
                                     self.clock.now_ms())
            if alarm is not None:
                self.alarm_raised.emit(alarm)
            elif not self._flood_timer.isActive():
                self._flood_timer.start(self._flood.update_ms)     # the merged count, a little later

    @Slot()
    def _flush_flood(self) -> None:
        for alarm in self._flood.flush(int(time.monotonic() * 1000)):
            self.alarm_raised.emit(alarm)

    def _downlink_reserve(self, size: int) -> int:
        """A session used up its block of downlink counters (65,536 acks): the next block, reserved in the game."""
        return self.store.reserve_block(DOWNLINK_KEY, size)

    @Slot(object)
    def mesh_received(self, packets) -> None:
        """Packets Meshtastic nodes heard (``radio.mesh_ingest.MeshHeard``): events, and answers once stored.

        A message that is no report is answered at once (``? ...``); a report
        is answered when it is stored, like every acknowledgement.
        """
        if self.fold is None or self._stopping:
            return
        now = self.clock.now_ms()
        for heard in packets:
            out = self.mesh.receive(heard, now, self.fold.state)
            if out.verdict != MESH_ACCEPTED:
                if out.reply is not None:
                    self._send_ack(-1, out.reply)
                continue
            type_, fields, source = out.event
            try:
                data = validate(type_, fields)
            except EventError as exc:
                self.input_rejected.emit(f"{source}: {exc}")
                continue
            self._receive(Incoming(type_, data, source, out.radio, [(-1, out.reply)] if out.reply else []))
        self._request_publish()

    @Slot(str, str, str)
    def line_rejected(self, gateway: str, reason: str, detail: str = "") -> None:
        """A serial line from a gateway that failed its checksum, did not parse, or named another gateway."""
        if self.ingest is not None:
            self.ingest.reject_line(gateway, reason, detail, self.clock.now_ms())
            self._request_publish()

    @Slot(str, str, str)
    def link_changed(self, link: str, state: str, detail: str) -> None:
        """A gateway's serial link: lost links are alarms, found ones end them."""
        now = self.clock.now_ms() if self.clock else 0
        self.links[link] = (state, detail)
        if state == "lost":
            self.alarm_raised.emit(Alarm(f"gateway:{link}:{now}", "gateway_lost",
                                         detail or translate("alarms", "gateway {link} lost").format(link=link), now))
        self._request_publish()

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
        stopps = self.state.stopps if self.state is not None else {}
        known = [*stopps, *(i.data["stopp"] for i in self._inbox if i.type == "stopp_called")]
        # Above every number this station knows (a retracted STOPP's too, while folded), and above the last
        # one it gave (on its way to the store: out of the inbox, not yet folded) ...
        n = max([self._gm_stopps, *(int(k[2:]) for k in known if k.startswith("GM") and k[2:].isdigit())]) + 1
        # ... and the game's own count, raised in one statement: stations of a shared game calling at the
        # same moment, or a restart after a retraction, never give one number twice.
        if self.store is not None:
            try:
                n = max(n, self.store.reserve_block(GM_STOPP_KEY, 1))
            except StoreError as exc:       # the STOPP is called all the same: the number is this station's
                log.warning("numbering the game master's STOPP: %s", exc)
        self._gm_stopps = n
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

    # -- the roster ----------------------------------------------------------------
    @Slot(int, object, bool)
    def add_players(self, request: int, entries, store: bool) -> None:
        """Players for the open game (``entries``: [(line of the file, Member)], as ``read_roster_entries`` gives
        them): checked against the stored roster (``roster_addition.plan_addition``) and, with ``store``, added.

        The roster is kept in the store, beside the event log, and the game is
        the fold of the log over it: the new players are stored in one
        transaction (after the batch in flight, if any), then a ``roster_added``
        event goes the way of every event; once it is stored and folded, here
        or at another station of a shared game, the whole log is folded again
        over the new roster (what a restart or a replay does: events that named
        their badges before now count) and published in full.  Nothing is
        stored while a problem stands; the answer (``roster_answered``) lists
        them by line.
        """
        def answer(problems=(), plan=None, stored=False) -> None:
            self.roster_answered.emit(RosterAnswer(
                request, stored, tuple(plan.new) if plan else (), len(plan.unchanged) if plan else 0,
                tuple(problems)))

        if self.fold is None or self._stopping or self.store is None:
            answer([translate("roster", "the game is not open")])
            return
        if store and self._storage_error is not None:
            answer([self._not_storing()])
            return
        if store and (self._in_flight is not None or self._buffer):
            self._players_waiting.append((request, list(entries)))      # folded over once it is stored
            return
        try:
            plan = plan_addition(list(entries), self.store.roster(), self.fold.state.profile)
        except StoreError as exc:
            answer([str(exc)])
            return
        if plan.problems or not store:
            answer(plan.problems, plan)
            return
        if not plan.new:
            answer((), plan, True)
            return
        if self.fold.provisional:
            answer([translate("roster", "the game's events kept on this laptop are not stored on the server yet; "
                                        "add the players when the server is back")])
            return
        try:
            self.store.save_roster(plan.new, remove_missing=False)
        except StoreError as exc:
            answer([str(exc)])
            return
        # Stored: the players are in the game file.  The event says when, to the log and to every station;
        # once it is stored and folded, the game is folded again over the new roster (_refresh_roster).
        self._receive(Incoming("roster_added", validate("roster_added", {"added": [m.badge for m in plan.new]}),
                               SOURCE_GM))
        answer((), plan, True)

    def _refresh_roster(self) -> None:
        """After a roster_added event (this station's or another's): the game folded again over the stored
        roster, once nothing of this station is on its way to the store (nothing provisional, no correction)."""
        if (self._roster_stale and self.fold is not None and self._in_flight is None and not self._corrections
                and not self.fold.provisional):
            self._roster_stale = False
            self._fold_again()

    def _fold_again(self) -> None:
        """The whole log folded again over the stored roster, as a restart does; published in full.

        The new fold holds every event stored up to its highest seq; the storage writer may still deliver
        some of those (another station's, read before): ``_fold`` leaves them out of the fold.
        """
        try:
            fold = self.store.open_fold()
        except StoreError as exc:       # the log cannot be read now: the next roster_added or a restart folds it
            log.error("folding the game again over its new roster: %s", exc)
            self._roster_stale = True
            return
        gc.unfreeze()                   # the old fold, frozen at opening, becomes garbage the collector sees
        self.fold = fold
        self._folded_upto = max(fold.index.seq, default=0)
        gc.freeze()                     # (no collection here: only the GUI thread collects, ui/collector.py)
        self._full = True
        self._tally = SideTally(self.fold.state)
        self._warnings_seen = 0
        self._request_publish()
        self._tick()                    # deadlines of the new players' earlier events that fell due

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
            except Exception:          # noqa: BLE001 - a broken radio link must not stop the core
                log.exception("sending an acknowledgement through gateway %s", gateway)

    def _after_refold(self, out: Confirmed) -> None:
        if not out.refolded:
            return
        self._full = True
        self._tally = SideTally(self.fold.state)
        self._warnings_seen = 0

    def _tell_corrections(self, out: Confirmed) -> None:
        """A late report changed what the rule timers did: tell the game master, in words."""
        state = self.fold.state
        lines = []
        for c in out.corrections:
            badge = c.about.data.get("badge")
            who = translate("alarms", "{name} (badge {badge})").format(
                name=state.characters[badge].member.name, badge=badge) if badge in state.characters else \
                f"STOPP {c.about.data.get('stopp')}"
            what = translate("events", c.about.type.replace("_", " "))
            if c.kind == "retract":
                line = translate("alarms", "{who}: {what} at {time} undone")
            else:
                line = translate("alarms", "{who}: {what} at {time}")
            lines.append(line.format(who=who, what=what, time=format_time(c.about.t)))
        now = self.clock.now_ms()
        text = translate("alarms", "a late report changed the game: {changes}").format(
            changes="; ".join(lines[:6]) + (" …" if len(lines) > 6 else ""))
        self.alarm_raised.emit(Alarm(f"late_report:{now}", "late_report", text, now))

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

    def _not_storing(self) -> str:
        return translate("roster", "the game cannot be stored now ({error}); add the players once it is stored "
                                   "again").format(error=self._storage_error)

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
            self.alarm_raised.emit(Alarm("storage:ok", "storage", translate("alarms", "the game is being stored again"), t))

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
        delta = make_delta(state, badges, stopps, events, warnings, full=full, sides=self._tally.snapshot(), field=field)
        # The delta's time is the game's time now, not the last event's: clocks and countdowns run on it.
        self.delta_published.emit(delta._replace(t=max(delta.t, self.clock.now_ms()), radio=self.radio_view()))

    def radio_view(self) -> dict[str, Any]:
        """What the radio panel shows: links, counters per gateway, devices heard, the last frames."""
        if self.ingest is None:
            return {}
        return {"links": dict(self.links), "counts": self.ingest.stats(), "heard": dict(self.ingest.heard),
                "recent": list(self.ingest.recent)[-200:]}

    @Slot()
    def _check_silence(self) -> None:
        if self.fold is None:
            return
        now = self.clock.now_ms()
        for source, heard in self._marshals.items():
            if source not in self._silent and now - heard >= self.marshal_silence_ms:
                self._silent.add(source)
                minutes = (now - heard) // 60_000
                self.alarm_raised.emit(Alarm(f"silent:{source}:{heard}", "marshal_silent",
                                             translate("alarms", "{source} has not been heard for {minutes} minutes")
                                             .format(source=source, minutes=minutes), now))

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
