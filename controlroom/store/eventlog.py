"""The append-only event log: durable batches, one total order, no radio frame and no deadline stored twice."""

from __future__ import annotations

import heapq
import json
import time
from array import array
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from controlroom.game.devices import RadioMeta
from controlroom.game.events import Event
from controlroom.store import pg
from controlroom.store.errors import StoreError, error_for, explain
from controlroom.store.models import EventRow, table_of
from controlroom.store.timer_keys import live_keys, retracts, timer_key

EVENTS = table_of(EventRow)
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_scan_once = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # typeshed lacks it (set by __init__)
_loads = json.JSONDecoder().decode
_ONLY_OBJECTS = {dict}
# Named tuples made without their Python-level __new__: opening a game makes one of each per event.
_tuple_new = tuple.__new__


def _batch_data(payloads: list[str]) -> list[dict] | None:
    """The payloads of a batch of rows parsed in one call, as one JSON array: None unless it reads as
    exactly one object a payload (a damaged payload: the batch is read again row by row, which says
    which event it is).  One call for a batch instead of one a row, and the objects' keys made once a
    batch: reading a 200,000-event game's rows took 0.47-0.48 s instead of 0.49-0.52 s."""
    try:
        datas = _loads("[" + ",".join(payloads) + "]")
    except (ValueError, RecursionError):
        return None
    if len(datas) != len(payloads) or (datas and {*map(type, datas)} != _ONLY_OBJECTS):
        return None
    return datas


def _payload(seq: int, payload: str, where: str) -> dict:
    """The slow, careful decoding of a payload the fast path could not read."""
    try:
        data = json.loads(payload)
    except ValueError as exc:
        raise StoreError(f"{where}: event {seq} is damaged ({exc}); the log cannot be read past it") from None
    if not isinstance(data, dict):
        raise StoreError(f"{where}: event {seq} is damaged (its fields are not an object)")
    return data


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as stored: its seq, wall time, radio metadata and fold position (None: at its seq)."""

    seq: int
    event: Event
    wall: int
    radio: RadioMeta | None = None
    pos: float | None = None


class LogRow(NamedTuple):
    """An event on the log's fast path (fold order): what folding a game and reports need."""

    seq: int
    pos: float | None
    wall: int
    device: int | None
    counter: int | None
    event: Event

    @property
    def radio(self) -> RadioMeta | None:
        return None if self.device is None or self.counter is None else RadioMeta(self.device, self.counter)


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


def _fold_key(row: LogRow) -> tuple[float, int]:
    return (row.pos if row.pos is not None else float(row.seq), row.seq)


def _placed_upto(key: tuple[float, int]):
    """Events placed at a position (``pos`` not null) whose fold key is ``key`` or before."""
    c = EVENTS.c
    pos, seq = sa.literal(float(key[0]), sa.Float()), int(key[1])
    return sa.or_(c.pos < pos, sa.and_(c.pos == pos, c.seq <= seq))


def _at_seq_upto(key: tuple[float, int]):
    """Events folded at their own seq (``pos`` null) whose fold key (seq, seq) is ``key`` or before."""
    c = EVENTS.c
    pos, seq = sa.literal(float(key[0]), sa.Float()), int(key[1])
    return sa.or_(c.seq < pos, sa.and_(c.seq == pos, c.seq <= seq))


def _stored(m) -> StoredEvent:
    radio = None
    if m["device"] is not None:
        gws = tuple(m["gateways"].split(",")) if m["gateways"] else ()
        radio = RadioMeta(m["device"], m["counter"], m["rssi"], m["snr"], gws, m["via"], m["signals"])
    return StoredEvent(m["seq"], Event(m["t"], m["type"], json.loads(m["payload"]), m["source"]), m["wall"], radio,
                       m["pos"])


class EventLog:
    """Appends and reads the ``events`` table of one game."""

    def __init__(self, engine: Engine, where: str = "the game file") -> None:
        self.engine = engine
        self.where = where
        self.path = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
        self.shared = pg.is_shared(engine)
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
        result = AppendResult()
        with self.engine.begin() as conn:
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
                seqs = self._insert_rows(conn, rows)
                for seq, (i, e, r, p) in zip(seqs, kept):
                    if seq is None:                     # (stored by another station since: a copy)
                        result.duplicates.append(i)
                        continue
                    result.stored.append(StoredEvent(seq, e, wall, r, p))
                    result.indexes.append(i)
                result.duplicates.sort()
                if self.shared and result.stored:
                    pg.notify_appended(conn, result.stored[-1].seq)
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

    @contextmanager
    def _driver(self) -> Iterator:
        """The driver's own connection, for the reads that fold a game; its errors raised as StoreError."""
        try:
            raw = self.engine.raw_connection()
            try:
                yield raw
            finally:
                raw.close()
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.path)) from exc
        except self._driver_errors as exc:
            raise StoreError(explain(exc, self.where, self.path)) from exc

    def events(self, after: int = 0, batch: int = 10_000) -> Iterator[tuple[int, Event]]:
        """(seq, event) in fold order after ``after``: the fast path for folding a game.

        A log with no event placed earlier than its seq (no late report) is read
        in seq order with nothing else per row; otherwise through ``rows``.
        """
        c = EVENTS.c
        placed = sa.select(c.seq).where(c.seq > int(after), c.pos.is_not(None)).limit(1)
        q = sa.select(c.seq, c.t, c.type, c.payload, c.source).where(c.seq > int(after)).order_by(c.seq)
        with self._driver() as raw:
            cur = raw.cursor()
            cur.execute(self._compiled(placed))
            late = cur.fetchone() is not None
            cur.close()
            if not late:
                cur = raw.cursor()
                cur.execute(self._compiled(q))
                new, ev_cls = _tuple_new, Event
                while True:
                    chunk = cur.fetchmany(batch)
                    if not chunk:
                        break
                    datas = _batch_data([r[3] for r in chunk])    # a whole batch at once
                    if datas is None:           # a damaged payload: found again row by row
                        for seq, t, type_, payload, source in chunk:
                            yield seq, Event(t, type_, self._data(seq, payload), source)
                        continue
                    yield from [(seq, new(ev_cls, (t, type_, data, source)))
                                for (seq, t, type_, _text, source), data in zip(chunk, datas)]
                cur.close()
        if late:
            for row in self.rows(after):
                yield row.seq, row.event

    def rows(self, after: int = 0, batch: int = 10_000, after_key: tuple[float, int] | None = None
             ) -> Generator[LogRow, None, None]:
        """Every event after ``after`` in fold order, with what a fold needs (the fast path).

        Most events fold at their own seq; the few placed earlier (late
        reports, corrections) carry a position and are merged in.  It reads
        through the driver's own cursor (the statement compiled by SQLAlchemy
        for this database), since opening a game folds every event.
        ``after_key``: only the events whose fold key comes after it.
        """
        c = EVENTS.c
        cols = (c.seq, c.pos, c.wall, c.device, c.counter, c.t, c.type, c.payload, c.source)
        base = sa.select(*cols).where(c.seq > int(after))
        placed_q, at_seq_q = base.where(c.pos.is_not(None)), base.where(c.pos.is_(None))
        if after_key is not None:
            placed_q = placed_q.where(sa.not_(_placed_upto(after_key)))
            at_seq_q = at_seq_q.where(sa.not_(_at_seq_upto(after_key)))
        placed = self._compiled(placed_q.order_by(c.pos, c.seq))
        at_seq = self._compiled(at_seq_q.order_by(c.seq))
        with self._driver() as raw:
            cur = raw.cursor()
            cur.execute(placed)
            early = [self._log_row(r) for r in cur.fetchall()]
            cur.close()
            cur = raw.cursor()
            cur.execute(at_seq)
            if early:
                yield from heapq.merge(early, self._stream(cur, batch), key=_fold_key)
            else:
                yield from self._stream(cur, batch)         # nothing placed earlier: the log's own order
            cur.close()

    def index_upto(self, upto_key: tuple[float, int], upto_seq: int | None = None
                   ) -> tuple[array, array, array, list[tuple]]:
        """The fold keys and times of every event whose fold key is ``upto_key`` or before (and, given,
        whose seq is ``upto_seq`` or before), in fold order, as columns (pos, seq, t), and the (device,
        counter, fold key, t) of the radio frames among them."""
        c = EVENTS.c
        stored = c.seq <= int(upto_seq) if upto_seq is not None else sa.true()
        placed = self._compiled(sa.select(c.seq, c.pos, c.t, c.device, c.counter)
                                .where(c.pos.is_not(None), _placed_upto(upto_key), stored).order_by(c.pos, c.seq))
        at_seq = self._compiled(sa.select(c.seq, c.t).where(c.pos.is_(None), _at_seq_upto(upto_key), stored)
                                .order_by(c.seq))
        frames_q = self._compiled(sa.select(c.device, c.counter, c.seq, c.t)
                                  .where(c.pos.is_(None), c.device.is_not(None), _at_seq_upto(upto_key), stored))
        with self._driver() as raw:
            cur = raw.cursor()
            cur.execute(placed)
            early = cur.fetchall()
            cur.execute(at_seq)
            rows = cur.fetchall()
            cur.execute(frames_q)
            frames = [(d, n, (float(seq), seq), t) for d, n, seq, t in cur.fetchall()]
            cur.close()
        frames += [(d, n, (pos, seq), t) for seq, pos, t, d, n in early if d is not None]
        if not early:
            seqs = array("q", [r[0] for r in rows])
            return array("d", seqs), seqs, array("q", [r[1] for r in rows]), frames
        merged = list(heapq.merge([((pos, seq), t) for seq, pos, t, _d, _n in early],
                                  [((float(seq), seq), t) for seq, t in rows]))
        return (array("d", [k[0] for k, _t in merged]), array("q", [k[1] for k, _t in merged]),
                array("q", [t for _k, t in merged]), frames)

    def count_upto(self, key: tuple[float, int]) -> int:
        """How many events have a fold key of ``key`` or before."""
        c = EVENTS.c
        placed = sa.select(sa.func.count()).select_from(EVENTS).where(c.pos.is_not(None), _placed_upto(key))
        at_seq = sa.select(sa.func.count()).select_from(EVENTS).where(c.pos.is_(None), _at_seq_upto(key))
        with self.engine.connect() as conn:
            return conn.execute(placed).scalar_one() + conn.execute(at_seq).scalar_one()

    def keys_of(self, seqs: Sequence[int]) -> dict[int, tuple[float, int]]:
        """The fold keys of these events (those stored)."""
        c = EVENTS.c
        out: dict[int, tuple[float, int]] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(seqs), 500):
                q = sa.select(c.seq, c.pos).where(c.seq.in_([int(x) for x in seqs[i:i + 500]]))
                out.update((seq, (pos if pos is not None else float(seq), seq)) for seq, pos in conn.execute(q))
        return out

    def _compiled(self, q) -> str:
        return str(q.compile(dialect=self.engine.dialect, compile_kwargs={"literal_binds": True}))

    def _stream(self, cur, batch: int) -> Iterator[LogRow]:
        new, row_cls, ev_cls = _tuple_new, LogRow, Event
        while True:
            rows = cur.fetchmany(batch)
            if not rows:
                return
            datas = _batch_data([r[7] for r in rows])     # a whole batch at once
            if datas is None:               # a damaged payload: found again row by row
                for r in rows:
                    yield self._log_row(r)
                continue
            yield from [new(row_cls, (seq, pos, wall, device, counter, new(ev_cls, (t, type_, data, source))))
                        for (seq, pos, wall, device, counter, t, type_, _text, source), data in zip(rows, datas)]

    def _data(self, seq: int, payload: str) -> dict:
        """One payload: exactly one JSON object, else the event is damaged (StoreError names it)."""
        try:
            data, end = _scan_once(payload, 0)      # our own compact JSON: no whitespace to skip
        except (StopIteration, ValueError, RecursionError):
            return _payload(seq, payload, self.where)
        if end != len(payload) or type(data) is not dict:
            return _payload(seq, payload, self.where)
        return data

    def _log_row(self, r) -> LogRow:
        seq, pos, wall, device, counter, t, type_, payload, source = r
        return LogRow(seq, pos, wall, device, counter, Event(t, type_, self._data(seq, payload), source))

    def read(self, after: int = 0) -> Iterator[StoredEvent]:
        """Every stored event with its wall time and radio metadata, in log order."""
        q = sa.select(EVENTS).where(EVENTS.c.seq > after).order_by(EVENTS.c.seq)
        with self.engine.connect() as conn:
            for row in conn.execution_options(yield_per=5000).execute(q):
                yield _stored(row._mapping)    # (row.t would be the Row's own tuple accessor)

    def fetch_after(self, after: int, barrier: bool = False) -> list[StoredEvent]:
        """Every event after ``after``, as one list (what other stations appended since).

        With ``barrier`` (a shared game), appends in progress at other
        stations are waited for first, so nothing committed later can get a
        seq below the last one returned.
        """
        q = sa.select(EVENTS).where(EVENTS.c.seq > after).order_by(EVENTS.c.seq)
        try:
            with self.engine.begin() as conn:
                if barrier and self.shared:
                    pg.lock_appends(conn)
                return [_stored(row._mapping) for row in conn.execute(q)]
        except DBAPIError as exc:
            raise error_for(exc, self.where, self.path) from exc

    def radio_counters(self, window: int = 256) -> tuple[dict[int, int], set[tuple[int, int]]]:
        """Per device the highest frame counter stored, and the (device, counter) pairs near it.

        A station that starts again uses them so that a frame heard before the
        restart is still known as heard.
        """
        highest: dict[int, int] = {}
        recent: set[tuple[int, int]] = set()
        for device, counter, _key, _t in self.recent_frames(window):
            highest[device] = max(highest.get(device, -1), counter)
            recent.add((device, counter))
        return highest, recent

    def recent_frames(self, window: int = 256) -> list[tuple[int, int, tuple[float, int], int]]:
        """(device, counter, fold key, t) of each device's frames within ``window`` of its highest counter."""
        c = EVENTS.c
        with self.engine.connect() as conn:
            highest: dict[int, int] = dict(conn.execute(
                sa.select(c.device, sa.func.max(c.counter)).where(c.device.is_not(None)).group_by(c.device)
            ).all())
            out = []
            for device, top in highest.items():
                q = sa.select(c.counter, c.pos, c.seq, c.t).where(c.device == device, c.counter > top - window)
                out += [(device, n, (pos if pos is not None else float(seq), seq), t)
                        for n, pos, seq, t in conn.execute(q)]
        return out

    def count(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(EVENTS)).scalar_one()

    def last_seq(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.coalesce(sa.func.max(EVENTS.c.seq), 0))).scalar_one()
