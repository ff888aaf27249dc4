"""Regression (issue 15): after night mode, a start with a map, or placing a map, crashed.

MapView once kept its map item in ``_background``, the name pyqtgraph's
GraphicsView gives its background colour: night mode's ``setBackground``
overwrote the item with a colour, and the next map asked the scene to remove
a string (``QGraphicsScene.removeItem(str)``, exit 1).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtGui import QImage

from controlroom.geo.source import open_map
from controlroom.ui.map.view import MapView

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def _demo_map(folder: Path) -> Path:
    for suffix in (".png", ".pgw", ".prj"):
        shutil.copy(DEMO / f"field{suffix}", folder / f"field{suffix}")
    return folder / "field.png"


def test_a_map_is_placed_again_after_the_background_colour_changed(qtbot, tmp_path):
    view = MapView()
    qtbot.addWidget(view)
    source = open_map(_demo_map(tmp_path))
    view.set_map(source)
    view.setBackground("#101010")            # night mode
    view.set_map(source)                     # View, Place a map, after the switch
    view.setBackground("w")                  # day again
    view.clear_background()
    view.set_map(source)
    assert view.background_item is not None and view.background_item.scene() is view.scene()
    # No attribute of MapView overwrites one pyqtgraph's view keeps for itself with something else.
    plain = pg.PlotWidget()
    qtbot.addWidget(plain)
    mine = MapView()
    qtbot.addWidget(mine)
    clashes = {name for name, value in vars(plain).items()
               if name in vars(mine) and type(vars(mine)[name]) is not type(value)}
    assert not clashes, clashes


def _env(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"))
    env.pop("CONTROLROOM_LOG_DIR", None)
    return env


def test_night_mode_then_close_then_reopen_with_a_map(tmp_path):
    """Night mode set (and remembered), the window closed; the next start with a map shows the map."""
    env = _env(tmp_path)
    game = tmp_path / "night.crgame"
    conf = tmp_path / "config" / "controlroom" / "controlroom.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text("[window]\nnight=true\n")
    first = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(game), "--quit-after", "2"],
                           capture_output=True, text=True, timeout=120, env=env)
    assert first.returncode == 0, first.stderr
    assert "night=true" in conf.read_text()              # closed at night: the next start is at night
    (tmp_path / "maps").mkdir()
    shot = tmp_path / "again.png"
    again = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(game), "--map",
                            str(_demo_map(tmp_path / "maps")), "--quit-after", "3", "--screenshot", str(shot)],
                           capture_output=True, text=True, timeout=120, env=env)
    assert again.returncode == 0, again.stderr
    assert "removeItem" not in again.stderr
    image = QImage(str(shot))
    assert not image.isNull()
    # The demo field's green is on screen: the map was shown, under night mode.
    greens = sum(1 for y in range(0, image.height(), 8) for x in range(0, image.width(), 8)
                 if (lambda c: c.green() > c.red() + 15 and c.green() > c.blue() + 15)(image.pixelColor(x, y)))
    assert greens > 200, greens
