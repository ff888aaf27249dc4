"""Appending to the event log: a batch in one durable transaction, each radio frame and each fired deadline once.

``Appender`` is the writing half of ``eventlog.EventLog`` (which reads).  On
SQLite the driver's executemany; on a shared PostgreSQL game the append lock
orders the seqs (store.pg), and a batch with no fired deadline to check goes
in one statement, its own transaction (``pg.append_at_once``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from controlroom.game.devices import RadioMeta
from controlroom.game.events import Event
from controlroom.store import pg
from controlroom.store.engine import writing
from controlroom.store.errors import StoreError, error_for
from controlroom.store.models import EventRow, table_of
from controlroom.store.timer_keys import live_keys, retracts, timer_key

EVENTS = table_of(EventRow)
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as stored: its seq, wall time, radio metadata and fold position (None: at its seq)."""

    seq: int
    event: Event
    wall: int
    radio: RadioMeta | None = None
    pos: float | None = None


@dataclass(slots=True)
class AppendResult:
    """What a batch append did: the events stored, and the indexes (in the batch) of those it refused."""

    stored: list[StoredEvent] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)     # radio frames stored before
    indexes: list[int] = field(default_factory=list)        # of each stored event in the batch
    dropped: list[int] = field(default_factory=list)        # deadlines fired under a timer lock no longer held
    doubled: list[int] = field(default_factory=list)        # deadlines stored before (by this or another station)


# An append item: an event, or (event, radio meta), or (event, radio meta, fold position).
Item = Event | tuple[Event, RadioMeta | None] | tuple[Event, RadioMeta | None, float | None]


ROW_COLUMNS = ("t", "wall", "source", "type", "pos", "payload", "device", "counter", "rssi", "snr", "gateways", "via",
               "signals", "timer_key", "retracts")
_NO_RADIO = (None,) * 7


def _row(event: Event, radio: RadioMeta | None, wall: int, pos: float | None, key: str | None,
         back: int | None) -> tuple:
    """An event's row, its values in ``ROW_COLUMNS``' order (``key``: its ``timer_key``, ``back``: ``retracts``)."""
    head = (event.t, wall, event.source, event.type, pos, _dumps(dict(event.data)))
    if radio is None:
        return (*head, *_NO_RADIO, key, back)
    return (*head, radio.device, radio.counter, radio.rssi, radio.snr,
            ",".join(radio.gateways) if radio.gateways else None, radio.via, radio.signals, key, back)


def _cast(column) -> str:
    """A column's type as the VALUES of ``pg.append_at_once`` cast it: unbounded (the column keeps its limits)."""
    kind = column.type
    if isinstance(kind, sa.BigInteger):
        return "BIGINT"
    if isinstance(kind, sa.Integer):
        return "INTEGER"
    if isinstance(kind, sa.Float):
        return "FLOAT8"
    return "TEXT"


_PG_TYPES = tuple(_cast(EVENTS.c[name]) for name in ROW_COLUMNS)


class Appender:
    """Stores batches in the ``events`` table of one game."""

    def __init__(self, engine: Engine, where: str, path: str | None, shared: bool) -> None:
        self.engine, self.where, self.path, self.shared = engine, where, path, shared
        self._writing = writing(engine)
        self._insert = sa.insert(EVENTS).returning(EVENTS.c.seq, sort_by_parameter_order=True)
        # SQLite: the driver's own executemany, the seqs from the last rowid (one writer holds the transaction,
        # and AUTOINCREMENT gives the rows of one statement consecutive seqs): a fifth of the statement's cost.
        self._sqlite_insert = (f"INSERT INTO {EVENTS.name} ({', '.join(ROW_COLUMNS)}) "
                               f"VALUES ({', '.join('?' for _ in ROW_COLUMNS)})") if self.path is not None else None
        self._driver_errors = getattr(engine.dialect.dbapi, "Error", DBAPIError)

    def append(self, items: Sequence[Item], wall_ms: int | None = None, *,
               epochs: Sequence[int | None] | None = None) -> AppendResult:
        """Store a batch in one durable transaction (committed before this returns).

        A radio frame (device, counter) that is already in the log, or twice
        in the batch, is not stored again; its index is reported in
        ``duplicates``.  A fired deadline whose identity is stored and not
        taken back (``store.timer_keys``) is not stored again: ``doubled``.
        On a shared game, a deadline fired under a timer lock session
        (``epochs``, one per item: None for what is no deadline) that does
        not hold the lock now is not stored: ``dropped``; both checks are
        made in the transaction that appends, after the appends of other
        stations before it.  On a storage failure nothing of the batch is
        stored and StoreError says why (ServerUnreachable when the database
        server is gone); events stored before are untouched.
        """
        wall = int(time.time() * 1000) if wall_ms is None else wall_ms
        pairs = [(it, None, None) if isinstance(it, Event) else (it[0], it[1], it[2] if len(it) > 2 else None)
                 for it in items]
        # First try: the radio ingest has already dropped copies, so the insert
        # normally just works.  If the database's unique key says a frame is
        # there already (stored before a restart, or by another station), the
        # batch is rolled back and done again, looking each frame up first.
        for check_first in (False, True, True):
            try:
                return self._append(pairs, wall, check_first, epochs)
            except IntegrityError:
                continue
            except DBAPIError as exc:
                raise error_for(exc, self.where, self.path) from exc
        raise StoreError(f"{self.where}: a radio frame was stored by another station at the same time; retry")

    def _append(self, pairs: list[tuple[Event, RadioMeta | None, float | None]], wall: int,
                check_first: bool, epochs: Sequence[int | None] | None = None) -> AppendResult:
        if self.shared and not check_first and len(pairs) <= pg.INSERT_ROWS and \
                not (epochs is not None and any(e is not None for e in epochs)) and \
                not any(timer_key(event) for event, _r, _p in pairs):
            return self._append_at_once(pairs, wall)
        result = AppendResult()
        with self._writing.begin() as conn:
            if self.shared:
                pg.lock_appends(conn)       # seqs commit in their order (see store.pg)
            keys = {(r.device, r.counter) for _, r, _p in pairs if r is not None}
            seen = self._stored_keys(conn, keys) if keys and check_first else set()
            lock_epochs = epochs if self.shared and epochs is not None and any(e is not None for e in epochs) else None
            # The lock's holder as this append sees the log (after every append begun before it).
            holder = pg.timer_holder_in(conn) if lock_epochs is not None else None
            fired = [timer_key(event) for event, _r, _p in pairs]
            live = live_keys(conn, [k for k in fired if k is not None])
            rows, kept = [], []
            for i, (event, radio, pos) in enumerate(pairs):
                if lock_epochs is not None and lock_epochs[i] is not None and lock_epochs[i] != holder:
                    result.dropped.append(i)
                    continue
                key = fired[i]
                if key is not None:
                    if key in live:
                        result.doubled.append(i)
                        continue
                    live[key] = -1                      # (in this batch)
                taken_back = retracts(event)
                if taken_back is not None:
                    for k in [k for k, s in live.items() if s == taken_back]:
                        del live[k]                     # a deadline taken back may fire again at its new place
                if radio is not None:
                    frame = (radio.device, radio.counter)
                    if frame in seen:
                        result.duplicates.append(i)
                        continue
                    seen.add(frame)
                rows.append(_row(event, radio, wall, pos, key, taken_back))
                kept.append((i, event, radio, pos))
            if rows:
                _collect(result, self._insert_rows(conn, rows), kept, wall)
                if self.shared and result.stored:
                    pg.notify_appended(conn, result.stored[-1].seq)
        return result

    def _append_at_once(self, pairs: list[tuple[Event, RadioMeta | None, float | None]], wall: int) -> AppendResult:
        """A shared game's batch with no fired deadline to check (reports, commands): the lock, the insert
        and the NOTIFY in one statement, its own transaction (``pg.append_at_once``): one round trip to the
        server instead of five, and the append lock held only while the server works.  A station acks a
        report after its append, and every station's appends wait in turn for the lock."""
        result, rows, kept, seen = AppendResult(), [], [], set()
        for i, (event, radio, pos) in enumerate(pairs):
            if radio is not None:
                if (radio.device, radio.counter) in seen:
                    result.duplicates.append(i)
                    continue
                seen.add((radio.device, radio.counter))
            rows.append(_row(event, radio, wall, pos, None, retracts(event)))
            kept.append((i, event, radio, pos))
        if rows:
            with self.engine.connect() as conn:
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                cursor = conn.connection.cursor()
                try:
                    seqs = pg.append_at_once(cursor, EVENTS.name, ROW_COLUMNS, _PG_TYPES, rows)
                except self._driver_errors as exc:      # as SQLAlchemy says them (a server gone, a full disk)
                    raise self._wrapped(conn, "INSERT INTO events", exc) from exc
                finally:
                    cursor.close()
            _collect(result, seqs, kept, wall)
        return result

    def _insert_rows(self, conn, rows: list[tuple]) -> list[int | None]:
        """Insert ``rows`` (``_row``'s) in ``conn``'s transaction; their seqs, in order (on a shared game,
        None for a radio frame another station stored first)."""
        if self.shared:
            return self._insert_rows_shared(conn, rows)
        if self._sqlite_insert is None:
            return [r[0] for r in conn.execute(self._insert, [dict(zip(ROW_COLUMNS, row)) for row in rows])]
        cursor = conn.connection.cursor()
        try:
            cursor.executemany(self._sqlite_insert, rows)
            last = cursor.execute("SELECT last_insert_rowid()").fetchone()[0]
        except self._driver_errors as exc:          # as SQLAlchemy says them (a frame stored already, a full disk)
            raise self._wrapped(conn, self._sqlite_insert, exc) from exc
        finally:
            cursor.close()
        return list(range(last - len(rows) + 1, last + 1))

    def _insert_rows_shared(self, conn, rows: list[tuple]) -> list[int | None]:
        """PostgreSQL: a frame another station stored first is skipped by the insert itself
        (``pg.insert_new``), not refused with the whole batch: each frame is heard by two stations, and on
        the game day 6 in 10 appends met the other station's copy, were rolled back and made again, the
        append lock held throughout."""
        cursor = conn.connection.cursor()
        try:
            return pg.insert_new(cursor, EVENTS.name, ROW_COLUMNS, rows)
        except self._driver_errors as exc:          # as SQLAlchemy says them (a server gone, a full disk)
            raise self._wrapped(conn, "INSERT INTO events", exc) from exc
        finally:
            cursor.close()

    @staticmethod
    def _wrapped(conn, statement: str, exc: Exception) -> DBAPIError:
        wrap = IntegrityError if isinstance(exc, conn.dialect.dbapi.IntegrityError) else DBAPIError
        return wrap(statement, None, exc)

    @staticmethod
    def _stored_keys(conn, keys: set[tuple[int, int]]) -> set[tuple[int, int]]:
        """Which of these (device, counter) frames are stored already (one query per 500)."""
        found: set[tuple[int, int]] = set()
        keys_list = sorted(keys)
        pair = sa.tuple_(EVENTS.c.device, EVENTS.c.counter)
        for i in range(0, len(keys_list), 500):
            q = sa.select(EVENTS.c.device, EVENTS.c.counter).where(pair.in_(keys_list[i:i + 500]))
            found.update((d, c) for d, c in conn.execute(q))
        return found



def _collect(result: AppendResult, seqs: list[int | None], kept: list, wall: int) -> None:
    """Into ``result``: each kept (index, event, radio, pos) stored at its seq, or a copy (None: a frame
    another station stored first)."""
    for seq, (i, event, radio, pos) in zip(seqs, kept):
        if seq is None:
            result.duplicates.append(i)
            continue
        result.stored.append(StoredEvent(seq, event, wall, radio, pos))
        result.indexes.append(i)
    result.duplicates.sort()
