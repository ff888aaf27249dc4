"""Opening a game in the core worker (``GameOpening``, a part of ``core.worker.CoreWorker``).

The store is opened, the game folded from its kept fold snapshot and the log
after it (``store.fold_kept``), the storage thread started, and the window
given the game (``opened``, then ``loaded`` with a full delta); only then is
the rest of the fold completed (``Fold.complete``), the snapshot's upkeep,
the shared game's notices and the timer authority started, and the
deadlines that fell due while the program was closed fired.  A game that
cannot be opened says why in an alarm and hands the worker back.
"""

from __future__ import annotations

import gc
import logging
import time
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import Qt, QThread, QTimer, Slot

from controlroom import pacing
from controlroom.collecting import no_collection
from controlroom.core.authority import TimerAuthority
from controlroom.core.fold_saver import FoldSaver
from controlroom.core.intake import DOWNLINK_KEY
from controlroom.core.stations import Notices
from controlroom.core.storage import StorageWriter, deliver_queue
from controlroom.game.alarms import Alarm
from controlroom.game.clock import WallClock
from controlroom.game.views import SideTally, StoredView, make_delta
from controlroom.radio.ingest import DownlinkCounter, Ingest
from controlroom.radio.mesh_ingest import REQUIRE_PKI_KEY, MeshIngest
from controlroom.rules.profile import ProfileError, RulesProfile
from controlroom.store.devices import devices
from controlroom.store.engine import data_dir
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.maps import StoredMap, current_map, map_file, save_ports, stored_ports
from controlroom.store.pg import conninfo
from controlroom.store.spool import Spool, default_path

log = logging.getLogger(__name__)

EPOCH_KEY = "clock_epoch_unix_ms"


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


class GameOpening:
    """The opening's part of ``CoreWorker``: it sets the worker's ``store``, ``fold``, ``ingest``, ``mesh``,
    ``clock``, ``authority``, its timers and its storage thread, and emits its signals."""

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
        except Exception as exc:          # a game that cannot open must say so and stop
            log.exception("opening %s", self.db)
            self._fail_to_open(f"the game could not be opened: {type(exc).__name__}: {exc}")
            return
        self._start_storage()
        shared = self.store.log.shared
        self.authority = TimerAuthority(conninfo(self.store.engine) if shared else None, self.lock_interval_s)
        self.authority.changed.connect(self.timers_changed)
        self.authority.claim.connect(self._writer.take_over, Qt.ConnectionType.QueuedConnection)
        self.opened.emit(info)
        self.devices_known.emit({d.source: {"role": d.role, "label": d.label, "group": d.group,
                                            "engine": d.siege_engine}
                                 for d in self.ingest.devices.values()})
        self._tally = SideTally(self.state)
        self._warnings_seen = len(self.state.warnings)
        delta = make_delta(self.state, (), (), self._opening_events, full=True, sides=self._tally.snapshot(),
                           field=self._field_sent.changes(self.state, whole=True))
        self.loaded.emit(delta._replace(t=max(delta.t, self.clock.now_ms())))
        self._opening_events = []
        self._let_the_window_paint()
        self._complete_fold()
        # The folded game is long-lived: keep the cyclic garbage collector from walking it again and again.
        # Nothing is collected while the game opens (start), so this one freeze, once the fold is complete,
        # holds the fold and the checkpoints its completion took: frozen before the completion (until
        # 5c7cc6e), the checkpoints stayed young and the window's first collection walked them all in the
        # GUI thread (a block of 72-78 ms in bench_timeline, 10 s after opening).  No collection first: the
        # fold makes no reference cycles (opening the 200,000-event game of tests/bench found none),
        # walking the 400,000 objects took 0.3-0.6 s of the opening, and garbage is collected in the GUI
        # thread only (ui/collector.py: a widget in it must not be destroyed in this thread).
        gc.freeze()
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

    def _let_the_window_paint(self) -> None:
        """Wait until the window has painted the game just loaded (``window_shown``), at most ``window_wait_s``.

        Completing the fold (the tail's checkpoints, the index of a kept
        fold's head: 0.5-1 s of Python for the 200,000-event game of
        tests/bench) would otherwise share the GIL with the window's first
        delta and paint: the first painted map came 0.1-0.3 s later.  Nothing
        folds on meanwhile either way: the commands and frames that came wait
        in this thread's queue until the opening is done.
        """
        if self.window_wait_s > 0 and not self.window_shown.wait(self.window_wait_s):
            log.info("the window did not paint the game within %.1f s: the opening goes on", self.window_wait_s)

    def _complete_fold(self) -> None:
        """The index of the log before the fold snapshot the game opened from, read while the window draws it
        (before anything folds on).  Should the log have changed under it meanwhile, the game is folded again
        in full and shown again."""
        try:
            self.fold.complete(pacing.breathe)          # it rests now and then while the window draws
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
