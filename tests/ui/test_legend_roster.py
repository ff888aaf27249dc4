"""The map's legend follows the roster: a game whose players come after the window opened shows their sides.

Issue 37: a window opened on a simulator's game while the simulator registered
its roster showed "Sides (none yet)" in the legend while the status bar counted
every side.  The legend was set only where the map's layers were drawn, and
those are not drawn while there is nothing to place (no map, no position heard).
"""

import pytest
from PySide6.QtCore import QSettings

from controlroom.core.thread import CoreThread
from controlroom.engine.commands import AddPlayers
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.game.roster_csv import read_roster_entries
from controlroom.game.state import GameState
from controlroom.game.views import make_delta
from controlroom.rules.profile import default_profile
from controlroom.store.game import GameStore
from controlroom.ui.app import build_window
from controlroom.ui.map.layers import MapLayers
from controlroom.ui.map.view import MapView

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

DESK = ("badge,name,side,group,class,paid,helmet,armour\r\n"
        "1,Aldo,North,Wolves,warrior,yes,,\r\n"
        "2,Birgit,South,Ravens,warrior,yes,,\r\n"
        "3,Carl,East,Bears,warrior,yes,,\r\n")


@pytest.fixture
def window(qtbot, tmp_path):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    path = tmp_path / "empty.crgame"
    GameStore.open(path).close()                # a new game: no roster yet, no map, nothing heard
    core = CoreThread(str(path), VirtualClock(60_000), publish_interval_ms=20)
    w = build_window(core, None, "legend")
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    yield w
    assert core.shutdown()


def test_players_added_after_the_window_opened_show_their_sides_in_the_legend(qtbot, window):
    legend = window.map.legend
    qtbot.waitUntil(lambda: window.status.text() == "", timeout=5_000)     # the opening's delta is shown
    assert legend.sides == {} and "(none yet)" in legend.text()
    entries = tuple(read_roster_entries(DESK, default_profile()))
    window.core.send(AddPlayers(1, entries, True))
    qtbot.waitUntil(lambda: set(window.sides.counts) == {"East", "North", "South"}, timeout=10_000)
    qtbot.waitUntil(lambda: set(legend.sides) == {"East", "North", "South"}, timeout=5_000)
    assert "(none yet)" not in legend.text()
    assert all(side in legend.text() for side in ("East", "North", "South"))


def test_a_full_delta_sets_the_legend_with_no_map_and_nothing_heard(qtbot):
    view = MapView(paint_hz=50)
    qtbot.addWidget(view)
    layers = MapLayers(view)
    layers.apply(make_delta(GameState([]), (), (), full=True))
    assert view.legend.sides == {}
    roster = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Gerd", "South", "Ravens")]
    layers.apply(make_delta(GameState(roster), (), (), full=True))          # folded again over a new roster
    assert list(view.legend.sides) == ["North", "South"]
    # A group moved to another side, and a side left with no one: the legend follows the roster as it is.
    moved = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Gerd", "North", "Ravens")]
    layers.apply(make_delta(GameState(moved), (), (), full=True))
    assert list(view.legend.sides) == ["North"]
    assert layers.side_of_group == {"Wolves": "North", "Ravens": "North"}
