"""The game's own map for the web page: one picture a phone can show, and points placed on it.

Made once when the game opens (from the map kept with the game, as the
window has it on this laptop), never per request.  A GeoTIFF is turned into
a PNG; a picture larger than ``MAX_SIDE`` pixels is scaled down for phones
(points are placed as fractions of the width and height, so they stay put).
MBTiles are tiles for a screen, not one picture: the page then shows the
points without a map.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

from controlroom.geo.places import grid_for
from controlroom.geo.source import ground_metres_per_pixel, restore_map
from controlroom.report.field_map import place_text

log = logging.getLogger(__name__)
MAX_SIDE = 4096


class MapPlacer:
    """Where a WGS84 point is on the map: as fractions of the picture, and in words (near a place, square)."""

    def __init__(self, source, places: list | None = None, image: bytes | None = None,
                 content_type: str = "image/png") -> None:
        self.source = source
        self.width, self.height = source.width, source.height
        self.places = list(places or [])
        try:
            self.grid = grid_for(source.width, source.height, ground_metres_per_pixel(source))
        except Exception:      # a map whose scale cannot be told: no squares
            self.grid = None
        self.image = image
        self.content_type = content_type

    def fraction(self, lat: float, lon: float) -> dict[str, float]:
        try:
            col, row = self.source.locate(lat, lon)
            return {"x": round(float(col) / self.width, 5), "y": round(float(row) / self.height, 5)}
        except Exception:      # a point the map's coordinate system cannot hold
            return {}

    def where(self, lat: float, lon: float) -> dict[str, str]:
        text = place_text(self.places, self.grid, self.source, lat, lon)
        square = ""
        if self.grid is not None:
            try:
                col, row = self.source.locate(lat, lon)
                square = self.grid.square(float(col), float(row)) or ""
            except Exception:
                square = ""
        return {"place": text, "square": square}


def picture(path: Path, kind: str) -> tuple[bytes, str] | None:
    """The map as bytes a browser shows (PNG or JPEG), scaled to ``MAX_SIDE``; None when it cannot be."""
    if kind == "mbtiles":
        return None
    data = path.read_bytes()
    head = data[:12]
    is_png, is_jpeg = head.startswith(b"\x89PNG"), head.startswith(b"\xff\xd8")
    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        if (is_png or is_jpeg) and max(img.size) <= MAX_SIDE:
            return data, "image/png" if is_png else "image/jpeg"
        img = img.convert("RGBA" if img.mode in ("RGBA", "LA", "P") else "RGB")
        img.thumbnail((MAX_SIDE, MAX_SIDE))
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=False)
        return buf.getvalue(), "image/png"


def placer_of(info: Any, places: list | None = None) -> MapPlacer | None:
    """The placer of the map an opened game keeps (``GameInfo``); None without one (or one that cannot be read)."""
    stored, path = getattr(info, "map", None), getattr(info, "map_path", None)
    if stored is None or path is None:
        return None
    try:
        source = restore_map(path, stored.kind, stored.width, stored.height, stored.world, stored.crs,
                             getattr(info, "where", "the game"))
        shown = picture(Path(path), stored.kind)
    except Exception as exc:          # the page then shows the points without the map
        log.warning("the web view shows no map: %s", exc)
        return None
    image, content_type = shown if shown is not None else (None, "image/png")
    return MapPlacer(source, places, image, content_type)
