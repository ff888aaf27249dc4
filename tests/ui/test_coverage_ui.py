"""The Radio coverage layer in the live window and the replay, and View, Plan coverage with gateways dragged."""

from functools import partial

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.devices import RadioMeta
from controlroom.game.events import make_event
from controlroom.geo.coverage import CELL_M
from controlroom.geo.frame import MapFrame
from controlroom.radio import codec
from controlroom.radio.link import FrameHeard
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from controlroom.store.replay import open_replay
from controlroom.ui.app import build_window
from controlroom.ui.dialogs.coverage_plan import PlanDialog
from controlroom.ui.map.view import MapView
from controlroom.ui.replay.window import ReplayWindow
from tests.support.desk_game import new_game

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

LAT, LON = 58.3812, 26.7234
STEP = 0.0006                  # degrees of latitude between the stored positions: a cell or two apart


def stored_positions(path, device=31, n=6):
    """A tracker's positions stored before the window opens: n frames, north step by step, gateway 1 and 2."""
    with GameStore.open(path, create=False) as store:
        key = register_device(store, device, "tracker", "T31").key
        items = [(make_event(1000 * i, "position", f"tracker:{device}", device=device, lat=LAT + STEP * i, lon=LON),
                  RadioMeta(device, 100 + i, -90.0, 4.0, ("1", "2"), None, "1:-90:4,2:-112:-11.5"))
                 for i in range(n)]
        store.log.append(items)
    return key


def cell_colour_at(layer, view, lat, lon):
    """The RGBA the coverage image draws at a GPS position of the map."""
    x, y = view.projection.to_local(lat, lon)
    inverse, ok = layer.image.transform().inverted()
    assert ok
    p = inverse.map(QPointF(float(x), float(y)))
    image = layer.image.image
    return tuple(int(v) for v in image[int(p.y()), int(p.x())])


def test_the_live_layer_adds_what_is_heard_to_what_the_log_held(qtbot, tmp_path):
    path = new_game(tmp_path / "live.crgame")
    key = stored_positions(path)
    core = CoreThread(path, VirtualClock(10_000), publish_interval_ms=20)
    window = build_window(core, None, "coverage")
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(core.loaded, timeout=20_000):
        core.start()
    try:
        layer = window.coverage.layer
        assert not len(layer.cells)                         # nothing heard since the opening yet
        far = (LAT + 0.004, LON + 0.003)                    # a new place, heard by gateway 2 only, after a gap
        frame = codec.encode_position(key, 31, 110, int(far[0] * 1e7), int(far[1] * 1e7), 80, 1, 9)
        core.heard.put(FrameHeard("gw2", 2, -118, -9.75, frame))
        qtbot.waitUntil(lambda: len(layer.cells) == 1, timeout=10_000)
        assert layer.draws == 0 and not layer.image.isVisible()             # not shown: not drawn
        window.coverage.action.trigger()                    # View, Radio coverage
        qtbot.waitUntil(lambda: len(layer.cells) > 3, timeout=20_000)       # the log's, read by a job
        qtbot.waitUntil(lambda: layer.draws > 0 and not layer.dirty, timeout=10_000)
        view = layer.cells.view(sf=9)
        assert view.frames.sum() == 7 and view.missed.sum() == 4            # counters 106..109 never came
        assert layer.image.isVisible() and len(layer.marks.data) == 1       # one cell crossed: the gap's
        green = cell_colour_at(layer, window.map, LAT, LON)                 # 4 dB SNR: 16.5 dB over SF9
        assert green[3] > 0 and green[1] > green[0]
        layer.choose("1")                                   # gateway 1 never heard the new place
        assert cell_colour_at(layer, window.map, *far)[:3] == (90, 90, 90)
        layer.choose("2", sf=7)                             # gateway 2: -9.75 dB, under SF7's floor
        red = cell_colour_at(layer, window.map, *far)
        assert red[0] > 150 and red[1] < 100
    finally:
        assert core.shutdown()


def test_a_hidden_layer_keeps_the_deltas_rows_aside_and_sums_them_in_one_pass(qtbot, monkeypatch):
    """Every delta brings coverage rows; a hidden layer does not sum them a delta at a time in the GUI thread: once
    read, or drawn, or when PENDING_ROWS wait."""
    from controlroom.geo.coverage import CoverageFold
    from controlroom.geo.coverage_cells import Cells
    from controlroom.ui.map import coverage_layer

    passes = []
    add = Cells.add
    monkeypatch.setattr(Cells, "add", lambda self, rows: (passes.append(len(rows)), add(self, rows))[1])
    view = MapView(projection=MapFrame(LAT, LON))
    qtbot.addWidget(view)
    layer = coverage_layer.CoverageLayer(view)
    fold = CoverageFold()
    for i in range(12):                                     # twelve deltas, a position heard by gateway 1 each
        fold.add(1000 * i, "tracker:31", "position", {"lat": LAT + STEP * (i % 4), "lon": LON},
                 RadioMeta(31, 100 + i, -90.0, 4.0, ("1",), None, "1:-90:4"))
        layer.add(fold.take())
    assert passes == [] and layer.dirty and layer.draws == 0
    assert len(layer.cells) == 4 and len(passes) == 1 and layer.cells.rows == passes[0]     # read: one pass
    monkeypatch.setattr(coverage_layer, "PENDING_ROWS", 2 * passes[0])
    for i in range(12, 38):                                 # 26 more: the bound is reached after 24
        fold.add(1000 * i, "tracker:31", "position", {"lat": LAT + STEP * (i % 4), "lon": LON},
                 RadioMeta(31, 100 + i, -90.0, 4.0, ("1",), None, "1:-90:4"))
        layer.add(fold.take())
    assert len(passes) == 2 and passes[1] == 2 * passes[0]        # the rows waiting reached the bound: summed
    layer.show(True)                                        # shown: drawn from every row, the rest summed first
    assert layer.draws == 1 and len(passes) == 3 and layer.cells.rows == sum(passes)
    assert layer.cells.view().frames.sum() == 38


def test_the_replay_shows_the_coverage_as_it_stood_at_the_moment(qtbot, tmp_path):
    path = new_game(tmp_path / "replay.crgame")
    stored_positions(path, n=10)
    w = ReplayWindow(partial(open_replay, path, every=4, maps_folder=tmp_path), "coverage")
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    with qtbot.waitSignal(w.moment_shown, timeout=30_000):
        pass
    try:
        with qtbot.waitSignal(w.moment_shown, timeout=10_000):
            w.coverage_action.trigger()
        assert w.moment.coverage is not None and w.coverage.image.isVisible()
        assert w.coverage.cells.view().frames.sum() == 1                  # the first moment: its first frame
        with qtbot.waitSignal(w.moment_shown, timeout=10_000, check_params_cb=lambda t: t == 9000):
            w.seek(9000)
        whole = len(w.coverage.cells)
        assert w.coverage.cells.view().frames.sum() == 10
        with qtbot.waitSignal(w.moment_shown, timeout=10_000, check_params_cb=lambda t: t == 2000):
            w.seek(2000)
        early = w.coverage.cells.view()
        assert early.frames.sum() == 3 and len(early) < whole            # only the frames up to 00:00:02
        w.coverage_action.trigger()                                     # hidden: moments bring none
        with qtbot.waitSignal(w.moment_shown, timeout=10_000, check_params_cb=lambda t: t == 5000):
            w.seek(5000)
        assert w.moment.coverage is None and not w.coverage.image.isVisible()
    finally:
        w.close()


def test_planning_drags_gateways_and_points_at_where_one_more_helps(qtbot):
    view = MapView(projection=MapFrame(LAT, LON))
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    view.getViewBox().setRange(xRange=(-600, 600), yRange=(-400, 400), padding=0)
    view.set_layer("trackers", [-600, 600], [-400, 400])         # what the field's bounds are made of
    dialog = PlanDialog(view)
    qtbot.addWidget(dialog)
    dialog.sf.setValue(12)
    dialog.tx.setValue(-20)                       # a weak radio: a gateway covers a few hundred metres
    dialog.clutter.setValue(40)
    dialog.cell.setValue(50)
    dialog.show()                                 # one gateway, in the middle of the view
    qtbot.waitUntil(lambda: not dialog.busy(), timeout=30_000)
    first = dialog.plan.margins[0].copy()
    assert np.isfinite(first).all() and (first > 0).any() and (first < 0).any()
    assert dialog.star.isVisible()
    star = (dialog.star.pos().x(), dialog.star.pos().y())
    assert np.hypot(*star) > 200                  # not next to the gateway already there
    kept = dialog.plan.margins[0]
    target = dialog.add_gateway(star[0], star[1])
    qtbot.waitUntil(lambda: not dialog.busy(), timeout=30_000)
    share_two = dialog.plan.covered_share()
    assert np.array_equal(dialog.plan.margins[0], kept)          # the first gateway was not computed again
    target.setPos(-star[0], -star[1])                             # dragged to the other side
    target.sigPositionChangeFinished.emit(target)
    qtbot.waitUntil(lambda: not dialog.busy(), timeout=30_000)
    assert not np.array_equal(dialog.plan.margins[1], first) and dialog.plan.covered_share() != share_two
    assert dialog.image.image is not None and dialog.image.isVisible()
    dialog.hide()
    assert not dialog.image.isVisible() and not target.isVisible()
    assert CELL_M == 25.0
