"""A field with a ridge for the coverage tests: a synthetic DEM, a map of the field, and where the gateways stand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image
from pyproj import CRS, Transformer

from controlroom.geo.crs import write_prj
from controlroom.geo.frame import MapFrame
from controlroom.geo.geotiff_write import write_geotiff
from controlroom.geo.worldfile import WorldFile, write_world_file

ORIGIN = (58.38, 26.72)           # the simulator's field
RIDGE_X = 100.0                   # the ridge runs north-south, this many metres east of the origin
RIDGE_H = 40.0                    # above a plain at 50 m
PLAIN = 50.0
WEST = (-450.0, 0.0)              # gateway 1, west of the ridge (frame metres east, north of the origin)
EAST = (500.0, 100.0)             # gateway 2, east of it


def frame() -> MapFrame:
    return MapFrame(*ORIGIN)


def latlon(x: float, y: float) -> tuple[float, float]:
    lat, lon = frame().to_geographic(x, y)
    return float(lat), float(lon)


def gateway_arg(xy, height: float = 6.0) -> str:
    lat, lon = latlon(*xy)
    return f"{lat:.7f},{lon:.7f},{height:g}"


def ridge_dem(path: Path, epsg: int = 3301, half: float = 1500.0, pixel: float = 10.0) -> Path:
    """A DEM of a plain with a north-south ridge east of the origin, in EPSG ``epsg`` (metres)."""
    crs = CRS.from_epsg(epsg)
    to = Transformer.from_crs(4326, crs, always_xy=True)
    back = Transformer.from_crs(crs, 4326, always_xy=True)
    cx, cy = to.transform(ORIGIN[1], ORIGIN[0])
    n = int(2 * half / pixel)
    xs = cx - half + (np.arange(n) + 0.5) * pixel
    ys = cy + half - (np.arange(n) + 0.5) * pixel
    gx, gy = np.meshgrid(xs, ys)
    lon, lat = back.transform(gx, gy)
    east, _north = frame().to_local(lat, lon)
    heights = PLAIN + RIDGE_H * np.exp(-((east - RIDGE_X) / 40.0) ** 2)
    return write_geotiff(path, heights.astype(np.float32), (cx - half, pixel, 0.0, cy + half, 0.0, -pixel), crs)


def field_map(path: Path, half_w: float = 800.0, half_h: float = 560.0, pixel: float = 5.0) -> Path:
    """A plain map image of the field (PNG, world file, .prj in L-EST97)."""
    crs = CRS.from_epsg(3301)
    cx, cy = Transformer.from_crs(4326, crs, always_xy=True).transform(ORIGIN[1], ORIGIN[0])
    w, h = int(2 * half_w / pixel), int(2 * half_h / pixel)
    Image.fromarray(np.full((h, w, 3), 220, np.uint8)).save(path)
    write_world_file(path.with_suffix(".pgw"),
                     WorldFile.from_geotransform((cx - half_w, pixel, 0.0, cy + half_h, 0.0, -pixel)))
    write_prj(path, crs)
    return path
