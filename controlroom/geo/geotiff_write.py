"""Writing a GeoTIFF: a raster with its placement and coordinate system in GeoTIFF tags (tifffile), read by GDAL.

What ATAK, QGIS and GDAL read a map from when no sidecar files travel with
it: the TAK data package carries the field map this way
(report.tak_package), the coverage export and plan their rasters.  A system
with an EPSG code is named by it; the field's own transverse Mercator
(``MapFrame``, no EPSG code) is spelt out in GeoKeys, as GDAL writes a
user-defined projection, with its ESRI WKT as the citation (which
``geo.geotiff`` reads back).  A north-up raster is placed by a tiepoint and
a pixel scale, a rotated one by a model transformation.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import tifffile
from pyproj import CRS
from pyproj.enums import WktVersion

from controlroom.geo.geotiff import (
    GEO_ASCII_PARAMS,
    GEO_DOUBLE_PARAMS,
    GEO_KEY_DIRECTORY,
    GEOGRAPHIC_TYPE,
    GT_MODEL_TYPE,
    GT_RASTER_TYPE,
    MODEL_PIXEL_SCALE,
    MODEL_TIEPOINT,
    MODEL_TRANSFORMATION,
    PCS_CITATION,
    PROJECTED_CS_TYPE,
    USER_DEFINED,
)

__all__ = ["write_geotiff", "geokeys", "GDAL_NODATA"]

GDAL_NODATA = 42113          # GDAL's own tag: the value that marks a pixel without data, as text
_PROJECTION = 3074
_COORD_TRANS = 3075
_LINEAR_UNITS = 3076
_NAT_ORIGIN_LONG = 3080
_NAT_ORIGIN_LAT = 3081
_FALSE_EASTING = 3082
_FALSE_NORTHING = 3083
_SCALE_AT_NAT_ORIGIN = 3092
_CT_TRANSVERSE_MERCATOR = 1
_METRE = 9001
_SHORT, _DOUBLE, _ASCII = 3, 12, 2


def _keys(crs: CRS) -> tuple[list[tuple[int, int, int, int]], list[float], str]:
    """GeoKey entries (key, location, count, value), their doubles and their texts."""
    code = crs.to_epsg(min_confidence=90)
    if code is not None:
        if crs.is_geographic:
            return [(GT_MODEL_TYPE, 0, 1, 2), (GT_RASTER_TYPE, 0, 1, 1), (GEOGRAPHIC_TYPE, 0, 1, code)], [], ""
        return [(GT_MODEL_TYPE, 0, 1, 1), (GT_RASTER_TYPE, 0, 1, 1), (PROJECTED_CS_TYPE, 0, 1, code)], [], ""
    op = crs.coordinate_operation
    if op is None or op.method_code != "9807":
        raise ValueError(f"cannot write {crs.name} into a GeoTIFF: only EPSG systems and transverse Mercator")
    p = {param.code: float(param.value) for param in op.params}
    doubles = [p.get("8802", 0.0), p.get("8801", 0.0), p.get("8806", 0.0), p.get("8807", 0.0), p.get("8805", 1.0)]
    citation = "ESRI PE String = " + crs.to_wkt(WktVersion.WKT1_ESRI) + "|"
    entries = [(GT_MODEL_TYPE, 0, 1, 1), (GT_RASTER_TYPE, 0, 1, 1), (GEOGRAPHIC_TYPE, 0, 1, 4326),
               (PROJECTED_CS_TYPE, 0, 1, USER_DEFINED), (PCS_CITATION, GEO_ASCII_PARAMS, len(citation), 0),
               (_PROJECTION, 0, 1, USER_DEFINED), (_COORD_TRANS, 0, 1, _CT_TRANSVERSE_MERCATOR),
               (_LINEAR_UNITS, 0, 1, _METRE), (_NAT_ORIGIN_LONG, GEO_DOUBLE_PARAMS, 1, 0),
               (_NAT_ORIGIN_LAT, GEO_DOUBLE_PARAMS, 1, 1), (_FALSE_EASTING, GEO_DOUBLE_PARAMS, 1, 2),
               (_FALSE_NORTHING, GEO_DOUBLE_PARAMS, 1, 3), (_SCALE_AT_NAT_ORIGIN, GEO_DOUBLE_PARAMS, 1, 4)]
    return entries, doubles, citation


def geokeys(crs: CRS) -> None:
    """Nothing when ``crs`` can be written into a GeoTIFF (an EPSG system or a transverse Mercator); else
    ValueError saying why (before any pixel is read)."""
    _keys(crs)


def write_geotiff(path: str | os.PathLike, data: np.ndarray, placement, crs: CRS,
                  nodata: float | None = None) -> Path:
    """Write ``data`` (rows from the north: one band, bands x rows x columns, or rows x columns x 3/4 colours).

    ``placement`` is GDAL's geotransform (x0, a, b, y0, d, e): the top-left
    corner of the top-left pixel, in ``crs``, and the pixel's steps (north
    up: (x0, w, 0, y0, 0, -h)); or a ``geo.worldfile.WorldFile``.  The file
    is written beside and renamed into place (nothing half written).
    """
    geotransform = placement.geotransform() if hasattr(placement, "geotransform") else placement
    x0, sx, rx, y0, ry, sy = (float(v) for v in geotransform)
    entries, doubles, text = _keys(crs)
    entries.sort()
    directory = [1, 1, 0, len(entries)] + [v for e in entries for v in e]
    tags: list[tuple]
    if rx == 0.0 and ry == 0.0 and sy < 0 < sx:
        tags = [(MODEL_PIXEL_SCALE, _DOUBLE, 3, (sx, -sy, 0.0), False),
                (MODEL_TIEPOINT, _DOUBLE, 6, (0.0, 0.0, 0.0, x0, y0, 0.0), False)]
    else:                     # a rotated (or flipped) raster: the whole affine transformation
        tags = [(MODEL_TRANSFORMATION, _DOUBLE, 16, (sx, rx, 0.0, x0, ry, sy, 0.0, y0, 0.0, 0.0, 0.0, 0.0,
                                                     0.0, 0.0, 0.0, 1.0), False)]
    tags.append((GEO_KEY_DIRECTORY, _SHORT, len(directory), tuple(directory), False))
    if doubles:
        tags.append((GEO_DOUBLE_PARAMS, _DOUBLE, len(doubles), tuple(doubles), False))
    if text:
        tags.append((GEO_ASCII_PARAMS, _ASCII, 0, text, False))
    if nodata is not None:
        tags.append((GDAL_NODATA, _ASCII, 0, repr(float(nodata)) if not np.isnan(nodata) else "nan", False))
    path = Path(path)
    colour = data.ndim == 3 and data.dtype == np.uint8 and data.shape[-1] in (3, 4)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        # A map's colours compressed (zlib, which every GeoTIFF reader has), its alpha as alpha; a grid of values
        # (heights, margins) as it is.
        tifffile.imwrite(tmp, data, photometric="rgb" if colour else "minisblack", extratags=tags,
                         metadata=None, compression="zlib" if colour else None,
                         extrasamples=("unassalpha",) if colour and data.shape[-1] == 4 else None,
                         planarconfig="separate" if data.ndim == 3 and not colour else None)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
