"""Where each side's casualties fell, on the game's field map: the figures of the report's map page.

The casualties are placed as the GIS export places them (``report/gis.py``):
at the event's own position, else its reporter's or its group's last fix.
Only a game with a map kept in it (an image or a GeoTIFF) gets the page; the
points are given in the map's pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controlroom.geo.places import BEARINGS, Grid, Place, grid_for, nearest
from controlroom.geo.source import MapError, MapSource, ground_metres_per_pixel, restore_map
from controlroom.i18n import translate
from controlroom.paths import data_dir
from controlroom.report.gis import load_gis
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.maps import current_map, map_file, stored_places

DEATHS = frozenset({"died", "permanent_kill"})
FALLS = frozenset({"down", "knocked_out"})


@dataclass(slots=True)
class FieldMap:
    """The map page's figures: the map's file and size, and per side the casualties in its pixels."""

    name: str
    path: Path
    kind: str
    width: int
    height: int
    # side -> [(column, row, "death" or "fall")]: pixel positions from the image's top-left corner
    sides: dict[str, list[tuple[float, float, str]]] = field(default_factory=dict)
    outside: int = 0            # placed, but off the map
    grid: Grid | None = None    # the map's lettered and numbered squares (drawn on the map page)
    places: list[Place] = field(default_factory=list)     # the map's named features
    source: MapSource | None = None


# The compass points, for translation ("40 m north-east" of a place).
_BEARING_WORDS = {
    "north": lambda: translate("report", "north"), "north-east": lambda: translate("report", "north-east"),
    "east": lambda: translate("report", "east"), "south-east": lambda: translate("report", "south-east"),
    "south": lambda: translate("report", "south"), "south-west": lambda: translate("report", "south-west"),
    "west": lambda: translate("report", "west"), "north-west": lambda: translate("report", "north-west"),
}
NEAR_M = 15         # closer than this to a named feature: "at" it
FAR_M = 400         # further than this (or two of the map's squares) from every named feature: the square alone


def place_text(places: list[Place], grid: Grid | None, source: MapSource | None, lat: float | None,
               lon: float | None) -> str:
    """Where a point is in the words of the field map: its nearest named feature and its grid square.

    "Ford, 40 m north-east; square E3"; "" when there is neither a named
    feature nor a map the point is on (the coordinates then stand alone).
    """
    if lat is None or lon is None:
        return ""
    parts = []
    near = nearest(places, lat, lon)
    far = max(FAR_M, 2 * grid.step) if grid is not None else FAR_M
    if near is not None and near[1] <= far:        # "Fort, 3450 m south" helps no one find it
        place, metres, bearing = near
        if metres < NEAR_M:
            parts.append(place.name)
        else:
            parts.append(translate("report", "{place}, {metres} m {direction}").format(
                place=place.name, metres=_round_metres(metres), direction=_BEARING_WORDS[BEARINGS[bearing]]()))
    if grid is not None and source is not None:
        try:
            col, row = source.locate(lat, lon)
            square = grid.square(float(col), float(row))
        except Exception:  # a point the map's coordinate system cannot hold: no square
            square = None
        if square:
            parts.append(translate("report", "square {square}").format(square=square))
    return "; ".join(parts)


def _round_metres(metres: float) -> int:
    """Metres as a map reader gives them: to 5 m below 100 m, to 10 m above."""
    step = 5 if metres < 100 else 10
    return int(round(metres / step) * step)


def casualty_kind(event_type: str) -> str | None:
    if event_type in DEATHS:
        return "death"
    if event_type in FALLS:
        return "fall"
    return None


def field_map(store: GameStore, scenario: str | None = None, maps_folder: Path | None = None,
              progress: Callable[[int, int], bool] | None = None) -> FieldMap | None:
    """The casualties of the game (or scenario) on its map; None when the game keeps no map it can draw.

    The map kept in the game is written once into ``maps_folder`` (this
    laptop's data folder by default), never into the game.
    """
    try:
        stored = current_map(store)
        if stored is None or stored.kind == "mbtiles":
            return None         # MBTiles are tiles for the screen, not one picture for a page
        path = map_file(store, stored, maps_folder or data_dir() / "maps")
        source = restore_map(path, stored.kind, stored.width, stored.height, stored.world, stored.crs, store.where)
    except (StoreError, MapError, OSError):
        return None
    layers = load_gis(store, scenario, progress)
    out = FieldMap(stored.name, path, stored.kind, stored.width, stored.height, source=source,
                   grid=grid_for(stored.width, stored.height, ground_metres_per_pixel(source)),
                   places=stored_places(store))
    for side in sorted({m.side for m in store.roster()}):
        out.sides[side] = []
    for place in layers.places:
        if place.kind != "casualty" or not place.properties.get("counted", True):
            continue
        kind = casualty_kind(place.properties.get("event", ""))
        if kind is None:
            continue
        col, row = source.locate(place.lat, place.lon)
        if not source.contains(float(col), float(row)):
            out.outside += 1
            continue
        out.sides.setdefault(place.properties.get("side", "?"), []).append((float(col), float(row), kind))
    return out
