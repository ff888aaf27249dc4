"""A map file as organisers bring it (image + world file, GeoTIFF, MBTiles), opened with its coordinate system."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from pyproj import CRS, Geod, Transformer

from controlroom.geo.crs import (
    Candidate,
    CrsError,
    aux_xml_path,
    candidates,
    crs_label,
    describe,
    looks_like_local_metres,
    prj_path,
    read_aux_xml,
    read_prj,
)
from controlroom.geo.geotiff import GeoTiffError, read_geotiff
from controlroom.geo.imagesize import ImageSizeError, image_size
from controlroom.geo.mbtiles import MBTiles, MBTilesError
from controlroom.geo.worldfile import WorldFile, WorldFileError, read_world_file, world_file_for

__all__ = ["MapSource", "MapError", "NotPlaced", "CrsUnknown", "open_map", "restore_map", "KINDS"]

KINDS = ("image", "geotiff", "mbtiles")
_TIFF = (".tif", ".tiff")
_GEOD = Geod(ellps="WGS84")


class MapError(ValueError):
    """A map file that cannot be used, said in words an organiser can act on."""


class NotPlaced(MapError):  # noqa: N818 - a MapError named for its case
    """An image with nothing that places it (no world file, no GeoTIFF tags)."""


class CrsUnknown(MapError):  # noqa: N818 - a MapError named for its case
    """A placed image whose coordinate system nothing names; ``source`` is the map without it."""

    def __init__(self, message: str, source: MapSource) -> None:
        super().__init__(message)
        self.source = source

    def candidates(self, near: tuple[float, float] | None = None) -> list[Candidate]:
        """The likely coordinate systems, nearest the field first when ``near`` (lat, lon) is known."""
        return candidates(self.source.world, self.source.width, self.source.height, near)

    def explain(self, near: tuple[float, float] | None = None) -> str:
        """The message with the candidates and what to do, for the command line."""
        lines = [str(self)]
        local = looks_like_local_metres(self.source.world, self.source.width, self.source.height)
        found = [] if local else self.candidates(near)
        if found:
            lines.append("Its numbers fit:")
            lines += [f"  {c}" for c in found]
        elif local:
            lines.append("Its numbers are small, like metres around a point, as earlier versions of controlroom "
                         "wrote them: place the image again by clicking three points (View, Place a map image).")
        lines.append("Save the map from QGIS or GDAL with its coordinate system (a .prj or .aux.xml beside it), "
                     "or name it with --crs EPSG:CODE.")
        return "\n".join(lines)


@dataclass(frozen=True)
class MapSource:
    """A map with its georeference: pixels -> coordinates in ``crs`` (x easting or longitude, y northing or
    latitude)."""

    path: Path
    kind: str               # "image", "geotiff" or "mbtiles"
    format: str             # "PNG", "GeoTIFF", "MBTiles (png tiles)" ...
    width: int              # pixels; of MBTiles, the mosaic at the highest zoom
    height: int
    world: WorldFile        # pixel centres -> crs, world-file convention
    crs: CRS | None
    placed_by: str          # what placed the pixels: "field.pgw", "its GeoTIFF tags" ...
    crs_from: str           # where the coordinate system came from
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def with_crs(self, crs: CRS, crs_from: str) -> MapSource:
        return replace(self, crs=crs, crs_from=crs_from, _cache={})

    def _transformer(self, inverse: bool) -> Transformer:
        if self.crs is None:
            raise MapError(f"{self.path.name}: its coordinate system is not known")
        key = "inverse" if inverse else "forward"
        if key not in self._cache:
            source, target = (self.crs, 4326) if inverse else (4326, self.crs)
            self._cache[key] = Transformer.from_crs(source, target, always_xy=True)
        return self._cache[key]

    def locate(self, lat, lon):
        """Pixel (column, row) of a WGS84 point, from the image's top-left corner, pixel centres at .5."""
        x, y = self._transformer(False).transform(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float))
        col, row = self.world.world_to_pixel(x, y)
        return _unwrap(np.asarray(col) + 0.5), _unwrap(np.asarray(row) + 0.5)

    def latlon(self, col, row):
        """WGS84 (lat, lon) of a pixel position (corner convention: the top-left corner is 0, 0)."""
        x, y = self.world.corner_to_world(col, row)
        lon, lat = self._transformer(True).transform(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        return _unwrap(lat), _unwrap(lon)

    def corner_to_crs(self, col, row):
        """Coordinates in the map's own system of pixel positions (corner convention)."""
        return self.world.corner_to_world(col, row)

    def contains(self, col: float, row: float) -> bool:
        return 0.0 <= col <= self.width and 0.0 <= row <= self.height

    def centre(self) -> tuple[float, float]:
        """WGS84 (lat, lon) of the middle of the map."""
        return self.latlon(self.width / 2.0, self.height / 2.0)

    def ground_size(self) -> tuple[float, float]:
        """Metres on the ground across the middle of the map: (width, height), along the WGS84 ellipsoid."""
        w, h = self.width, self.height
        (la0, lo0), (la1, lo1) = self.latlon(0.0, h / 2.0), self.latlon(float(w), h / 2.0)
        (la2, lo2), (la3, lo3) = self.latlon(w / 2.0, 0.0), self.latlon(w / 2.0, float(h))
        return _GEOD.inv(lo0, la0, lo1, la1)[2], _GEOD.inv(lo2, la2, lo3, la3)[2]

    def info_lines(self) -> list[str]:
        """What ``controlroom map info`` prints: kind, size, coordinate system, extent, resolution."""
        lines = [f"{self.path.name}: {self.format}, {self.width} x {self.height} pixels",
                 f"Placed by: {self.placed_by}"]
        if self.crs is None:
            lines.append("Coordinate system: not known")
            return lines
        lines.append(f"Coordinate system: {describe(self.crs)}, from {self.crs_from}")
        x0, x1, y0, y1 = self.world.image_bounds(self.width, self.height)
        lines.append(f"Extent in {crs_label(self.crs)}: x {x0:.8g} to {x1:.8g}, y {y0:.8g} to {y1:.8g}")
        cols = np.array([0.0, self.width, self.width, 0.0])
        rows = np.array([0.0, 0.0, self.height, self.height])
        lats, lons = self.latlon(cols, rows)
        lines.append(f"Extent in WGS84: latitude {lats.min():.6f} to {lats.max():.6f}, "
                     f"longitude {lons.min():.6f} to {lons.max():.6f}")
        lat, lon = self.centre()
        lines.append(f"Centre: {lat:.6f}, {lon:.6f}")
        gw, gh = self.ground_size()
        lines.append(f"On the ground: {gw:,.0f} m x {gh:,.0f} m")
        sx, sy = self.world.pixel_size
        units = "degrees" if self.crs.is_geographic else "units"
        lines.append(f"Resolution: {gw / self.width:.3g} m x {gh / self.height:.3g} m per pixel "
                     f"({sx:.6g} x {sy:.6g} {units} of the coordinate system)")
        return lines


def _unwrap(value):
    return float(value) if np.ndim(value) == 0 else value


def open_map(path: str | os.PathLike, crs: CRS | None = None, crs_from: str = "") -> MapSource:
    """Open a map file with its georeference and coordinate system.

    ``crs`` names the coordinate system when the file does not (or overrides
    it).  Raises NotPlaced when nothing places the image, CrsUnknown when its
    coordinate system is not known, MapError for anything else.
    """
    path = Path(path)
    if not path.is_file():
        raise MapError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".mbtiles":
        return _open_mbtiles(path, crs, crs_from)
    internal_world, internal_crs, note = None, None, ""
    if suffix in _TIFF:
        try:
            tiff = read_geotiff(path)
        except GeoTiffError as exc:
            raise MapError(str(exc)) from None
        kind, fmt, width, height = "geotiff", "GeoTIFF" if tiff.world else "TIFF image", tiff.width, tiff.height
        internal_world, internal_crs, note = tiff.world, tiff.crs, tiff.crs_note
    else:
        try:
            fmt, width, height = image_size(path)
        except (ImageSizeError, OSError) as exc:
            raise MapError(f"{path}: cannot be read as a map image ({exc})") from None
        kind, fmt = "image", f"{fmt} image"
    if width <= 0 or height <= 0:
        raise MapError(f"{path}: the image has no pixels")
    pam_crs, pam_world = None, None
    aux = aux_xml_path(path)
    if aux.is_file():
        try:
            pam_crs, pam_world = read_aux_xml(aux)
        except CrsError as exc:
            raise MapError(str(exc)) from None
    world, placed_by = _placement(path, pam_world, internal_world)
    source = MapSource(path, kind, fmt, width, height, world, None, placed_by, "")
    if crs is not None:
        return source.with_crs(crs, crs_from or "the coordinate system given")
    for found, where in ((pam_crs, aux.name), (internal_crs, "its GeoTIFF keys")):
        if found is not None:
            return source.with_crs(found, where)
    prj = prj_path(path)
    if prj.is_file():
        try:
            return source.with_crs(read_prj(prj), prj.name)
        except CrsError as exc:
            raise MapError(str(exc)) from None
    why = f" ({note})" if note else ""
    raise CrsUnknown(f"{path.name}: placed by {placed_by}, but its coordinate system is not known{why}: "
                     f"there is no {prj.name} or {aux.name} beside it", source)


def _placement(path: Path, pam_world: WorldFile | None, internal: WorldFile | None) -> tuple[WorldFile, str]:
    """The pixel placement GDAL would use: the .aux.xml's, the file's own, else its world file."""
    if pam_world is not None:
        return pam_world, aux_xml_path(path).name
    if internal is not None:
        return internal, "its GeoTIFF tags"
    sidecar = world_file_for(path)
    if sidecar is None:
        raise NotPlaced(f"{path.name}: nothing places this image on the ground (no world file such as "
                        f"{path.stem}.pgw, {path.stem}.wld, and no GeoTIFF tags). Export it from QGIS with a world "
                        "file, or place it by clicking three points whose coordinates you know.")
    try:
        return read_world_file(sidecar), sidecar.name
    except (WorldFileError, OSError) as exc:
        raise MapError(str(exc)) from None


def _open_mbtiles(path: Path, crs: CRS | None, crs_from: str) -> MapSource:
    try:
        with MBTiles(path) as tiles:
            world, width, height = tiles.world()
            fmt = (f"MBTiles ({tiles.format} tiles of {tiles.tile_size} pixels, zoom {tiles.minzoom} to "
                   f"{tiles.maxzoom}, {tiles.tile_count()} tiles; the mosaic at zoom {tiles.maxzoom})")
    except MBTilesError as exc:
        raise MapError(str(exc)) from None
    if crs is not None and crs_label(crs) != "EPSG:3857":
        raise MapError(f"{path.name}: MBTiles are always in EPSG:3857 (Web Mercator), not {crs_label(crs)}")
    return MapSource(path, "mbtiles", fmt, width, height, world, CRS.from_epsg(3857), "its tiles' extent",
                     "the MBTiles standard (always EPSG:3857)")


def restore_map(path: str | os.PathLike, kind: str, width: int, height: int, world, crs_wkt: str,
                where: str = "the game") -> MapSource:
    """A map kept with a game, with the georeference kept beside it (nothing is read again from sidecars)."""
    from controlroom.geo.crs import parse_crs

    if kind not in KINDS:
        raise MapError(f"{where}: its map is of an unknown kind {kind!r}")
    try:
        crs = parse_crs(crs_wkt, f"the coordinate system of the map in {where}")
        placement = WorldFile(*(float(v) for v in world))
    except (CrsError, WorldFileError, TypeError, ValueError) as exc:
        raise MapError(str(exc)) from None
    fmt = {"image": "image", "geotiff": "GeoTIFF", "mbtiles": "MBTiles"}[kind]
    return MapSource(Path(path), kind, fmt, int(width), int(height), placement, crs, where, where)


def ground_metres_per_pixel(source: MapSource) -> float:
    """The mean ground size of one pixel across the middle of the map, in metres."""
    gw, gh = source.ground_size()
    return math.sqrt((gw / source.width) * (gh / source.height))
