"""The map's "Radio coverage" layer: the observed cells as one image, coloured by margin, and crosses where frames
needed retries or went missing.

Rows come at any rate (the core's deltas, a replay's moment); the layer keeps
them aside and sums them (``geo.coverage_cells.Cells``) when it is drawn, read
or holds ``PENDING_ROWS``: one pass for many deltas, nothing a delta while the
layer is hidden (the GUI thread's time at 200 frames/s).  While shown, it is
drawn again on a timer at most ``PAINT_MS`` apart: one ``setImage`` and one
``setData`` a turn.  The image is the grid's raster placed on the map by the transform
that takes its corners (the grid's frame) to the map's frame.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QPen, QPolygonF, QTransform

from controlroom.geo.coverage import CELL_M, CoverageRows
from controlroom.geo.coverage_cells import BEST, NOT_HEARD, Cells, margin_rgba

PAINT_MS = 1000             # coverage changes slowly: drawn again at most once a second
PENDING_ROWS = 4096         # rows kept aside before they are summed (a hidden layer's: a pass every ~10 s at 200/s)
Z_IMAGE, Z_MARKS = -40, -39  # above the map and the night overlay, below every marker


def placed_image(view, frame, geotransform, rgba: np.ndarray, item: pg.ImageItem) -> bool:
    """Put ``rgba`` (rows from the north) whose pixels ``geotransform`` places in ``frame`` onto ``view``'s frame."""
    target = view.projection
    if target is None or not rgba.size:
        item.clear()
        return False
    x0, sx, _r, y0, _s, sy = geotransform
    rows, cols = rgba.shape[:2]
    corners = [(0.0, 0.0), (float(cols), 0.0), (0.0, float(rows))]
    lats, lons = frame.to_geographic(np.array([x0 + c * sx for c, _r in corners]),
                                     np.array([y0 + r * sy for _c, r in corners]))
    xs, ys = target.to_local(lats, lons)
    src = QPolygonF([QPointF(c, r) for c, r in corners] + [QPointF(cols, rows)])
    dst = QPolygonF([QPointF(float(x), float(y)) for x, y in zip(xs, ys)]
                    + [QPointF(float(xs[1] + xs[2] - xs[0]), float(ys[1] + ys[2] - ys[0]))])
    transform = QTransform()
    if not QTransform.quadToQuad(src, dst, transform):
        return False
    item.setImage(rgba, autoLevels=False, levels=(0, 255))
    item.setTransform(transform)
    return True


class CoverageLayer(QObject):
    """Owns the coverage image and crosses on a MapView; shows the best gateway or one gateway, at an SF."""

    def __init__(self, view, parent: QObject | None = None) -> None:
        super().__init__(parent or view)
        self.view = view
        self._cells = Cells()
        self._pending: list[CoverageRows] = []
        self._pending_rows = 0
        self.gateway: str | None = BEST
        self.sf = 9
        self.shown = False
        self.dirty = False
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(Z_IMAGE)
        self.image.setVisible(False)
        self.marks = pg.ScatterPlotItem(pxMode=True, symbol="x", size=9, pen=QPen(Qt.PenStyle.NoPen),
                                        brush=pg.mkBrush(QColor("#000000")))
        self.marks.setZValue(Z_MARKS)
        self.marks.setVisible(False)
        view._vb.addItem(self.image, ignoreBounds=True)
        view._vb.addItem(self.marks, ignoreBounds=True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PAINT_MS)
        self._timer.timeout.connect(self.draw)
        self.draws = 0

    # -- data in ------------------------------------------------------------------------
    def add(self, rows: CoverageRows | None) -> None:
        """Rows of the coverage fold (a delta's, or the log's up to the opening)."""
        if rows is None:
            return
        self._pending.append(rows)
        self._pending_rows += len(rows)
        if self._pending_rows >= PENDING_ROWS:
            self._sum_pending()
        self._changed()

    @property
    def cells(self) -> Cells:
        """The cells with every row given so far."""
        if self._pending:
            self._sum_pending()
        return self._cells

    def _sum_pending(self) -> None:
        pending, self._pending, self._pending_rows = self._pending, [], 0
        self._cells.add_all(pending)

    def set_cells(self, cells: Cells) -> None:
        """Everything the layer shows, at once (a replay's moment); drawn now when shown."""
        self._cells = cells
        self._pending, self._pending_rows = [], 0
        self.dirty = True
        if self.shown:
            self.draw()

    def choose(self, gateway: str | None = BEST, sf: int | None = None) -> None:
        """Show one gateway (by name) or the best in each cell, at a spreading factor."""
        self.gateway = gateway
        self.sf = sf or self.sf
        self.dirty = True
        if self.shown:
            self.draw()

    def show(self, on: bool) -> None:
        self.shown = bool(on)
        self.image.setVisible(self.shown)
        self.marks.setVisible(self.shown)
        if self.shown and (self.dirty or self.draws == 0):
            self.draw()

    def _changed(self) -> None:
        self.dirty = True
        if self.shown and not self._timer.isActive():
            self._timer.start()

    # -- drawing ---------------------------------------------------------------------------
    def draw(self) -> None:
        """Give the image and the crosses what the cells show now (one setImage, one setData)."""
        self._timer.stop()
        self.dirty = False
        cells, frame = self.cells, self.cells.frame
        if frame is None or not len(cells) or self.view.projection is None:
            self.image.clear()
            self.marks.setData([], [])
            return
        view = cells.view(self.sf, self.gateway)
        margin, gt = cells.raster(view)
        rgba = margin_rgba(margin)
        unheard = view.frames > 0
        unheard &= ~np.isfinite(view.margin)
        if unheard.any():                       # frames were sent from there; the gateway shown heard none
            iy, ix = int(view.iy.max()) - view.iy[unheard], view.ix[unheard] - int(view.ix.min())
            rgba[iy, ix] = (*NOT_HEARD, 170)
        placed_image(self.view, frame, gt, rgba, self.image)
        marked = view.marked
        if marked.any():
            lats, lons = frame.to_geographic((view.ix[marked] + 0.5) * CELL_M, (view.iy[marked] + 0.5) * CELL_M)
            xs, ys = self.view.projection.to_local(np.atleast_1d(lats), np.atleast_1d(lons))
            self.marks.setData(np.atleast_1d(xs), np.atleast_1d(ys))
        else:
            self.marks.setData([], [])
        self.draws += 1

    def gateways(self) -> tuple[str, ...]:
        return self.cells.gateways
