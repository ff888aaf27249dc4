"""Every command takes --db postgresql+psycopg://...; a server that cannot be reached is said in words."""

import os
import subprocess
import sys

import pytest

from controlroom.cli import main
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.migrations import LATEST


def test_an_unreachable_server_is_a_clear_error():
    with pytest.raises(StoreError, match="cannot reach the database server for the game database "
                                         r"postgresql\+psycopg://nobody@127.0.0.1:1/game: check the network"):
        GameStore.open("postgresql+psycopg://nobody@127.0.0.1:1/game")


def test_a_missing_database_on_the_server_is_a_clear_error(pg_url):
    missing = pg_url.rsplit("/", 1)[0] + "/no_such_game"
    with pytest.raises(StoreError, match="does not exist on the server: ask its administrator to create it"):
        GameStore.open(missing)


def test_a_shared_game_needs_no_checkpoints_and_keeps_its_integrity(pg_url):
    with GameStore.open(pg_url) as store:
        store.checkpoint_in_background(interval=0.01)      # a no-op on a server
        assert store._checkpointer is None and store.integrity_ok()


def test_keys_and_roster_commands_on_a_shared_game(pg_url, capsys):
    with GameStore.open(pg_url) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves")])
    assert main(["keys", "new", "7", "--role", "marshal", "--db", pg_url, "--label", "Marshal 7"]) == 0
    assert main(["keys", "list", "--db", pg_url]) == 0
    assert "Marshal 7" in capsys.readouterr().out


def test_the_window_opens_a_shared_game(pg_url, tmp_path):
    with GameStore.open(pg_url) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "South", "Ravens")])
        store.log.append([make_event(0, "down", "marshal:1", badge=1)])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    shot = tmp_path / "window.png"
    r = subprocess.run([sys.executable, "-m", "controlroom", "--db", pg_url, "--quit-after", "3",
                        "--screenshot", str(shot)], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert shot.stat().st_size > 0


def test_stations_opening_a_new_shared_game_at_once_make_one_schema(pg_url):
    import threading

    opened, errors = [], []

    def station():
        try:
            with GameStore.open(pg_url) as store:
                opened.append(store.meta("schema_version"))
        except StoreError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=station) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and opened == [str(LATEST)] * 4
