"""The event log on real SQLite files and PostgreSQL databases: append, reopen, duplicates, migrations, bad disks."""

import hashlib
import json
import os
import subprocess
import sys
import uuid

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from controlroom.game.devices import RadioMeta
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.engine import make_engine
from controlroom.store.errors import SchemaTooNew, StoreError
from controlroom.store.game import GameStore
from controlroom.store.migrations import LATEST, migrate

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Õie", "South", "Ravens", "healer")]


def down(t, badge=1):
    return make_event(t, "down", "marshal:7", badge=badge)


@pytest.fixture
def game(game_db):
    store = GameStore.open(game_db)
    store.save_roster(ROSTER)
    yield store
    store.close()


def test_append_and_reopen(game_db, game):
    r = game.log.append([down(1000), make_event(2000, "strike", "marshal:7", badge=2)])
    assert [s.seq for s in r.stored] == [1, 2]
    game.close()
    with GameStore.open(game_db, create=False) as again:
        assert [e.type for _, e in again.log.events()] == ["down", "strike"]
        assert [m.name for m in again.roster()] == ["Aldo", "Õie"]
        state, last = again.load_state()
        assert last == 2 and state.characters[1].condition == "unconscious"
        assert again.integrity_ok()


def test_sqlite_is_opened_in_wal_with_full_sync_and_foreign_keys(tmp_path):
    game = GameStore.open(tmp_path / "wal.crgame")
    with game.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2       # FULL
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000
    game.close()


def test_models_match_the_migrated_schema(game):
    with game.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []


def test_same_radio_frame_is_never_stored_twice(game):
    frame = RadioMeta(device=7, counter=41, rssi=-90.5, snr=6.0, gateways=("gw1",))
    r = game.log.append([(down(1000), frame), (down(1000), frame)])
    assert len(r.stored) == 1 and r.duplicates == [1]
    r = game.log.append([(down(1200), RadioMeta(7, 41, -70, 9, ("gw2",))), (down(1300, 2), RadioMeta(7, 42))])
    assert r.duplicates == [0] and [s.event.data["badge"] for s in r.stored] == [2]
    assert game.log.count() == 2
    stored = list(game.log.read())
    assert stored[0].radio == RadioMeta(7, 41, -90.5, 6.0, ("gw1",))


def test_a_frame_another_station_stored_first_is_skipped_without_redoing_the_batch(pg_url, monkeypatch):
    """Two stations hear each frame: the second one's batch stores its other events in the same transaction,
    in their order, and says which frames were copies (no rollback and second try looking each frame up)."""
    from controlroom.store.appending import Appender

    with GameStore.open(pg_url) as one, GameStore.open(pg_url) as two:
        one.save_roster(ROSTER)
        one.log.append([(down(1000), RadioMeta(7, 41)), (down(1100, 2), RadioMeta(8, 5))])
        monkeypatch.setattr(Appender, "_stored_keys", lambda *_a: pytest.fail("the batch was tried again"))
        r = two.log.append([(down(1200), RadioMeta(8, 6)), (down(1000), RadioMeta(7, 41)),
                            make_event(1250, "strike", "marshal:7", badge=2), (down(1100, 2), RadioMeta(8, 5)),
                            (down(1300), RadioMeta(9, 1))])
        assert r.duplicates == [1, 3] and r.indexes == [0, 2, 4]
        assert [s.seq for s in r.stored] == sorted(s.seq for s in r.stored) and r.stored[0].seq > 2
        read = {s.seq: (s.event.t, s.radio and (s.radio.device, s.radio.counter)) for s in one.log.read()}
        assert [read[s.seq] for s in r.stored] == [(1200, (8, 6)), (1250, None), (1300, (9, 1))]
        assert one.log.count() == 5


def test_the_database_itself_refuses_a_second_copy_of_a_frame(game):
    game.log.append([(down(1000), RadioMeta(7, 41))])
    with game.engine.begin() as conn, pytest.raises(sa.exc.IntegrityError):
        conn.execute(sa.text(
            "INSERT INTO events (t, wall, source, type, payload, device, counter) "
            "VALUES (1, 1, 'x', 'down', '{}', 7, 41)"
        ))


def _v1_game(path):
    """A game file as the first schema wrote it, with a roster and two events."""
    engine = make_engine(path)
    migrate(engine, target=1)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO sides (id, name) VALUES (1, 'North')"))
        conn.execute(sa.text("INSERT INTO groups (id, name, side_id) VALUES (1, 'Wolves', 1)"))
        conn.execute(sa.text(
            "INSERT INTO characters (badge, name, group_id, class, paid, helmet, armour, inadequate) "
            "VALUES (1, 'Aldo', 1, 'warrior', TRUE, 'leather', 'chain', FALSE)"
        ))
        for t in (1000, 5000):
            conn.execute(sa.text(
                "INSERT INTO events (t, wall, source, type, payload) VALUES (:t, 0, 'gm', 'strike', :p)"
            ), {"t": t, "p": json.dumps({"badge": 1, "count": 1, "on_armour": True})})
    engine.dispose()


def test_game_file_of_the_first_schema_is_upgraded(game_db):
    path = game_db
    _v1_game(path)
    with GameStore.open(path, create=False) as store:
        assert store.meta("schema_version") == str(LATEST)
        assert [e.data for _, e in store.log.events()] == [{"badge": 1, "count": 1, "on_armour": True}] * 2
        state, _ = store.load_state()
        assert state.characters[1].ap.total == 1          # chain 2 + helmet 1, two strikes
        r = store.log.append([(down(9000), RadioMeta(3, 1))])
        assert r.stored[0].seq == 3
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []


def test_game_file_of_a_newer_schema_is_refused_and_not_changed(tmp_path):
    path = tmp_path / "future.crgame"
    GameStore.open(path).close()
    engine = make_engine(path)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE game_meta SET value = '99' WHERE key = 'schema_version'"))
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(SchemaTooNew,
                       match=rf"written by a newer controlroom \(schema 99; this version knows up to {LATEST}\)"):
        GameStore.open(path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_not_a_game_file_is_a_clear_error(tmp_path):
    path = tmp_path / "notes.crgame"
    path.write_text("shopping list: more foam\n" * 200)
    with pytest.raises(StoreError, match="is not a controlroom game file"):
        GameStore.open(path)


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="folder .* does not exist"):
        GameStore.open(tmp_path / "no" / "such" / "game.crgame")


@pytest.fixture
def sqlite_game(tmp_path):
    store = GameStore.open(tmp_path / "battle.crgame")
    store.save_roster(ROSTER)
    yield store
    store.close()


def test_full_disk_gives_a_clear_error_and_loses_nothing_stored(sqlite_game):
    game = sqlite_game
    game.log.append([down(t) for t in range(100)])
    with game.engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
    # SQLite's own way of saying "the disk is full": a page limit reached.
    big = [make_event(1000 + i, "note", "gm", text="x" * 2000) for i in range(200)]

    def limit_pages(dbapi_conn, _rec):
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages + 2}")

    sa.event.listen(game.engine, "connect", limit_pages)
    game.engine.dispose()
    with pytest.raises(StoreError, match="the disk holding the game file .* is full"):
        game.log.append(big)
    sa.event.remove(game.engine, "connect", limit_pages)
    game.engine.dispose()
    assert game.log.count() == 100 and game.integrity_ok()
    assert len(game.log.append(big).stored) == 200


def _mount_tmpfs(path, size_kb):
    path.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.decode().strip()})")


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0, reason="needs root on Linux to mount")
def test_real_full_disk_keeps_what_was_stored(tmp_path):
    disk = tmp_path / "stick"
    _mount_tmpfs(disk, 512)
    try:
        store = GameStore.open(disk / "game.crgame")
        store.save_roster(ROSTER)
        first = store.log.append([down(t) for t in range(50)])
        assert len(first.stored) == 50
        fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError:
            pass
        finally:
            os.close(fd)
        with pytest.raises(StoreError, match="is full"):
            for i in range(200):
                store.log.append([make_event(10_000 + i, "note", "gm", text=uuid.uuid4().hex * 60)])
        (disk / "filler").unlink()
        store.close()
        with GameStore.open(disk / "game.crgame") as again:
            assert again.integrity_ok()
            assert [seq for seq, _ in again.log.events()][:50] == list(range(1, 51))
            assert len(again.log.append([down(99_000)]).stored) == 1
    finally:
        subprocess.run(["umount", "-l", str(disk)])


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0, reason="needs root on Linux to mount")
def test_read_only_disk_gives_a_clear_error_and_loses_nothing(tmp_path):
    disk = tmp_path / "stick"
    _mount_tmpfs(disk, 4096)
    try:
        with GameStore.open(disk / "game.crgame") as store:
            store.save_roster(ROSTER)
            store.log.append([down(t) for t in range(10)])
            store.engine.dispose()          # a mounted file system goes read-only only when no file is open for writing
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
            with pytest.raises(StoreError, match="is read-only"):
                store.log.append([down(500)])
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        with GameStore.open(disk / "game.crgame") as again:
            assert again.log.count() == 10 and again.integrity_ok()
    finally:
        subprocess.run(["umount", "-l", str(disk)])


def test_read_only_file_gives_a_clear_error(game):
    game.log.append([down(1)])

    def read_only(dbapi_conn, _rec):
        if game.log.shared:         # a server's read-only transactions (a hot standby's, say)
            dbapi_conn.execute("SET default_transaction_read_only = on")
            dbapi_conn.commit()
        else:
            dbapi_conn.execute("PRAGMA query_only = ON")

    sa.event.listen(game.engine, "connect", read_only)
    game.engine.dispose()
    with pytest.raises(StoreError, match="read-only"):
        game.log.append([down(2)])
    sa.event.remove(game.engine, "connect", read_only)
    game.engine.dispose()
    assert game.log.count() == 1


def test_background_checkpoints_keep_the_log_small_and_complete(tmp_path):
    path = tmp_path / "cp.crgame"
    store = GameStore.open(path)
    store.checkpoint_in_background(interval=0.05)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    for i in range(50):
        store.log.append([make_event(i * 10 + j, "note", "gm", text="x" * 500) for j in range(10)])
    import time

    deadline = time.monotonic() + 10
    while store._checkpointer.runs < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store._checkpointer.runs >= 2
    store.close()
    with GameStore.open(path, create=False) as again:
        assert again.log.count() == 500 and again.integrity_ok()


def test_the_path_and_trust_of_a_report_are_stored_with_it(game):
    from controlroom.game.devices import VIA_MESH_CHANNEL, VIA_MESH_PKI
    game.log.append([(down(1000), RadioMeta(7, 0x1A2B3C4D, -80.0, 5.5, ("mesh:!0a1b2c3d",), VIA_MESH_CHANNEL)),
                     (down(1100, 2), RadioMeta(7, 0x1A2B3C4E, via=VIA_MESH_PKI)), (down(1200, 3), RadioMeta(8, 1))])
    assert [s.radio.via for s in game.log.read()] == [VIA_MESH_CHANNEL, VIA_MESH_PKI, None]


def test_the_local_queue_keeps_the_path_of_a_report(tmp_path):
    import json as _json
    import sqlite3 as _sqlite3

    from controlroom.game.devices import VIA_MESH_PKI
    from controlroom.store.spool import Spool

    spool = Spool(tmp_path / "q.queue")
    spool.put([(down(1000), RadioMeta(7, 99, -80.0, 5.0, ("mesh:!0a1b2c3d",), VIA_MESH_PKI)),
               (down(1100, 2), RadioMeta(8, 1, None, None, ("1",)))], [None, None])
    assert [q.radio for q in spool.items()] == [RadioMeta(7, 99, -80.0, 5.0, ("mesh:!0a1b2c3d",), VIA_MESH_PKI),
                                               RadioMeta(8, 1, None, None, ("1",))]
    # A queue kept by an earlier version (radio as five fields) is still read.
    con = _sqlite3.connect(tmp_path / "q.queue")
    old = {"t": 5, "type": "down", "data": {"badge": 3}, "source": "marshal:9", "radio": [9, 4, None, None, ["2"]],
           "epoch": None}
    con.execute("INSERT INTO queued (item) VALUES (?)", (_json.dumps(old),))
    con.commit()
    con.close()
    assert spool.items()[-1].radio == RadioMeta(9, 4, None, None, ("2",))


@pytest.mark.parametrize("damage", ['{"badge":', '', '{"badge":1},{"badge":2}', '[1]', '{"badge":1}x'],
                         ids=["cut_short", "empty", "two_objects", "not_an_object", "trailing"])
@pytest.mark.parametrize("late", [False, True], ids=["in_order", "with_a_late_report"])
def test_a_damaged_event_is_named_and_the_events_before_it_are_read(game, late, damage):
    """Events are decoded a batch at a time; a damaged one stops the reading at itself, not at its batch.
    A batch is parsed as one JSON array: a payload of two objects would shift every event after it to the
    wrong row were the count not checked, and one of something else than an object is damaged too.

    (An empty payload is where the decoder stops with StopIteration, not ValueError: a batch decoded by
    ``map`` would just end there, silently, were it not checked.)"""
    events = [make_event(1000 * i, "strike", "marshal:7", badge=1 + i % 2) for i in range(1, 13)]
    game.log.append(events)
    if late:        # read through rows(), merged with the events placed earlier
        game.log.append([(make_event(500, "note", "gm", text="late"), None, 0.5)])
    with game.engine.begin() as conn:
        conn.execute(sa.text("UPDATE events SET payload = :p WHERE seq = 8"), {"p": damage})
    seen = []
    with pytest.raises(StoreError, match="event 8 is damaged"):
        for seq, _event in game.log.events():
            seen.append(seq)
    assert seen == ([13] if late else []) + list(range(1, 8))
    seen = []
    with pytest.raises(StoreError, match="event 8 is damaged"):
        for row in game.log.rows():
            seen.append(row.seq)
    assert seen == ([13] if late else []) + list(range(1, 8))
    with pytest.raises(StoreError, match="event 8 is damaged"):
        game.load_state()
    with pytest.raises(StoreError, match="event 8 is damaged"):
        game.open_fold()


def test_the_sqlite_insert_names_every_column_of_a_row_and_of_the_table():
    """The fast SQLite insert (and PostgreSQL's) lists its columns by name: a column added to the table or to a
    row is not lost; PostgreSQL's one-statement append casts each to its column's type, unbounded."""
    from controlroom.game.devices import RadioMeta
    from controlroom.store.appending import _PG_TYPES, EVENTS, ROW_COLUMNS, _row

    assert set(ROW_COLUMNS) == {c.name for c in EVENTS.columns} - {"seq"}
    named_types = dict(zip(ROW_COLUMNS, _PG_TYPES))
    assert (named_types["t"], named_types["device"], named_types["rssi"], named_types["source"]) == (
        "BIGINT", "INTEGER", "FLOAT8", "TEXT")
    for radio in (RadioMeta(1, 2, -90.0, 7.5, ("gw1",), "mesh", "s"), None):
        row = _row(make_event(1, "down", "marshal:1", badge=1), radio, 0, None, None, None)
        assert len(row) == len(ROW_COLUMNS)
        if radio is not None:
            named = dict(zip(ROW_COLUMNS, row))
            assert (named["device"], named["counter"], named["rssi"], named["snr"], named["gateways"], named["via"],
                    named["signals"]) == (1, 2, -90.0, 7.5, "gw1", "mesh", "s")
