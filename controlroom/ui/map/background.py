"""The map under the markers: an image placed by a world file, a georeferenced map in pieces, or MBTiles tiles."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QImageReader, QTransform

from controlroom.geo.frame import MapFrame
from controlroom.geo.placement import Piece, place_pieces
from controlroom.geo.source import MapError, MapSource, open_map
from controlroom.geo.worldfile import WorldFile
from controlroom.ui.map.tiles import TileLayer, qimage_to_array

#: The largest map image shown whole (MB of pixels, 4 bytes each); larger maps belong in MBTiles.
IMAGE_LIMIT_MB = 1024


def qtransform_for(world: WorldFile) -> QTransform:
    """The QTransform taking an image item's coordinates to world coordinates.

    Image items put pixel (col, row) on the square [col, col+1] x [row, row+1]
    (corner convention); world files place pixel CENTRES, so the offset
    moves by half a pixel along both pixel axes.
    """
    a, d, b, e, c, f = world.a, world.d, world.b, world.e, world.c, world.f
    # QTransform(m11, m12, m21, m22, dx, dy): x' = m11 x + m21 y + dx, y' = m12 x + m22 y + dy
    return QTransform(a, d, b, e, c - (a + b) / 2.0, f - (d + e) / 2.0)


def qtransform_for_piece(piece: Piece) -> QTransform:
    """The QTransform taking a piece's image item coordinates (pixel corners) to frame metres."""
    a, b, c, d, e, f = piece.affine
    return QTransform(a, d, b, e, c, f)


def read_map_image(path: str | os.PathLike) -> QImage:
    """Decode a map image (PNG, JPEG, TIFF/GeoTIFF with Qt's TIFF plugin ...); OSError says why it cannot be."""
    reader = QImageReader(str(path))
    size = reader.size()
    if size.isValid() and size.width() * size.height() * 4 > IMAGE_LIMIT_MB * 2**20:
        raise OSError(f"{Path(path).name} is {size.width()} x {size.height()} pixels, too large to show whole: "
                      "make MBTiles of it (QGIS: Generate XYZ tiles (MBTiles)) or cut it to the field")
    QImageReader.setAllocationLimit(IMAGE_LIMIT_MB)
    image = reader.read()
    if image.isNull():
        raise OSError(f"{Path(path).name}: the image cannot be decoded ({reader.errorString()})")
    return image


class MapBackground:
    """The MapView's map (a mix-in: it draws into the view's ViewBox ``_vb`` in the frame ``projection``)."""

    _vb: pg.ViewBox
    projection: MapFrame | None
    _layers: dict                           # the view's marker layers (their points bound a field without a map)

    def _init_background(self) -> None:
        self._pieces: list[tuple[Piece, pg.ImageItem]] = []
        self._tiles: TileLayer | None = None    # a TileLayer for MBTiles
        self._source: MapSource | None = None

    def set_background(self, image: QImage, world: WorldFile) -> None:
        """Show an image placed by a world file (or control-point affine) already in frame metres."""
        if image.isNull():
            raise ValueError("background image is empty")
        self.clear_background()
        x0, a, b, y0, d, e = world.geotransform()
        piece = Piece(0, 0, image.width(), image.height(), (a, b, x0, d, e, y0), 0.0)
        self._add_pieces(qimage_to_array(image), [piece])

    def set_map(self, source: MapSource, image: QImage | None = None) -> None:
        """Show a georeferenced map: its pixels put where pyproj puts them, in pieces within a quarter pixel.

        MBTiles are shown as tiles at the zoom in view.  Without a frame yet,
        the map's centre becomes the frame's centre.
        """
        if source.crs is None:
            raise MapError(f"{source.path.name}: its coordinate system is not known")
        if self.projection is None:
            self.projection = MapFrame(*source.centre())
        frame = self.projection
        if source.kind == "mbtiles":

            self.clear_background()
            self._tiles = TileLayer(self._vb, source, frame)
            self._source = source
            self._tiles.update()
            return
        if image is None:
            image = read_map_image(source.path)
        if (image.width(), image.height()) != (source.width, source.height):
            raise MapError(f"{source.path.name}: the image is {image.width()} x {image.height()} pixels, but its "
                           f"georeference is for {source.width} x {source.height}")
        pieces = place_pieces(lambda c, r: frame.from_crs(source.crs, *source.corner_to_crs(c, r)),
                              source.width, source.height)
        self.clear_background()
        self._add_pieces(qimage_to_array(image), pieces)
        self._source = source

    def _add_pieces(self, pixels: np.ndarray, pieces: list[Piece]) -> None:
        for piece in pieces:
            item = pg.ImageItem(axisOrder="row-major")
            item.setImage(pixels[piece.row0:piece.row0 + piece.rows, piece.col0:piece.col0 + piece.cols],
                          autoLevels=False, levels=(0, 255))
            item.setTransform(qtransform_for_piece(piece))
            item.setZValue(-100)
            self._vb.addItem(item, ignoreBounds=True)
            self._pieces.append((piece, item))

    def load_background(self, image_path: str | os.PathLike, world: WorldFile | None = None,
                        *, degrees: bool = False) -> WorldFile:
        """Load a map file and show it; returns its world file (in the map's own coordinate system).

        Without ``world`` the map is opened by :func:`open_map` (world file
        with .prj or .aux.xml, GeoTIFF, MBTiles): MapError says what is
        missing.  With ``world``, it places the image in frame metres, or in
        degrees (EPSG:4326) with ``degrees=True``.
        """
        if world is None:
            source = open_map(image_path)
            self.set_map(source)
            return source.world
        if degrees:
            from controlroom.geo.frame import WGS84

            image = read_map_image(image_path)
            source = MapSource(Path(image_path), "image", "image", image.width(), image.height(), world, WGS84,
                               "the world file given", "degrees (EPSG:4326)")
            self.set_map(source, image)
            return world
        self.set_background(read_map_image(image_path), world)
        return world

    def clear_background(self) -> None:
        """Remove the map."""
        for _piece, item in self._pieces:
            self._vb.removeItem(item)
        self._pieces = []
        if self._tiles is not None:
            self._tiles.close()
            self._tiles = None
        self._source = None

    @property
    def background_item(self) -> pg.ImageItem | None:
        """The (first) ImageItem showing the map, if any."""
        return self._pieces[0][1] if self._pieces else None

    @property
    def background_pieces(self) -> list[tuple[Piece, pg.ImageItem]]:
        """The map's pieces and the items showing them."""
        return list(self._pieces)

    @property
    def map_source(self) -> MapSource | None:
        """The map shown (None for an image placed directly in frame metres, or no map)."""
        return self._source

    @property
    def tile_layer(self):
        """The TileLayer showing an MBTiles map, or None."""
        return self._tiles

    # ---- the field -----------------------------------------------------------------------

    def field_bounds(self) -> QRectF | None:
        """The world rectangle of the background image, else of all markers, else None."""
        if self._tiles is not None:
            return self._tiles.bounds()
        if self._pieces:
            xs, ys = [], []
            for piece, _item in self._pieces:
                px, py = piece.to_frame(np.array([0, piece.cols, piece.cols, 0]),
                                        np.array([0, 0, piece.rows, piece.rows]))
                xs += list(px)
                ys += list(py)
            return QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        xs = [layer.xs for layer in self._layers.values() if layer.xs.size]
        ys = [layer.ys for layer in self._layers.values() if layer.ys.size]
        if not xs:
            return None
        x, y = np.concatenate(xs), np.concatenate(ys)
        finite = np.isfinite(x) & np.isfinite(y)
        if not finite.any():
            return None
        x0, x1, y0, y1 = x[finite].min(), x[finite].max(), y[finite].min(), y[finite].max()
        pad = max(x1 - x0, y1 - y0, 50.0) * 0.05
        return QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)

    def fit_to_field(self) -> None:
        """Zoom to show the whole field (the background, or all markers without one)."""
        rect = self.field_bounds()
        if rect is not None:
            self._vb.setRange(rect=rect, padding=0.0)
