"""Storing a batch: appended and committed durably, read back in the log's order (no Qt, no threads).

``BatchWriter.write`` stores one batch and says what became of it
(``Committed``): the log's events since the last read, this station's with
their index in the batch; radio frames stored before (``duplicates``);
deadlines fired under a timer lock that is no longer this station's
(``dropped``: another station may have fired them).  While the server of a
shared game cannot be reached, the batch goes to the local durable queue
(``kept``: acknowledged, since it is durable on this laptop) and is stored,
in order, before the next batch once the server is back.  A batch that
cannot be stored at all raises StoreError: nothing of it was stored, and
the caller retries it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from controlroom.engine.batching import Pending
from controlroom.store.errors import ServerUnreachable
from controlroom.store.eventlog import AppendResult, StoredEvent
from controlroom.store.game import GameStore
from controlroom.store.spool import Spool

log = logging.getLogger(__name__)

# Events read back, each with its provisional token (None: not this station's).
Logged = list[tuple[StoredEvent, int | None]]


@dataclass(slots=True)
class Committed:
    """What became of a batch."""

    logged: Logged = field(default_factory=list)             # the log since the last read; ours with batch index
    duplicates: list[int] = field(default_factory=list)      # radio frames stored before (batch indexes)
    dropped: list[int] = field(default_factory=list)         # deadlines of a lost timer lock, not stored
    doubled: list[int] = field(default_factory=list)         # deadlines another station had stored already
    kept: bool = False                                       # in the local queue: stored when the server is back
    withdrawn: list[int] = field(default_factory=list)       # tokens of queued events the log did not take
    delivered: Logged = field(default_factory=list)          # the queue delivered first: the log read back then

    @property
    def lock_lost(self) -> bool:
        return bool(self.dropped)


class BatchWriter:
    """Appends batches to one game's log and reads the log back (one per open game, in the storage thread)."""

    def __init__(self, store: GameStore, last_seq: int = 0, spool: Spool | None = None) -> None:
        self.store = store
        self.shared = store.log.shared
        self.spool = spool
        self.spooled = len(spool) if spool is not None else 0
        self.last_seen = last_seq
        self._delivered: Committed | None = None     # the queue, delivered before a batch that failed

    def write(self, items: list[Pending]) -> Committed:
        """Store a batch (after the local queue, if it holds anything); StoreError if it cannot be stored now.

        The queue delivered before a batch that then failed is not lost:
        ``take_delivered`` hands it over (the caller folds it at once).
        """
        try:
            if self.spooled:
                self._delivered = self.deliver_queue()
            out = self._store(items)
        except ServerUnreachable:
            if self.spool is None:
                raise
            out = self._keep_locally(items)
        delivered = self.take_delivered()
        if delivered is not None:
            out.withdrawn, out.delivered = delivered.withdrawn, delivered.delivered
        return out

    def take_delivered(self) -> Committed | None:
        """What delivering the local queue read back, not yet handed over (None: nothing)."""
        delivered, self._delivered = self._delivered, None
        return delivered

    def _store(self, items: list[Pending]) -> Committed:
        result = self.store.log.append([(p.event, p.radio, p.pos) for p in items], epochs=[p.epoch for p in items])
        out = Committed(duplicates=result.duplicates, dropped=result.dropped, doubled=result.doubled)
        mine = dict(zip((s.seq for s in result.stored), result.indexes))
        if not self.shared:
            out.logged = [(s, mine[s.seq]) for s in result.stored]
            if result.stored:
                self.last_seen = result.stored[-1].seq
            return out
        out.logged = [(s, mine.get(s.seq)) for s in self.read_after()]
        return out

    def _keep_locally(self, items: list[Pending]) -> Committed:
        """The server is gone: the batch goes to the local queue, durably, in order (StoreError if it cannot)."""
        assert self.spool is not None
        self.spool.put([(p.event, p.radio) for p in items], [p.epoch for p in items], [p.pos for p in items],
                       [p.token for p in items])
        self.spooled += len(items)
        return Committed(kept=True)

    def read_after(self, barrier: bool = False) -> list[StoredEvent]:
        """The log's events after the last one read (``barrier``: after every append begun before is committed)."""
        events = self.store.log.fetch_after(self.last_seen, barrier=barrier)
        if events:
            self.last_seen = events[-1].seq
        return events

    def deliver_queue(self, limit: int | None = None) -> Committed:
        """Store what the local queue holds (``limit``: its oldest so many); ServerUnreachable if the server is
        still gone (the queue is kept).

        The events were folded and acknowledged when they were kept: they come
        back with their tokens, and those not stored (copies another station
        stored meanwhile, deadlines of a lost timer lock) as ``withdrawn``.
        """
        assert self.spool is not None
        result, _dropped, tokens = deliver_queue(self.store, self.spool, limit)
        self.spooled = 0 if limit is None else len(self.spool)
        mine = dict(zip((s.seq for s in result.stored), (tokens[i] for i in result.indexes)))
        taken = set(result.indexes)
        withdrawn = [t for i, t in enumerate(tokens) if t is not None and i not in taken]
        return Committed(delivered=[(s, mine.get(s.seq)) for s in self.read_after()], withdrawn=withdrawn)

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()


def deliver_queue(store: GameStore, spool: Spool, limit: int | None = None) -> tuple[AppendResult, int,
                                                                                    list[int | None]]:
    """Store what the local queue holds (``limit``: its oldest so many), oldest first.

    Returns what was stored, how many fired deadlines were dropped, and the
    provisional token of each event offered to the log (``result.indexes``
    index this list).

    A deadline fired while the server was away is stored only if the station
    still holds the same timer lock session: otherwise another station may
    have taken the timers over and fired it itself.  Raises ServerUnreachable
    (the queue kept) when the server is still gone.
    """
    items = spool.items(limit)
    if not items:
        return AppendResult(), 0, []
    result = store.log.append([(it.event, it.radio, it.pos) for it in items], epochs=[it.epoch for it in items])
    spool.remove_through(items[-1].id)
    return result, len(result.dropped), [it.token for it in items]
