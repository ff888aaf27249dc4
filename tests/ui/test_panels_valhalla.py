"""ValhallaPanel and SideSummaryBar: the dead per side and group, Valhalla, deaths, respawn countdowns."""

import pytest

from controlroom.game.state import GameState
from controlroom.game.views import make_delta
from controlroom.ui.panels.sides import SideSummaryBar
from controlroom.ui.panels.valhalla import ValhallaPanel
from tests.support.panel_game import ROSTER, Clock, fold, ms


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def panel(qtbot, clock):
    p = ValhallaPanel(clock)
    qtbot.addWidget(p)
    return p


def table(model):
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def battle():
    """Respawn after 10 minutes; Birgit dies twice, Gerd once, Carl is knocked out."""
    state = GameState(ROSTER)
    full = fold(state, ("00:00:00", "scenario_started", {"name": "Ford", "respawn": True, "respawn_time": 600}))
    steps = [
        fold(state, ("00:01:00", "died", {"badge": 2}), ("00:02:00", "valhalla_checkin", {"badge": 2})),
        fold(state, ("00:11:00", "respawned", {"badge": 2})),
        fold(state, ("00:12:00", "permanent_kill", {"badge": 2, "by": 11}),
             ("00:13:00", "valhalla_checkin", {"badge": 2}),
             ("00:14:00", "died", {"badge": 11}),
             ("00:14:30", "knocked_out", {"badge": 3})),
    ]
    return state, full, steps


def test_groups_fallen_and_respawn_countdowns(panel, clock):
    state, full, steps = battle()
    panel.apply_delta(make_delta(state, (), (), full=True))
    clock.t = ms("00:15:00")
    panel.refresh()
    assert table(panel.group_model) == [
        # side, group, dead now, in Valhalla, deaths, members
        ["North", "Bears", "0", "0", "0", "1"],
        ["North", "Wolves", "1", "1", "2", "2"],
        ["South", "Ravens", "1", "0", "1", "2"],
    ]
    assert table(panel.fallen_model) == [
        ["Birgit (2)", "North", "Wolves", "in Valhalla", "2", "7:00"],
        ["Gerd (11)", "South", "Ravens", "dead, not yet in Valhalla", "1", "9:00"],
    ]
    clock.t = ms("00:20:00")
    panel.refresh()
    assert [row[5] for row in table(panel.fallen_model)] == ["2:00", "4:00"]


def test_big_numbers_per_side(panel, clock):
    state, _full, _steps = battle()
    panel.apply_delta(make_delta(state, (), (), full=True))
    assert panel.side_text("North") == "North\n1 dead \u00b7 1 in Valhalla \u00b7 2 deaths"
    assert panel.side_labels["South"].text() == "South\n1 dead \u00b7 0 in Valhalla \u00b7 1 deaths"


def test_deltas_update_only_their_characters(panel, clock):
    state, full, steps = battle()
    panel.apply_delta(full)
    assert panel.fallen_model.rowCount() == 0
    clock.t = ms("00:02:00")
    panel.apply_delta(steps[0])
    assert table(panel.fallen_model) == [["Birgit (2)", "North", "Wolves", "in Valhalla", "1", "9:00"]]
    panel.apply_delta(steps[1])
    assert table(panel.fallen_model) == [["Birgit (2)", "North", "Wolves", "alive again", "1", ""]]
    panel.apply_delta(steps[2])
    assert [row[0] for row in table(panel.fallen_model)] == ["Birgit (2)", "Gerd (11)"]
    assert panel.group_model.rowCount() == 3


def test_respawn_held_by_a_stopp(panel, clock):
    state, _full, _steps = battle()
    panel.apply_delta(fold(state, ("00:16:00", "stopp_called", {"stopp": "S1", "badges": [11], "reason": "injury"})))
    clock.t = ms("00:20:00")
    panel.refresh()
    gerd = [row for row in table(panel.fallen_model) if row[0] == "Gerd (11)"][0]
    assert gerd[5] == "held 8:00"


def test_side_summary_bar(qtbot):
    bar = SideSummaryBar()
    qtbot.addWidget(bar)
    state, _full, _steps = battle()
    bar.apply_delta(make_delta(state, (), (), full=True))
    assert bar.labels["North"].text() == "North: 1 active \u00b7 0 unconscious \u00b7 1 knocked out \u00b7 1 dead"
    assert bar.labels["South"].text() == "South: 1 active \u00b7 0 unconscious \u00b7 0 knocked out \u00b7 1 dead"
