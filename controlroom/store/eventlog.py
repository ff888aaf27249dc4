"""The append-only event log: durable batches, one total order, no radio frame and no deadline stored twice."""

from __future__ import annotations

import heapq
import json
from array import array
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from controlroom.game.devices import RadioMeta
from controlroom.game.events import Event
from controlroom.store import pg
from controlroom.store.appending import EVENTS, Appender, AppendResult, Item, StoredEvent
from controlroom.store.errors import StoreError, error_for, explain

__all__ = ["EVENTS", "AppendResult", "EventLog", "Item", "LogRow", "StoredEvent"]
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
        self._driver_errors = getattr(engine.dialect.dbapi, "Error", DBAPIError)
        self.appender = Appender(engine, where, self.path, self.shared)

    def append(self, items: Sequence[Item], wall_ms: int | None = None, *,
               epochs: Sequence[int | None] | None = None) -> AppendResult:
        """Store a batch in one durable transaction (committed before this returns): ``Appender.append``."""
        return self.appender.append(items, wall_ms, epochs=epochs)

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
        chunks = self._chunks(after, batch, False)
        if chunks is None:
            for row in self.rows(after):
                yield row.seq, row.event
            return
        new, ev_cls = _tuple_new, Event
        for chunk, datas in chunks:
            yield from [(seq, new(ev_cls, (t, type_, data, source)))
                        for (seq, t, type_, _text, source), data in zip(chunk, datas)]

    def timed_events(self, after: int = 0, batch: int = 10_000) -> Iterator[tuple[int, int, Event]]:
        """(seq, wall ms, event) in fold order after ``after``: ``events`` with each one's wall time, read in
        the same statement (the report and the GIS export)."""
        chunks = self._chunks(after, batch, True)
        if chunks is None:
            for row in self.rows(after):
                yield row.seq, row.wall, row.event
            return
        new, ev_cls = _tuple_new, Event
        for chunk, datas in chunks:
            yield from [(seq, wall, new(ev_cls, (t, type_, data, source)))
                        for (seq, t, type_, _text, source, wall), data in zip(chunk, datas)]

    def _chunks(self, after: int, batch: int, wall: bool) -> Iterator[tuple[list, list]] | None:
        """The rows after ``after`` in seq order, a batch at a time with their payloads decoded, when no event
        is placed earlier than its seq (else None: ``rows`` merges those in)."""
        c = EVENTS.c
        placed = sa.select(c.seq).where(c.seq > int(after), c.pos.is_not(None)).limit(1)
        with self._driver() as raw:
            cur = raw.cursor()
            cur.execute(self._compiled(placed))
            late = cur.fetchone() is not None
            cur.close()
        if late:
            return None
        cols = (c.seq, c.t, c.type, c.payload, c.source, *((c.wall,) if wall else ()))
        return self._read_chunks(sa.select(*cols).where(c.seq > int(after)).order_by(c.seq), batch)

    def _read_chunks(self, q, batch: int) -> Iterator[tuple[list, list]]:
        with self._driver() as raw:
            cur = raw.cursor()
            cur.execute(self._compiled(q))
            while True:
                chunk = cur.fetchmany(batch)
                if not chunk:
                    break
                datas = _batch_data([r[3] for r in chunk])    # a whole batch at once
                if datas is None:           # a damaged payload: found again row by row, those before it given
                    datas = []
                    for r in chunk:
                        try:
                            datas.append(self._data(r[0], r[3]))
                        except StoreError:
                            if datas:
                                yield chunk[:len(datas)], datas
                            raise
                yield chunk, datas
            cur.close()

    def rows(self, after: int = 0, batch: int = 10_000, after_key: tuple[float, int] | None = None,
             upto: int | None = None) -> Generator[LogRow, None, None]:
        """Every event after ``after`` in fold order, with what a fold needs (the fast path).

        Most events fold at their own seq; the few placed earlier (late
        reports, corrections) carry a position and are merged in.  It reads
        through the driver's own cursor (the statement compiled by SQLAlchemy
        for this database), since opening a game folds every event.
        ``after_key``: only the events whose fold key comes after it.  ``upto``: only those up to that seq (the
        last one stored before the read began: the two statements below see the same events, and whoever
        reads on from ``upto`` misses none stored meanwhile).
        """
        c = EVENTS.c
        cols = (c.seq, c.pos, c.wall, c.device, c.counter, c.t, c.type, c.payload, c.source)
        base = sa.select(*cols).where(c.seq > int(after))
        if upto is not None:
            base = base.where(c.seq <= int(upto))
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
