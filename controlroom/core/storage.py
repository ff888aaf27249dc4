"""The core's storage arm: appends batches to the event log in a thread of its own.

The core worker folds events and fires rule timers; a disk that stalls for a
quarter of a second while it syncs must not make a deadline late.  So the
worker hands each batch to this writer (a queued signal, so batches stay in
order) and learns from ``stored`` when it is durable.  A failed append is
kept and retried with back-off; nothing is dropped.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore


class StorageWriter(QObject):
    stored = Signal(object)          # AppendResult of a durable batch
    failed = Signal(str)             # why the last append failed (it is retried)

    def __init__(self, store: GameStore) -> None:
        super().__init__()
        self.store = store
        self.pending: list = []
        self._retry_ms = 500
        self._timer: QTimer | None = None

    @Slot(object)
    def append(self, batch: list) -> None:
        self.pending += batch
        if self._timer is None or not self._timer.isActive():
            self._flush()

    def _flush(self) -> bool:
        if not self.pending:
            return True
        try:
            result = self.store.log.append(self.pending)
        except StoreError as exc:
            self.failed.emit(str(exc))
            if self._timer is None:
                self._timer = QTimer(self)
                self._timer.setSingleShot(True)
                self._timer.timeout.connect(self._flush)
            self._timer.start(self._retry_ms)
            self._retry_ms = min(30_000, self._retry_ms * 2)
            return False
        self.pending = []
        self._retry_ms = 500
        self.stored.emit(result)
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


BLOCKING = Qt.ConnectionType.BlockingQueuedConnection
