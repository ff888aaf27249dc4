"""Tables nobody sees are drawn when they show: the Valhalla dock behind a tab and the Valhalla desk.

A game of 8,000 players opens without sorting its fallen for these tables;
what they show once raised is what the game holds.
"""

import pytest
from PySide6.QtCore import QSettings

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.ui.app import build_window
from tests.support.desk_game import new_game

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                                       "This plugin does not support raise")


@pytest.fixture
def window(qtbot, tmp_path):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    core = CoreThread(new_game(tmp_path / "hidden.crgame"), VirtualClock(120_000), publish_interval_ms=20)
    w = build_window(core, None, "hidden")
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    # Laid out before the game opens: the Valhalla dock behind another's tab.  (Opened first, on a busy
    # machine, the game reached the dock while it still showed, and it rightly drew its rows.)
    # The window shown and its own layout done (the 0 ms layout after showing, and the one 100 ms after a
    # resize): a region empty before the window is exposed, or before the relayout, proved nothing.
    valhalla = w.panels.panels["valhalla"]
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: (w._auto_layout and not w._relayout.isActive() and valhalla.isVisible()
                             and w.tabifiedDockWidgets(w.panels.docks["valhalla"])
                             and valhalla.visibleRegion().isEmpty()), timeout=5000)
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    yield w
    assert core.shutdown()


def rows(model):
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_the_valhalla_dock_behind_a_tab_draws_its_tables_when_raised(qtbot, window):
    panel = window.panels.panels["valhalla"]
    qtbot.waitUntil(lambda: panel.visibleRegion().isEmpty(), timeout=5000)   # its dock behind another's tab
    dead = {f.badge for f in panel.data.fallen()}
    assert dead                                           # the game has its fallen ...
    assert panel.fallen_model.rowCount() == 0             # ... not yet drawn for nobody
    window.panels.docks["valhalla"].raise_()
    qtbot.waitUntil(lambda: not panel.visibleRegion().isEmpty(), timeout=5000)
    assert {r.badge for r in panel.fallen_model.rows} == dead
    assert rows(panel.group_model) and panel.side_labels
    # A change while it shows is drawn at once.
    window.core.submit("down", {"badge": 11}, "gm")
    qtbot.waitUntil(lambda: panel.data.characters[11].condition == "unconscious", timeout=5000)
    assert not panel._stale and panel.fallen_model.rows == panel.data.fallen()


def test_the_valhalla_desk_draws_when_chosen(qtbot, window):
    desk = window.desk_switch.desks["valhalla"]
    assert not desk.isVisible()
    dead = {f.badge for f in desk.data.fallen() if f.dead}
    assert dead and desk.model.rowCount() == 0
    window.desk_switch.show_desk("valhalla")
    qtbot.waitUntil(desk.isVisible, timeout=5000)
    assert {r.badge for r in desk.model.rows} == dead
    assert set(desk.side_labels) == {"North", "South"}
    assert desk.side_labels["North"].text() == desk.side_text("North")
