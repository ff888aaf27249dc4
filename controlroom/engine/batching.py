"""Batching: what waits (reports, corrections) and what falls due (deadlines) becomes the next batch to store.

One batch is on its way to the store at a time.  Its order is the order
the fold needs: corrections of the timer owner first (they belong before
what came since), then the deadlines due now, then the reports in the order
they came.  A report heard late (a frame with a lower counter than one of
its device already folded, or with a key press long before now) is placed
where it happened (``Fold.place``): stored with a fold position, not at the
end.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from controlroom.engine.reports import Report
from controlroom.game.devices import RadioMeta
from controlroom.game.events import Event
from controlroom.game.fold import Correction, Fold


@dataclass(slots=True)
class Pending:
    """One event of a batch, as it is stored: with its radio metadata and where it folds (``pos``)."""

    event: Event
    radio: RadioMeta | None = None
    pos: float | None = None
    epoch: int | None = None         # a deadline: the timer lock's session it was fired under
    # A deadline or correction: folded already (provisional in the fold), under this token.  A report: the
    # token it is folded ahead under should the batch be kept on this laptop (the local queue keeps it, so
    # that the fold knows the report as its own when the queue is delivered).
    token: int | None = None


@dataclass(slots=True)
class Batch:
    """The events on their way to the store, each with the report it came from (None: a deadline, a correction)."""

    id: int
    items: list[Pending] = field(default_factory=list)
    reports: list[Report | None] = field(default_factory=list)
    fired: list[Event] = field(default_factory=list)         # the deadlines it fired
    deaths: list[tuple] = field(default_factory=list)        # the deaths those deadlines recorded
    late: list[Correction] = field(default_factory=list)     # deadlines fired late, folded in their place
    refolded: bool = False                                   # the fold was folded again for them

    def add(self, pending: Pending, report: Report | None = None) -> None:
        self.items.append(pending)
        self.reports.append(report)

    @property
    def report_count(self) -> int:
        return len(self.reports) - self.reports.count(None)


Best = Callable[[RadioMeta], RadioMeta]          # the merged metadata of a frame's copies heard so far


class Batcher:
    """The inbox, the corrections to append, and the one batch in flight."""

    def __init__(self) -> None:
        self.inbox: list[Report] = []
        self.corrections: list[Correction] = []
        self.in_flight: Batch | None = None
        self._last_id = 0
        # Reports received and not yet stored (or found stored, or kept on this laptop): one number, counted
        # down only once their batch is committed, so that a reader never sees 0 while a batch is made.
        self.waiting = 0
        self.fired = 0                          # deadlines fired in all
        self.lateness_ms: list[float] = []      # how late each deadline fired (real ms), the last 100,000

    def add(self, report: Report) -> None:
        self.inbox.append(report)
        self.waiting += 1

    def correct(self, corrections: list[Correction]) -> None:
        self.corrections += corrections

    @property
    def busy(self) -> bool:
        """Something is on its way to the store, or waiting to be."""
        return self.in_flight is not None or bool(self.inbox) or bool(self.corrections)

    def take(self, fold: Fold, now: int, *, may_fire: bool, epoch: int | None, best: Best,
             happened: Callable[[int | None, int], int | None], real_ms: Callable[[float], float]) -> Batch | None:
        """The next batch (None: one is in flight, or nothing is due).  ``now`` is the game's time."""
        if self.in_flight is not None:
            return None
        batch = Batch(self._last_id + 1)
        for c in self.corrections:
            batch.add(Pending(c.event, None, c.pos, epoch, c.token))
        self.corrections = []
        if may_fire:
            out = fold.fire(now)
            for c in out.corrections:              # fired late: placed where they fell due
                batch.add(Pending(c.event, None, c.pos, epoch, c.token))
                if c.kind == "fire":
                    batch.fired.append(c.event)
                    self.lateness_ms.append(real_ms(max(0, now - c.event.t)))
            for token, event in out.fired:
                batch.add(Pending(event, None, None, epoch, token))
                batch.fired.append(event)
                self.lateness_ms.append(real_ms(max(0, now - event.t)))
            self.fired += len(batch.fired)
            if len(self.lateness_ms) > 100_000:
                del self.lateness_ms[:-100_000]
            batch.late, batch.refolded = out.corrections, out.refolded
            batch.deaths = out.deaths
        inbox, self.inbox = self.inbox, []
        for report in inbox:
            t, pos, radio = now, None, report.radio
            if radio is not None:
                if radio.via is None:                   # (a Meshtastic packet id says nothing of order)
                    radio = best(radio)                 # copies heard by other gateways meanwhile
                place = fold.place(radio.device if radio.via is None else None, radio.counter, now,
                                   happened(report.pressed_ms, now))
                if place is not None:
                    pos, t = place
            batch.add(Pending(Event(t, report.type, report.data, report.source), radio, pos, token=fold.new_token()),
                      report)
        if not batch.items:
            return None
        self._last_id = batch.id
        self.in_flight = batch
        return batch

    def done(self, batch_id: int) -> Batch | None:
        """The batch in flight, once the store has answered for it (None: not the one in flight)."""
        batch = self.in_flight
        if batch is None or batch.id != batch_id:
            return None
        self.in_flight = None
        self.waiting -= batch.report_count
        return batch

    def unstored(self) -> int:
        """Events not stored yet: the inbox's reports and the batch in flight."""
        return len(self.inbox) + (len(self.in_flight.items) if self.in_flight is not None else 0)


def happened_at(speed: float) -> Callable[[int | None, int], int | None]:
    """The game time of a key press given in wall time (unix ms), at a clock running ``speed`` times real time."""
    def happened(pressed_ms: int | None, now: int) -> int | None:
        if pressed_ms is None:
            return None
        age = max(0.0, time.time() * 1000 - pressed_ms)
        return max(0, now - int(age * speed))
    return happened
