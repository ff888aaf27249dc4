"""PostgreSQL, several stations on one game: the append order, live notices, and the timer lock.

One database is one game.  Advisory locks and NOTIFY channels belong to the
database, so the keys below name a game without naming it.

- Appends take a transaction-level advisory lock first, so that sequence
  numbers are committed in their own order: a station that has read up to
  seq N and is told of N+5 can read "after N" and miss nothing.
- Each append NOTIFYs the channel with the new highest seq (sent at commit).
- The station running the rule timers holds a session-level advisory lock on
  a connection of its own; when that station disappears its session ends,
  the lock is free, and a standby station takes it over.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

LOCK_CLASS = 0x43524F4D          # "CROM": controlroom's advisory locks
APPEND_LOCK = 1
TIMER_LOCK = 2
MIGRATE_LOCK = 3
CHANNEL = "controlroom_events"
CONNECT_TIMEOUT_S = 3


def is_shared(engine: Engine) -> bool:
    """Whether several stations can share this game (a database server, not a file)."""
    return engine.url.get_backend_name() == "postgresql"


def conninfo(engine: Engine) -> str:
    """The engine's URL as psycopg takes it (postgresql://user:password@host:port/db)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def _connect(dsn: str) -> psycopg.Connection:
    import psycopg

    # Keepalives: a server that vanished without closing the connection is noticed in seconds.
    return psycopg.connect(dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S, keepalives=1,
                           keepalives_idle=2, keepalives_interval=1, keepalives_count=3)


def lock_appends(conn: Connection) -> None:
    """Inside an append's transaction: wait for other stations' appends to commit first."""
    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:c, :o)"), {"c": LOCK_CLASS, "o": APPEND_LOCK})


def notify_appended(conn: Connection, last_seq: int) -> None:
    """Inside an append's transaction: tell listening stations (at commit) the new highest seq."""
    conn.execute(sa.text("SELECT pg_notify(:ch, :seq)"), {"ch": CHANNEL, "seq": str(last_seq)})


INSERT_ROWS = 1000          # rows in one INSERT (parameters a statement: at most 65,535)


@lru_cache(maxsize=64)
def _insert_new(table: str, columns: tuple[str, ...], n: int) -> str:
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([one] * n)} "
            "ON CONFLICT (device, counter) DO NOTHING RETURNING seq, device, counter")


def insert_new(cursor, table: str, columns: tuple[str, ...], rows: list[tuple]) -> list[int | None]:
    """Inside an append's transaction (the append lock held): insert the rows (values in ``columns``' order,
    with ``device`` and ``counter``) but the radio frames stored already; each row's seq, None for those.

    Under the append lock the seqs of one statement are taken in its rows' order, so the rows returned,
    in seq order, are the rows given but the frames skipped."""
    out: list[int | None] = []
    for i in range(0, len(rows), INSERT_ROWS):
        part = rows[i:i + INSERT_ROWS]
        cursor.execute(_insert_new(table, columns, len(part)), [value for row in part for value in row])
        out += _seqs_of(columns, part, cursor.fetchall())
    return out


@lru_cache(maxsize=64)
def _append_at_once(table: str, columns: tuple[str, ...], types: tuple[str, ...], n: int) -> str:
    one = "(" + ", ".join(f"%s::{t}" for t in types) + ")"
    return (f"WITH lock AS MATERIALIZED (SELECT pg_advisory_xact_lock({LOCK_CLASS}, {APPEND_LOCK})), "
            f"stored AS (INSERT INTO {table} ({', '.join(columns)}) SELECT v.* FROM lock, "
            f"(VALUES {', '.join([one] * n)}) AS v ({', '.join(columns)}) "
            "ON CONFLICT (device, counter) DO NOTHING RETURNING seq, device, counter), "
            f"told AS (SELECT pg_notify('{CHANNEL}', max(seq)::text) FROM stored HAVING count(*) > 0) "
            "SELECT seq, device, counter FROM stored LEFT JOIN told ON true")


def append_at_once(cursor, table: str, columns: tuple[str, ...], types: tuple[str, ...],
                   rows: list[tuple]) -> list[int | None]:
    """On a connection in autocommit: ``insert_new``'s rows with the append lock and the NOTIFY in one
    statement, its own transaction (at most ``INSERT_ROWS`` rows): one round trip, where BEGIN, the lock,
    the insert, the NOTIFY and COMMIT took five, the lock held through three of them.  ``types``: each
    column's type, cast in the VALUES, unbounded (TEXT for a VARCHAR: the column still refuses a value
    too long)."""
    if len(rows) > INSERT_ROWS:
        raise ValueError(f"at most {INSERT_ROWS} rows at once, not {len(rows)}")
    cursor.execute(_append_at_once(table, columns, types, len(rows)), [value for row in rows for value in row])
    return _seqs_of(columns, rows, cursor.fetchall())


def _seqs_of(columns: tuple[str, ...], rows: list[tuple], returned: list[tuple]) -> list[int | None]:
    """Each row's seq from the (seq, device, counter) an insert returned; None for a frame it skipped."""
    device, counter = columns.index("device"), columns.index("counter")
    returned = sorted(returned)
    radio = {(d, c): seq for seq, d, c in returned if d is not None}
    plain = iter([seq for seq, d, _c in returned if d is None])
    return [next(plain) if row[device] is None else radio.get((row[device], row[counter])) for row in rows]


class TimerLock:
    """The advisory lock that makes one station the game's timer owner, on a connection of its own."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._conn: psycopg.Connection | None = None
        self.held = False
        self.pid = 0                 # the server process of our session while we hold the lock

    @property
    def connected(self) -> bool:
        return self._conn is not None and not self._conn.closed

    def poll(self) -> bool:
        """Take the lock if it is free, or check that it is still ours; True while this station holds it.

        A lost connection (server restarted, network down) loses the lock:
        another station may have taken it meanwhile.
        """
        try:
            if self._conn is None or self._conn.closed:
                self.held = False
                self._conn = _connect(self.dsn)
            if self.held:
                self._conn.execute("SELECT 1")
            else:
                row = self._conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, TIMER_LOCK)).fetchone()
                self.held = row is not None and bool(row[0])
                self.pid = self._conn.info.backend_pid if self.held else 0
        except Exception as exc:       # psycopg.Error, OSError: the server is gone for now
            log.info("timer lock: %s", exc)
            self.close()
        return self.held

    def close(self) -> None:
        """Let the lock go (ending the session frees it at once)."""
        self.held = False
        self.pid = 0
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception as exc:
                log.debug("closing the timer lock's connection: %s", exc)


class Listener(threading.Thread):
    """LISTENs on the game's channel and reports each notice's seq (None: catch up after a reconnect)."""

    def __init__(self, dsn: str, on_notice: Callable[[int | None], None], on_lost: Callable[[str], None],
                 wait_s: float = 0.5) -> None:
        super().__init__(name="controlroom-listen", daemon=True)
        self.dsn = dsn
        self.on_notice = on_notice
        self.on_lost = on_lost
        self.wait_s = wait_s
        self._halt = threading.Event()
        self.connected = threading.Event()

    def run(self) -> None:
        backoff = 0.5
        while not self._halt.is_set():
            try:
                with _connect(self.dsn) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    backoff = 0.5
                    self.on_notice(None)        # whatever was appended while we were not listening
                    while not self._halt.is_set():
                        heard = False
                        for notice in conn.notifies(timeout=self.wait_s):
                            heard = True
                            self.on_notice(int(notice.payload))      # at once: the reader skips old ones
                            if self._halt.is_set():
                                break
                        if not heard:
                            conn.execute("SELECT 1")      # a server that went away is noticed here
            except Exception as exc:           # psycopg.Error, OSError
                if self._halt.is_set():
                    break
                if self.connected.is_set():
                    self.connected.clear()
                    self.on_lost(str(exc))
                self._halt.wait(backoff)
                backoff = min(5.0, backoff * 2)
        self.connected.clear()

    def stop(self) -> None:
        self._halt.set()
        if self.is_alive():
            self.join(timeout=5)


def timer_holder_in(conn: Connection) -> int | None:
    """Inside a transaction: the server process id of the session holding the timer lock (None: nobody)."""
    q = sa.text("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = :c AND objid = :o AND granted")
    return conn.execute(q, {"c": LOCK_CLASS, "o": TIMER_LOCK}).scalar()
