"""The field map's named features and its grid: where a point is, in words an organiser can find on the map.

A field map's named features (the fort, the ford, Valhalla...) come from a
GeoJSON file of points, each with a ``name`` property, in WGS84 as GIS tools
write it (QGIS: Export, Save Features As, GeoJSON, EPSG:4326).  Beside a map
``field.png`` it is ``field.places.geojson``, kept in the game with the map.

The map's grid divides it into squares of a round size on the ground (50,
100, 200... metres, at most about ten across), lettered A, B, C... from the
left and numbered 1, 2, 3... from the top, as on a tourist map; the report's
map page draws it.  A place is then "Ford, 40 m north-east; square E3".
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pyproj import Geod

__all__ = ["Place", "PlacesError", "read_places", "places_beside", "Grid", "grid_for", "nearest", "BEARINGS"]

_GEOD = Geod(ellps="WGS84")
SUFFIX = ".places.geojson"
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000)
MAX_COLUMNS = 10
# The eight compass points, clockwise from north.
BEARINGS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


class PlacesError(ValueError):
    """A places file that cannot be read, with what is wrong and where."""


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    lat: float
    lon: float


def _point(feature, i: int, where: str) -> Place | None:
    """The named point of a feature; None for a feature that is no point (a line, an area: not a place)."""
    if not isinstance(feature, dict):
        raise PlacesError(f"{where}: feature {i + 1} is not an object")
    geometry = feature.get("geometry") or {}
    props = feature.get("properties") or {}
    name = props.get("name") if isinstance(props, dict) else None
    if not isinstance(geometry, dict):
        raise PlacesError(f"{where}: feature {i + 1} has a geometry that is not an object")
    if geometry.get("type") != "Point":
        return None
    if not isinstance(name, str) or not name.strip():
        raise PlacesError(f"{where}: feature {i + 1} has no name (a 'name' property)")
    try:
        lon, lat = (float(v) for v in geometry["coordinates"][:2])
    except (KeyError, TypeError, ValueError):
        raise PlacesError(f"{where}: feature {i + 1} ({name}) has no longitude and latitude") from None
    if not (math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
        raise PlacesError(f"{where}: feature {i + 1} ({name}) is not in WGS84 degrees "
                          f"(longitude {lon}, latitude {lat}); save the layer as EPSG:4326")
    return Place(name.strip(), lat, lon)


def read_places(path: str | os.PathLike) -> list[Place]:
    """The named points of a GeoJSON FeatureCollection (WGS84); PlacesError says what is wrong.

    Features that are no points (roads, woods drawn as areas) are passed over: only points name places.
    """
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise PlacesError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise PlacesError(f"{path.name}: not GeoJSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        raise PlacesError(f"{path.name}: not a GeoJSON FeatureCollection")
    crs = doc.get("crs")
    props = crs.get("properties") if isinstance(crs, dict) else None
    name = props.get("name", "") if isinstance(props, dict) else ("" if crs is None else str(crs))
    if name and not any(code in str(name) for code in ("4326", "CRS84")):
        raise PlacesError(f"{path.name}: its points are in {name}; save the layer as WGS84 (EPSG:4326)")
    features = doc.get("features") or []
    if not isinstance(features, list):
        raise PlacesError(f"{path.name}: its 'features' is not a list")
    points = [_point(f, i, path.name) for i, f in enumerate(features)]
    return [p for p in points if p is not None]


def places_beside(map_path: str | os.PathLike) -> Path | None:
    """``field.places.geojson`` beside ``field.png``, when there is one."""
    path = Path(map_path)
    candidate = path.with_name(path.stem + SUFFIX)
    return candidate if candidate.is_file() else None


def places_to_json(places: Iterable[Place]) -> str:
    return json.dumps([[p.name, p.lat, p.lon] for p in places], ensure_ascii=False)


def places_from_json(text: str | None) -> list[Place]:
    try:
        rows = json.loads(text or "[]")
        return [Place(str(n), float(la), float(lo)) for n, la, lo in rows]
    except (TypeError, ValueError):
        return []


@dataclass(frozen=True, slots=True)
class Grid:
    """Squares of ``step`` metres over a map of ``width`` x ``height`` pixels, ``px`` pixels a side."""

    step: int
    px: float
    width: int
    height: int

    # A sliver of a square at the right or bottom edge (under SLIVER of a square) belongs to the square before
    # it: a map 1,600 m wide has 8 squares of 200 m, whether the ground measures 1,599 m or 1,604 m.
    SLIVER = 0.05

    @property
    def columns(self) -> int:
        return max(1, math.ceil(self.width / self.px - self.SLIVER))

    @property
    def rows(self) -> int:
        return max(1, math.ceil(self.height / self.px - self.SLIVER))

    @staticmethod
    def letter(i: int) -> str:
        out = ""
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            out = chr(65 + r) + out
        return out

    def square(self, col: float, row: float) -> str | None:
        """The square of a pixel position ("C4"), None off the map."""
        if not (0 <= col <= self.width and 0 <= row <= self.height):
            return None
        c = min(int(col // self.px), self.columns - 1)
        r = min(int(row // self.px), self.rows - 1)
        return f"{self.letter(c)}{r + 1}"


def grid_for(width: int, height: int, metres_per_pixel: float) -> Grid:
    """The map's grid: the smallest round square size with at most ten squares across."""
    ground = max(width, height) * metres_per_pixel
    step = next((s for s in STEPS if ground / s <= MAX_COLUMNS), STEPS[-1])
    return Grid(step, step / metres_per_pixel, width, height)


def nearest(places: Sequence[Place], lat: float, lon: float) -> tuple[Place, float, int] | None:
    """The nearest named place: (place, metres to the point, compass point 0..7 from the place to the point)."""
    if not places:
        return None
    best = None
    for p in places:
        azimuth, _back, dist = _GEOD.inv(p.lon, p.lat, lon, lat)
        if best is None or dist < best[1]:
            best = (p, dist, int(((azimuth % 360) + 22.5) // 45) % 8)
    return best
