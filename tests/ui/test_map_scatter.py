"""fill_scatter gives a ScatterPlotItem the same markers as its own setData, with a look-up per style."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter

from controlroom.ui.map import scatter
from controlroom.ui.map.scatter import fill_scatter

FIELDS = ("x", "y", "size", "symbol", "pen", "brush", "visible", "data", "hovered", "sourceRect")


def items(qtbot):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(300, 300)
    made = []
    for _ in range(2):
        item = pg.ScatterPlotItem(pxMode=True, symbol="o", size=10, pen=pg.mkPen(None), brush=pg.mkBrush("#3f51b5"),
                                  hoverable=True)
        plot.addItem(item)
        made.append(item)
    plot.setXRange(0, 1, padding=0)
    plot.setYRange(0, 1, padding=0)
    return plot, made


def render(plot, item, other) -> QImage:
    other.setVisible(False)
    item.setVisible(True)
    image = QImage(300, 300, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    plot.render(painter, QRectF(0, 0, 300, 300))
    painter.end()
    return image


def same_records(a, b) -> None:
    assert len(a.data) == len(b.data)
    for name in FIELDS:
        left, right = a.data[name], b.data[name]
        if name in ("pen", "brush", "symbol"):
            assert [x is y or x == y for x, y in zip(left.tolist(), right.tolist())] == [True] * len(a.data), name
        else:
            assert np.array_equal(left, right), name
    for key in ("pen", "brush", "symbol", "size"):
        assert a.opts[key] == b.opts[key], key


@pytest.mark.parametrize("shape", ["per-marker", "one-for-all", "none"])
def test_the_same_markers_as_set_data(qtbot, shape):
    plot, (fast, slow) = items(qtbot)
    rng = np.random.default_rng(7)
    n = 0 if shape == "none" else 500
    xs, ys = rng.random(n), rng.random(n)
    colours = [pg.mkBrush(c) for c in ("#d9534f", "#f0ad4e", "#5cb85c", "#000000")]
    brush = [colours[i % 3 if i % 7 else 3] for i in range(n)] if shape == "per-marker" else colours[1]
    pen = pg.mkPen("#101010")
    for item in (fast, slow):               # both had other markers before, as a layer has
        item.setData(x=[0.5], y=[0.5], data=np.arange(1), brush=[colours[2]], pen=pen, symbol="s", size=8)
    fill_scatter(fast, xs, ys, brush, pen, "x", 9)
    slow.setData(x=xs, y=ys, data=np.arange(n), brush=brush, pen=pen, symbol="x", size=9)
    same_records(fast, slow)
    drawn = render(plot, fast, slow)
    assert drawn == render(plot, slow, fast)
    assert (drawn.pixelColor(0, 0) != drawn.pixelColor(150, 150)) or n == 0 or any(
        drawn.pixelColor(int(300 * x), int(300 * (1 - y))).name() != "#ffffff" for x, y in zip(xs[:50], ys[:50]))
    # Moved and filled again with other styles: still the same.
    brush2 = [colours[3]] * n if n else colours[0]
    fill_scatter(fast, ys, xs, brush2, pen, "o", 6)
    slow.setData(x=ys, y=xs, data=np.arange(n), brush=brush2, pen=pen, symbol="o", size=6)
    same_records(fast, slow)
    assert render(plot, fast, slow) == render(plot, slow, fast)
    # A click or a hover finds a marker by its data, the index into what was given.
    if n:
        at = pg.Point(ys[3], xs[3])
        found = [p.data() for p in fast.pointsAt(at)]
        assert 3 in found and found == [p.data() for p in slow.pointsAt(at)]


def test_brushes_that_do_not_match_the_markers_are_refused(qtbot):
    _plot, (item, _other) = items(qtbot)
    with pytest.raises(ValueError, match="2 brushes for 3 markers"):
        fill_scatter(item, [0, 1, 2], [0, 1, 2], [pg.mkBrush("r")] * 2, pg.mkPen(None), "o", 5)


def test_an_item_laid_out_otherwise_is_given_its_markers_by_set_data(qtbot, monkeypatch):
    """Another pyqtgraph whose records differ: setData, as before (the markers are the same either way)."""
    _plot, (item, _other) = items(qtbot)
    calls = []
    original = pg.ScatterPlotItem.setData
    monkeypatch.setattr(pg.ScatterPlotItem, "setData", lambda self, *a, **k: (calls.append(k), original(self, *a, **k)))
    fill_scatter(item, [0.1, 0.2], [0.3, 0.4], [pg.mkBrush("r")] * 2, pg.mkPen(None), "o", 5)
    assert calls == []
    monkeypatch.setattr(scatter, "_FIELDS", scatter._FIELDS + ("width",))
    fill_scatter(item, [0.1, 0.2], [0.3, 0.4], [pg.mkBrush("r")] * 2, pg.mkPen(None), "o", 5)
    assert len(calls) == 1 and item.getData()[0].tolist() == [0.1, 0.2]
