"""The replay's worker: loads the stored game and seeks in it, in a thread of its own (never the window's).

The window asks for moments faster than they may be answered (a slider
dragged, playback at 120x); the worker answers only the newest request
(``want`` is set before the queued call, and a call that finds an older
moment than the newest wanted does nothing), so requests never pile up.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtCore import QObject, QThread, Signal, Slot

from controlroom.collecting import no_collection
from controlroom.game.views import StateDelta, StoredView, make_delta
from controlroom.geo.coverage_cells import Cells

log = logging.getLogger(__name__)

TIMELINE_ROWS = 500            # the events the timeline shows: the last ones before the moment
TRAIL_MS = 10 * 60_000         # the trail behind each marker: its last ten minutes


class Moment(NamedTuple):
    """What the window shows at one moment of the game (immutable: made in the worker, read in the window)."""

    t: int
    delta: StateDelta                                   # full: every character, STOPP, side count
    events: tuple[StoredView, ...]                      # the timeline: the last events up to t
    trails: dict[str, list[tuple[int, float, float]]]   # source -> (t, lat, lon) of its last minutes
    seek_ms: float                                      # the fold's time (the state at t)
    build_ms: float                                     # making the views of it
    coverage: object = None                             # geo.coverage_cells.Cells up to t (None: not asked for)


class GameFacts(NamedTuple):
    """What the window learns once the game is loaded (nothing of it changes afterwards)."""

    name: str
    where: str
    start: int
    end: int
    events: int
    kinds: tuple[str, ...]
    scenes: tuple                                       # game.seek.Scene
    devices: dict
    map: object                                         # the stored map's record, or None
    map_path: object
    map_problem: str
    load_s: float
    moments: dict                                       # kind ("death", "stopp", an event type) -> its times
    extent: tuple                                       # (lats, lons) of every place the game reported


def moment_of(seeker, t: int, trail_ms: int = TRAIL_MS, coverage=None) -> Moment:
    """The views of the game at ``t`` (pure: also what the exports draw, without a window); with ``coverage``
    (the game's CoverageRows), the radio coverage as it stood at ``t``."""
    with no_collection():  # thousands of views made and dropped: a collection would walk every checkpoint
        t0 = time.perf_counter()
        state = seeker.state_at(t)
        t1 = time.perf_counter()
        delta = make_delta(state, (), (), full=True)
        events = tuple(StoredView(seq, wall, ev) for seq, wall, ev in seeker.stored_before(t, TIMELINE_ROWS))
        trails = {source: seeker.trail(source, t, trail_ms) for source in delta.field.get("positions", {})}
        cells = Cells.of(coverage.until(t)) if coverage is not None else None
        t2 = time.perf_counter()
    return Moment(t, delta, events, trails, (t1 - t0) * 1000, (t2 - t1) * 1000, cells)


class ReplayWorker(QObject):
    """Owns the seeker; lives in a QThread.  Slots are commands, signals are what happened."""

    loaded = Signal(object)             # GameFacts
    failed = Signal(str)                # the game could not be read: why, in words
    moment_ready = Signal(object)       # Moment
    frame_ready = Signal(object)        # Moment of a video's frame (every one asked for, in order)

    def __init__(self, loader: Callable[[], object]) -> None:
        super().__init__()
        self._loader = loader
        self.game = None
        self.want: int | None = None     # the newest moment asked for (set by the window before it asks)
        self.coverage = False            # the window shows the radio coverage: each moment brings it

    @Slot()
    def load(self) -> None:
        t0 = time.perf_counter()
        try:
            game = self._loader()
        except Exception as exc:        # a store error, a damaged file: shown, not raised
            log.exception("the replay could not read the game")
            self.failed.emit(str(exc) or exc.__class__.__name__)
            return
        self.game = game
        s = game.seeker
        moments: dict[str, list[int]] = {}
        for e in s.events:
            moments.setdefault(e.type, []).append(e.t)
        moments = {k: tuple(sorted(v)) for k, v in moments.items()}
        moments["death"] = tuple(s.moments("death"))
        moments["stopp"] = moments.get("stopp_called", ())
        lats: list[float] = []
        lons: list[float] = []
        for track in s.tracks.values():
            lats += (min(track.lat), max(track.lat))
            lons += (min(track.lon), max(track.lon))
        for e in s.events:
            if e.type in ("stopp_called", "siege_status") and e.data.get("lat") is not None \
                    and e.data.get("lon") is not None:
                lats.append(e.data["lat"])
                lons.append(e.data["lon"])
        self.loaded.emit(GameFacts(game.name, game.where, s.start, s.end, len(s), tuple(s.kinds()),
                                   tuple(s.scenes()), dict(game.devices), game.map, game.map_path,
                                   game.map_problem, time.perf_counter() - t0, moments,
                                   (tuple(lats), tuple(lons))))

    @Slot(int)
    def seek(self, t: int) -> None:
        if self.game is None:
            return
        want = self.want
        if want is not None and want != t:
            return                      # a newer moment is wanted: this one would be shown for nothing
        self.moment_ready.emit(moment_of(self.game.seeker, t, TRAIL_MS, self._coverage()))

    @Slot(int)
    def frame(self, t: int) -> None:
        if self.game is not None:
            self.frame_ready.emit(moment_of(self.game.seeker, t, TRAIL_MS, self._coverage()))

    def _coverage(self):
        rows = getattr(self.game, "coverage", None)
        return rows if self.coverage and rows is not None and len(rows) else None


class WorkerThread(QObject):
    """The worker in its thread, started and stopped with the window."""

    asked = Signal(int)
    frame_asked = Signal(int)
    load_requested = Signal()

    def __init__(self, loader: Callable[[], object], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thread = QThread()
        self.thread.setObjectName("controlroom-replay")
        self.worker = ReplayWorker(loader)
        self.worker.moveToThread(self.thread)
        self.asked.connect(self.worker.seek)
        self.frame_asked.connect(self.worker.frame)
        self.load_requested.connect(self.worker.load)
        self.thread.start()

    def load(self) -> None:
        self.load_requested.emit()

    def ask(self, t: int) -> None:
        self.worker.want = t
        self.asked.emit(t)

    def ask_frame(self, t: int) -> None:
        self.frame_asked.emit(t)

    def stop(self) -> None:
        if self.thread.isRunning():
            self.thread.quit()
            self.thread.wait()
