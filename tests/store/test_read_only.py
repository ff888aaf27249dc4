"""A game on a write-protected disk opens read-only for `replay` and `report`; an empty file is not a game."""

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from controlroom.cli import main
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.engine import make_engine
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.migrations import LATEST, migrate, schema_version

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves")]
EVENTS = [make_event(0, "scenario_started", name="Ford"), make_event(60_000, "down", "marshal:7", badge=1),
          make_event(90_000, "strike", "marshal:7", badge=2)]


def _game(path, events=EVENTS):
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        store.set_meta("name", "Ford")
        store.log.append(list(events))
    return path


def _digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _read_only_disk_works():
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt && mount -o remount,ro /mnt"],
                           capture_output=True)
    return probe.returncode == 0


needs_ro_disk = pytest.mark.skipif(not _read_only_disk_works(),
                                   reason="needs Linux with unshare and user namespaces (a read-only mount)")


def on_read_only_disk(files, *commands):
    """Copy ``files`` onto a fresh disk mounted read-only (a tmpfs in a private mount namespace: the
    kernel refuses every write with EROFS, as on a write-protected USB stick) and run each controlroom
    command there, ``{disk}`` standing for the mount point.  Returns [(status, stdout, stderr)] and the
    digests of the files on the disk afterwards."""
    disk = "/mnt"
    script = [f"mount -t tmpfs tmpfs {disk}", *(f"cp {shlex.quote(str(f))} {disk}/" for f in files),
              f"mount -o remount,ro {disk}"]
    for command in commands:
        args = " ".join(shlex.quote(a.format(disk=disk)) for a in command)
        script += [f"{shlex.quote(sys.executable)} -m controlroom {args}", 'echo "@@status $?"', "echo @@end >&2"]
    script.append(f"sha256sum {disk}/* | sed 's/^/@@sum /'")
    r = subprocess.run(["unshare", "-rm", "sh", "-c", "\n".join(script)], capture_output=True, text=True,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=300)
    outs, errs = r.stdout.split("@@status "), r.stderr.split("@@end\n")
    results = []
    for i in range(len(commands)):
        out = outs[i] if i == 0 else outs[i].split("\n", 1)[1]
        results.append((int(outs[i + 1].split("\n", 1)[0]), out, errs[i]))
    sums = {Path(line.split()[2]).name: line.split()[1] for line in r.stdout.splitlines() if line.startswith("@@sum ")}
    return results, sums


@needs_ro_disk
def test_replay_and_report_read_a_game_on_a_write_protected_disk(tmp_path):
    game = _game(tmp_path / "ford.crgame")
    before = _digest(game)
    out = tmp_path / "report"
    (replay, report), sums = on_read_only_disk(
        [game], ["replay", "--db", "{disk}/ford.crgame", "--json"],
        ["report", "--db", "{disk}/ford.crgame", "--out", str(out), "--format", "csv"])
    assert replay[0] == 0, replay[2]
    summary = json.loads(replay[1])
    assert summary["game"] == "Ford" and summary["characters"]["1"]["state"] == "unconscious"
    assert report[0] == 0, report[2]
    assert "Ford (the whole game" in report[1]
    assert (out / "Ford-players.csv").exists()
    assert sums == {"ford.crgame": before}          # nothing written beside it, nothing changed in it


@needs_ro_disk
def test_a_game_left_open_on_a_write_protected_disk(tmp_path):
    """Copied off a laptop that lost power: the last events are still in the write-ahead log."""
    game = tmp_path / "ford.crgame"
    _game(game, EVENTS[:1])
    code = ("import os, sys, sqlalchemy as sa\n"
            "from controlroom.store.game import GameStore\n"
            "from controlroom.game.events import make_event\n"
            "s = GameStore.open(sys.argv[1])\n"
            "sa.event.listen(s.engine, 'connect', lambda c, r: c.execute('PRAGMA wal_autocheckpoint = 0'))\n"
            "s.engine.dispose()\n"
            "s.log.append([make_event(60_000, 'down', 'marshal:7', badge=1)])\n"
            "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(game)], check=True)
    wal, shm = Path(f"{game}-wal"), Path(f"{game}-shm")
    assert wal.stat().st_size > 0
    (with_shm,), _ = on_read_only_disk([game, wal, shm], ["replay", "--db", "{disk}/ford.crgame", "--json"])
    assert with_shm[0] == 0, with_shm[2]
    assert json.loads(with_shm[1])["characters"]["1"]["state"] == "unconscious"      # the log's event is read
    (without,), _ = on_read_only_disk([game, wal], ["replay", "--db", "{disk}/ford.crgame"])
    assert without[0] == 1
    assert "was not closed cleanly and is on a disk that cannot be written" in without[2]
    assert "Traceback" not in without[2]


@needs_ro_disk
def test_an_older_game_on_a_write_protected_disk_says_what_to_do(tmp_path):
    game = tmp_path / "old.crgame"
    engine = make_engine(game)
    migrate(engine, target=1)
    engine.dispose()
    (replay,), _ = on_read_only_disk([game], ["replay", "--db", "{disk}/old.crgame"])
    assert replay[0] == 1
    assert "written by an older controlroom and must be upgraded" in replay[2]
    assert "Copy it to a folder you can write to" in replay[2]


def test_an_older_game_on_a_writable_disk_is_upgraded_and_read(tmp_path, capsys):
    game = tmp_path / "old.crgame"
    engine = make_engine(game)
    migrate(engine, target=1)
    engine.dispose()
    with GameStore.open(game, create=False, read_only=True) as store:
        with store.engine.connect() as conn:
            assert schema_version(conn) == LATEST


def test_a_read_only_store_reads_and_refuses_to_write(tmp_path):
    game = _game(tmp_path / "ford.crgame")
    with GameStore.open(game, create=False, read_only=True) as store:
        assert store.name == "Ford" and [e.type for _, e in store.events()][-1] == "strike"
        with pytest.raises(StoreError, match="read-only"):
            store.log.append([make_event(100_000, "note", text="no")])
    with GameStore.open(game, create=False) as store:
        assert store.log.count() == 3


@pytest.mark.parametrize("command", [["replay", "--db"], ["report", "--out", "OUT", "--db"]])
def test_an_empty_file_is_not_a_game(tmp_path, capsys, command):
    empty = tmp_path / "copy.crgame"
    empty.write_bytes(b"")
    args = [a.replace("OUT", str(tmp_path / "out")) for a in command] + [str(empty)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "is empty (0 bytes): it is not a game" in err
    assert empty.stat().st_size == 0                    # not quietly turned into an empty game
    with pytest.raises(StoreError, match="is empty"):
        GameStore.open(empty, create=False)
    assert empty.stat().st_size == 0


def test_a_file_that_is_not_a_game_is_said_so(tmp_path, capsys):
    text = tmp_path / "notes.crgame"
    text.write_text("this is a shopping list\n" * 100)
    assert main(["replay", "--db", str(text)]) == 1
    assert "is not a controlroom game file" in capsys.readouterr().err
    other = tmp_path / "other.sqlite"
    engine = sa.create_engine(f"sqlite:///{other}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x)")
    engine.dispose()
    assert main(["replay", "--db", str(other)]) == 1
    assert "is not a controlroom game file (it holds no game)" in capsys.readouterr().err
