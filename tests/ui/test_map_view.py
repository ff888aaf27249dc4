"""The live map widget: layers painted by a timer, a georeferenced background, fit to field."""

import math

import numpy as np
import pytest
from pyproj import Geod
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage

from controlroom.geo.frame import MapFrame
from controlroom.geo.source import NotPlaced
from controlroom.geo.worldfile import WorldFile, affine_from_control_points
from controlroom.ui.map.view import LAYER_NAMES, MapView, qtransform_for


@pytest.fixture
def view(qtbot):
    v = MapView(paint_hz=50.0)
    qtbot.addWidget(v)
    v.resize(600, 400)
    v.show()
    qtbot.waitExposed(v)
    return v


def painted(view, name):
    x, y = view.layer_item(name).getData()
    return np.asarray(x), np.asarray(y)


def rotated_world(angle_deg=30.0, size=2.0, c=100.0, f=300.0):
    t = math.radians(angle_deg)
    return WorldFile(size * math.cos(t), size * math.sin(t),
                     size * math.sin(t), -size * math.cos(t), c, f)


def test_layers_exist_and_autorange_is_off(view):
    assert view.layer_names == LAYER_NAMES
    assert set(LAYER_NAMES) == {"groups", "marshals", "trackers", "siege", "stopp", "valhalla", "casualties", "trails"}
    assert view.getPlotItem().getViewBox().autoRangeEnabled() == [False, False]
    assert view.layer_title("siege") == "Siege engines"


def test_set_layer_is_painted_by_the_timer(view, qtbot):
    view.set_layer("groups", [1.0, 2.0, 3.0], [10.0, 20.0, 30.0],
                   colours=["red", "blue", "red"], labels=["A", "B", "C"])
    assert view.is_dirty("groups")
    assert painted(view, "groups")[0].size == 0   # not painted synchronously
    qtbot.waitUntil(lambda: not view.is_dirty(), timeout=2000)
    x, y = painted(view, "groups")
    np.testing.assert_array_equal(x, [1, 2, 3])
    np.testing.assert_array_equal(y, [10, 20, 30])


def count_fills(view, monkeypatch):
    """The layers given new markers (one call per layer and step), by name."""
    from controlroom.ui.map import view as view_module

    calls = []
    names = {id(view.layer_item(n)): n for n in view.layer_names}
    original = view_module.fill_scatter
    monkeypatch.setattr(view_module, "fill_scatter",
                        lambda item, *a, **k: (calls.append(names[id(item)]), original(item, *a, **k)))
    return calls


def test_one_setdata_per_layer_per_tick(view, qtbot, monkeypatch):
    calls = count_fills(view, monkeypatch)
    for i in range(20):   # data arriving much faster than the paint rate
        view.set_layer("groups", [i, i + 1], [0, 1])
        view.set_layer("marshals", [i], [i])
    qtbot.waitUntil(lambda: not view.is_dirty(), timeout=2000)
    assert sorted(calls) == ["groups", "marshals"]
    np.testing.assert_array_equal(painted(view, "groups")[0], [19, 20])
    # Nothing dirty: the timer goes idle and paints nothing more.
    qtbot.waitUntil(lambda: not view._timer.isActive(), timeout=2000)
    assert sorted(calls) == ["groups", "marshals"]


def test_costly_steps_take_a_turn_of_the_event_loop_each(view, qtbot, monkeypatch):
    """Labels placed, and layers given new markers, one per turn: the window answers in between. Moved
    markers follow at once; flush() still does everything now."""
    calls = count_fills(view, monkeypatch)
    view.show()
    qtbot.waitExposed(view)
    view.set_layer("trackers", [0.0], [0.0])
    view.flush()
    calls.clear()
    view.set_labels([(0.0, 0.0, "Wolves 3↑ 0↓ 0†")])
    view.set_layer("groups", [0.0, 10.0], [0.0, 10.0])
    view.set_layer("marshals", [5.0], [5.0])
    view.set_layer("trackers", [1.0], [1.0])              # moved only: no fill
    view._labels_at = -1e9                                  # (the labels were last placed long ago)
    view._repaint_dirty()
    assert calls == [] and view.is_dirty("groups") and view.is_dirty("marshals")    # the labels' turn
    assert not view.is_dirty("trackers") and painted(view, "trackers")[0].tolist() == [1.0]
    assert view._more.isActive()
    assert not view.viewport().updatesEnabled()            # the paint waits for a turn of its own
    while view._label_steps is not None:                    # the labels' turns (the markers, then the labels)
        view._more.stop()
        view._repaint_dirty()
        assert calls == []
    view._more.stop()
    view._repaint_dirty()
    assert calls == ["groups"] and view.is_dirty("marshals")
    assert not view.viewport().updatesEnabled()
    qtbot.waitUntil(lambda: not view.is_dirty(), timeout=2000)
    assert calls == ["groups", "marshals"]
    qtbot.waitUntil(lambda: view.viewport().updatesEnabled(), timeout=2000)    # then painted, once
    view.set_labels([(0.0, 0.0, "Wolves 2↑ 1↓ 0†")])
    view.set_layer("groups", [0.0], [0.0])
    view.set_layer("marshals", [1.0, 2.0], [1.0, 2.0])
    view.flush()
    assert not view.is_dirty() and calls == ["groups", "marshals", "groups", "marshals"]


def test_brushes_are_cached_and_markers_have_no_outline(view, qtbot):
    view.set_layer("groups", [0, 1, 2], [0, 0, 0], colours=["#ff0000", (0, 0, 255), "#ff0000"])
    view.flush()
    item = view.layer_item("groups")
    # pyqtgraph keys its symbol atlas on the brush object: the same colour is the same object.
    brushes = item.data["brush"]
    assert brushes[0] is brushes[2]
    assert brushes[0] is view.brush_for(QColor("#ff0000"))
    points = item.points()
    assert points[1].brush().color() == QColor(0, 0, 255)
    assert all(p.pen().style() == Qt.PenStyle.NoPen for p in points)


def test_single_colour_and_default_colour(view):
    view.set_layer("stopp", [5], [5], colours="orange")
    view.set_layer("trackers", [1, 2], [1, 2])
    view.flush()
    assert view.layer_item("stopp").opts["brush"] is view.brush_for("orange")
    assert view.layer_item("stopp").opts["pen"].style() == Qt.PenStyle.NoPen
    assert len(view.layer_item("trackers").points()) == 2


def test_hidden_layer_stays_hidden_and_catches_up_when_shown(view, qtbot):
    view.set_layer_visible("marshals", False)
    assert not view.layer_action("marshals").isChecked()
    view.set_layer("marshals", [7.0], [8.0])
    view.set_layer("groups", [1.0], [1.0])
    qtbot.waitUntil(lambda: not view.is_dirty("groups"), timeout=2000)
    assert not view.layer_item("marshals").isVisible()
    assert not view.is_layer_visible("marshals")
    assert painted(view, "marshals")[0].size == 0
    view.layer_action("marshals").setChecked(True)   # the menu's check box
    assert view.is_layer_visible("marshals")
    qtbot.waitUntil(lambda: not view.is_dirty(), timeout=2000)
    np.testing.assert_array_equal(painted(view, "marshals")[0], [7.0])


def test_point_clicked_signal(view, qtbot):
    view.set_layer("siege", [0, 10, 20], [0, 0, 0])
    view.flush()
    item = view.layer_item("siege")
    with qtbot.waitSignal(view.point_clicked, timeout=1000) as blocker:
        item.sigClicked.emit(item, [item.points()[2]], None)
    assert blocker.args == ["siege", 2]


def test_hover_tip_uses_label(view):
    view.set_layer("groups", [0, 1], [0, 0], labels=["North company", "Ravens"])
    view.flush()
    tip = view.layer_item("groups").opts["tip"]
    assert tip(x=1.0, y=0.0, data=1) == "Ravens"
    view.set_layer("valhalla", [3], [4])
    view.flush()
    assert "3 m" in view.layer_item("valhalla").opts["tip"](x=3.0, y=4.0, data=0)


def test_bad_input_refused(view):
    with pytest.raises(KeyError, match="unknown map layer"):
        view.set_layer("dragons", [1], [1])
    with pytest.raises(ValueError, match="2 x values but 1 y"):
        view.set_layer("groups", [1, 2], [1])
    with pytest.raises(ValueError, match="1 colours for 2 points"):
        view.set_layer("groups", [1, 2], [1, 2], colours=["red"])
    with pytest.raises(ValueError, match="labels"):
        view.set_layer("groups", [1, 2], [1, 2], labels=["a"])


def test_geographic_layer_uses_projection(view):
    view.projection = MapFrame(58.38, 26.72)
    view.set_layer_geographic("trackers", [58.39], [26.72])
    view.flush()
    x, y = painted(view, "trackers")
    assert x[0] == pytest.approx(0.0, abs=1e-6)
    # 0.01 degree of latitude on the WGS84 ellipsoid (not the sphere's 1111.95 m).
    assert y[0] == pytest.approx(Geod(ellps="WGS84").inv(26.72, 58.38, 26.72, 58.39)[2], abs=0.001)


def make_image(width=40, height=20):
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    image.setPixelColor(7, 3, QColor(255, 0, 0))   # one marked pixel: col 7, row 3
    return image


@pytest.mark.parametrize("world", [
    WorldFile(0.5, 0.0, 0.0, -0.5, 1000.25, 2000.75),
    rotated_world(30.0),
    rotated_world(-75.0, 1.3, -50.0, 20.0),
])
def test_background_places_world_coordinate_on_expected_pixel(view, world):
    view.set_background(make_image(), world)
    item = view.background_item
    vb = view.getPlotItem().getViewBox()
    # The centre of pixel (7, 3) in the item is (7.5, 3.5); in the view it is the world file's spot.
    x, y = world.pixel_to_world(7, 3)
    centre = vb.mapFromItemToView(item, QPointF(7.5, 3.5))
    assert (centre.x(), centre.y()) == pytest.approx((x, y))
    # And back: that world coordinate lands inside pixel (7, 3), which holds the red pixel.
    local = vb.mapFromViewToItem(item, QPointF(x, y))
    col, row = math.floor(local.x()), math.floor(local.y())
    assert (col, row) == (7, 3)
    assert tuple(item.image[row, col][:3]) == (255, 0, 0)
    # The top-left corner of the image is half a pixel from C, F.
    corner = item.transform().map(QPointF(0, 0))
    assert (corner.x(), corner.y()) == pytest.approx(world.corner_to_world(0, 0))


def test_qtransform_matches_world_file_everywhere():
    world = rotated_world(17.0, 0.7, 12.0, 34.0)
    transform = qtransform_for(world)
    for col, row in [(0, 0), (3, 9), (250.5, 99.25)]:
        p = transform.map(QPointF(col + 0.5, row + 0.5))
        assert (p.x(), p.y()) == pytest.approx(world.pixel_to_world(col, row))


def test_background_from_control_points(view):
    truth = rotated_world(12.0, 0.9, 500.0, 700.0)
    pixels = [(0, 0), (39, 2), (5, 19)]
    fitted = affine_from_control_points(pixels, [truth.pixel_to_world(*p) for p in pixels])
    view.set_background(make_image(), fitted)
    vb = view.getPlotItem().getViewBox()
    local = vb.mapFromViewToItem(view.background_item, QPointF(*truth.pixel_to_world(7, 3)))
    assert (local.x(), local.y()) == pytest.approx((7.5, 3.5))


def test_fit_to_field_shows_the_image_bounds(view, qtbot):
    world = rotated_world(30.0)
    view.set_background(make_image(), world)
    view.getPlotItem().getViewBox().setRange(xRange=(-1e4, -9e3), yRange=(5e3, 6e3), padding=0)
    view.fit_action.trigger()
    x0, x1, y0, y1 = world.image_bounds(40, 20)
    (vx0, vx1), (vy0, vy1) = view.getPlotItem().getViewBox().viewRange()
    eps = 1e-6 * max(x1 - x0, y1 - y0)
    assert vx0 <= x0 + eps and vx1 >= x1 - eps and vy0 <= y0 + eps and vy1 >= y1 - eps
    # Tight along one axis (the aspect ratio is locked, so the other may have margin).
    assert min(abs((vx1 - vx0) - (x1 - x0)), abs((vy1 - vy0) - (y1 - y0))) < 0.01 * (x1 - x0)
    assert view.getPlotItem().getViewBox().autoRangeEnabled() == [False, False]


def test_fit_to_field_without_background_uses_markers(view):
    view.set_layer("groups", [0, 1000], [0, 500])
    view.fit_to_field()
    (vx0, vx1), (vy0, vy1) = view.getPlotItem().getViewBox().viewRange()
    assert vx0 < 0 < 1000 < vx1 and vy0 < 0 < 500 < vy1


def test_load_background_finds_sidecar_and_prj(view, tmp_path):
    from controlroom.geo.crs import parse_crs, write_prj

    image_path = tmp_path / "field.png"
    assert make_image().save(str(image_path))
    # 2 m pixels in UTM zone 35N, in Tartu (the grid turned 0.24 degrees from true north there).
    (tmp_path / "field.pgw").write_text("2\n0\n0\n-2\n483701\n6473999\n")
    utm = parse_crs("EPSG:32635")
    write_prj(image_path, utm)
    world = view.load_background(image_path)
    assert world.c == 483701 and view.map_source.crs_from == "field.prj"
    frame = view.projection
    item = view.background_item
    x, y = frame.from_crs(utm, 483701 + 2 * 7, 6473999 - 2 * 3)      # the centre of pixel (7, 3)
    local = view.getPlotItem().getViewBox().mapFromViewToItem(item, QPointF(x, y))
    assert (local.x(), local.y()) == pytest.approx((7.5, 3.5), abs=0.01)
    bounds = view.field_bounds()
    assert bounds.width() == pytest.approx(80, abs=0.4) and bounds.height() == pytest.approx(40, abs=0.4)
    view.clear_background()
    assert view.background_item is None and view.map_source is None


def test_load_background_without_world_file(view, tmp_path):
    image_path = tmp_path / "lonely.png"
    assert make_image().save(str(image_path))
    with pytest.raises(NotPlaced, match="lonely.png"):
        view.load_background(image_path)


def test_default_paint_rate_is_8_hz(qtbot):
    v = MapView()
    qtbot.addWidget(v)
    assert v._timer.interval() == 125
    assert not v._timer.isActive()   # idle until data arrives
    v.set_layer("valhalla", [1], [1])
    assert v._timer.isActive()
    qtbot.waitUntil(lambda: not v.is_dirty(), timeout=2000)


def test_a_markers_label_is_found_by_layer_and_index(qtbot):
    from controlroom.ui.map.view import MapView

    view = MapView(paint_hz=50)
    qtbot.addWidget(view)
    view.set_layer("groups", [0.0, 10.0], [0.0, 5.0], labels=["Wolves: 10 up", "Ravens: 8 up"])
    assert view.label_of("groups", 1) == "Ravens: 8 up" and view.label_of("groups", 7) == ""


def test_an_empty_layer_is_not_drawn_and_shows_again_when_markers_come(view, qtbot):
    """An empty layer's item is hidden (each item costs the map's paint, empty or not); the game master's
    choice in View, Layers is kept apart from it; a layer hidden by another hand (a STOPP's flash) while it
    has markers is left as it is by the markers moving."""
    view.set_layer("siege", [1.0, 2.0], [1.0, 2.0])
    view.flush()
    assert view.layer_item("siege").isVisible() and not view.layer_item("casualties").isVisible()
    assert view.is_layer_visible("casualties")                  # shown in the menu, drawn once it has markers
    view.clear_layer("siege")
    view.flush()
    assert not view.layer_item("siege").isVisible() and view.is_layer_visible("siege")
    view.set_layer("siege", [3.0], [3.0])
    view.flush()
    assert view.layer_item("siege").isVisible()
    view.layer_item("siege").setVisible(False)                  # (a flash's dark phase)
    view.set_layer("siege", [4.0], [4.0])                       # moved
    view.flush()
    assert not view.layer_item("siege").isVisible()
    view.set_layer_visible("siege", False)
    view.set_layer_visible("siege", True)
    assert view.layer_item("siege").isVisible()
    view.set_layer_visible("casualties", False)
    view.set_layer_visible("casualties", True)                  # shown, still empty: not drawn
    assert not view.layer_item("casualties").isVisible()



def test_many_labels_for_new_positions_are_placed_a_step_a_turn_and_shown_when_all_are(view, qtbot):
    """New positions of 250 groups: their labels placed LABEL_STEP a turn of the event loop (not one block),
    shown once all are placed, where placing them all at once puts them; a zoom or pan meanwhile places
    them at once for the view shown."""
    from controlroom.ui.map.map_labels import LABEL_STEP

    view.show()
    qtbot.waitExposed(view)
    xs = [float((i % 25) * 40 - 500) for i in range(250)]
    ys = [float((i // 25) * 40 - 200) for i in range(250)]
    view.set_layer("groups", xs, ys)
    view.getPlotItem().getViewBox().setRange(xRange=(-520, 520), yRange=(-220, 220), padding=0)
    view.set_labels([(x, y, f"G{i}") for i, (x, y) in enumerate(zip(xs, ys))])
    view.flush()
    first = sorted((s.text, s.scene_rect.getRect()) for s in view.shown_labels())
    assert len(first) > 10
    view.set_labels([(x + 5.0, y, f"G{i} moved") for i, (x, y) in enumerate(zip(xs, ys))])
    view._labels_at = -1e9
    view._labels_now = False
    turns = 0
    view._repaint_dirty()
    while view._label_steps is not None:
        assert {s.text for s in view.shown_labels()} == {t for t, _r in first}    # the old ones until done
        view._more.stop()
        view._repaint_dirty()
        turns += 1
    assert turns == 1 + 250 // LABEL_STEP          # the markers entered, then a step each
    stepped = sorted((s.text, s.scene_rect.getRect()) for s in view.shown_labels())
    assert all(t.endswith(" moved") for t, _r in stepped)
    view._range_changed()
    view.flush()                                                # the same labels placed at once
    assert sorted((s.text, s.scene_rect.getRect()) for s in view.shown_labels()) == stepped
    # Under way when the view moves: placed at once for it.
    view.set_labels([(x, y + 5.0, f"G{i} again") for i, (x, y) in enumerate(zip(xs, ys))])
    view._labels_at = -1e9
    view._labels_now = False
    view._repaint_dirty()
    assert view._label_steps is not None
    view._range_changed()
    view._repaint_dirty()
    assert view._label_steps is None and all(s.text.endswith(" again") for s in view.shown_labels())
