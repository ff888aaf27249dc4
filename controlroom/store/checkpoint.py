"""Write-ahead-log checkpoints in a thread of their own, so the writer never waits for one."""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger(__name__)


class Checkpointer(threading.Thread):
    """Copies the SQLite write-ahead log into the game file every ``interval`` seconds.

    By default SQLite checkpoints inside the commit that crosses 1,000 pages,
    which stalls that commit (and a timer waiting behind it) for as long as
    the file takes to sync.  The writer switches that off
    (``wal_autocheckpoint = 0``) and this thread does the work instead, on its
    own connection; in WAL mode a checkpoint runs beside readers and writers.
    """

    def __init__(self, path: str, interval: float = 1.0) -> None:
        super().__init__(name="controlroom-checkpoint", daemon=True)
        self.path = path
        self.interval = interval
        self._halt = threading.Event()
        self.runs = 0

    def run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            log.warning("checkpoints disabled: %s", exc)
            return
        try:
            conn.execute("PRAGMA busy_timeout = 10000")
            while not self._halt.wait(self.interval):
                self.checkpoint(conn)
            self.checkpoint(conn)
        finally:
            conn.close()

    def checkpoint(self, conn: sqlite3.Connection) -> None:
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.runs += 1
        except sqlite3.Error as exc:        # a full disk: the writer reports it, in words
            log.warning("checkpoint failed: %s", exc)

    def stop(self) -> None:
        self._halt.set()
        if self.is_alive():
            self.join(timeout=30)
