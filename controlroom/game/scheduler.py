"""The timer schedule: a heap of rule deadlines, cancelled by marking, derived from GameState."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from controlroom.game.events import Event
from controlroom.game.state import (
    DIES,
    REGAINS_HP,
    RESPAWNS,
    STOPP_OVERDUE,
    WAKES,
    Deadline,
    GameState,
)

_RANK = {DIES: 0, WAKES: 1, REGAINS_HP: 2, RESPAWNS: 3, STOPP_OVERDUE: 4}
_CHARACTER_KINDS = (DIES, WAKES, REGAINS_HP, RESPAWNS)

Key = tuple[str, int, str]          # (kind, badge or 0, stopp id or "")


class Schedule:
    """Pending deadlines on the timeline, soonest first.

    A deadline that moves or goes away is not searched for in the heap: its
    key gets a new token and the old entry is skipped when it reaches the top
    (cancellation by marking).  Ties fall in a fixed order (dying first, then
    by badge), so the same log always fires the same deadlines in the same
    order.
    """

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, int, str, int]] = []
        self._current: dict[Key, tuple[int, int]] = {}     # key -> (due, token)
        self._token = 0

    def __len__(self) -> int:
        return len(self._current)

    def set(self, kind: str, due: int | None, badge: int = 0, stopp: str = "") -> None:
        key = (kind, badge, stopp)
        if due is None:
            self._current.pop(key, None)
            return
        cur = self._current.get(key)
        if cur is not None and cur[0] == due:
            return
        self._token += 1
        self._current[key] = (due, self._token)
        heapq.heappush(self._heap, (due, _RANK[kind], badge, stopp, self._token))
        if len(self._heap) > 64 and len(self._heap) > 4 * len(self._current):
            self._compact()

    def _compact(self) -> None:
        self._heap = [(due, _RANK[k], b, s, tok) for (k, b, s), (due, tok) in self._current.items()]
        heapq.heapify(self._heap)

    def sync(self, state: GameState, changed: Changes | None = None) -> None:
        """Bring the schedule up to date with what changed in ``state`` (noted in ``changed``)."""
        badges, stopps = state.take_dirty()
        if changed is not None:
            changed.badges |= badges
            changed.stopps |= stopps
            changed.touched |= badges
        for badge in badges:
            found = {d.kind: d.due for d in state.deadlines_of(badge)}
            for kind in _CHARACTER_KINDS:
                self.set(kind, found.get(kind), badge=badge)
        for stopp in stopps:
            d = state.stopp_deadline(stopp)
            self.set(STOPP_OVERDUE, d.due if d else None, stopp=stopp)

    def copy(self) -> Schedule:
        """A copy that goes its own way (what a fold's checkpoint keeps, to go back to without ``rebuild``)."""
        out = Schedule()
        out._heap, out._current, out._token = list(self._heap), dict(self._current), self._token
        return out

    def restore(self, other: Schedule) -> None:
        """Become a copy of ``other`` (kept with a checkpoint of the state this schedule is derived from)."""
        self._heap, self._current, self._token = list(other._heap), dict(other._current), other._token

    def rebuild(self, state: GameState) -> None:
        """Schedule every deadline of ``state`` afresh (after opening a game from its log)."""
        self._heap.clear()
        self._current.clear()
        state.take_dirty()
        for d in state.pending_deadlines():
            self.set(d.kind, d.due, badge=d.badge or 0, stopp=d.stopp or "")

    def fill(self, deadlines) -> None:
        """Schedule (kind, due, badge, stopp) deadlines, each key once, into an empty schedule, in one go.

        The same schedule as ``set`` for each, heaped once instead of pushed one by one.
        """
        if self._current:
            raise ValueError("fill() takes an empty schedule")
        current = self._current
        heap = self._heap
        token = self._token
        for kind, due, badge, stopp in deadlines:
            if due is None:
                continue
            token += 1
            current[(kind, badge, stopp)] = (due, token)
            heap.append((due, _RANK[kind], badge, stopp, token))
        self._token = token
        if len(current) != len(heap):
            raise ValueError("a deadline was given twice")
        heapq.heapify(heap)

    def _clean_top(self) -> None:
        heap = self._heap
        while heap:
            due, rank, badge, stopp, token = heap[0]
            kind = _KINDS[rank]
            cur = self._current.get((kind, badge, stopp))
            if cur is not None and cur[1] == token:
                return
            heapq.heappop(heap)

    def next_due(self) -> int | None:
        """Timeline time of the soonest deadline, or None."""
        self._clean_top()
        return self._heap[0][0] if self._heap else None

    def pop(self) -> Deadline:
        """Remove and return the soonest deadline."""
        self._clean_top()
        due, rank, badge, stopp, _ = heapq.heappop(self._heap)
        kind = _KINDS[rank]
        del self._current[(kind, badge, stopp)]
        return Deadline(kind, due, 0, badge=badge or None, stopp=stopp or None)

    def __iter__(self) -> Iterator[Deadline]:
        for (kind, badge, stopp), (due, _) in sorted(self._current.items(), key=lambda kv: kv[1]):
            yield Deadline(kind, due, 0, badge=badge or None, stopp=stopp or None)


_KINDS = {rank: kind for kind, rank in _RANK.items()}


@dataclass(slots=True)
class Changes:
    """Badges and STOPPs whose state changed: what a publisher sends on as a delta."""

    badges: set[int] = field(default_factory=set)
    stopps: set[str] = field(default_factory=set)
    touched: set[int] = field(default_factory=set)      # badges changed since a fold's last checkpoint (not taken)

    def take(self) -> tuple[set[int], set[str]]:
        out = (self.badges, self.stopps)
        self.badges, self.stopps = set(), set()
        return out

    def __bool__(self) -> bool:
        return bool(self.badges or self.stopps)


def fire_due(
    state: GameState,
    schedule: Schedule,
    until: int,
    on_event: Callable[[Event], None] | None = None,
    changed: Changes | None = None,
) -> list[Event]:
    """Fire, in order, every deadline due at or before ``until``; fold and return their events.

    A deadline that falls due at the same time as an outside event fires
    first: ten minutes unconscious is death, even if the healer arrives in
    that very second.
    """
    fired: list[Event] = []
    while True:
        schedule.sync(state, changed)
        due = schedule.next_due()
        if due is None or due > until:
            return fired
        event = state.deadline_event(schedule.pop())
        state.apply(event)
        fired.append(event)
        if on_event is not None:
            on_event(event)
