"""Writing a GeoTIFF: pixels with their placement (ModelTiepoint and ModelPixelScale, or ModelTransformation)
and their coordinate system (GeoKeys: its EPSG code), with tifffile.

What ATAK, QGIS and GDAL read a map from when no sidecar files travel with
it: the TAK data package carries the field map this way (report.tak_package).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import tifffile
from pyproj import CRS

from controlroom.geo.geotiff import (
    GEO_ASCII_PARAMS,
    GEO_KEY_DIRECTORY,
    GEOGRAPHIC_TYPE,
    GT_CITATION,
    GT_MODEL_TYPE,
    GT_RASTER_TYPE,
    MODEL_PIXEL_SCALE,
    MODEL_TIEPOINT,
    MODEL_TRANSFORMATION,
    PROJECTED_CS_TYPE,
    USER_DEFINED,
)
from controlroom.geo.worldfile import WorldFile

__all__ = ["write_geotiff", "geokeys", "epsg_code"]

PIXEL_IS_AREA = 1


def epsg_code(crs: CRS) -> int | None:
    """The EPSG code of ``crs`` (one that matches it closely), or None."""
    code = crs.to_epsg(min_confidence=70)
    return code if code is not None and 0 < code < USER_DEFINED else None


def geokeys(crs: CRS) -> tuple[list[int], str]:
    """The GeoKey directory (as the ushorts of its tag) and the ASCII parameters of ``crs``; ValueError for a
    coordinate system without an EPSG code (GDAL, and so ATAK and QGIS, reads a GeoTIFF's system by its code)."""
    code = epsg_code(crs)
    if code is None:
        raise ValueError(f"its coordinate system ({crs.name}) has no EPSG code")
    geographic = crs.is_geographic
    citation = "controlroom|"
    keys = sorted([(GT_MODEL_TYPE, 0, 1, 2 if geographic else 1), (GT_RASTER_TYPE, 0, 1, PIXEL_IS_AREA),
                   (GT_CITATION, GEO_ASCII_PARAMS, len(citation), 0),
                   (GEOGRAPHIC_TYPE if geographic else PROJECTED_CS_TYPE, 0, 1, code)])
    directory = [1, 1, 0, len(keys)]
    for entry in keys:
        directory += list(entry)
    return directory, citation


def write_geotiff(path: str | os.PathLike, pixels: np.ndarray, world: WorldFile, crs: CRS) -> Path:
    """Write ``pixels`` (rows x columns x 3 or 4 bands, 8 bits) as a GeoTIFF placed by ``world`` in ``crs``."""
    path = Path(path)
    data = np.ascontiguousarray(pixels, dtype=np.uint8)
    if data.ndim != 3 or data.shape[2] not in (3, 4):
        raise ValueError(f"a map's pixels are rows x columns x 3 or 4 bands, not {data.shape}")
    x0, a, b, y0, d, e = world.geotransform()        # the top-left CORNER (PixelIsArea)
    tags: list[tuple] = []
    if b == 0.0 and d == 0.0 and e < 0 < a:
        tags.append((MODEL_PIXEL_SCALE, "d", 3, (a, -e, 0.0), True))
        tags.append((MODEL_TIEPOINT, "d", 6, (0.0, 0.0, 0.0, x0, y0, 0.0), True))
    else:
        tags.append((MODEL_TRANSFORMATION, "d", 16, (a, b, 0.0, x0, d, e, 0.0, y0, 0.0, 0.0, 0.0, 0.0,
                                                      0.0, 0.0, 0.0, 1.0), True))
    directory, ascii_params = geokeys(crs)
    tags.append((GEO_KEY_DIRECTORY, "H", len(directory), directory, True))
    tags.append((GEO_ASCII_PARAMS, "s", 0, ascii_params, True))
    tmp = path.with_name(path.name + ".part")
    tifffile.imwrite(tmp, data, photometric="rgb", extrasamples=("unassalpha",) if data.shape[2] == 4 else None,
                     compression="zlib", extratags=tags, metadata=None)
    os.replace(tmp, path)
    return path
