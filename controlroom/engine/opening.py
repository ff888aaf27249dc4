"""Opening a game: the store, the fold from its kept snapshot and the log after it, the radio's memory, the clock.

``open_game`` does what can be done before anything is shown: a shared
game's local queue is stored first, the game is folded (``complete=False``:
the rest of the fold, ``Fold.complete``, waits until the window has the
game), the downlink counter's block reserved, the radio ingest told what was
heard before, and the game's clock set.  A game that cannot be opened
raises StoreError or ProfileError, in words.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from controlroom import paths
from controlroom.engine.storage import deliver_queue
from controlroom.game.clock import Clock, WallClock
from controlroom.game.fold import Fold
from controlroom.game.tak_settings import SETTINGS_KEY as TAK_SETTINGS_KEY
from controlroom.game.tak_settings import TakSettings, TakSettingsError, settings_from_json
from controlroom.game.views import StoredView
from controlroom.radio.ingest import DownlinkCounter, Ingest
from controlroom.radio.mesh_ingest import MARSHAL_LANGUAGE_KEY, REQUIRE_PKI_KEY, MeshIngest, marshal_language
from controlroom.radio.tak_ingest import TakIngest
from controlroom.rules.profile import RulesProfile
from controlroom.store.coverage_log import coverage_anchor
from controlroom.store.devices import devices
from controlroom.store.engine import data_dir
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.maps import StoredMap, current_map, map_file, save_ports, stored_places, stored_ports
from controlroom.store.spool import Spool, default_path
from controlroom.store.station_lock import StationLock

log = logging.getLogger(__name__)

EPOCH_KEY = "clock_epoch_unix_ms"
DOWNLINK_KEY = "downlink_counter"       # the highest downlink counter reserved (PROTOCOL.md section 4)
OPENING_EVENTS = 2000                   # the last events an opening shows in the timeline


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
    exposed: tuple[str, ...] = ()        # the game file and companions other users of this computer can read
    places: tuple = ()                   # the field map's named places (geo.places.Place): Valhalla, HQ...
    tak: TakSettings = TakSettings()     # what a TAK feed of the game sends, and how (docs/tak.md)
    tak_problem: str = ""                # why the game's TAK settings could not be read ("" when they could)
    last_seq: int = 0                    # the last event stored when the game was opened


@dataclass(slots=True)
class OpenedGame:
    """An open game, folded (but for ``Fold.complete``), with what its engine needs."""

    store: GameStore
    fold: Fold
    ingest: Ingest
    mesh: MeshIngest
    tak: TakIngest
    clock: Clock
    spool: Spool | None
    last_seq: int
    events: list[StoredView]             # the last events, for the timeline
    info: GameInfo
    coverage_anchor: tuple[float, float] | None = None     # the coverage grid's (store.coverage_log)


def open_game(db: str, *, clock: Clock | None = None, speed: float | None = None, queue_path: str | None = None,
              ports: list[str] | None = None, remember_ports: bool = True) -> OpenedGame:
    """Open and fold game ``db``; StoreError or ProfileError if it cannot be.  The store is closed on failure.

    A game file is held by this station until the store is closed (``store.station_lock``): a second station
    on it is refused (StationBusyError), and so is a roster import from the command line.
    """
    store = GameStore.open(db)
    try:
        if store.log.path and store.log.path != ":memory:":
            store.station_lock = StationLock.take(store.log.path)
        return _open(store, db, clock, speed, queue_path, ports, remember_ports)
    except BaseException:
        store.close()
        raise


def _open(store: GameStore, db: str, clock: Clock | None, speed: float | None, queue_path: str | None,
          ports: list[str] | None, remember_ports: bool) -> OpenedGame:
    spool = None
    if store.log.shared:                # what a previous run kept on this laptop is stored first
        spool = Spool(queue_path or default_path(str(store.engine.url)))
        if len(spool):
            deliver_queue(store, spool)
    fold = store.open_fold(complete=False)       # completed once the window has the game
    # What the fold read, and no more: the storage writer reads on from there.  (Read again after the fold, the
    # last seq took in events that other stations stored meanwhile, and no one folded them: a station started
    # again mid-battle lost the reports stored during its opening, and as timer owner took back their deaths.)
    last_seq = fold.read_upto or 0
    events = [StoredView(s.seq, s.wall, s.event, s.radio.via if s.radio else None)
              for s in store.log.read(after=max(0, last_seq - OPENING_EVENTS)) if s.seq <= last_seq]
    # The downlink counter (PROTOCOL.md section 4): this session's block is reserved now, while the game is open.
    reserved = store.reserve_block(DOWNLINK_KEY, DownlinkCounter.BLOCK)
    known = devices(store)
    ingest = Ingest(known, downlink=DownlinkCounter(reserved - DownlinkCounter.BLOCK, reserved,
                                                    reserve=lambda size: store.reserve_block(DOWNLINK_KEY, size)))
    mesh = MeshIngest(known, require_pki=store.meta(REQUIRE_PKI_KEY) == "1",
                      language=marshal_language(store.meta(MARSHAL_LANGUAGE_KEY)))
    tak = TakIngest(known)
    highest, heard = store.log.radio_counters()
    ingest.remember(highest, heard, fold.state.latest)
    store.checkpoint_in_background()
    if clock is None:
        # A fast simulated game starts where its log ends; a real one counts real time, and so does a
        # shared one at any speed, so that every station keeps the same game time.
        fast = bool(speed) and not store.log.shared
        latest = fold.state.latest
        clock = WallClock(latest, speed or 1.0) if fast else persistent_clock(store, latest, speed or 1.0)
    info = game_info(store, db, fold, clock, ports, remember_ports)._replace(last_seq=last_seq)
    return OpenedGame(store, fold, ingest, mesh, tak, clock, spool, last_seq, events, info, coverage_anchor(store))


def game_info(store: GameStore, db: str, fold: Fold, clock: Clock, ports: list[str] | None,
              remember_ports: bool) -> GameInfo:
    """The game's name, ruleset and speed; its gateways and its map, kept with it."""
    if ports and remember_ports:
        save_ports(store, ports)
    kept_ports = tuple(ports) if ports is not None else tuple(stored_ports(store))
    if ports is None and kept_ports:
        log.info("gateways kept with the game: %s", ", ".join(kept_ports))
    kept, path, problem = None, None, ""
    try:
        kept = current_map(store)
        if kept is not None:
            path = map_file(store, kept, data_dir() / "maps")
    except (StoreError, OSError) as exc:
        problem = str(exc)
    speed = clock.speed if getattr(clock, "runs", True) else 0.0
    exposed = tuple(str(p) for p in paths.exposed(store.log.path)) if store.log.path else ()
    if exposed:
        log.warning("%s can be read by other users of this computer, and it holds every radio device's key",
                    ", ".join(exposed))
    tak, tak_problem = TakSettings(), ""
    try:
        tak = settings_from_json(store.meta(TAK_SETTINGS_KEY))
    except TakSettingsError as exc:
        tak_problem = str(exc)
        log.warning("%s", exc)
    return GameInfo(store.name, db, store.where, fold.state.profile, speed, store.log.shared, kept_ports, kept,
                    path, problem, exposed, tuple(stored_places(store)), tak, tak_problem)


def persistent_clock(store: GameStore, t: int, speed: float = 1.0) -> WallClock:
    """Real time (or ``speed`` times it): the game's clock goes on while the program is closed."""
    now_unix = int(time.time() * 1000)
    key = EPOCH_KEY if speed == 1.0 else f"{EPOCH_KEY}@{speed:g}"
    epoch = int(store.meta_once(key, str(now_unix - int(t / speed))))
    return WallClock(start_ms=max(t, int((now_unix - epoch) * speed)), speed=speed)
