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


def _magenta(path) -> int:
    """Pixels of the test map's colour in a screenshot."""
    img = QImage(str(path))
    assert not img.isNull()
    return sum(1 for y in range(0, img.height(), 4) for x in range(0, img.width(), 4)
               if (lambda c: (c.red(), c.green(), c.blue()))(img.pixelColor(x, y)) == (200, 30, 200))


def test_the_map_and_ports_are_kept_with_the_game(tmp_path):
    """--map and --port once; then --db alone (as Open recent runs it) shows the same map and opens the same port."""
    import shutil

    import pytest

    from controlroom.store.maps import current_map, stored_ports

    gdal_create = shutil.which("gdal_create")
    if gdal_create is None:
        if os.environ.get("CI", "").lower() not in ("", "0", "false"):
            pytest.fail("gdal_create is missing (Debian package gdal-bin)")
        pytest.skip("gdal_create is missing (Debian package gdal-bin)")
    tif = tmp_path / "maps" / "field.tif"
    tif.parent.mkdir()
    subprocess.run([gdal_create, "-q", "-of", "GTiff", "-outsize", "400", "300", "-bands", "3", "-burn", "200",
                    "-burn", "30", "-burn", "200", "-a_srs", "EPSG:3301", "-a_ullr", "658900", "6474400", "659300",
                    "6474100", str(tif)], check=True)
    game = tmp_path / "ford.crgame"
    first = tmp_path / "first.png"
    r = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(game), "--map", str(tif), "--port", "loop://",
                        "--quit-after", "4", "--screenshot", str(first)],
                       capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    assert r.returncode == 0, r.stderr
    assert _magenta(first) > 100
    with GameStore.open(game, create=False) as store:
        kept = current_map(store)
        assert (kept.name, kept.kind, kept.width, kept.height) == ("field.tif", "geotiff", 400, 300)
        assert "Estonian" in kept.crs and stored_ports(store) == ["loop://"]
    shutil.rmtree(tif.parent)                    # the organiser's file is gone: the game has its own copy
    again = tmp_path / "again.png"
    r = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(game), "--quit-after", "4",
                        "--screenshot", str(again)], capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    assert r.returncode == 0, r.stderr
    assert _magenta(again) > 100
    logs = sorted((tmp_path / "state" / "controlroom" / "log").glob("window-*.log"))
    assert "gateways kept with the game: loop://" in logs[-1].read_text()


def test_origin_is_deprecated_but_accepted(tmp_path):
    r = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(tmp_path / "g.crgame"),
                        "--origin", "58.38,26.72", "--quit-after", "1"],
                       capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert r.returncode == 0 and "--origin is no longer needed" in r.stderr
