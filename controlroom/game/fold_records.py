"""The records a fold keeps and returns (its entries, corrections, what confirming did) and the log's index.

Split out of ``controlroom.game.fold`` (which re-exports them): pure data and
the small helpers that make them.
"""

from __future__ import annotations

import bisect
from array import array
from dataclasses import dataclass, field
from typing import NamedTuple

from controlroom.game.events import SOURCE_TIMER, Event, make_event

# Field reports are superseded by the next one of the same kind; folded late, they change nothing
# of the rules, so they never make the game fold again.
FIELD_TYPES = frozenset({"position", "heartbeat", "headcount", "siege_status", "message", "radio_retried"})

Key = tuple[float, int]
END: Key = (float("inf"), 0)


def key_of(stored) -> Key:
    """The fold key of a stored event (anything with ``seq`` and ``pos``)."""
    return (stored.pos if stored.pos is not None else float(stored.seq), stored.seq)


class Entry(NamedTuple):
    key: Key
    seq: int
    event: Event
    device: int | None
    counter: int | None


class Placement(NamedTuple):
    """Where a late event goes: its fold position and its time on the game's timeline."""

    pos: float
    t: int


class Correction(NamedTuple):
    """What the timer owner appends after folding again: ``retract`` a stored deadline, or ``fire`` one."""

    kind: str                   # "retract" or "fire"
    event: Event                # what to store: the ``retracted`` event, or the deadline fired
    about: Event                # the deadline undone or fired
    pos: float | None = None    # fire: its fold position
    token: int = 0              # the provisional token it is folded under


@dataclass(slots=True)
class Fired:
    """What firing the deadlines due did: those fired at the end, and those folded in their place."""

    fired: list[tuple[int, Event]] = field(default_factory=list)     # (token, event), folded at the end
    corrections: list[Correction] = field(default_factory=list)      # placed where they fell due (provisional)
    refolded: bool = False                                           # folded again from a checkpoint for them
    deaths: list[tuple] = field(default_factory=list)                # the deaths they recorded


@dataclass(slots=True)
class Confirmed:
    """What confirming a part of the log did to the game."""

    applied: list[Event] = field(default_factory=list)          # events folded for the first time
    deaths: list[tuple] = field(default_factory=list)           # deaths recorded for the first time
    undone: list[tuple] = field(default_factory=list)           # deaths a refold took back
    refolded: bool = False
    corrections: list[Correction] = field(default_factory=list)
    new_warnings: int = 0
    verdicts: dict[int, list] = field(default_factory=dict)     # seq -> the rule warnings folding it raised


class LogIndex:
    """Every stored event's fold key and time, in fold order (compact: 24 bytes an event)."""

    def __init__(self) -> None:
        self.pos = array("d")
        self.seq = array("q")
        self.t = array("q")

    def __len__(self) -> int:
        return len(self.seq)

    def key(self, i: int) -> Key:
        return (self.pos[i], self.seq[i])

    def insert(self, k: Key, t: int) -> None:
        n = len(self.seq)
        if not n or (self.pos[-1], self.seq[-1]) < k:
            self.pos.append(k[0])
            self.seq.append(k[1])
            self.t.append(t)
            return
        i = self._bisect(k)
        self.pos.insert(i, k[0])
        self.seq.insert(i, k[1])
        self.t.insert(i, t)

    def _bisect(self, k: Key) -> int:
        i = bisect.bisect_left(self.pos, k[0])
        while i < len(self.seq) and (self.pos[i], self.seq[i]) < k:
            i += 1
        return i

    def find(self, k: Key) -> int | None:
        i = self._bisect(k)
        return i if i < len(self.seq) and (self.pos[i], self.seq[i]) == k else None

    def first_after(self, t: int) -> int | None:
        """Where the timeline passes ``t``: the event after the last one at or before ``t`` (None: at the end)."""
        times = self.t
        i = len(times)
        while i > 0 and times[i - 1] > t:
            i -= 1
        return i if i < len(times) else None


class _Provisional(NamedTuple):
    token: int
    event: Event
    pos: float | None           # None: at the end of the log


def timer_id(event: Event) -> tuple:
    """A deadline's identity: its kind, whom (badge or STOPP) and when it fell due."""
    return (event.type, event.data.get("badge"), event.data.get("stopp"), event.t)


_timer_id = timer_id


def _between(a: float, b: float) -> float:
    """A position strictly between two others (their midpoint)."""
    mid = (a + b) / 2
    return mid if a < mid < b else a


UNDONE = "a late report changed the game: the rules no longer fire this deadline at this time"


def _undo(entry: Entry) -> Correction:
    """The correction that undoes a stored deadline (the log keeps it; the fold leaves it out)."""
    event = make_event(entry.event.t, "retracted", SOURCE_TIMER, seq=entry.seq, reason=UNDONE)
    return Correction("retract", event, entry.event)
