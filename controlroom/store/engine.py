"""One engine factory from a URL or a path: SQLite (WAL, FULL sync) by default, PostgreSQL by URL."""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError, NoSuchModuleError

from controlroom.i18n import translate
from controlroom.paths import GAME_SUFFIX, data_dir, default_game_path  # noqa: F401 (part of this API)
from controlroom.store.errors import StoreError, explain

BUSY_TIMEOUT_MS = 10_000


def database_url(db: str | os.PathLike | None) -> str:
    """A SQLAlchemy URL for ``--db``: a URL as given, a path as a SQLite file, None as the default game."""
    if db is None:
        path = default_game_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    text = os.fspath(db)
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def describe(url: str) -> str:
    """How a game is named in messages (a file path, or the server without the password)."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return translate("store", "the game file {path}").format(path=u.database)
    return translate("store", "the game database {url}").format(url=u.render_as_string(hide_password=True))


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    # Let SQLAlchemy, not the driver, decide where transactions begin (see "begin" below).
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode = WAL")
    cur.execute("PRAGMA synchronous = FULL")
    cur.execute("PRAGMA foreign_keys = ON")
    cur.close()


WRITES = "controlroom_writes"       # an execution option: this transaction writes (``writing``)


def _sqlite_begin(conn) -> None:
    # A transaction that reads, then writes, holds the write lock from its start.  Begun deferred, its first
    # write fails at once ("database is locked": the busy timeout does not apply) when another connection
    # wrote since its first read: a roster imported as a new game opened, while the map was kept in it.
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITES) else "BEGIN")


def writing(engine: Engine) -> Engine:
    """``engine`` (the same pool) for transactions that write: on SQLite they begin IMMEDIATE, waiting (up to
    the busy timeout) for another writer to finish instead of failing after reading what it changed."""
    return engine.execution_options(**{WRITES: True})


def make_engine(db: str | os.PathLike | None) -> Engine:
    """An engine for ``--db`` (a path, ``sqlite:///...`` or ``postgresql+psycopg://...``)."""
    url = database_url(db)
    try:
        parsed = make_url(url)
        backend = parsed.get_backend_name()
        if backend == "sqlite":
            if parsed.database in (None, "", ":memory:"):
                raise StoreError("a game needs a file: give --db PATH (an in-memory database would lose the game)")
            folder = Path(parsed.database).parent
            if not folder.is_dir():
                raise StoreError(f"cannot create {describe(url)}: the folder {folder} does not exist")
            engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            event.listen(engine, "connect", _sqlite_pragmas)
            event.listen(engine, "begin", _sqlite_begin)
        elif backend == "postgresql":
            # A server that cannot be reached is said so in seconds, not after the system's TCP timeout.
            engine = sa.create_engine(url, connect_args={"connect_timeout": 3})
            _ping_when_idle(engine)
        else:
            raise StoreError(f"unsupported database {backend!r}: use a file path, sqlite:///... or postgresql+psycopg://...")
    except (ArgumentError, ValueError) as exc:
        raise StoreError(f"bad --db {url!r}: {exc}") from None
    except NoSuchModuleError as exc:
        raise StoreError(f"the database driver for {url.split(':')[0]} is not installed ({exc})") from None
    except ModuleNotFoundError as exc:
        raise StoreError(f"the database driver for {url.split(':')[0]} is not installed: "
                         f"pip install {exc.name}") from None
    return engine


PING_IDLE_S = 1.0     # a server connection unused for so long is tried before it is handed out


def _ping_when_idle(engine: Engine) -> None:
    """Try a connection taken from the pool if it lay unused for ``PING_IDLE_S`` or more (one that the server
    dropped meanwhile, by a restart, is replaced at once).  SQLAlchemy's ``pool_pre_ping`` tries every one:
    a round trip to the server before each of a station's appends, which follow one another within tens of
    milliseconds.  A connection broken between two appends fails its append, which is retried (or kept in the
    local queue), and the pool is emptied: the next one connects anew."""

    @event.listens_for(engine, "connect")
    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_conn, record) -> None:       # (a new connection needs no try either)
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn, record, _proxy) -> None:
        since = record.info.get("idle_since")
        if since is not None and time.monotonic() - since < PING_IDLE_S:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:        # the driver's error: the connection is gone
            raise DisconnectionError(str(exc)) from exc
        if not alive:
            raise DisconnectionError("the server connection did not answer")


def _sqlite_read_pragmas(dbapi_conn, _record) -> None:
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA query_only = ON")
    cur.close()


def read_only_engine(path: Path, where: str) -> Engine:
    """An engine that only reads a SQLite game file, also on a write-protected disk (a USB stick's switch, a CD).

    SQLite opens a file read-only beside its write-ahead log's shared-memory
    file; where that cannot be made (a read-only disk) and no log is left
    over, the file is read as unchangeable ("immutable").  A log left over on
    a read-only disk by a game not closed cleanly is said so: its events are
    not in the file itself.
    """
    wal = Path(f"{path}-wal")
    unclean = wal.exists() and wal.stat().st_size > 0
    error: BaseException | None = None
    for immutable in ((False,) if unclean else (False, True)):
        uri = path.resolve().as_uri() + "?mode=ro" + ("&immutable=1" if immutable else "")
        connect = functools.partial(sqlite3.connect, uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                                    check_same_thread=False)
        engine = sa.create_engine("sqlite://", creator=connect, poolclass=sa.pool.QueuePool)
        event.listen(engine, "connect", _sqlite_read_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar()
            return engine
        except DBAPIError as exc:
            engine.dispose()
            error = exc
    if unclean and "not a database" not in str(error).lower():
        raise StoreError(f"{where} was not closed cleanly and is on a disk that cannot be written: its last "
                         f"events are in {wal.name} beside it. Copy the game file with its -wal and -shm files to a "
                         "folder you can write to and open it there; nothing was changed.")
    assert error is not None
    raise StoreError(explain(error, where, str(path)))
