"""View, Plan coverage: gateways dragged on the map, their predicted coverage under them, where one more helps most.

The plan is the ``controlroom coverage plan`` model (``geo.propagation``):
Longley-Rice over a DEM when one is given, else free space, plus clutter.
It is computed in the window's thread a few dozen cells at a time between
paints (a gateway's raster is kept until it is moved), so the map answers
while a gateway is dragged; the image shows the best gateway's margin, or
one gateway's.  The star marks where one more gateway would help most.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from controlroom.geo.coverage_cells import margin_rgba
from controlroom.geo.coverage_plan import Plan
from controlroom.geo.propagation import Gateway, RadioModel
from controlroom.ui.map.coverage_layer import placed_image

CHUNK = 40                  # cells computed per turn of the event loop (a DEM's: about 10-20 ms)
Z_PLAN, Z_GATEWAYS = -41, 30


class PlanDialog(QDialog):
    """The plan's settings and gateways; the plan itself is drawn on ``view`` (a MapView)."""

    def __init__(self, view, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Plan radio coverage"))
        self.view = view
        self.dem = None
        self.targets: list[pg.TargetItem] = []
        self.rasters: dict[int, tuple[tuple, np.ndarray]] = {}      # gateway index -> (its key, margins so far)
        self.plan: Plan | None = None
        self._work: list[tuple[int, int]] = []       # (gateway, first cell) still to compute
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(Z_PLAN)
        self.view._vb.addItem(self.image, ignoreBounds=True)
        self.star = pg.TargetItem(movable=False, symbol="star", size=22, pen="#000000", brush="#ffeb3b",
                                  label=self.tr("one more gateway here"))
        self.star.setZValue(Z_GATEWAYS)
        self.star.setVisible(False)
        self.view._vb.addItem(self.star, ignoreBounds=True)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._step)
        self._build()

    def _build(self) -> None:
        form = QFormLayout()
        self.dem_edit = QLineEdit(self)
        self.dem_edit.setPlaceholderText(self.tr("none: free space, hills cast no shadow"))
        self.dem_edit.setReadOnly(True)
        browse = QPushButton(self.tr("&DEM…"), self)
        browse.clicked.connect(self.choose_dem)
        row = QHBoxLayout()
        row.addWidget(self.dem_edit, 1)
        row.addWidget(browse)
        form.addRow(self.tr("Terrain (GeoTIFF)"), row)
        self.sf = QSpinBox(self, minimum=7, maximum=12, value=9)
        self.tx = QDoubleSpinBox(self, minimum=-20, maximum=30, value=14, suffix=" dBm")
        self.clutter = QDoubleSpinBox(self, minimum=0, maximum=60, value=10, suffix=" dB")
        self.cell = QSpinBox(self, minimum=10, maximum=200, value=25, suffix=" m")
        form.addRow(self.tr("Spreading factor"), self.sf)
        form.addRow(self.tr("Handsets' power"), self.tx)
        form.addRow(self.tr("Clutter loss"), self.clutter)
        form.addRow(self.tr("Cells"), self.cell)
        self.shows = QComboBox(self)
        self.shows.addItem(self.tr("The best gateway"))
        form.addRow(self.tr("Show"), self.shows)
        for w in (self.sf, self.tx, self.clutter, self.cell):
            w.valueChanged.connect(self.replan)
        self.shows.currentIndexChanged.connect(self._draw)
        buttons = QHBoxLayout()
        add = QPushButton(self.tr("&Add a gateway"), self)
        add.clicked.connect(lambda: self.add_gateway())
        remove = QPushButton(self.tr("&Remove the last"), self)
        remove.clicked.connect(self.remove_gateway)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        self.said = QLabel(self.tr("Add gateways and drag them on the map."), self)
        self.said.setWordWrap(True)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addLayout(buttons)
        box.addWidget(self.said)

    # -- gateways -----------------------------------------------------------------------
    def add_gateway(self, x: float | None = None, y: float | None = None, height: float = 6.0) -> pg.TargetItem:
        """A gateway on the map (frame metres; default: the middle of the view), dragged to move it."""
        if x is None or y is None:
            (x0, x1), (y0, y1) = self.view._vb.viewRange()
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
        n = len(self.targets) + 1
        target = pg.TargetItem((x, y), movable=True, size=16, pen="#000000", brush="#1e88e5",
                               label=self.tr("gateway {n}").format(n=n))
        target.setZValue(Z_GATEWAYS)
        target.height = height
        target.sigPositionChangeFinished.connect(self.replan)
        self.view._vb.addItem(target, ignoreBounds=True)
        self.targets.append(target)
        self.shows.addItem(self.tr("Gateway {n}").format(n=n))
        self.replan()
        return target

    @Slot()
    def remove_gateway(self) -> None:
        if self.targets:
            self.view._vb.removeItem(self.targets.pop())
            self.shows.removeItem(self.shows.count() - 1)
            self.replan()

    def gateways(self) -> list[Gateway]:
        frame = self.view.projection
        out = []
        for i, t in enumerate(self.targets, start=1):
            lat, lon = frame.to_geographic(t.pos().x(), t.pos().y())
            out.append(Gateway(float(lat), float(lon), t.height, f"gateway {i}"))
        return out

    @Slot()
    def choose_dem(self) -> None:
        from controlroom.geo.dem import DemError, read_dem

        path, _ = QFileDialog.getOpenFileName(self, self.tr("Elevation model (DEM)"), "",
                                              self.tr("GeoTIFF (*.tif *.tiff)"))
        if not path:
            return
        try:
            self.set_dem(read_dem(path))
        except DemError as exc:
            self.said.setText(str(exc))

    def set_dem(self, dem) -> None:
        self.dem = dem
        self.dem_edit.setText(dem.name if dem is not None else "")
        self.replan()

    # -- planning ------------------------------------------------------------------------
    def model(self) -> RadioModel:
        return RadioModel(sf=self.sf.value(), tx_dbm=self.tx.value(), clutter_db=self.clutter.value(), dem=self.dem)

    def _area(self):
        frame = self.view.projection
        rect = self.view.field_bounds()
        if frame is None or rect is None:
            return None
        return frame, (rect.left(), rect.bottom(), rect.right(), rect.top())   # (y grows north: bottom is north)

    @Slot()
    def replan(self) -> None:
        """The settings or a gateway changed: compute what is stale again, a chunk at a time."""
        area = self._area()
        if area is None or not self.targets:
            self.plan = None
            self.image.clear()
            self.star.setVisible(False)
            return
        frame, (x0, y0, x1, y1) = area
        cell = float(self.cell.value())
        rows, cols = max(1, int(np.ceil((y0 - y1) / cell))), max(1, int(np.ceil((x1 - x0) / cell)))
        model = self.model()
        if self.dem is not None:
            try:
                lats, lons = frame.to_geographic([x0, x1, x1, x0], [y0, y0, y1, y1])
                self.dem.check_covers(lats, lons, self.tr("the map"))
            except ValueError as exc:
                self.said.setText(str(exc))
                model = RadioModel(sf=model.sf, tx_dbm=model.tx_dbm, clutter_db=model.clutter_db)
        gateways = self.gateways()
        self.plan = Plan(frame, x0, y0, cell, gateways, model, np.full((len(gateways), rows, cols), np.nan))
        settings = (x0, y0, rows, cols, cell, model.sf, model.tx_dbm, model.clutter_db, id(model.dem))
        self._work = []
        for g, gw in enumerate(gateways):
            key = (settings, gw.lat, gw.lon, gw.height_m)
            kept = self.rasters.get(g)
            if kept is not None and kept[0] == key:
                self.plan.margins[g] = kept[1]
            else:
                self.rasters[g] = (key, self.plan.margins[g])
                self._work.append((g, 0))
        for g in [k for k in self.rasters if k >= len(gateways)]:
            del self.rasters[g]
        self.said.setText(self.tr("Planning: {model}").format(model=model.describe()))
        self._draw()
        self._timer.start()

    @Slot()
    def _step(self) -> None:
        plan = self.plan
        if plan is None or not self._work:
            return
        g, first = self._work[0]
        rows, cols = plan.shape
        xs, ys = plan.centres()
        flat = slice(first, min(first + CHUNK, rows * cols))
        lats, lons = plan.frame.to_geographic(xs.ravel()[flat], ys.ravel()[flat])
        plan.margins[g].ravel()[flat] = plan.model.margin(plan.gateways[g], lats, lons, plan.frame)
        if flat.stop >= rows * cols:
            self._work.pop(0)
        else:
            self._work[0] = (g, flat.stop)
        self._draw()
        if self._work:
            self._timer.start()
        else:
            self._done()

    def busy(self) -> bool:
        return bool(self._work)

    def _done(self) -> None:
        plan = self.plan
        hint = plan.suggestion()
        words = self.tr("{share:.0f} % of the field is heard (margin 0 dB or more). {model}").format(
            share=plan.covered_share() * 100, model=plan.model.describe())
        if hint is not None:
            x, y = self.view.projection.to_local(hint[0], hint[1])
            self.star.setPos(float(x), float(y))
            words += " " + self.tr("The star marks where one more gateway would help most.")
        self.star.setVisible(hint is not None and self.isVisible())
        self.said.setText(words)

    def _draw(self) -> None:
        plan = self.plan
        if plan is None:
            return
        k = self.shows.currentIndex()
        grid = plan.best if k <= 0 or k > len(plan.gateways) else plan.margins[k - 1]
        placed_image(self.view, plan.frame, plan.geotransform, margin_rgba(grid, alpha=140), self.image)

    # -- shown and hidden --------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        for item in (self.image, *self.targets):
            item.setVisible(True)
        if not self.targets:
            self.add_gateway()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        for item in (self.image, self.star, *self.targets):
            item.setVisible(False)
