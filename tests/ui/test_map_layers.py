"""MapLayers: deltas become map layers; a STOPP flashes until its alarm is acknowledged."""

from panel_game import ROSTER, fold

from controlroom.game.state import GameState
from controlroom.game.views import StoredView
from controlroom.game.events import make_event
from controlroom.ui.geo import LocalProjection
from controlroom.ui.map_layers import MapLayers
from controlroom.ui.map_view import MapView


def test_stopp_on_the_map_until_acknowledged_and_groups_in_side_colours(qtbot):
    view = MapView(projection=LocalProjection(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    layers = MapLayers(view, LocalProjection(58.38, 26.72))
    layers.set_devices({"marshal:M1": {"role": "tracker", "group": "Wolves"}})   # the source fold() reports from
    state = GameState(ROSTER)
    delta = fold(state, ("00:00:10", "position", {"device": 5, "lat": 58.381, "lon": 26.721}),
                 ("00:00:20", "stopp_called", {"stopp": "7-1", "reason": "injury", "lat": 58.3805, "lon": 26.7205}),
                 ("00:00:30", "down", {"badge": 1}))
    layers.apply(delta)
    assert layers.unacknowledged == {"7-1"}
    view.flush()
    assert len(view.layer_item("stopp").data) == 1 and len(view.layer_item("groups").data) == 1
    assert len(view.layer_item("casualties").data) == 1            # Aldo is down, near his group
    ack = make_event(40_000, "alarm_acknowledged", "gm", alarm="stopp:7-1")
    layers.apply(fold(state)._replace(events=(StoredView(9, 0, ack),)))
    assert layers.unacknowledged == set()
