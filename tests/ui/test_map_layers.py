"""MapLayers: deltas become map layers; a STOPP flashes until its alarm is acknowledged."""

import pytest

from controlroom.game.events import make_event
from controlroom.game.state import GameState
from controlroom.game.views import StoredView
from controlroom.geo.frame import MapFrame
from controlroom.ui.map.layers import MapLayers
from controlroom.ui.map.view import MapView
from tests.support.panel_game import ROSTER, fold


def test_stopp_on_the_map_until_acknowledged_and_groups_in_side_colours(qtbot):
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    layers = MapLayers(view, MapFrame(58.38, 26.72))
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


def test_movement_trails_keep_the_last_minutes(qtbot):
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    layers = MapLayers(view, MapFrame(58.38, 26.72), trail_minutes=10)
    layers.set_devices({"marshal:M1": {"role": "tracker", "group": "Wolves"}})
    state = GameState(ROSTER)
    for minute in range(0, 30, 2):
        layers.apply(fold(state, (f"00:{minute:02d}:00", "position",
                                  {"device": 5, "lat": 58.38 + minute * 1e-5, "lon": 26.72})))
    view.flush()
    # Positions of the last 10 minutes before the current one: 18, 20, ..., 26.
    assert len(view.layer_item("trails").data) == 5


def test_an_event_is_found_on_the_map_by_its_position_or_its_group(qtbot):
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    projection = MapFrame(58.38, 26.72)
    layers = MapLayers(view, projection)
    layers.set_devices({"marshal:M1": {"role": "tracker", "group": "Wolves"}})
    state = GameState(ROSTER)
    layers.apply(fold(state, ("00:01:00", "position", {"device": 5, "lat": 58.381, "lon": 26.721}),
                      ("00:01:10", "down", {"badge": 2})))
    x, y = layers.where(make_event(70_000, "down", "marshal:9", badge=2))        # Birgit is a Wolf
    assert (round(x), round(y)) == tuple(round(v) for v in projection.to_local(58.381, 26.721))
    stopp = make_event(80_000, "stopp_called", "marshal:9", stopp="9-1", lat=58.3805, lon=26.7205)
    assert layers.where(stopp) == projection.to_local(58.3805, 26.7205)


def test_valhalla_counts_per_side_and_marshals_show_their_last_report(qtbot):
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    layers = MapLayers(view, MapFrame(58.38, 26.72), valhalla=(58.3761, 26.7318))
    layers.set_devices({"marshal:M1": {"role": "marshal", "label": "Marshal North"}})
    state = GameState(ROSTER)
    layers.apply(fold(state, ("00:01:00", "position", {"device": 5, "lat": 58.381, "lon": 26.721, "battery": 80}),
                      ("00:02:00", "permanent_kill", {"badge": 11}), ("00:03:30", "note", {"text": "x"})))
    view.flush()
    assert view.label_of("valhalla", 0) == "Valhalla: North 0 dead (0 here), South 1 dead (0 here)"
    assert view.label_of("marshals", 0) == "Marshal North: last report 2 min 30 s ago, battery 80 %"


def test_without_a_map_the_frame_is_centred_on_the_first_positions(qtbot):
    """No map and no --origin: the view is centred where the field's positions are, not in Tartu."""
    view = MapView(paint_hz=50)
    qtbot.addWidget(view)
    layers = MapLayers(view)
    layers.set_devices({"marshal:M1": {"role": "tracker", "group": "Wolves"}})
    assert layers.projection is None
    state = GameState(ROSTER)
    layers.apply(fold(state, ("00:00:10", "position", {"device": 5, "lat": 59.437, "lon": 24.7536})))
    assert (layers.projection.lat0, layers.projection.lon0) == (59.437, 24.7536)
    view.flush()
    x, y = (float(v[0]) for v in view.layer_item("groups").getData())
    assert (x, y) == pytest.approx((0.0, 0.0), abs=1e-6)
    view.fit_to_field()
    rect = view.getPlotItem().getViewBox().viewRect()
    assert rect.contains(0.0, 0.0) and rect.width() < 1000
