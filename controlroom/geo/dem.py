"""A digital elevation model (DEM): ground heights from a GeoTIFF, sampled at GPS positions in any of its systems.

The heights are read with tifffile, the placement and coordinate system from
the GeoTIFF's tags (``geo.geotiff``), an ``.aux.xml`` or ``.prj`` beside it.  A
DEM in another coordinate system than the map's (a national grid, UTM,
degrees) is sampled through pyproj: each GPS position is carried into the
DEM's system and its height read there (bilinear, between pixel centres).
Pixels marked "no data" (GDAL's nodata tag) are holes: a position over one
has no height.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import tifffile
from pyproj import CRS, Transformer

from controlroom.geo.crs import CrsError, aux_xml_path, crs_label, prj_path, read_aux_xml, read_prj
from controlroom.geo.geotiff import GeoTiffError, read_geotiff
from controlroom.geo.geotiff_write import GDAL_NODATA
from controlroom.geo.worldfile import WorldFile

__all__ = ["Dem", "DemError", "read_dem"]


class DemError(ValueError):
    """A DEM that cannot be read or used, in words: which file, what is wrong, what to do."""


@dataclass
class Dem:
    """Ground heights (metres) on a grid placed by ``world`` (pixel centres) in ``crs``."""

    path: Path
    heights: np.ndarray             # rows from the north; NaN where the file has no data
    world: WorldFile
    crs: CRS
    _to: Transformer = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._to = Transformer.from_crs(CRS.from_epsg(4326), self.crs, always_xy=True)

    @property
    def name(self) -> str:
        return self.path.name

    def sample(self, lats, lons) -> np.ndarray:
        """Heights at GPS positions, bilinear between pixel centres; NaN off the DEM or over a hole."""
        lats, lons = np.atleast_1d(np.asarray(lats, dtype=float)), np.atleast_1d(np.asarray(lons, dtype=float))
        x, y = self._to.transform(lons, lats)
        col, row = self.world.world_to_pixel(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        col, row = np.atleast_1d(np.asarray(col, dtype=float)), np.atleast_1d(np.asarray(row, dtype=float))
        h, w = self.heights.shape
        out = np.full(col.shape, np.nan)
        inside = (col >= -0.5) & (col <= w - 0.5) & (row >= -0.5) & (row <= h - 0.5) & np.isfinite(col + row)
        if not inside.any():
            return out
        c = np.clip(col[inside], 0.0, w - 1.0)
        r = np.clip(row[inside], 0.0, h - 1.0)
        c0, r0 = np.minimum(np.floor(c).astype(int), max(w - 2, 0)), np.minimum(np.floor(r).astype(int), max(h - 2, 0))
        c1, r1 = np.minimum(c0 + 1, w - 1), np.minimum(r0 + 1, h - 1)
        fc, fr = c - c0, r - r0
        z = self.heights
        top = z[r0, c0] * (1 - fc) + z[r0, c1] * fc
        bottom = z[r1, c0] * (1 - fc) + z[r1, c1] * fc
        out[inside] = top * (1 - fr) + bottom * fr
        return out

    def check_covers(self, lats, lons, what: str = "the field") -> None:
        """DemError unless every position has a height (the DEM covers ``what`` without holes)."""
        z = self.sample(lats, lons)
        missing = ~np.isfinite(z)
        if missing.any():
            share = missing.mean() * 100
            la, lo = np.atleast_1d(np.asarray(lats, dtype=float)), np.atleast_1d(np.asarray(lons, dtype=float))
            i = int(np.flatnonzero(missing)[0])
            raise DemError(f"{self.name} does not cover {what}: {share:.0f} % of it has no height (for example "
                           f"{la[i]:.5f}, {lo[i]:.5f}). Use a DEM of the whole area, in any coordinate system "
                           f"(this one is in {crs_label(self.crs)}).")


def read_dem(path: str | os.PathLike) -> Dem:
    """Read a DEM GeoTIFF (one band of heights in metres); DemError says what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        raise DemError(f"{path}: no such file")
    try:
        info = read_geotiff(path)
    except GeoTiffError as exc:
        raise DemError(f"{path.name} is not a GeoTIFF elevation model: {exc}") from None
    try:
        with tifffile.TiffFile(path) as tif:
            page = tif.pages.first
            data = page.asarray()
            tag = page.tags.get(GDAL_NODATA)
            nodata = tag.value if tag is not None else None
    except Exception as exc:        # tifffile raises many kinds for a damaged file (ValueError, struct.error...)
        raise DemError(f"{path.name}: its heights cannot be read ({exc}); is the file complete?") from None
    data = np.asarray(data)
    if data.ndim == 3 and data.shape[-1] == 1:
        data = data[..., 0]
    if data.ndim != 2 or not np.issubdtype(data.dtype, np.number):
        raise DemError(f"{path.name} is not an elevation model: a DEM has one band of heights, this file has "
                       f"pixels of shape {data.shape[2:] or data.dtype}")
    heights = data.astype(float)
    if nodata is not None:
        try:
            value = float(str(nodata).strip().strip("\x00"))
            heights[heights == value] = np.nan
        except ValueError:
            pass
    heights[np.abs(heights) > 12_000] = np.nan           # no ground is that high or deep: a fill value
    world, crs = info.world, info.crs
    aux = aux_xml_path(path)
    try:
        if aux.is_file():
            pam_crs, pam_world = read_aux_xml(aux)
            crs, world = pam_crs or crs, pam_world or world
        if crs is None and prj_path(path).is_file():
            crs = read_prj(prj_path(path))
    except CrsError as exc:
        raise DemError(f"{path.name}: {exc}") from None
    if world is None:
        raise DemError(f"{path.name} has no georeference (GeoTIFF tags or an .aux.xml): nothing says where its "
                       "heights are. Export the DEM from QGIS or GDAL as a GeoTIFF.")
    if crs is None:
        why = f" ({info.crs_note})" if info.crs_note else ""
        raise DemError(f"{path.name}: its coordinate system is not known{why}; put a {prj_path(path).name} beside "
                       "it or export it with its coordinate system")
    if not np.isfinite(heights).any():
        raise DemError(f"{path.name} holds no heights (every pixel is 'no data')")
    return Dem(path, heights, world, crs)
