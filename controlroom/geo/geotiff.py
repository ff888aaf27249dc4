"""A GeoTIFF's own georeference: its size, GeoKeys (the EPSG code) and tie point, read with tifffile."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import tifffile
from pyproj import CRS

from controlroom.geo.crs import CrsError, parse_crs
from controlroom.geo.worldfile import WorldFile, WorldFileError

__all__ = ["GeoTiff", "GeoTiffError", "read_geotiff"]

# TIFF tags of the GeoTIFF standard (OGC 19-008r4).
MODEL_PIXEL_SCALE = 33550
MODEL_TIEPOINT = 33922
MODEL_TRANSFORMATION = 34264
GEO_KEY_DIRECTORY = 34735
GEO_DOUBLE_PARAMS = 34736
GEO_ASCII_PARAMS = 34737
# GeoKeys.
GT_MODEL_TYPE = 1024            # 1 projected, 2 geographic, 3 geocentric
GT_RASTER_TYPE = 1025           # 1 PixelIsArea, 2 PixelIsPoint
GT_CITATION = 1026
GEOGRAPHIC_TYPE = 2048
GEOG_CITATION = 2049
PROJECTED_CS_TYPE = 3072
PCS_CITATION = 3073
USER_DEFINED = 32767


class GeoTiffError(ValueError):
    """A TIFF that cannot be read, or whose georeference cannot be used."""


@dataclass(frozen=True)
class GeoTiff:
    """What a TIFF says about itself: size, pixel placement and coordinate system (each None when absent)."""

    width: int
    height: int
    world: WorldFile | None
    crs: CRS | None
    crs_note: str = ""          # why the coordinate system could not be read, when it could not


def read_geotiff(path: str | os.PathLike) -> GeoTiff:
    """Read a TIFF's size and GeoTIFF tags (the pixels are not decoded)."""
    path = Path(path)
    try:
        with tifffile.TiffFile(path) as tif:
            page = tif.pages.first
            width, height = int(page.imagewidth), int(page.imagelength)
            tags = {code: page.tags.get(code) for code in (MODEL_PIXEL_SCALE, MODEL_TIEPOINT, MODEL_TRANSFORMATION,
                                                           GEO_KEY_DIRECTORY, GEO_DOUBLE_PARAMS, GEO_ASCII_PARAMS)}
            values = {code: (tag.value if tag is not None else None) for code, tag in tags.items()}
    except (OSError, ValueError, tifffile.TiffFileError, IndexError) as exc:
        raise GeoTiffError(f"{path}: cannot be read as a TIFF ({exc})") from None
    keys = _geokeys(values[GEO_KEY_DIRECTORY], values[GEO_DOUBLE_PARAMS], values[GEO_ASCII_PARAMS])
    world = _world(path, values, point=keys.get(GT_RASTER_TYPE) == 2)
    crs, note = _crs(keys) if keys else (None, "")
    return GeoTiff(width, height, world, crs, note)


def _geokeys(directory, doubles, ascii_params) -> dict[int, object]:
    """GeoKey -> value (a number, a text or a tuple of numbers)."""
    if directory is None:
        return {}
    d = [int(v) for v in directory]
    keys: dict[int, object] = {}
    count = d[3] if len(d) >= 4 else 0
    for i in range(count):
        entry = d[4 + 4 * i: 8 + 4 * i]
        if len(entry) < 4:
            break
        key, location, n, value = entry
        if location == 0:
            keys[key] = value
        elif location == GEO_DOUBLE_PARAMS and doubles is not None:
            keys[key] = tuple(float(v) for v in doubles[value:value + n])
        elif location == GEO_ASCII_PARAMS and ascii_params is not None:
            text = ascii_params if isinstance(ascii_params, str) else bytes(ascii_params).decode("latin-1")
            keys[key] = text[value:value + n].rstrip("|\x00")
    return keys


def _world(path: Path, values, point: bool) -> WorldFile | None:
    """The pixel -> CRS affine from the tie point and pixel scale, or the transformation matrix."""
    shift = 0.5 if point else 0.0       # PixelIsPoint: raster coordinates name pixel centres (GDAL's reading)
    try:
        matrix = values[MODEL_TRANSFORMATION]
        if matrix is not None:
            m = [float(v) for v in matrix]
            x0, y0 = m[3] - shift * (m[0] + m[1]), m[7] - shift * (m[4] + m[5])
            return WorldFile.from_geotransform((x0, m[0], m[1], y0, m[4], m[5]))
        tie, scale = values[MODEL_TIEPOINT], values[MODEL_PIXEL_SCALE]
        if tie is None:
            return None
        if scale is None or len(tie) > 6:
            raise GeoTiffError(f"{path}: placed by ground control points, which controlroom does not read; "
                               "make a north-up copy first with gdalwarp (gdalwarp IN.tif OUT.tif)")
        i, j, _k, x, y, _z = (float(v) for v in tie[:6])
        sx, sy = float(scale[0]), float(scale[1])
        x0 = x - (i + shift) * sx
        y0 = y + (j + shift) * sy
        return WorldFile.from_geotransform((x0, sx, 0.0, y0, 0.0, -sy))
    except (WorldFileError, ValueError, IndexError, TypeError) as exc:
        if isinstance(exc, GeoTiffError):
            raise
        raise GeoTiffError(f"{path}: its georeference tags do not place the image ({exc})") from None


def _crs(keys: dict[int, object]) -> tuple[CRS | None, str]:
    model = keys.get(GT_MODEL_TYPE)
    for key in (PROJECTED_CS_TYPE, GEOGRAPHIC_TYPE):
        code = keys.get(key)
        if isinstance(code, int) and 0 < code < USER_DEFINED and (key == PROJECTED_CS_TYPE or model != 1):
            try:
                return CRS.from_epsg(code), ""
            except Exception:   # pyproj's CRSError: a code unknown to this PROJ
                return None, f"its GeoKeys name EPSG:{code}, which pyproj does not know"
    for key in (PCS_CITATION, GT_CITATION, GEOG_CITATION):
        text = keys.get(key)
        if isinstance(text, str) and "ESRI PE String = " in text:
            try:
                return parse_crs(text.split("ESRI PE String = ", 1)[1], "its ESRI citation"), ""
            except CrsError as exc:
                return None, str(exc)
    return None, "its GeoKeys describe a user-defined coordinate system without an EPSG code"
