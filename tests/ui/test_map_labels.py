"""Groups read at a glance: labels with name and counts that avoid each other and hide far out; a legend;
casualties where they fell, or drawn near their group."""

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRect, QRectF, QSettings

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock, parse_time
from controlroom.game.events import make_event
from controlroom.game.state import GameState
from controlroom.game.views import StoredView, make_delta
from controlroom.geo.frame import MapFrame
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from controlroom.ui.app import build_window
from controlroom.ui.map.labels import Box, place_labels
from controlroom.ui.map.layers import MapLayers
from controlroom.ui.map.map_labels import LABEL_MAX_M_PER_PX
from controlroom.ui.map.view import MapView
from tests.support.panel_game import ROSTER

FIELD = Path(__file__).resolve().parents[2] / "resources" / "demo" / "field.png"


def test_labels_take_the_first_free_side_and_give_up_when_crowded():
    boxes = place_labels([(100, 100), (100, 104)], [(60, 14), (60, 14)], gap=8, markers=[(100, 100), (100, 104)])
    assert boxes[0] == Box(108, 93, 60, 14)                    # right of its marker
    assert boxes[1].x + boxes[1].w <= 100 - 8 + 1e-9           # the next one goes left
    assert not boxes[0].overlaps(boxes[1])
    crowd = place_labels([(100, 100)] * 6, [(60, 14)] * 6)
    assert sum(b is not None for b in crowd) == 4 and crowd[4] is None
    inside = place_labels([(195, 50)], [(60, 14)], view=Box(0, 0, 200, 100))
    assert inside[0].x + inside[0].w <= 200                    # not off the view's right edge: left instead


def _view(qtbot):
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    qtbot.waitExposed(view)
    return view


def _rects(view):
    return [label.scene_rect for label in view.shown_labels()]


def test_map_labels_never_overlap_and_hide_far_out(qtbot):
    view = _view(qtbot)
    view.getViewBox().setRange(QRectF(-200, -150, 400, 300), padding=0)
    points = [(0, 0, "Wolves 10\u2191 2\u2193 1\u2020"), (5, 3, "Ravens 8\u2191 0\u2193 0\u2020"),
              (-4, 2, "Bears 3\u2191 1\u2193 0\u2020"), (100, 50, "Lions 9\u2191 0\u2193 0\u2020")]
    view.set_labels(points)
    view.flush()
    rects = _rects(view)
    assert len(rects) == 4
    for a in range(len(rects)):
        for b in range(a + 1, len(rects)):
            assert not rects[a].intersects(rects[b]), (a, b)
    assert {label.text for label in view.shown_labels()} == {t for *_xy, t in points}
    view.getViewBox().setRange(QRectF(-5000, -4000, 10000, 8000), padding=0)          # far out
    view.flush()
    assert view.metres_per_pixel() > LABEL_MAX_M_PER_PX and view.shown_labels() == []
    view.getViewBox().setRange(QRectF(-200, -150, 400, 300), padding=0)
    view.flush()
    assert len(view.shown_labels()) == 4
    view.set_layer_visible("groups", False)              # no group markers: no group labels
    view._range_changed()
    view.flush()
    assert view.shown_labels() == []


def feed(state, *events, full=False):
    """Fold (time, type, source, fields) events; the delta of what changed, with the events themselves."""
    stored = []
    for t, type_, source, fields in events:
        event = make_event(parse_time(t), type_, source, **fields)
        state.apply(event)
        stored.append(StoredView(len(stored) + 1, 0, event))
    badges, stopps = state.take_dirty()
    return make_delta(state, badges, stopps, events=stored, full=full)


def test_groups_carry_name_and_counts_and_the_legend_names_the_sides(qtbot):
    view = _view(qtbot)
    layers = MapLayers(view, view.projection)
    layers.set_devices({"tracker:5": {"group": "Wolves"}, "tracker:6": {"group": "Ravens"}})
    state = GameState(ROSTER)
    layers.apply(feed(state, ("00:00:10", "position", "tracker:5", {"device": 5, "lat": 58.381, "lon": 26.721}),
                      ("00:00:11", "position", "tracker:6", {"device": 6, "lat": 58.379, "lon": 26.719}),
                      ("00:00:20", "down", "marshal:M1", {"badge": 1}),
                      ("00:00:30", "died", "marshal:M1", {"badge": 2}), full=True))
    view.fit_to_field()
    view.flush()
    texts = sorted(t for *_xy, t in view._labels)
    assert texts == ["Ravens 2\u2191 0\u2193 0\u2020", "Wolves 0\u2191 1\u2193 1\u2020"]
    assert [t for *_xy, t in view._labels][0].startswith("Wolves")          # most fallen first
    assert len(view.shown_labels()) == 2
    legend = view.legend.text()
    assert "North" in legend and "South" in legend and layers.side_colour["North"] in legend
    assert "marshal" in legend and "dead" in legend


def test_a_casualty_sits_where_it_was_reported_else_near_its_group(qtbot):
    view = _view(qtbot)
    frame = view.projection
    layers = MapLayers(view, frame)
    layers.set_devices({"marshal:M1": {"role": "marshal"}, "tracker:5": {"group": "Wolves"}})
    state = GameState(ROSTER)
    # Aldo goes down; the report has no position and the marshal's handset none yet: near his group.
    layers.apply(feed(state, ("00:00:05", "position", "tracker:5", {"device": 5, "lat": 58.381, "lon": 26.721}),
                      ("00:00:10", "down", "marshal:M1", {"badge": 1})))
    view.flush()
    x, y = view.layer_item("casualties").getData()
    gx, gy = frame.to_local(58.381, 26.721)
    assert len(x) == 1 and 10 <= np.hypot(x[0] - gx, y[0] - gy) <= 30
    assert "near group Wolves" in view.label_of("casualties", 0)
    first = (float(x[0]), float(y[0]))
    layers.apply(feed(state, ("00:00:12", "position", "tracker:5", {"device": 5, "lat": 58.381, "lon": 26.721})))
    view.flush()
    x, y = view.layer_item("casualties").getData()
    assert (float(x[0]), float(y[0])) == first                                 # never jumps about
    # The marshal's handset gives its position; then Birgit is reported down: she lies where the marshal stood.
    layers.apply(feed(state, ("00:00:20", "position", "marshal:M1", {"device": 9, "lat": 58.3795, "lon": 26.7195}),
                      ("00:00:30", "down", "marshal:M1", {"badge": 2})))
    view.flush()
    xs, ys = view.layer_item("casualties").getData()
    labels = [view.label_of("casualties", i) for i in range(len(xs))]
    at = labels.index("badge 2: unconscious (at the reporting marshal)")
    mx, my = frame.to_local(58.3795, 26.7195)
    assert abs(xs[at] - mx) < 0.5 and abs(ys[at] - my) < 0.5
    # Up again: off the map.
    layers.apply(feed(state, ("00:00:40", "healer_touch", "marshal:M1", {"badge": 2, "healer": 3})))
    view.flush()
    assert 2 not in layers.fell_at or state.characters[2].condition != "active"


def test_no_label_goes_under_the_legend(qtbot):
    view = _view(qtbot)
    view.getViewBox().setRange(QRectF(-200, -150, 400, 300), padding=0)
    legend = view.legend.geometry()
    assert view.legend.isVisible() and legend.width() > 50
    # A group right under the legend's corner: its label goes elsewhere, or not at all.
    corner = view.getViewBox().mapDeviceToView(view.mapToScene(legend.center()))
    view.set_labels([(corner.x(), corner.y(), "Wolves 10\u2191 2\u2193 1\u2020")])
    view.flush()
    for label in view.shown_labels():
        top_left = view.mapFromScene(label.scene_rect.topLeft())
        bottom_right = view.mapFromScene(label.scene_rect.bottomRight())
        assert not legend.intersects(QRect(top_left, bottom_right))


def ink(view, label, night=False):
    """How many pixels of the label's text the map shows inside its box (dark by day, light at night)."""
    image = view.grab().toImage()
    box = view.mapFromScene(label.scene_rect).boundingRect().adjusted(2, 2, -2, -2)
    count = 0
    for x in range(max(0, box.left()), min(image.width(), box.right() + 1)):
        for y in range(max(0, box.top()), min(image.height(), box.bottom() + 1)):
            lightness = image.pixelColor(x, y).lightness()
            count += lightness > 170 if night else lightness < 100
    return count


def test_the_labels_are_drawn_in_their_boxes_by_day_and_at_night_and_not_far_out(qtbot):
    view = _view(qtbot)
    view.getViewBox().setRange(QRectF(-200, -150, 400, 300), padding=0)
    view.set_labels([(0, 0, "Wolves 10\u2191 2\u2193 1\u2020"), (100, 50, "Lions 9\u2191 0\u2193 0\u2020")])
    view.flush()
    shown = view.shown_labels()
    assert len(shown) == 2
    for label in shown:
        assert ink(view, label) > 30, label                   # the text is drawn (dark on the light box)
    view.set_night(True)
    view.flush()
    assert [label.text for label in view.shown_labels()] == [label.text for label in shown]
    for label in view.shown_labels():
        assert ink(view, label, night=True) > 30, label      # light text on a dark box
        assert ink(view, label) > 0.3 * label.scene_rect.width() * label.scene_rect.height()    # on a dark box
    view.set_night(False)
    view.getViewBox().setRange(QRectF(-5000, -4000, 10000, 8000), padding=0)          # far out: nothing drawn
    view.flush()
    assert view.shown_labels() == []
    for label in shown:
        assert ink(view, label) == 0


def test_larger_text_makes_larger_labels(qtbot):
    view = _view(qtbot)
    view.getViewBox().setRange(QRectF(-200, -150, 400, 300), padding=0)
    view.set_labels([(0, 0, "Wolves 10\u2191 2\u2193 1\u2020")])
    view.flush()
    small = view.shown_labels()[0].scene_rect
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    view.setFont(font)
    view.flush()
    large = view.shown_labels()[0].scene_rect
    assert large.height() > 1.3 * small.height() and large.width() > 1.3 * small.width()


@pytest.fixture
def settings(tmp_path):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))


GROUP_TRACKERS = {5: "Wolves", 6: "Bears", 7: "Ravens"}


def labelled_game(path):
    """The panel tests' roster with a tracker per group, each heard once near the demo field's centre."""
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        for device, group in GROUP_TRACKERS.items():
            register_device(store, device, "tracker", f"T{device}", group=group)
        store.log.append([make_event(10_000 + 1000 * i, "position", f"tracker:{device}", device=device,
                                     lat=58.380 + 0.0012 * (i - 1), lon=26.720 + 0.002 * (i - 1))
                          for i, device in enumerate(GROUP_TRACKERS)])
    return str(path)


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
@pytest.mark.parametrize("size", [(1366, 768), (800, 600)])
def test_the_window_labels_its_groups_from_the_first_deltas(qtbot, tmp_path, settings, size):
    """The demo's window once showed its groups without their names: the field seen whole in a small window
    was 'far out'.  The field seen whole shows its labels, from the first deltas on, and they follow reports."""
    core = CoreThread(labelled_game(tmp_path / "labels.crgame"), VirtualClock(120_000), publish_interval_ms=20)
    window = build_window(core, None, "labels")
    qtbot.addWidget(window)
    window.map.load_background(FIELD)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    view = window.map
    try:
        with qtbot.waitSignal(core.loaded, timeout=10_000):
            core.start()
        want = {"Wolves 2\u2191 0\u2193 0\u2020", "Bears 1\u2191 0\u2193 0\u2020", "Ravens 2\u2191 0\u2193 0\u2020"}
        qtbot.waitUntil(lambda: {label.text for label in view.shown_labels()} == want, timeout=5000)
        bounds = view.field_bounds()
        assert view.metres_per_pixel() <= bounds.width() / view.getViewBox().width() * 1.01   # the whole field
        for label in view.shown_labels():
            assert ink(view, label) > 30, label
        core.submit("down", {"badge": 1}, "gm")            # Aldo of the Wolves goes down
        qtbot.waitUntil(lambda: "Wolves 1\u2191 1\u2193 0\u2020" in {label.text for label in view.shown_labels()},
                        timeout=5000)
        # Zoomed out well past the whole field, the labels hide.
        view.getViewBox().scaleBy((4, 4))
        view.flush()
        assert view.shown_labels() == []
    finally:
        assert core.shutdown()
