"""SiegePanel: the siege engines' latest reports from the field reports of a real GameState."""

import pytest
from PySide6.QtCore import Qt

from controlroom.game.state import GameState
from controlroom.game.views import make_delta
from controlroom.ui.panels.siege import ENGINE_ROLE, STATUS_COLOURS, SiegePanel
from tests.support.panel_game import ROSTER, fold


@pytest.fixture
def panel(qtbot):
    p = SiegePanel()
    qtbot.addWidget(p)
    return p


def table(model):
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def battle():
    state = GameState(ROSTER)
    return state, fold(state,
                       ("00:05:00", "siege_status", {"engine": "Trebuchet", "status": "moved",
                                                     "lat": 59.123456, "lon": 18.5}),
                       ("00:06:00", "siege_status", {"engine": "Ram", "status": "firing"}),
                       ("00:09:30", "siege_status", {"engine": "Trebuchet", "status": "damaged",
                                                     "lat": 59.2, "lon": 18.654321}))


def test_engines_with_status_time_and_position(panel):
    _state, delta = battle()
    panel.apply_delta(delta)
    assert table(panel.model) == [
        ["Ram", "firing", "00:06:00", "", ""],
        ["Trebuchet", "damaged", "00:09:30", "59.20000", "18.65432"],
    ]
    m = panel.model
    assert [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())] == [
        "Engine", "Status", "Last report", "Latitude", "Longitude"]
    assert m.data(m.index(1, 1), Qt.ItemDataRole.ForegroundRole).color() == STATUS_COLOURS["damaged"]
    assert m.data(m.index(0, 1), Qt.ItemDataRole.ForegroundRole) is None
    assert m.data(m.index(0, 3), Qt.ItemDataRole.ToolTipRole) == "No position reported"


def test_later_reports_replace_and_empty_field_keeps(panel):
    state, delta = battle()
    panel.apply_delta(delta)
    panel.apply_delta(fold(state, ("00:12:00", "siege_status", {"engine": "Ram", "status": "destroyed"})))
    assert table(panel.model)[0][:3] == ["Ram", "destroyed", "00:12:00"]
    panel.apply_delta(delta._replace(field={}))
    assert panel.model.rowCount() == 2
    panel.apply_delta(make_delta(GameState(ROSTER), (), (), full=True))    # a fresh game: no engines
    assert panel.model.rowCount() == 0


def test_double_click_activates_the_engine(panel, qtbot):
    _state, delta = battle()
    panel.apply_delta(delta)
    index = panel.model.index(1, 3)
    assert panel.model.data(index, ENGINE_ROLE) == "Trebuchet"
    with qtbot.waitSignal(panel.engine_activated, timeout=2000) as blocker:
        panel.view.doubleClicked.emit(index)
    assert blocker.args == ["Trebuchet"]
