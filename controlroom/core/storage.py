"""The core's storage arm: appends batches to the event log in a thread of its own, and reads it back.

The core worker hands one batch at a time (``append``) and hears back with
``committed`` once it is durable: the events as the log holds them, in seq
order, each marked with its index in the batch (None: another station's).
Only then does the worker fold them, ack the radio frames among them, and
show them.  A batch that cannot be stored (a full or read-only disk, a
server gone without a local queue) is kept and retried with back-off; nothing
of it is acknowledged meanwhile, so the handsets keep retrying too.

On a shared game (PostgreSQL) the writer reads the log back after each
append and when told of another station's (``fetch``), so the worker folds
every station's events in the log's order.  While the server cannot be
reached, batches go to the local durable queue (``store.spool``): ``kept``
says so (the worker folds and acks them, since they are durable on this
laptop) and they are stored, in order, when the server is back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from controlroom.game.events import SOURCE_TIMER
from controlroom.store import pg
from controlroom.store.errors import ServerUnreachable, StoreError
from controlroom.store.eventlog import AppendResult, StoredEvent
from controlroom.store.game import GameStore
from controlroom.store.spool import Spool

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Pending:
    """One event of a batch: what to store, and where it folds (``pos``)."""

    event: object
    radio: object = None
    pos: float | None = None
    epoch: int | None = None         # a deadline: the timer lock's session it was fired under
    token: int | None = None         # folded already (provisional in the fold): its token


@dataclass(slots=True)
class Committed:
    """What became of a batch: the log's events since the last read (ours with their batch index)."""

    logged: list[tuple[StoredEvent, int | None]] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)     # radio frames stored before (batch indexes)
    dropped: list[int] = field(default_factory=list)        # deadlines of a lost timer lock, not stored
    kept: bool = False                                      # in the local queue: stored when the server is back
    lock_lost: bool = False                                 # the lock this station fired under is gone


class StorageWriter(QObject):
    committed = Signal(int, object)  # batch id, Committed
    logged = Signal(object)          # [(StoredEvent, token or None)]: the log's events read back (others', queued)
    withdrawn = Signal(object)       # tokens of events kept locally that the log did not take
    failed = Signal(str)             # why the last append failed (it is retried)
    recovered = Signal()             # appends work again after a failure
    queued = Signal(int)             # events waiting in the local queue (0: all delivered)
    caught_up = Signal(int)          # every event before taking the timer lock (this epoch) is read

    def __init__(self, store: GameStore, last_seq: int = 0, spool: Spool | None = None) -> None:
        super().__init__()
        self.store = store
        self.shared = store.log.shared
        self.spool = spool
        self.spooled = len(spool) if spool is not None else 0
        self.last_seen = last_seq
        self._batch: tuple[int, list[Pending]] | None = None
        self._retry_ms = 250
        self._failing = False
        self._timer: QTimer | None = None

    @Slot(int, object)
    def append(self, batch_id: int, items: list) -> None:
        """Store a batch (the worker sends the next one only after ``committed``)."""
        self._batch = (batch_id, items)
        self._flush()

    def _flush(self) -> None:
        if self._batch is None:
            return
        batch_id, items = self._batch
        try:
            if self.spooled:
                self._deliver_queue()
            out = self._store(items)
        except ServerUnreachable as exc:
            if self.spool is None:
                return self._retry_later(str(exc))
            return self._keep_locally(batch_id, items, str(exc))
        except StoreError as exc:
            return self._retry_later(str(exc))
        self._batch = None
        self._succeeded()
        self.committed.emit(batch_id, out)

    def _store(self, items: list[Pending]) -> Committed:
        out = Committed()
        keep = list(range(len(items)))
        if self.shared and any(p.epoch is not None for p in items):
            holder = pg.timer_holder(self.store.engine)
            keep = [i for i in keep if items[i].epoch is None or items[i].epoch == holder]
            out.dropped = sorted(set(range(len(items))) - set(keep))
            out.lock_lost = bool(out.dropped)
        result = self.store.log.append([(items[i].event, items[i].radio, items[i].pos) for i in keep])
        out.duplicates = [keep[i] for i in result.duplicates]
        mine = {s.seq: keep[i] for s, i in zip(result.stored, result.indexes)}
        if not self.shared:
            out.logged = [(s, mine[s.seq]) for s in result.stored]
            if result.stored:
                self.last_seen = result.stored[-1].seq
            return out
        out.logged = [(s, mine.get(s.seq)) for s in self._read_after()]
        return out

    def _read_after(self, barrier: bool = False) -> list[StoredEvent]:
        events = self.store.log.fetch_after(self.last_seen, barrier=barrier)
        if events:
            self.last_seen = events[-1].seq
        return events

    def _succeeded(self) -> None:
        self._retry_ms = 250
        if self._failing:
            self._failing = False
            self.recovered.emit()

    def _retry_later(self, message: str) -> None:
        self._failing = True
        self.failed.emit(message)
        if self._timer is None:
            self._timer = QTimer(self)
            self._timer.setSingleShot(True)
            self._timer.timeout.connect(self._flush)
        self._timer.start(self._retry_ms)
        self._retry_ms = min(5_000 if self.spool is None else 2_000, self._retry_ms * 2)

    def _keep_locally(self, batch_id: int, items: list[Pending], message: str) -> None:
        """The server is gone: the batch goes to the local queue, durably, in order."""
        try:
            self.spool.put([(p.event, p.radio) for p in items], [p.epoch for p in items], [p.pos for p in items],
                           [p.token for p in items])
        except StoreError as exc:
            return self._retry_later(f"{message} {exc}")
        self.spooled += len(items)
        self._batch = None
        self.queued.emit(self.spooled)
        self.committed.emit(batch_id, Committed(kept=True))
        self._retry_later(f"{message} ({self.spooled} events kept on this laptop)")

    def _deliver_queue(self) -> None:
        """Store what the local queue holds; raises ServerUnreachable if the server is still gone.

        The worker folded and acknowledged these events when they were kept:
        they come back with their tokens, and those not stored (copies another
        station stored meanwhile, deadlines of a lost timer lock) as ``withdrawn``.
        """
        result, _dropped, tokens = deliver_queue(self.store, self.spool)
        self.spooled = 0
        self.queued.emit(0)
        mine = dict(zip((s.seq for s in result.stored), (tokens[i] for i in result.indexes)))
        gone = [t for i, t in enumerate(tokens) if t is not None and i not in set(result.indexes)]
        if gone:
            self.withdrawn.emit(gone)
        events = self._read_after()
        if events:
            self.logged.emit([(s, mine.get(s.seq)) for s in events])

    @Slot(object)
    def fetch(self, top) -> None:
        """Read what other stations appended after the last seq seen (``top``: the newest seq, if known)."""
        if top is not None and top <= self.last_seen:
            return
        if self._batch is not None or self.spooled:
            self._flush()
            return
        try:
            events = self._read_after()
        except StoreError as exc:
            log.info("reading other stations' events: %s", exc)
            return
        if events:
            self.logged.emit([(s, None) for s in events])

    @Slot(int)
    def take_over(self, epoch: int) -> None:
        """This station got the timer lock: read everything appended before it, then say so."""
        try:
            events = self._read_after(barrier=True)
        except StoreError:
            QTimer.singleShot(1000, lambda: self.take_over(epoch))
            return
        if events:
            self.logged.emit([(s, None) for s in events])
        self.caught_up.emit(epoch)

    @Slot()
    def close(self) -> None:
        """At shutdown: stop retrying, close the local queue, and end this thread."""
        if self._timer is not None:
            self._timer.stop()
        if self.spool is not None:
            self.spool.close()
        self.thread().quit()


def deliver_queue(store: GameStore, spool: Spool) -> tuple[AppendResult, int, list[int | None]]:
    """Store what the local queue holds, oldest first.

    Returns what was stored, how many fired deadlines were dropped, and the
    provisional token of each event offered to the log (``result.indexes``
    index this list).

    A deadline fired while the server was away is stored only if the station
    still holds the same timer lock session: otherwise another station may
    have taken the timers over and fired it itself.  Raises ServerUnreachable
    (the queue kept) when the server is still gone.
    """
    items = spool.items()
    if not items:
        return AppendResult(), 0, []
    holder = pg.timer_holder(store.engine) if any(it.epoch is not None for it in items) else None
    kept = [it for it in items if it.epoch is None or (it.epoch and it.epoch == holder)]
    result = store.log.append([(it.event, it.radio, it.pos) for it in kept]) if kept else AppendResult()
    spool.remove_through(items[-1].id)
    tokens = [it.token for it in kept]
    dropped = [it.token for it in items if it not in kept and it.token is not None]
    return result, len(items) - len(kept), tokens + dropped


BLOCKING = Qt.ConnectionType.BlockingQueuedConnection
__all__ = ["BLOCKING", "Committed", "Pending", "StorageWriter", "deliver_queue", "SOURCE_TIMER"]
