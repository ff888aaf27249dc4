"""The local durable queue: events kept on this laptop while the database server cannot be reached.

A station on a shared game that loses the server goes on receiving radio
frames and game masters' entries.  Each batch it could not store goes into a
small SQLite file of its own (WAL, synchronous=FULL), in order, and is
delivered from there once the server is back; a frame that another station
stored meanwhile is recognised by its (device, counter) and not stored twice.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import NamedTuple

from sqlalchemy.engine import make_url

from controlroom.game.devices import RadioMeta
from controlroom.game.events import Event
from controlroom.paths import private_file
from controlroom.store.engine import data_dir
from controlroom.store.errors import StoreError

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def default_path(url: str) -> Path:
    """Where a game's queue lives: the data folder's ``queues``, one file per server and game."""
    u = make_url(url)
    name = f"{u.host or 'local'}_{u.port or 5432}_{u.database or 'game'}"
    digest = hashlib.sha1(u.render_as_string(hide_password=True).encode()).hexdigest()[:8]
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    return data_dir() / "queues" / f"{safe}_{digest}.queue"


class Queued(NamedTuple):
    """One event of the local queue."""

    id: int
    event: Event
    radio: RadioMeta | None
    epoch: int | None           # a deadline: the timer lock's session it was fired under
    pos: float | None           # where it folds, when placed before events stored earlier
    token: int | None           # the running station's provisional token for it


class Spool:
    """Batches of events in the order they were kept; durable once ``put`` returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            private_file(self.path)         # the reports kept here: its user's alone
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS queued (id INTEGER PRIMARY KEY AUTOINCREMENT, item TEXT NOT NULL)"
            )
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot keep the local queue {self.path}: {exc}") from None

    def put(self, batch: list[tuple[Event, RadioMeta | None]], epochs: list[int | None],
            positions: list[float | None] | None = None, tokens: list[int | None] | None = None) -> None:
        """Keep a batch; per event the timer lock session it was fired under (None: not a deadline),
        its fold position and the station's provisional token."""
        rows = []
        n = len(batch)
        for (event, radio), epoch, pos, token in zip(batch, epochs, positions or [None] * n, tokens or [None] * n):
            r = None if radio is None else [radio.device, radio.counter, radio.rssi, radio.snr, list(radio.gateways),
                                            radio.via, radio.signals]
            rows.append((_dumps({"t": event.t, "type": event.type, "data": dict(event.data),
                                 "source": event.source, "radio": r, "epoch": epoch, "pos": pos,
                                 "token": token}),))
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT INTO queued (item) VALUES (?)", rows)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot keep events in the local queue {self.path}: {exc}") from None

    def items(self, limit: int | None = None) -> list[Queued]:
        """Everything queued (``limit``: the oldest so many), oldest first."""
        out = []
        for id_, text in self._db.execute("SELECT id, item FROM queued ORDER BY id LIMIT ?",
                                          (-1 if limit is None else limit,)):
            d = json.loads(text)
            r = d["radio"]
            # (spooled before the path was kept: five fields, our own frame; before the signals: six)
            radio = None if r is None else RadioMeta(r[0], r[1], r[2], r[3], tuple(r[4]), r[5] if len(r) > 5 else None,
                                                     r[6] if len(r) > 6 else None)
            out.append(Queued(id_, Event(d["t"], d["type"], d["data"], d["source"]), radio, d["epoch"],
                              d.get("pos"), d.get("token")))
        return out

    def remove_through(self, last_id: int) -> None:
        """Forget what was delivered (every id up to ``last_id``)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM queued WHERE id <= ?", (last_id,))

    def __len__(self) -> int:
        return self._db.execute("SELECT count(*) FROM queued").fetchone()[0]

    def close(self) -> None:
        self._db.close()
