"""The map's group labels: name and counts beside each group's marker, placed so that none covers another.

A plain mixin of :class:`~controlroom.ui.map.view.MapView` (as MapBackground
is): it uses the view's ViewBox (``_vb``), its paint timer (``_timer``), its
legend and its layers.  The geometry is :mod:`controlroom.ui.map.labels` (pure
Python); the drawing, :class:`~controlroom.ui.map.label_layer.LabelLayer`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from controlroom.ui.map.label_layer import LabelLayer, ShownLabel
from controlroom.ui.map.labels import Box, place_labels, placing_labels

#: Group labels hide when the map shows more metres per screen pixel than this (zoomed far out) ...
LABEL_MAX_M_PER_PX = 4.0
#: ... and than this many times what shows the whole field in the view (a small window fits a big field).
LABEL_FIELD_ZOOM_OUT = 1.5
# New positions place the labels again at most this often (ms); a zoom or pan places them at once.  Placing
# 400 groups' labels takes tens of milliseconds: at every delta of a busy battle it kept the window late.
LABEL_REPLACE_MS = 1000
# ... and this many labels a turn of the event loop (400 groups' labels at once were a block of 10-25 ms).
LABEL_STEP = 100


class MapLabels:
    """Group labels on a MapView: :meth:`set_labels` gives them, the view's repaint turns place them
    (:meth:`_labels_turn`)."""

    def _init_labels(self) -> None:
        # Group labels (name and counts) beside their markers, placed so that none covers another, all drawn
        # by one item over the markers in the ViewBox's pixels.
        self._labels: list[tuple[float, float, str]] = []          # (x, y, text) in frame metres
        self._label_xy = np.empty((2, 0))
        self._labels_dirty = False
        self._labels_placed: tuple | None = None                    # what the labels shown were placed for
        self._label_steps: tuple | None = None  # (steps, near, texts, area) of a placing under way
        self._labels_now = True                 # placed at once on the next turn (a zoom, a pan, the first)
        self._labels_at = 0.0                   # when they were last placed (time.monotonic)
        self.label_layer = LabelLayer(self._vb)
        self.label_layer.setZValue(100)                             # over the markers (the ViewBox's childGroup)
        self._vb.sigRangeChanged.connect(self._range_changed)
        self._vb.sigResized.connect(self._range_changed)

    def _labels_turn(self, whole: bool) -> tuple[bool, bool]:
        """The labels' part of a repaint turn: placed at once (a zoom, a pan, ``whole``), or for new positions
        at most every :data:`LABEL_REPLACE_MS`, in steps.  Returns (whether this turn did a costly step,
        whether labels wait for a later tick)."""
        costly_done = False
        pending = False
        at_once = whole or self._labels_now
        if self._label_steps is not None and at_once:
            # A placing under way, and the view moved (or flush): placed again, at once, for the view shown.
            self._label_steps = None
            self._labels_placed = None
            self._labels_dirty = True
        if self._label_steps is not None:
            self._step_labels()                 # new positions: the placing's next step, in this turn
            costly_done = True
            pending = self._labels_dirty
        elif self._labels_dirty:
            now = time.monotonic()
            if at_once or now - self._labels_at >= LABEL_REPLACE_MS / 1000:
                self._labels_now = False
                self._labels_at = now
                self._place_labels(at_once)
                costly_done = True
            else:
                pending = True                  # placed on a later tick: the timer keeps running
        return costly_done, pending

    def set_labels(self, labels: Sequence[tuple[float, float, str]]) -> None:
        """Labels at points (x, y) in frame metres, most important first; placed on the next repaint."""
        self._labels = [(float(x), float(y), str(t)) for x, y, t in labels]
        self._label_xy = np.array([[x for x, _y, _t in self._labels], [y for _x, y, _t in self._labels]],
                                  dtype=float).reshape(2, len(self._labels))
        self._labels_dirty = True
        if not self._timer.isActive():
            self._timer.start()

    def metres_per_pixel(self) -> float:
        """How many metres of the field one screen pixel shows now."""
        (x0, x1), _ = self._vb.viewRange()
        width = max(1, self._vb.width())
        return (x1 - x0) / width

    def label_limit(self) -> float:
        """Labels hide when the map shows more metres per pixel than this: :data:`LABEL_MAX_M_PER_PX`, or more
        when the whole field (the map, else the markers) needs more to fit the view, so that the field seen
        whole always shows its labels (as many as fit) and only a view wider than that is far out."""
        bounds = self.field_bounds()
        if bounds is None or bounds.isEmpty():
            return LABEL_MAX_M_PER_PX
        fit = max(bounds.width() / max(1.0, self._vb.width()), bounds.height() / max(1.0, self._vb.height()))
        return max(LABEL_MAX_M_PER_PX, LABEL_FIELD_ZOOM_OUT * fit)

    def shown_labels(self) -> list[ShownLabel]:
        """The labels drawn on the map now: each one's text and box (in scene coordinates)."""
        return self.label_layer.shown()

    def _range_changed(self, *_args) -> None:
        self._labels_dirty = True
        self._labels_now = True                 # the view moved: labels follow at once
        if not self._timer.isActive():
            self._timer.start()

    def _place_labels(self, at_once: bool = True) -> None:
        """Place the labels for the view shown: all now, or (not ``at_once``) in steps, one a turn of the event
        loop (:meth:`_step_labels`: the markers entered, then :data:`LABEL_STEP` labels each), shown when all
        are placed."""
        self._labels_dirty = False
        self._label_steps = None
        layer = self.label_layer
        layer.set_night(self.night)
        vb = self._vb
        scene = vb.scene()
        if (not self._labels or not self.is_layer_visible("groups") or scene is None or not scene.views()
                or self.metres_per_pixel() > self.label_limit()):
            self._labels_placed = None
            layer.clear()
            return
        font_changed = layer.set_font(self.font())
        area = vb.rect()
        # Frame metres -> the ViewBox's pixels, for all labels at once.
        t = vb.childTransform()
        xs, ys = self._label_xy
        px = t.m11() * xs + t.m21() * ys + t.dx()
        py = t.m12() * xs + t.m22() * ys + t.dy()
        obstacles = []
        if self.legend.isVisible():             # the legend sits over the map: no label under it
            g = self.legend.geometry()
            corner = vb.mapFromScene(self.mapToScene(self.viewport().mapFrom(self, g.topLeft())))
            obstacles.append(Box(corner.x(), corner.y(), g.width(), g.height()))
        texts = [text for _x, _y, text in self._labels]
        key = (np.rint(px).astype(np.int64).tobytes(), np.rint(py).astype(np.int64).tobytes(), texts,
               (area.width(), area.height()), obstacles)
        if key == self._labels_placed and not font_changed:
            return                              # nothing moved by a pixel: the labels stay where they are
        self._labels_placed = key
        # Only markers near the view can have a label in it: the others are not tried.
        margin = 400.0
        near = np.flatnonzero((px > -margin) & (px < area.width() + margin) &
                              (py > -margin) & (py < area.height() + margin)).tolist()
        anchors = list(zip(px[near].tolist(), py[near].tolist()))
        sizes = layer.sizes([texts[i] for i in near])
        view = Box(area.x(), area.y(), area.width(), area.height())
        if at_once:
            self._show_labels(area, near, texts, place_labels(anchors, sizes, markers=anchors, view=view,
                                                              obstacles=obstacles))
            return
        steps = placing_labels(anchors, sizes, markers=anchors, view=view, obstacles=obstacles, step=LABEL_STEP)
        self._label_steps = (steps, near, texts, area)
        self._step_labels()

    def _step_labels(self) -> None:
        """The next :data:`LABEL_STEP` labels of the placing under way; all placed: shown."""
        steps, near, texts, area = self._label_steps
        placed = next(steps)
        if len(placed) == len(near):        # (any other placing, or clearing, drops this one first)
            self._label_steps = None
            self._show_labels(area, near, texts, placed)

    def _show_labels(self, area, near: list[int], texts: list[str], boxes) -> None:
        self.label_layer.show_boxes(area, [(box.x, box.y, box.w, box.h, texts[i]) for i, box in zip(near, boxes)
                                           if box is not None])
