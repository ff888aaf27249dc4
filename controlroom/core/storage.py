"""The storage thread: the engine's batches written (``engine.storage.BatchWriter``), retried, and read back.

The core worker hands one batch at a time (``append``) and hears back with
``committed`` once it is durable (or kept on this laptop).  A batch that
cannot be stored (a full or read-only disk, a server gone without a local
queue) is kept and retried with back-off; nothing of it is acknowledged
meanwhile, so the handsets keep retrying too.  On a shared game the writer
also reads the log when told of another station's append (``fetch``) and
when this station takes the timer lock (``take_over``).
"""

from __future__ import annotations

import logging
import time

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from controlroom.engine.storage import BatchWriter
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.spool import Spool

log = logging.getLogger(__name__)
DELIVER_PART = 1_000        # a long local queue is delivered so many events at a time (see _deliver_part)


class StorageWriter(QObject):
    committed = Signal(int, object)  # batch id, engine.storage.Committed
    logged = Signal(object)          # [(StoredEvent, token or None)]: the log's events read back (others', queued)
    delivered = Signal(object)       # Committed: the local queue stored before a batch that then failed
    failed = Signal(str)             # why the last append failed (it is retried)
    recovered = Signal()             # appends work again after a failure
    queued = Signal(int)             # events waiting in the local queue (0: all delivered)
    caught_up = Signal(int)          # every event before taking the timer lock (this epoch) is read

    def __init__(self, store: GameStore, last_seq: int = 0, spool: Spool | None = None) -> None:
        super().__init__()
        self.writer = BatchWriter(store, last_seq, spool)
        self._batch: tuple[int, list] | None = None
        self._retry_ms = 250
        self._failing = False
        self._timer: QTimer | None = None
        self._closed = False

    @Slot(int, object)
    def append(self, batch_id: int, items: list) -> None:
        """Store a batch (the worker sends the next one only after ``committed``)."""
        self._batch = (batch_id, items)
        self._flush()

    def _flush(self) -> None:
        if self._batch is None or self._closed:
            return
        if self.writer.spooled > DELIVER_PART and self._deliver_part():
            QTimer.singleShot(0, self._flush)
            return
        batch_id, items = self._batch
        spooled = self.writer.spooled
        began = time.monotonic()
        try:
            out = self.writer.write(items)
        except StoreError as exc:
            delivered = self.writer.take_delivered()
            if delivered is not None:
                self.queued.emit(0)
                self.delivered.emit(delivered)
            return self._retry_later(str(exc))
        self._batch = None
        if out.kept:
            self.queued.emit(self.writer.spooled)
            self.committed.emit(batch_id, out)
            return self._retry_later(f"the server cannot be reached ({self.writer.spooled} events kept on this "
                                     "laptop)")
        if spooled:
            log.info("the local queue's %d events delivered to the server, then a batch, in %.1f s", spooled,
                     time.monotonic() - began)
            self.queued.emit(0)
        self._succeeded()
        self.committed.emit(batch_id, out)

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
            self._timer.timeout.connect(self._retry)
        self._timer.start(self._retry_ms)
        self._retry_ms = min(5_000 if self.writer.spool is None else 2_000, self._retry_ms * 2)

    @Slot()
    def _retry(self) -> None:
        if self._closed:
            return
        if self._batch is not None:
            self._flush()
        elif self.writer.spooled:
            self._deliver()

    def _deliver_part(self) -> bool:
        """Deliver the oldest ``DELIVER_PART`` events of a long local queue (True), so that what waits in this
        thread meanwhile runs before the rest: a take-over's read of the log, and with it the station's timers,
        waited for the whole queue of an outage (8,000 events, 11 s on the game day).  False: the server is
        still away, or something else stops the delivery (the batch's write says what)."""
        spooled, began = self.writer.spooled, time.monotonic()
        try:
            out = self.writer.deliver_queue(DELIVER_PART)
        except StoreError as exc:
            # The first try after the server's restart meets the connection the restart ended (the game day's
            # station then delivered its 7,493 events in one go): once more, on a new connection.
            log.info("delivering the local queue: %s; once more", exc)
            try:
                out = self.writer.deliver_queue(DELIVER_PART)
            except StoreError:
                return False
        log.info("%d events of the local queue delivered to the server in %.1f s, %d left", spooled -
                 self.writer.spooled, time.monotonic() - began, self.writer.spooled)
        self.queued.emit(self.writer.spooled)
        self.delivered.emit(out)
        return True

    def _deliver(self) -> None:
        """Nothing to store but the local queue: deliver it now that the server may be back."""
        if self.writer.spooled > DELIVER_PART and self._deliver_part():
            QTimer.singleShot(0, self._retry)
            return
        spooled, began = self.writer.spooled, time.monotonic()
        try:
            out = self.writer.deliver_queue()
        except StoreError as exc:
            return self._retry_later(str(exc))
        log.info("the local queue's %d events delivered to the server in %.1f s", spooled, time.monotonic() - began)
        self.queued.emit(0)
        self._succeeded()
        self.delivered.emit(out)

    @Slot(object)
    def fetch(self, top) -> None:
        """Read what other stations appended after the last seq seen (``top``: the newest seq, if known)."""
        if top is not None and top <= self.writer.last_seen:
            return
        if self._batch is not None or self.writer.spooled:
            self._retry()
            return
        try:
            events = self.writer.read_after()
        except StoreError as exc:
            log.info("reading other stations' events: %s", exc)
            return
        if events:
            self.logged.emit([(s, None) for s in events])

    @Slot(int)
    def take_over(self, epoch: int) -> None:
        """This station got the timer lock: read everything appended before it, then say so."""
        began = time.monotonic()
        try:
            events = self.writer.read_after(barrier=True)
        except StoreError as exc:
            log.info("timer lock taken (session %d), the log cannot be read yet (%s): again in 1 s", epoch, exc)
            QTimer.singleShot(1000, lambda: self.take_over(epoch))
            return
        log.info("timer lock taken (session %d): %d events read in %.1f s", epoch, len(events),
                 time.monotonic() - began)
        if events:
            self.logged.emit([(s, None) for s in events])
        self.caught_up.emit(epoch)

    @Slot()
    def close(self) -> None:
        """At shutdown: stop retrying, close the local queue, and end this thread."""
        self._closed = True
        if self._timer is not None:
            self._timer.stop()
        self.writer.close()
        self.thread().quit()
