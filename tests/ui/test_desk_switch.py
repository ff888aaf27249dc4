"""The window's desk switch (View, Desk) and `controlroom --desk valhalla|weapons|devices`."""

import os
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.ui.app import wire_desks
from controlroom.ui.desks.switch import DeskSwitch
from controlroom.ui.desks.valhalla import ValhallaDesk
from controlroom.ui.desks.weapons import WeaponDesk
from tests.support.desk_game import new_game

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def dock(window, name):
    d = QDockWidget(name, window)
    d.setObjectName(name)
    d.setWidget(QLabel(name))
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
    return d


def test_a_desk_takes_the_middle_and_hides_the_docks_but_the_alarms(qtbot, tmp_path):
    game = new_game(tmp_path / "s.crgame")
    core = CoreThread(game, VirtualClock(120_000), publish_interval_ms=20)
    window = QMainWindow()
    qtbot.addWidget(window)
    alarms, deadlines, closed = dock(window, "dock_alarms"), dock(window, "dock_deadlines"), dock(window, "dock_radio")
    the_map = QLabel("map")
    switch = DeskSwitch(window, core, the_map)
    wire_desks(core, switch)                     # as ui/app.py wires the window
    window.setCentralWidget(switch.stack)
    switch.add_menu(window.menuBar().addMenu("View"))
    window.show()
    closed.hide()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        valhalla, weapons = switch.desks["valhalla"], switch.desks["weapons"]
        assert isinstance(valhalla, ValhallaDesk) and isinstance(weapons, WeaponDesk)
        assert set(valhalla.data.characters) == {1, 2, 3, 11, 12}       # the desks read the core's deltas
        assert switch.shown() is the_map and switch.stack.currentWidget() is the_map
        switch.actions["valhalla"].trigger()
        assert switch.shown() is valhalla and switch.current == "valhalla"
        assert switch.stack.currentWidget().widget() is valhalla         # in a scroll area of its own
        assert alarms.isVisible() and not deadlines.isVisible()
        assert valhalla.badge_field.hasFocus()              # ready for the first badge
        switch.show_desk("weapons")
        assert switch.shown() is weapons and switch.actions["weapons"].isChecked()
        assert not deadlines.isVisible()
        switch.actions["map"].trigger()
        assert switch.shown() is the_map
        assert deadlines.isVisible() and not closed.isVisible()     # a dock closed before stays closed
        with pytest.raises(ValueError, match="no desk named 'kitchen'"):
            switch.show_desk("kitchen")
        with qtbot.waitSignal(core.events_stored, timeout=5000):
            valhalla.badge_field.setText("2")
            valhalla.check_in()                   # a desk's entry goes to the core
    finally:
        assert core.shutdown()


def _env(tmp_path):
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
                XDG_CONFIG_HOME=str(tmp_path / "config"))


def test_the_window_opens_as_a_desk(tmp_path):
    game = new_game(tmp_path / "desk.crgame")
    shots = {}
    for desk in ("map", "valhalla", "weapons", "devices"):
        shots[desk] = tmp_path / f"{desk}.png"
        r = subprocess.run([sys.executable, "-m", "controlroom", "--db", game, "--desk", desk, "--quit-after", "3",
                            "--screenshot", str(shots[desk])], capture_output=True, text=True, timeout=120,
                           env=_env(tmp_path))
        assert r.returncode == 0, r.stderr
    images = {desk: QImage(str(path)) for desk, path in shots.items()}
    assert not any(image.isNull() for image in images.values())
    assert images["valhalla"] != images["map"] and images["weapons"] != images["map"]
    assert images["valhalla"] != images["weapons"] and images["devices"] not in (images["map"], images["weapons"])
    r = subprocess.run([sys.executable, "-m", "controlroom", "--db", game, "--desk", "kitchen"],
                       capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert r.returncode == 2 and "invalid choice: 'kitchen'" in r.stderr
