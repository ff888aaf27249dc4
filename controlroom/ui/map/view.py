"""The live map: a pyqtgraph view in the field's metres (MapFrame) with a georeferenced map and marker layers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QPen

from controlroom.geo.frame import MapFrame
from controlroom.ui.map.background import MapBackground, qtransform_for, read_map_image
from controlroom.ui.map.map_labels import MapLabels
from controlroom.ui.map.scatter import fill_scatter
from controlroom.ui.map.tiles import qimage_to_array

__all__ = ["MapView", "LAYER_NAMES", "qtransform_for", "qimage_to_array", "read_map_image"]

#: Layer names in drawing order, bottom first.
LAYER_NAMES = ("trails", "valhalla", "casualties", "stopp", "siege", "trackers", "groups", "marshals")

# name -> (symbol, size in screen pixels, default colour)
_LAYER_STYLE = {
    "trails": ("o", 4, "#00000060"),
    "valhalla": ("h", 12, "#9e9e9e"),
    "casualties": ("x", 7, "#ab47bc"),
    "stopp": ("star", 18, "#e53935"),
    "siege": ("s", 14, "#8d6e63"),
    "trackers": ("d", 8, "#00bcd4"),
    "groups": ("o", 12, "#3f51b5"),
    "marshals": ("t", 11, "#fdd835"),
}

#: How dark night mode makes the map (the overlay's opacity), and the levels offered in View.
NIGHT_DIM = 0.5
DIM_LEVELS = (0.3, 0.5, 0.7)
#: The night overlay's half-size in metres: more than any field.
_OVERLAY_HALF = 1e7

#: Default repaint rate (guide: 5 to 10 Hz, independent of the data rate).
PAINT_HZ = 8.0


@dataclass
class _Layer:
    name: str
    item: pg.ScatterPlotItem
    symbol: str
    size: float
    default_brush: QBrush
    xs: np.ndarray = field(default_factory=lambda: np.empty(0))
    ys: np.ndarray = field(default_factory=lambda: np.empty(0))
    brushes: list[QBrush] | QBrush | None = None
    labels: list[str] = field(default_factory=list)
    dirty: bool = False
    colours_given: object = None            # the colours list last given, converted into ``brushes``
    painted: tuple | None = None            # (brush or brushes, point count) last given to the item
    labels_given: object = None             # the labels list last given, copied into ``labels``
    shown: bool = True                      # the game master's choice (View, Layers); the item is also
                                            # hidden while the layer has no markers (an empty item's paint cost)


class MapView(MapBackground, MapLabels, pg.PlotWidget):
    """The battlefield in metres east/north of the field's centre (a :class:`MapFrame`).

    Data arrives through :meth:`set_layer` at any rate; a timer repaints the
    layers that changed at most :data:`PAINT_HZ` times a second, with one
    ``ScatterPlotItem.setData`` call per layer.
    """

    #: A marker was clicked: (layer name, index into the arrays last given to set_layer).
    point_clicked = Signal(str, int)

    def __init__(self, parent=None, *, projection: MapFrame | None = None,
                 paint_hz: float = PAINT_HZ) -> None:
        super().__init__(parent)
        #: The drawing frame (metres around the field's centre); set by the map, or by the first positions.
        self.projection = projection
        self._brushes: dict[int, QBrush] = {}
        self._no_pen = QPen(Qt.PenStyle.NoPen)
        self._init_background()

        plot = self.getPlotItem()
        plot.setAspectLocked(True)
        plot.showGrid(x=False, y=False)
        plot.setLabel("bottom", self.tr("East"), units="m")
        plot.setLabel("left", self.tr("North"), units="m")
        plot.hideButtons()
        self._vb = plot.getViewBox()
        self._vb.disableAutoRange()

        self._layer_titles = {
            "groups": self.tr("Groups"),
            "marshals": self.tr("Marshals"),
            "trackers": self.tr("Trackers"),
            "siege": self.tr("Siege engines"),
            "stopp": self.tr("STOPP incidents"),
            "valhalla": self.tr("Valhalla"),
            "casualties": self.tr("Casualties"),
            "trails": self.tr("Movement trails"),
        }
        self._layers: dict[str, _Layer] = {}
        self._layer_actions: dict[str, QAction] = {}
        for z, name in enumerate(LAYER_NAMES):
            symbol, size, colour = _LAYER_STYLE[name]
            item = pg.ScatterPlotItem(pxMode=True, symbol=symbol, size=size,
                                      pen=self._no_pen, brush=self.brush_for(colour),
                                      hoverable=True, tip=self._tip_for(name))
            item.setZValue(10 + z)
            item.setVisible(False)              # no markers yet: not drawn (see _repaint_dirty)
            item.sigClicked.connect(self._on_clicked)
            self._vb.addItem(item, ignoreBounds=True)
            self._layers[name] = _Layer(name, item, symbol, size, self.brush_for(colour))
            action = QAction(self._layer_titles[name], self)
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(lambda on, n=name: self.set_layer_visible(n, on))
            self._layer_actions[name] = action

        self.fit_action = QAction(self.tr("Fit to field"), self)
        self.fit_action.setShortcut(self.tr("Ctrl+0"))
        self.fit_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.fit_action.setToolTip(self.tr("Show the whole field"))
        self.fit_action.triggered.connect(self.fit_to_field)
        self.addAction(self.fit_action)
        menu = self._vb.menu
        if menu is not None:
            menu.addSeparator()
            menu.addAction(self.fit_action)
            layers_menu = menu.addMenu(self.tr("Layers"))
            for name in reversed(LAYER_NAMES):
                layers_menu.addAction(self._layer_actions[name])

        # Night: a dark overlay between the map and the markers, its darkness adjustable.
        from PySide6.QtWidgets import QGraphicsRectItem

        self.night = False
        self.dim = NIGHT_DIM
        self.overlay = QGraphicsRectItem(-_OVERLAY_HALF, -_OVERLAY_HALF, 2 * _OVERLAY_HALF, 2 * _OVERLAY_HALF)
        self.overlay.setPen(self._no_pen)
        self.overlay.setZValue(-50)
        self.overlay.setVisible(False)
        self._vb.addItem(self.overlay, ignoreBounds=True)
        self._set_overlay()

        self._init_labels()
        from controlroom.ui.map.legend import MapLegend

        self.legend = MapLegend(self)
        self.legend.move(8, 8)

        self._timer = QTimer(self)
        self._timer.setInterval(max(1, round(1000.0 / paint_hz)))
        self._timer.timeout.connect(self._repaint_dirty)
        self._more = QTimer(self)               # the next costly step, in the next turn of the event loop
        self._more.setSingleShot(True)
        self._more.setInterval(0)
        self._more.timeout.connect(self._repaint_dirty)

    # ---- night --------------------------------------------------------------------------

    def set_night(self, on: bool) -> None:
        """Night: a dark background and the map dimmed by the overlay (its darkness: :meth:`set_dim`)."""
        self.night = bool(on)
        self.setBackground("#101010" if on else "w")
        axis_colour = "#c8c8c8" if on else "#404040"
        for name in ("bottom", "left"):
            axis = self.getPlotItem().getAxis(name)
            axis.setPen(axis_colour)
            axis.setTextPen(axis_colour)
        self.overlay.setVisible(self.night)
        self.legend.set_night(self.night)
        self._range_changed()                   # the labels take night colours

    def set_dim(self, fraction: float) -> None:
        """How dark the night overlay makes the map: 0 (not at all) to 0.9."""
        self.dim = min(0.9, max(0.0, float(fraction)))
        self._set_overlay()

    def _set_overlay(self) -> None:
        self.overlay.setBrush(QBrush(QColor(0, 0, 0, round(255 * self.dim))))

    # ---- Qt ----------------------------------------------------------------------------

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:      # large text: the labels grow with the window's font
            self._range_changed()

    # ---- layers -----------------------------------------------------------------------

    @property
    def layer_names(self) -> tuple[str, ...]:
        """All layer names, bottom first."""
        return LAYER_NAMES

    def layer_title(self, name: str) -> str:
        """The translated name of a layer, for legends and menus."""
        return self._layer_titles[self._check(name)]

    def layer_item(self, name: str) -> pg.ScatterPlotItem:
        """The ScatterPlotItem drawing a layer (read it; change it through this view)."""
        return self._layers[self._check(name)].item

    def layer_action(self, name: str) -> QAction:
        """A checkable action showing or hiding a layer, for menus and toolbars."""
        return self._layer_actions[self._check(name)]

    def brush_for(self, colour) -> QBrush:
        """The one cached QBrush for a colour (name, '#rrggbb', (r, g, b[, a]) or QColor)."""
        if isinstance(colour, QBrush):
            return colour
        if isinstance(colour, (str, tuple)):        # hashable: found without parsing the colour again
            brush = self._brushes.get(colour)
            if brush is not None:
                return brush
            brush = self._brushes[colour] = self.brush_for(pg.mkColor(colour))
            return brush
        rgba = pg.mkColor(colour).rgba()
        brush = self._brushes.get(rgba)
        if brush is None:
            brush = self._brushes[rgba] = QBrush(QColor.fromRgba(rgba))
        return brush

    def set_layer(self, name: str, xs, ys, *, colours=None,
                  labels: Sequence[str] | None = None) -> None:
        """Replace a layer's markers with points (xs, ys) in local metres.

        ``colours`` is one colour for all or one per point (e.g. each group's
        side colour); ``labels`` one string per point, shown on hover.  The
        map repaints on its next timer tick, not now.
        """
        layer = self._layers[self._check(name)]
        xs = np.asarray(xs, dtype=float).ravel()
        ys = np.asarray(ys, dtype=float).ravel()
        if xs.shape != ys.shape:
            raise ValueError(f"layer {name!r}: {xs.size} x values but {ys.size} y values")
        if colours is None:
            brushes = None
        elif isinstance(colours, (str, QColor, QBrush)) or (
                isinstance(colours, tuple) and colours and np.isscalar(colours[0])):
            brushes = self.brush_for(colours)
        elif colours is layer.colours_given and isinstance(layer.brushes, list) and len(layer.brushes) == xs.size:
            brushes = layer.brushes             # the same list again (a moved layer): converted already
        else:
            # (2,000 casualties in two colours: a dictionary look-up each, not a call)
            known = self._brushes
            brushes = [known.get(c) or self.brush_for(c) if isinstance(c, (str, tuple)) else self.brush_for(c)
                       for c in colours]
            if len(brushes) != xs.size:
                raise ValueError(f"layer {name!r}: {len(brushes)} colours for {xs.size} points")
        given = labels
        if labels is None:
            labels = []
        elif labels is layer.labels_given and len(layer.labels) == xs.size:
            labels = layer.labels
        else:
            labels = [str(s) for s in labels]
        if labels and len(labels) != xs.size:
            raise ValueError(f"layer {name!r}: {len(labels)} labels for {xs.size} points")
        layer.xs, layer.ys, layer.brushes, layer.labels = xs, ys, brushes, labels
        # Kept to know a list given again; the caller must not change a list it has given (it gives a new one).
        layer.colours_given = colours if isinstance(colours, list) else None
        layer.labels_given = given if isinstance(given, list) else None
        self._mark_dirty(layer)

    def set_layer_geographic(self, name: str, lats, lons, **kwargs) -> None:
        """Like :meth:`set_layer` with GPS degrees, projected by :attr:`projection`."""
        if self.projection is None:
            raise RuntimeError("MapView has no MapFrame: set view.projection first")
        xs, ys = self.projection.to_local(np.asarray(lats, float), np.asarray(lons, float))
        self.set_layer(name, xs, ys, **kwargs)

    def clear_layer(self, name: str) -> None:
        """Remove all markers of a layer (on the next repaint)."""
        self.set_layer(name, [], [])

    def set_layer_visible(self, name: str, visible: bool) -> None:
        """Show or hide a layer; data keeps arriving while it is hidden."""
        layer = self._layers[self._check(name)]
        layer.shown = bool(visible)
        layer.item.setVisible(layer.shown and self.has_markers(name))
        action = self._layer_actions[name]
        if action.isChecked() != bool(visible):
            action.setChecked(bool(visible))
        if visible and layer.dirty:
            self._mark_dirty(layer)

    def has_markers(self, name: str) -> bool:
        """Whether a layer's item draws any marker now (an empty layer's item is hidden, whatever the choice)."""
        return len(self._layers[self._check(name)].item.data) > 0

    def is_layer_visible(self, name: str) -> bool:
        """Whether a layer is shown."""
        return self._layers[self._check(name)].shown

    def is_dirty(self, name: str | None = None) -> bool:
        """Whether a layer (or any layer) has data not yet painted."""
        if name is None:
            return any(layer.dirty for layer in self._layers.values())
        return self._layers[self._check(name)].dirty

    def flush(self) -> None:
        """Paint dirty visible layers, and place the labels, now instead of on the next tick."""
        self._labels_now = True
        self._repaint_dirty(whole=True)

    def _mark_dirty(self, layer: _Layer) -> None:
        layer.dirty = True
        if not self._timer.isActive():
            self._timer.start()

    def _hold_paint(self, hold: bool) -> None:
        """Hold the map's paint back (the viewport's updates off) while a repaint takes several turns; let it
        go (one paint of everything given meanwhile)."""
        viewport = self.viewport()
        if viewport.updatesEnabled() == hold:
            viewport.setUpdatesEnabled(not hold)        # (enabled again: the viewport is painted whole)

    def _repaint_dirty(self, whole: bool = False) -> None:
        """Give the items what changed: moved markers at once; the costly steps (placing the labels, giving a
        layer new markers or styles) one per turn of the event loop, the next one queued at once, so that
        between them the window answers (placing 400 labels and filling 2,000 casualties in one turn kept
        it 20-40 ms late, bench_map).  The paint is a costly step too (6-13 ms at 1366x768): after a turn
        that did a costly step, the map's paint is held back and comes in a turn of its own, once the
        other steps are done (Qt paints a changed scene in the next turn, before any timer: placing the
        labels and painting them made one block of 20-30 ms, once a second).  ``whole``: every step now
        (:meth:`flush`)."""
        self._more.stop()
        if whole:
            self._hold_paint(False)
        costly_done, pending = self._labels_turn(whole)
        for layer in self._layers.values():
            # A hidden layer stays dirty and is painted when shown again.
            if not layer.dirty or not layer.shown:
                continue
            brush = layer.brushes if layer.brushes is not None else layer.default_brush
            item = layer.item
            was_empty = len(item.data) == 0
            if (layer.painted is not None and layer.painted[0] is brush and layer.painted[1] == layer.xs.size
                    and len(item.data) == layer.xs.size):
                # The same markers in the same colours, moved: only the positions are set (setData would
                # build every spot's style again, a Python loop per point).
                item.data["x"] = layer.xs
                item.data["y"] = layer.ys
                item.prepareGeometryChange()
                item.informViewBoundsChanged()
                item.bounds = [None, None]
                item.invalidate()
            elif costly_done and not whole:
                pending = True                  # new markers or styles: in a turn of their own
                continue
            else:
                fill_scatter(item, layer.xs, layer.ys, brush, self._no_pen, layer.symbol, layer.size)
                layer.painted = (brush, layer.xs.size)
                costly_done = True
            layer.dirty = False
            # An empty layer's item is hidden: each item costs every paint of the map 0.2-0.4 ms, empty or
            # not (at 1400x900 an empty map painted in 9.3 ms with the eight shown, 7.2 without, 2026-12-04).
            # It shows again when markers come; in between its visibility is left alone (a STOPP's flashing).
            if layer.xs.size == 0:
                item.setVisible(False)
            elif was_empty:
                item.setVisible(True)
        if costly_done and not whole:
            self._hold_paint(True)
            self._more.start(0)                 # the rest, or the paint, in the next turn
        else:
            self._hold_paint(False)             # nothing costly in this turn: the paint goes now
            if not pending and not self._labels_dirty:
                self._timer.stop()  # idle until the next set_layer

    def label_of(self, name: str, index: int) -> str:
        """The text of one marker (what its hover shows), or '' when it has none."""
        labels = self._layers[self._check(name)].labels
        return labels[index] if 0 <= index < len(labels) else ""

    def _tip_for(self, name: str):
        def tip(x: float, y: float, data) -> str:
            layer = self._layers[name]
            index = int(data) if data is not None else -1
            if 0 <= index < len(layer.labels):
                return layer.labels[index]
            return self.tr("{layer}: {x:.0f} m E, {y:.0f} m N").format(
                layer=self._layer_titles[name], x=x, y=y)
        return tip

    def _on_clicked(self, item: pg.ScatterPlotItem, points, _event=None) -> None:
        for name, layer in self._layers.items():
            if layer.item is item:
                if len(points):
                    self.point_clicked.emit(name, int(points[0].index()))
                return

    def _check(self, name: str) -> str:
        if name not in self._layers:
            raise KeyError(f"unknown map layer {name!r}; layers are {', '.join(LAYER_NAMES)}")
        return name
