"""``controlroom roster import`` into a game a station has open (docs/roster-csv.md, "A game open at a station").

On PostgreSQL the import appends ``roster_added`` and every open station
folds the game again over the new roster.  A SQLite game file is run by one
station at a time, which holds ``<game>.station-lock``: the import is
refused while it does (the station could not hear it), and so is a second
station; once the station is closed the import goes through, and says so in
the log too.  A real station (CoreThread) in this process, the command in
another (``python -m controlroom``).
"""

import os
import socket
import subprocess
import sys

import pytest

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.store.game import GameStore
from controlroom.store.station_lock import lock_path

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(11, "Gerd", "South", "Ravens")]
CSV = ("badge,name,side,group,class,paid,helmet,armour\r\n"
       "1,Aldo,North,Wolves,warrior,yes,,\r\n2,Birgit,North,Wolves,warrior,yes,leather,\r\n"
       "11,Gerd,South,Ravens,warrior,yes,,\r\n40,Õie,South,Ravens,warrior,yes,,\r\n")


def roster_import(db: str, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "late.csv"
    path.write_text(CSV, encoding="utf-8")
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "CONTROLROOM_LANG": "en"}
    return subprocess.run([sys.executable, "-m", "controlroom", "roster", "import", str(path), "--db", db],
                          capture_output=True, text=True, timeout=120, env=env)


def stored(db: str):
    with GameStore.open(db, create=False) as store:
        return {m.badge: m for m in store.roster()}, [e for _seq, e in store.log.events()]


def start(qtbot, db: str) -> CoreThread:
    ct = CoreThread(db, VirtualClock(60_000), publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    return ct


def test_a_game_file_open_at_a_station_refuses_the_import_and_a_second_station(qtbot, tmp_path):
    db = str(tmp_path / "fail.crgame")
    with GameStore.open(db) as store:
        store.save_roster(ROSTER)
    ct = start(qtbot, db)
    try:
        refused = roster_import(db, tmp_path)
        assert refused.returncode == 1
        assert refused.stderr == (
            f"controlroom: {db} is open at a station (process {os.getpid()} on {socket.gethostname()}), which would "
            "not see a new roster: add the players in its window (Game, Import roster…), or close the game there "
            "and import again; nothing was imported\n")
        members, events = stored(db)
        assert sorted(members) == [1, 2, 11] and events == []
        # A second station on the same file is refused too: one game file, one station running its timers.
        other = CoreThread(db, VirtualClock(60_000), publish_interval_ms=20)
        alarms = []
        other.alarm_raised.connect(lambda a: alarms.append(a.message))
        with qtbot.waitSignal(other.stopped, timeout=10_000):
            other.start()
        assert other.shutdown()
        assert alarms == [f"{db} is open at another station (process {os.getpid()} on {socket.gethostname()}): "
                          "a game file is run by one station at a time (several stations share a game on "
                          "PostgreSQL)"]
    finally:
        assert ct.shutdown()
    # Closed: the lock is let go, the import goes through and the log says when the players came.
    done = roster_import(db, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Roster imported: 4 players (1 added, 1 updated, 0 removed, 2 unchanged)")
    members, events = stored(db)
    assert members[40].name == "Õie" and members[2].helmet == "leather"
    assert [(e.type, list(e.data["added"]), e.source) for e in events] == [("roster_added", [40], "gm")]
    assert lock_path(db).exists()                   # left beside the game, held by nobody
    again = CoreThread(db, VirtualClock(60_000), publish_interval_ms=20)      # a station opens the game again
    with qtbot.waitSignal(again.loaded, timeout=10_000) as loaded:
        again.start()
    assert 40 in {c.badge for c in loaded.args[0].characters}
    assert again.shutdown()


def test_an_import_into_a_shared_game_reaches_the_open_station(qtbot, tmp_path, pg_url):
    with GameStore.open(pg_url) as store:
        store.save_roster(ROSTER)
    ct = start(qtbot, pg_url)
    try:
        with qtbot.waitSignal(ct.delta_published, timeout=20_000, check_params_cb=lambda d: d.full and any(
                c.badge == 40 for c in d.characters)) as delta:
            done = roster_import(pg_url, tmp_path)
            assert done.returncode == 0, done.stderr
        views = {c.badge: c for c in delta.args[0].characters}
        assert views[40].name == "Õie" and views[40].side == "South" and set(views) == {1, 2, 11, 40}
        # A report on the new player counts at the station at once.
        with qtbot.waitSignal(ct.delta_published, timeout=10_000, check_params_cb=lambda d: any(
                c.badge == 40 and c.condition == "unconscious" for c in d.characters)):
            ct.submit("down", {"badge": 40}, "marshal:8")
    finally:
        assert ct.shutdown()
    _members, events = stored(pg_url)
    assert [e.type for e in events] == ["roster_added", "down"]


@pytest.mark.parametrize("held", [True, False])
def test_the_lock_is_the_operating_systems(tmp_path, held):
    """Held by one holder at a time, in this process too; let go at release (or the holder's end)."""
    from controlroom.store.station_lock import StationBusyError, StationLock

    game = tmp_path / "g.crgame"
    first = StationLock.take(game)
    if not held:
        first.release()
        StationLock.take(game).release()
        return
    with pytest.raises(StationBusyError) as busy:
        StationLock.take(game)
    assert busy.value.holder == f"process {os.getpid()} on {socket.gethostname()}"
    first.release()
