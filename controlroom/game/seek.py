"""Seeking in a stored game: the state at any moment, from fold checkpoints kept in memory.

A replay loads the game's log once, folds it once, and keeps a snapshot of the
state every ``every`` events (``game/snapshot.py``).  The state at a time T is
then the nearest earlier checkpoint restored and the few events up to T
folded on it, which answers in tens of milliseconds anywhere in a 200,000-event
game instead of folding from the start.

"The state at T" means exactly what ``controlroom replay --db GAME --until T``
prints (``game.replay.replay_log``): the events in fold order up to the first
one later than T, then the rule timers run on to T.

Besides the state, the seeker keeps what a replay steps through and draws
without folding: when each event happened and of which kind, the deaths of
the whole game, and every position report (for trails).
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from controlroom.collecting import no_collection
from controlroom.game import snapshot
from controlroom.game.events import Event
from controlroom.game.scheduler import Schedule, fire_due
from controlroom.game.state import DIES, REGAINS_HP, RESPAWNS, WAKES, GameState

DEFAULT_EVERY = 2000


class Track(NamedTuple):
    """Where one source (a marshal's or group's device, an engine) reported itself, in time order."""

    t: array        # ms
    lat: array
    lon: array


@dataclass(frozen=True, slots=True)
class Scene:
    """A scenario of the game: its name and when it ran (``end``: the next one's start, or the game's end)."""

    name: str
    start: int
    end: int


class Seeker:
    """The state of a stored game at any moment.

    ``rows`` are the stored events in fold order, each with ``seq`` and
    ``event`` (``EventLog.rows()``); ``retracted`` the seqs a correction took
    back (left out, as when the game is opened).
    """

    def __init__(self, base: GameState, rows: Iterable, retracted: Iterable[int] = (), *,
                 every: int = DEFAULT_EVERY, name: str = "") -> None:
        if every < 1:
            raise ValueError("checkpoints need at least one event between them")
        self.name = name
        self.every = every
        gone = set(retracted)
        events: list[Event] = []
        seqs, walls = array("q"), array("q")
        for row in rows:
            if row.seq not in gone:
                events.append(row.event)
                seqs.append(row.seq)
                walls.append(getattr(row, "wall", 0) or 0)
        self.events = events
        self.seqs = seqs
        self.walls = walls          # when each event was stored (unix ms; 0 when not known)
        self.times = array("q", (e.t for e in events))
        # The fold stops at the first event later than T: the running maximum of the times says where.
        reach, top = array("q"), -(2**62)
        for t in self.times:
            top = t if t > top else top
            reach.append(top)
        self.reach = reach
        self.tracks = self._tracks(events)
        self.checkpoints: list[snapshot.Snapshot] = []
        self.end_state = self._fold_once(base)

    # -- loading -------------------------------------------------------------
    def _fold_once(self, state: GameState) -> GameState:
        """Fold the whole log, keeping a snapshot before event 0, every, 2*every, ...; the final state.

        A character that did not change between two checkpoints shares its
        row with the previous one, so checkpoints cost memory for what changed.
        """
        checkpoints = self.checkpoints
        every = self.every
        apply = state.apply
        with no_collection():  # hundreds of thousands of small objects that live on (as in GameStore)
            for i, event in enumerate(self.events):
                if i % every == 0:
                    checkpoints.append(self._take(state))
                apply(event)
            if not self.events:
                checkpoints.append(self._take(state))
            self._work = snapshot.restore(checkpoints[0])       # the state each seek restores into
        return state

    def _take(self, state: GameState) -> snapshot.Snapshot:
        snap = snapshot.take(state)
        if self.checkpoints:
            before = self.checkpoints[-1].characters
            snap.characters = [old if old == new else new for old, new in zip(before, snap.characters)]
        return snap

    @staticmethod
    def _tracks(events: list[Event]) -> dict[str, Track]:
        tracks: dict[str, Track] = {}
        for e in events:
            if e.type != "position":
                continue
            lat, lon = e.data.get("lat"), e.data.get("lon")
            if lat is None or lon is None:
                continue
            tr = tracks.get(e.source)
            if tr is None:
                tr = tracks[e.source] = Track(array("q"), array("d"), array("d"))
            tr.t.append(e.t)
            tr.lat.append(float(lat))
            tr.lon.append(float(lon))
        return tracks

    # -- the game's extent -----------------------------------------------------
    def __len__(self) -> int:
        return len(self.events)

    @property
    def start(self) -> int:
        return self.times[0] if self.times else 0

    @property
    def end(self) -> int:
        """The game's last moment: its last event, or a rule deadline the game's end still had pending."""
        return max(self.reach[-1] if self.reach else 0, self.end_state.latest)

    # -- seeking -----------------------------------------------------------------
    def count_at(self, t: int) -> int:
        """How many events (in fold order) are folded for the moment ``t``."""
        return bisect.bisect_right(self.reach, t)

    def state_after(self, n: int) -> GameState:
        """The state after the first ``n`` events (no timers run on): a checkpoint and at most ``every`` events.

        The state returned is the seeker's own working state: read it (or copy
        it with ``snapshot.take``) before the next seek, which changes it.
        """
        n = max(0, min(n, len(self.events)))
        k = min(n // self.every, len(self.checkpoints) - 1)
        state = self._work
        with no_collection():
            snapshot.restore_into(state, self.checkpoints[k])
            apply = state.apply
            for event in self.events[k * self.every:n]:
                apply(event)
        return state

    def state_at(self, t: int) -> GameState:
        """The game as it stood at ``t``: what ``controlroom replay --db GAME --until T`` folds.

        Like ``state_after``, the state returned changes with the next seek.
        """
        with no_collection():  # a collection here would walk every checkpoint: tens of ms for nothing
            state = self.state_after(self.count_at(t))
            schedule = Schedule()
            _rebuild(schedule, state)
            fire_due(state, schedule, t)
            state.t = max(state.t, t)
            state.latest = max(state.latest, t)
            state.take_dirty()
        return state

    # -- stepping ----------------------------------------------------------------
    def kinds(self) -> list[str]:
        """The kinds of event in the game, by name."""
        return sorted({e.type for e in self.events})

    def moments(self, kind: str) -> list[int]:
        """When events of a kind happened, in time order (``death``: every death, by whatever cause)."""
        if kind == "death":
            return sorted(d[0] for d in self.end_state.deaths)
        if kind == "stopp":
            kind = "stopp_called"
        return sorted(e.t for e in self.events if e.type == kind)

    def next_of(self, kind: str, t: int) -> int | None:
        """The first moment of ``kind`` after ``t`` (None: none after it)."""
        times = self.moments(kind)
        i = bisect.bisect_right(times, t)
        return times[i] if i < len(times) else None

    def previous_of(self, kind: str, t: int) -> int | None:
        """The last moment of ``kind`` before ``t`` (None: none before it)."""
        times = self.moments(kind)
        i = bisect.bisect_left(times, t)
        return times[i - 1] if i > 0 else None

    def scenes(self) -> list[Scene]:
        """Each scenario started in the game, with when it ran (for the scenario selector)."""
        starts = [(e.t, e.data.get("name") or "") for e in self.events if e.type == "scenario_started"]
        out = []
        for i, (t, name) in enumerate(starts):
            end = starts[i + 1][0] if i + 1 < len(starts) else self.end
            out.append(Scene(name, t, end))
        return out

    # -- what the map draws ---------------------------------------------------------
    def trail(self, source: str, t: int, window_ms: int) -> list[tuple[int, float, float]]:
        """(t, lat, lon) of a source's reports in ``(t - window_ms, t]``, oldest first."""
        tr = self.tracks.get(source)
        if tr is None:
            return []
        hi = bisect.bisect_right(tr.t, t)
        lo = bisect.bisect_right(tr.t, t - window_ms)
        return [(tr.t[i], tr.lat[i], tr.lon[i]) for i in range(lo, hi)]

    def stored_before(self, t: int, limit: int) -> list[tuple[int, int, Event]]:
        """The last ``limit`` events folded for the moment ``t``, as (seq, wall, event), oldest first."""
        n = self.count_at(t)
        lo = max(0, n - limit)
        return [(self.seqs[i], self.walls[i], self.events[i]) for i in range(lo, n)]


def _rebuild(schedule: Schedule, state: GameState) -> None:
    """``Schedule.rebuild``, asking only the characters that have a deadline, and heaped in one go.

    The heap orders deadlines by (due, kind, badge, STOPP), never by the order
    they were set in, so this schedule fires exactly as the rebuilt one does
    (``tests/store/test_replay_seek.py`` compares them).  A deadline on a
    character's clock falls due at ``Character.due`` (None while a STOPP holds it).
    """
    state.take_dirty()

    def deadlines():
        for badge, ch in state.characters.items():
            if ch.stops:
                continue                      # held by a STOPP: not on the timeline
            frozen = ch.frozen_ms
            if ch.dying_at is not None:
                yield DIES, ch.dying_at + frozen, badge, ""
            if ch.wake_at is not None:
                yield WAKES, ch.wake_at + frozen, badge, ""
            if ch.regen_at is not None:
                yield REGAINS_HP, ch.regen_at + frozen, badge, ""
            if ch.respawn_at is not None:
                yield RESPAWNS, ch.respawn_at + frozen, badge, ""
        for sid in state.active_stopps:
            d = state.stopp_deadline(sid)
            if d is not None:
                yield d.kind, d.due, 0, d.stopp or ""

    schedule.fill(deadlines())
