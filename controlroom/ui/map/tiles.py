"""MBTiles on the live map: only the tiles in view, at the zoom that matches the view, from a bounded cache."""

from __future__ import annotations

import logging
import math
from collections import OrderedDict

import numpy as np
import pyqtgraph as pg
from pyproj import CRS
from PySide6.QtCore import QObject, QRectF, QTimer
from PySide6.QtGui import QImage, QTransform

from controlroom.geo.frame import MapFrame
from controlroom.geo.mbtiles import EARTH_HALF_CIRCUMFERENCE, MBTiles, resolution
from controlroom.geo.placement import fit_affine
from controlroom.geo.source import MapSource

log = logging.getLogger(__name__)

__all__ = ["TileLayer", "CACHE_TILES", "MAX_TILES_IN_VIEW"]

#: Decoded tiles kept in memory (256 x 256 RGBA: 256 KiB each, so 64 MiB at most).
CACHE_TILES = 256
#: Never more tiles than this in view: zoomed far out, a coarser level is used.
MAX_TILES_IN_VIEW = 120
_WEB_MERCATOR = CRS.from_epsg(3857)



def qimage_to_array(image: QImage) -> np.ndarray:
    """A (height, width, 4) uint8 RGBA copy of a QImage, row 0 at the top."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    h, w = rgba.height(), rgba.width()
    buf = np.frombuffer(rgba.constBits(), dtype=np.uint8, count=rgba.sizeInBytes())
    return buf.reshape(h, rgba.bytesPerLine())[:, : w * 4].reshape(h, w, 4).copy()


class TileLayer(QObject):
    """Shows an MBTiles map in a ViewBox: the visible tiles at the zoom in view, each placed through pyproj."""

    def __init__(self, view_box: pg.ViewBox, source: MapSource, frame: MapFrame,
                 cache_tiles: int = CACHE_TILES) -> None:
        super().__init__(view_box)
        self.view_box, self.source, self.frame = view_box, source, frame
        self.tiles = MBTiles(source.path)
        self.cache_tiles = cache_tiles
        self._cache: OrderedDict[tuple[int, int, int], np.ndarray | None] = OrderedDict()
        self._items: dict[tuple[int, int, int], pg.ImageItem] = {}
        self.reads = 0                          # tiles read from the file (the cache saves the others)
        self.zoom: int | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.update)
        view_box.sigRangeChanged.connect(self._timer.start)
        view_box.sigResized.connect(self._timer.start)

    def close(self) -> None:
        """Remove the tiles from the view and close the file."""
        self._timer.stop()
        for signal in (self.view_box.sigRangeChanged, self.view_box.sigResized):
            try:
                signal.disconnect(self._timer.start)
            except (RuntimeError, TypeError):
                pass
        for item in self._items.values():
            self.view_box.removeItem(item)
        self._items.clear()
        self._cache.clear()
        self.tiles.close()

    # -- which tiles ------------------------------------------------------------------

    def zoom_for(self, metres_per_screen_pixel: float) -> int:
        """The coarsest zoom whose pixels are no larger on the ground than a screen pixel, within the file's."""
        lat = self.frame.lat0
        ground0 = resolution(0, self.tiles.tile_size) * math.cos(math.radians(lat))
        if not metres_per_screen_pixel > 0:
            return self.tiles.maxzoom
        z = math.ceil(math.log2(ground0 / metres_per_screen_pixel))
        return max(self.tiles.minzoom, min(self.tiles.maxzoom, z))

    def _extent_tiles(self, z: int) -> tuple[int, int, int, int]:
        """XYZ tile columns and rows (first, last) covering the file's extent at zoom z."""
        x0, x1, y0, y1 = self.source.world.image_bounds(self.source.width, self.source.height)
        return self._tile_range(z, x0, x1, y0, y1)

    @staticmethod
    def _tile_range(z: int, x0: float, x1: float, y0: float, y1: float) -> tuple[int, int, int, int]:
        n = 1 << z
        span = 2 * EARTH_HALF_CIRCUMFERENCE / n
        c0 = int(math.floor((x0 + EARTH_HALF_CIRCUMFERENCE) / span))
        c1 = int(math.floor((x1 + EARTH_HALF_CIRCUMFERENCE) / span - 1e-9))
        r0 = int(math.floor((EARTH_HALF_CIRCUMFERENCE - y1) / span))
        r1 = int(math.floor((EARTH_HALF_CIRCUMFERENCE - y0) / span - 1e-9))
        return max(0, c0), min(n - 1, c1), max(0, r0), min(n - 1, r1)

    def visible(self) -> tuple[int, list[tuple[int, int, int]]]:
        """(zoom, tiles) for the view as it is: the tiles of the extent that the view shows."""
        rect = self.view_box.viewRect()
        size = self.view_box.viewPixelSize()
        z = self.zoom_for(min(abs(size[0]), abs(size[1])))
        xs = np.array([rect.left(), rect.right(), rect.right(), rect.left(), rect.center().x()])
        ys = np.array([rect.top(), rect.top(), rect.bottom(), rect.bottom(), rect.center().y()])
        mx, my = self.frame.to_crs(_WEB_MERCATOR, xs, ys)
        while True:
            e = self._extent_tiles(z)
            v = self._tile_range(z, float(np.min(mx)), float(np.max(mx)), float(np.min(my)), float(np.max(my)))
            c0, c1, r0, r1 = max(e[0], v[0]), min(e[1], v[1]), max(e[2], v[2]), min(e[3], v[3])
            count = max(0, c1 - c0 + 1) * max(0, r1 - r0 + 1)
            if count <= MAX_TILES_IN_VIEW or z <= self.tiles.minzoom:
                break
            z -= 1
        return z, [(z, x, y) for y in range(r0, r1 + 1) for x in range(c0, c1 + 1)]

    # -- drawing ----------------------------------------------------------------------

    def update(self) -> None:
        """Show the tiles the view needs; drop the others."""
        z, wanted = self.visible()
        self.zoom = z
        shown: dict[tuple[int, int, int], np.ndarray] = {}
        for key in wanted:
            found = self._find(key)
            if found is not None:
                shown.setdefault(found[0], found[1])
        for key in [k for k in self._items if k not in shown]:
            self.view_box.removeItem(self._items.pop(key))
        for key, pixels in shown.items():
            if key not in self._items:
                self._items[key] = self._item(key, pixels)

    def _find(self, key: tuple[int, int, int]):
        """The tile, or the nearest coarser one covering it where the file has none at this zoom."""
        z, x, y = key
        while z >= self.tiles.minzoom:
            pixels = self._tile((z, x, y))
            if pixels is not None:
                return (z, x, y), pixels
            z, x, y = z - 1, x // 2, y // 2
        return None

    def _tile(self, key: tuple[int, int, int]) -> np.ndarray | None:
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        self.reads += 1
        data = self.tiles.tile(*key)
        pixels = None
        if data is not None:
            image = QImage.fromData(data)
            if image.isNull():
                log.warning("%s: tile %s cannot be decoded", self.source.path.name, key)
            else:
                pixels = qimage_to_array(image)
        self._cache[key] = pixels
        while len(self._cache) > self.cache_tiles:
            self._cache.popitem(last=False)
        return pixels

    def _item(self, key: tuple[int, int, int], pixels: np.ndarray) -> pg.ImageItem:
        z, x, y = key
        item = pg.ImageItem(axisOrder="row-major")
        item.setImage(pixels, autoLevels=False, levels=(0, 255))
        h, w = pixels.shape[:2]
        span = 2 * EARTH_HALF_CIRCUMFERENCE / (1 << z)
        u = np.array([0.0, w, w, 0.0, w / 2])
        v = np.array([0.0, 0.0, h, h, h / 2])
        mx = -EARTH_HALF_CIRCUMFERENCE + (x + u / w) * span
        my = EARTH_HALF_CIRCUMFERENCE - (y + v / h) * span
        fx, fy = self.frame.from_crs(_WEB_MERCATOR, mx, my)
        a, b, c, d, e, f = fit_affine(u, v, np.asarray(fx), np.asarray(fy))
        item.setTransform(QTransform(a, d, b, e, c, f))
        item.setZValue(-100 + z * 0.1)         # a coarser stand-in below the finer tiles
        self.view_box.addItem(item, ignoreBounds=True)
        return item

    def shown(self) -> list[tuple[int, int, int]]:
        """The tiles in the view now (zoom, x, y)."""
        return sorted(self._items)

    def item(self, key: tuple[int, int, int]) -> pg.ImageItem:
        return self._items[key]

    def bounds(self) -> QRectF:
        """The file's extent in frame metres."""
        w, h = self.source.width, self.source.height
        cols = np.array([0.0, w, w, 0.0])
        rows = np.array([0.0, 0.0, h, h])
        fx, fy = self.frame.from_crs(self.source.crs, *self.source.corner_to_crs(cols, rows))
        return QRectF(float(np.min(fx)), float(np.min(fy)), float(np.ptp(fx)), float(np.ptp(fy)))
