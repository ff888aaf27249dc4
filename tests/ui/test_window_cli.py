"""`controlroom --db GAME` opens the window on a game; `controlroom` alone opens the last one."""

import os
import subprocess
import sys

from PySide6.QtGui import QImage

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.game import GameStore


def _env(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"))
    env.pop("CONTROLROOM_LOG_DIR", None)
    return env


def test_window_opens_a_game_and_then_the_last_one(tmp_path):
    game = tmp_path / "ford.crgame"
    with GameStore.open(game) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "South", "Ravens")])
        store.log.append([make_event(0, "down", "marshal:1", badge=1)])
    shot = tmp_path / "window.png"
    r = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(game), "--quit-after", "3",
                        "--screenshot", str(shot)], capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    assert r.returncode == 0, r.stderr
    assert not QImage(str(shot)).isNull()
    again = tmp_path / "again.png"
    r = subprocess.run([sys.executable, "-m", "controlroom", "--quit-after", "3", "--screenshot", str(again)],
                       capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    assert r.returncode == 0, r.stderr           # no dialog: the last game was opened
    assert not QImage(str(again)).isNull()
    # The recent games are still that one game (a list of one comes back from the INI file as a
    # string: read as a list, it was the game's path letter by letter).
    conf = (tmp_path / "config" / "controlroom" / "controlroom.conf").read_text()
    assert f"recent={game}\n" in conf, conf
    # Each window wrote a log of its own, in the platform's log folder (Linux: $XDG_STATE_HOME/controlroom/log).
    logs = sorted((tmp_path / "state" / "controlroom" / "log").glob("window-*.log"))
    assert len(logs) == 2 and all("controlroom window started" in p.read_text() for p in logs)


def test_bad_origin_is_a_clear_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(tmp_path / "g.crgame"), "--origin", "north"],
                       capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert r.returncode == 1 and "--origin takes LAT,LON" in r.stderr
