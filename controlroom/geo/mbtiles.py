"""MBTiles: offline map tiles in one SQLite file (EPSG:3857 XYZ tiles, rows stored bottom-up as TMS)."""

from __future__ import annotations

import math
import os
import sqlite3
from pathlib import Path

from controlroom.geo.imagesize import ImageSizeError, image_size_of_bytes
from controlroom.geo.worldfile import WorldFile

__all__ = ["MBTiles", "MBTilesError", "EARTH_HALF_CIRCUMFERENCE", "mercator_xy", "resolution"]

#: Half the Equator of Web Mercator (EPSG:3857), metres: the x (and y) of its edge.
EARTH_HALF_CIRCUMFERENCE = math.pi * 6378137.0


class MBTilesError(ValueError):
    """A file that is not MBTiles, or MBTiles without tiles."""


def mercator_xy(lat: float, lon: float) -> tuple[float, float]:
    """Web Mercator metres (EPSG:3857) of a latitude and longitude (the sphere formula EPSG:3857 defines)."""
    lat = max(-85.05112878, min(85.05112878, lat))
    x = math.radians(lon) * 6378137.0
    y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * 6378137.0
    return x, y


def resolution(zoom: int, tile_size: int = 256) -> float:
    """EPSG:3857 metres per pixel at a zoom level."""
    return 2 * EARTH_HALF_CIRCUMFERENCE / (tile_size * 2 ** zoom)


class MBTiles:
    """An MBTiles file opened read-only: its metadata, zoom levels, extent and tiles by XYZ address."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise MBTilesError(f"{self.path}: no such file")
        try:
            self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            names = {row[0] for row in
                     self._db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        except sqlite3.DatabaseError as exc:
            raise MBTilesError(f"{self.path}: not an MBTiles file (it is not an SQLite database: {exc})") from None
        if not {"metadata", "tiles"} <= names:
            self.close()
            raise MBTilesError(f"{self.path}: not an MBTiles file (it has no 'metadata' and 'tiles' tables)")
        try:
            self.metadata = {str(k): str(v) for k, v in self._db.execute("SELECT name, value FROM metadata")}
            zooms = self._db.execute("SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles").fetchone()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise MBTilesError(f"{self.path}: its tables cannot be read ({exc})") from None
        if zooms[0] is None:
            self.close()
            raise MBTilesError(f"{self.path}: holds no tiles")
        fmt = self.metadata.get("format", "png").lower()
        if fmt in ("pbf", "mvt"):
            self.close()
            raise MBTilesError(f"{self.path}: holds vector tiles ({fmt}); controlroom shows raster tiles (PNG, JPEG, "
                               "WebP), such as QGIS's \"Generate XYZ tiles (MBTiles)\" makes")
        self.format = fmt
        self.minzoom, self.maxzoom = int(zooms[0]), int(zooms[1])
        self.tile_size = self._tile_size()
        self.bounds = self._bounds()        # west, south, east, north in degrees

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> MBTiles:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def tile(self, zoom: int, x: int, y: int) -> bytes | None:
        """The encoded image of XYZ tile (zoom, x, y), y counted from the top; None where the file has none."""
        row = (1 << zoom) - 1 - y
        found = self._db.execute("SELECT tile_data FROM tiles"
                                 " WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                 (zoom, x, row)).fetchone()
        return bytes(found[0]) if found and found[0] is not None else None

    def tile_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM tiles").fetchone()[0])

    def _tile_size(self) -> int:
        row = self._db.execute("SELECT tile_data FROM tiles WHERE zoom_level = ? LIMIT 1", (self.maxzoom,)).fetchone()
        try:
            return image_size_of_bytes(bytes(row[0]))[1] if row and row[0] else 256
        except ImageSizeError:
            return 256

    def _bounds(self) -> tuple[float, float, float, float]:
        """The extent: the metadata's bounds (as GDAL reads them), else that of the tiles at the highest zoom."""
        text = self.metadata.get("bounds", "")
        try:
            west, south, east, north = (float(v) for v in text.split(","))
            if west < east and south < north:
                return west, south, east, north
        except ValueError:
            pass
        z = self.maxzoom
        x0, x1, r0, r1 = self._db.execute(
            "SELECT MIN(tile_column), MAX(tile_column), MIN(tile_row), MAX(tile_row) FROM tiles WHERE zoom_level = ?",
            (z,)).fetchone()
        n = 1 << z
        west, east = x0 / n * 360.0 - 180.0, (x1 + 1) / n * 360.0 - 180.0
        north, south = _tile_lat(n - 1 - r1, n), _tile_lat(n - r0, n)
        return west, south, east, north

    def world(self) -> tuple[WorldFile, int, int]:
        """The full mosaic at the highest zoom, from the top-left of the extent: its world file and size."""
        west, south, east, north = self.bounds
        res = resolution(self.maxzoom, self.tile_size)
        x0, y1 = mercator_xy(north, west)
        x1, y0 = mercator_xy(south, east)
        world = WorldFile.from_geotransform((x0, res, 0.0, y1, 0.0, -res))
        return world, max(1, round((x1 - x0) / res)), max(1, round((y1 - y0) / res))


def _tile_lat(y: int, n: int) -> float:
    """Latitude of the top edge of XYZ tile row y of n."""
    return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / n))))
