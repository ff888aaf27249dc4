"""The core's storage arm: appends batches to the event log in a thread of its own.

The core worker folds events and fires rule timers; a disk that stalls for a
quarter of a second while it syncs must not make a deadline late.  So the
worker hands each batch to this writer (a queued signal, so batches stay in
order) and learns from ``stored`` when it is durable.  A failed append is
kept and retried with back-off; nothing is dropped.

On a shared game (PostgreSQL) the writer also reads the log back after each
append and when told of another station's (``fetch``), and hands the worker
every event in log order (``logged``): the worker folds a shared game in the
log's order, its own reports too, so that every station (and above all the
one running the timers) holds the game the log says.  Only the deadlines the
worker fired, and reports it kept locally while the server was gone, were
folded before they were stored.  While the server cannot be reached,
batches go to the local durable queue (``store.spool``) and are delivered,
in order, when it is back.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from controlroom.game.events import SOURCE_TIMER
from controlroom.store import pg
from controlroom.store.errors import ServerUnreachable, StoreError
from controlroom.store.eventlog import AppendResult
from controlroom.store.game import GameStore
from controlroom.store.spool import Spool

log = logging.getLogger(__name__)


class StorageWriter(QObject):
    stored = Signal(object)          # AppendResult of a durable batch
    failed = Signal(str)             # why the last append failed (it is retried)
    logged = Signal(object)          # shared game: [(StoredEvent, fold it)] in log order, every station's
    kept = Signal(object)            # shared game: [(event, radio)] kept locally: the worker folds them now
    queued = Signal(int)             # events waiting in the local queue (0: all delivered)
    caught_up = Signal(int)          # every event before taking the timer lock (this epoch) is read
    resynced = Signal(int, bool)     # fired deadlines not stored (a lost timer lock); whether ours is lost now

    def __init__(self, store: GameStore, last_seq: int = 0, spool: Spool | None = None) -> None:
        super().__init__()
        self.store = store
        self.pending: list = []          # (event, radio meta, timer epoch or None)
        self.spool = spool
        self.spooled = len(spool) if spool is not None else 0
        self.last_seen = last_seq
        self.epoch = 0                   # the timer lock's session while this station fires timers
        self._own: set[int] = set()      # seqs this station appended, above last_seen
        self._folded: set[int] = set()   # ...of which the worker folded the event before it was stored
        self._early_frames: set[tuple[int, int]] = set()   # radio frames folded while kept locally
        self._retry_ms = 500
        self._timer: QTimer | None = None
        self._flush_due = False

    @Slot(object)
    def append(self, batch: list) -> None:
        """Keep a batch; it is stored with every other batch that is waiting (one transaction)."""
        epoch = self.epoch
        self.pending += [(e, r, epoch if e.source == SOURCE_TIMER else None) for e, r in batch]
        if (self._timer is None or not self._timer.isActive()) and not self._flush_due:
            # After the batches already queued to this thread: a backlog becomes one commit, not many.
            self._flush_due = True
            QTimer.singleShot(0, self._flush_now)

    @Slot()
    def _flush_now(self) -> None:
        self._flush_due = False
        if self._timer is None or not self._timer.isActive():
            self._flush()

    @Slot(int)
    def set_epoch(self, epoch: int) -> None:
        """The timer lock's session the worker fires under from now on (0: it fires none)."""
        self.epoch = epoch

    def _flush(self) -> bool:
        try:
            if self.spooled:
                self._deliver_queue()
            if not self.pending:
                return True
            dropped, lost = self._drop_unowned()
            result = self.store.log.append([(e, r) for e, r, _ in self.pending])
        except ServerUnreachable as exc:
            if self.spool is None:
                return self._retry_later(str(exc))
            return self._keep_locally(str(exc))
        except StoreError as exc:
            return self._retry_later(str(exc))
        sent, self.pending = self.pending, []
        self._retry_ms = 500
        if self.store.log.shared:
            self._note_own(sent, result)
        self.stored.emit(result)
        if dropped:
            self.resynced.emit(dropped, lost)
        if self.store.log.shared:
            self._read(barrier=False)
        return True

    def _note_own(self, sent: list, result: AppendResult) -> None:
        """Remember the seqs of this station's stored events, and which of them the worker has folded."""
        dup = set(result.duplicates)
        stored = iter(result.stored)
        for i, (event, radio, *_rest) in enumerate(sent):
            if i in dup:
                continue
            seq = next(stored).seq
            self._own.add(seq)
            if event.source == SOURCE_TIMER:
                self._folded.add(seq)
            if radio is not None:
                self._early_frames.discard((radio.device, radio.counter))

    def _drop_unowned(self) -> tuple[int, bool]:
        """Deadlines fired under a timer lock session that has ended are not stored (the new owner fires them).

        Returns how many were dropped, and whether the session the worker
        fires under now has ended too.
        """
        if not self.store.log.shared or all(ep is None for *_, ep in self.pending):
            return 0, False
        holder = pg.timer_holder(self.store.engine)
        kept = [p for p in self.pending if p[2] is None or p[2] == holder]
        dropped, self.pending = len(self.pending) - len(kept), kept
        return dropped, bool(self.epoch) and holder != self.epoch

    def _retry_later(self, message: str) -> bool:
        self.failed.emit(message)
        if self._timer is None:
            self._timer = QTimer(self)
            self._timer.setSingleShot(True)
            self._timer.timeout.connect(self._flush)
        self._timer.start(self._retry_ms)
        self._retry_ms = min(30_000 if self.spool is None else 2_000, self._retry_ms * 2)
        return False

    def _keep_locally(self, message: str) -> bool:
        """The server is gone: the pending batch goes to the local queue, durably, in order."""
        if self.pending:
            try:
                self.spool.put([(e, r) for e, r, _ in self.pending], [ep for _, _, ep in self.pending])
            except StoreError as exc:
                return self._retry_later(f"{message} {exc}")
            self.spooled += len(self.pending)
            # The station goes on showing its own reports: the worker folds them now, not when stored.
            self.kept.emit([(e, r) for e, r, _ in self.pending if e.source != SOURCE_TIMER])
            self._early_frames.update((r.device, r.counter) for _, r, _ in self.pending if r is not None)
            self.pending = []
        self.queued.emit(self.spooled)
        return self._retry_later(f"{message} ({self.spooled} events kept on this laptop)")

    def _deliver_queue(self) -> None:
        """Store what the local queue holds; raises ServerUnreachable if the server is still gone."""
        result, dropped = deliver_queue(self.store, self.spool)
        self.spooled = 0
        self.queued.emit(0)
        for s in result.stored:             # all folded already, when they were kept
            self._own.add(s.seq)
            self._folded.add(s.seq)
            if s.radio is not None:
                self._early_frames.discard((s.radio.device, s.radio.counter))
        self.stored.emit(result)
        if dropped:
            self.resynced.emit(dropped, False)

    @Slot(object)
    def fetch(self, top) -> None:
        """Read what other stations appended after the last seq seen (``top``: the newest seq, if known)."""
        if top is not None and top <= self.last_seen:
            return
        if self.spooled or self.pending:
            self._flush()
        self._read(barrier=False)

    @Slot(int)
    def take_over(self, epoch: int) -> None:
        """This station got the timer lock: read everything appended before it, then say so."""
        if self._read(barrier=True):
            self.caught_up.emit(epoch)
        else:                   # the server went away meanwhile: try again (the worker checks the epoch)
            QTimer.singleShot(1000, lambda: self.take_over(epoch))

    def _read(self, barrier: bool) -> bool:
        try:
            events = self.store.log.fetch_after(self.last_seen, barrier=barrier)
        except StoreError as exc:
            log.info("reading other stations' events: %s", exc)
            return False
        if events:
            items = []
            for s in events:
                if s.seq in self._own:
                    items.append((s, s.seq not in self._folded))
                    continue
                key = (s.radio.device, s.radio.counter) if s.radio is not None else None
                if key in self._early_frames:        # a frame this station folded while cut off
                    self._early_frames.discard(key)
                    items.append((s, False))
                else:
                    items.append((s, True))
            self.last_seen = events[-1].seq
            self._own = {q for q in self._own if q > self.last_seen}
            self._folded = {q for q in self._folded if q > self.last_seen}
            self.logged.emit(items)
        return True

    @Slot()
    def drain(self) -> None:
        """Store everything now (a few tries); called blocking, before a refold or at shutdown."""
        for _ in range(3):
            if self._flush():
                return

    @Slot()
    def close(self) -> None:
        self.drain()
        if self._timer is not None:
            self._timer.stop()
        if self.spool is not None:
            self.spool.close()


def deliver_queue(store: GameStore, spool: Spool) -> tuple[AppendResult, int]:
    """Store what the local queue holds, oldest first: (what was stored, how many fired deadlines were dropped).

    A deadline fired while the server was away is stored only if the station
    still holds the same timer lock session: otherwise another station may
    have taken the timers over and fired it itself.  Raises ServerUnreachable
    (the queue kept) when the server is still gone.
    """
    items = spool.items()
    if not items:
        return AppendResult(), 0
    holder = pg.timer_holder(store.engine) if any(ep is not None for *_, ep in items) else None
    keep = [(e, r) for _id, e, r, ep in items if ep is None or (ep and ep == holder)]
    result = store.log.append(keep) if keep else AppendResult()
    spool.remove_through(items[-1][0])
    return result, len(items) - len(keep)


BLOCKING = Qt.ConnectionType.BlockingQueuedConnection
