"""Coverage for GIS tools: the plan and the observed cells as GeoTIFF, a coloured PNG with its world file, GeoJSON.

- A plan's GeoTIFF has one band per gateway and first the best of them:
  margin in dB (float32, NaN outside), in the plan's own transverse Mercator.
- A PNG is the best margin in colour (``margin_rgba``), with ``.pgw`` and
  ``.prj`` beside it so that QGIS and controlroom place it.
- The observed cells as GeoJSON: one square polygon a cell, in WGS84, with
  the frames sent from it, what the best gateway (and each gateway) heard,
  the margin, retries and missing frames.  As a GeoTIFF: bands margin (the
  best gateway), frames, the share of them the best gateway heard, retried,
  missed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from controlroom.geo.coverage import CELL_M
from controlroom.geo.coverage_cells import BEST, Cells, margin_rgba
from controlroom.geo.coverage_plan import Plan
from controlroom.geo.crs import write_prj
from controlroom.geo.geotiff_write import write_geotiff
from controlroom.geo.worldfile import WorldFile, sidecar_path, write_text_atomically, write_world_file

__all__ = ["write_plan", "write_cells", "PLAN_SUFFIXES", "CELL_SUFFIXES"]

PLAN_SUFFIXES = (".tif", ".tiff", ".png")
CELL_SUFFIXES = (".geojson", ".json", ".tif", ".tiff")


def write_plan(plan: Plan, path: str | os.PathLike) -> list[Path]:
    """Write a plan as a GeoTIFF (.tif) or a coloured PNG with .pgw and .prj (.png); the files written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PLAN_SUFFIXES:
        raise ValueError(f"{path.name}: a plan is written as .tif (GeoTIFF) or .png, not {path.suffix or 'no suffix'}")
    if suffix == ".png":
        return _png(plan.best, plan.geotransform, plan.frame.crs, path)
    bands = np.concatenate((plan.best[None], plan.margins)).astype(np.float32)
    return [write_geotiff(path, bands, plan.geotransform, plan.frame.crs, nodata=float("nan"))]


def _png(margin: np.ndarray, geotransform, crs, path: Path) -> list[Path]:
    from PIL import Image

    tmp = path.with_name(path.name + ".part")
    try:
        Image.fromarray(margin_rgba(margin), "RGBA").save(tmp, format="PNG")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    world = sidecar_path(path)
    write_world_file(world, WorldFile.from_geotransform(geotransform))
    return [path, world, write_prj(path, crs)]


def write_cells(cells: Cells, path: str | os.PathLike, sf: int = 9, game: str = "") -> list[Path]:
    """Write the observed cells as GeoJSON (.geojson) or a GeoTIFF (.tif); the files written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in CELL_SUFFIXES:
        raise ValueError(f"{path.name}: coverage is written as .geojson or .tif, not {path.suffix or 'no suffix'}")
    if cells.frame is None or not len(cells):
        raise ValueError("the game has no coverage to write: no radio frame came from a known position")
    view = cells.view(sf, BEST)
    if suffix in (".tif", ".tiff"):
        margin, gt = cells.raster(view)
        rows, cols = margin.shape
        bands = np.full((5, rows, cols), np.nan, dtype=np.float32)
        r, c = int(view.iy.max()) - view.iy, view.ix - int(view.ix.min())
        g = np.maximum(view.gateway, 0)
        by_best = np.where(view.gateway >= 0, cells.heard[g, np.arange(len(view))], 0.0) if len(cells.gateways) \
            else np.zeros(len(view))
        with np.errstate(invalid="ignore", divide="ignore"):
            share = by_best / view.frames           # the share of the cell's frames its best gateway heard
        for b, values in enumerate((view.margin, view.frames, share, view.retried, view.missed)):
            bands[b, r, c] = values
        return [write_geotiff(path, bands, gt, cells.frame.crs, nodata=float("nan"))]
    return [write_text_atomically(path, json.dumps(_geojson(cells, sf, game), ensure_ascii=False))]


def _geojson(cells: Cells, sf: int, game: str) -> dict:
    frame = cells.frame
    if frame is None or cells.anchor is None:
        raise ValueError("the game has no coverage to write: no radio frame came from a known position")
    best = cells.view(sf, BEST)
    per = {name: cells.view(sf, name) for name in cells.gateways}
    x0, y0 = best.ix * CELL_M, best.iy * CELL_M
    corners = [(x0, y0), (x0 + CELL_M, y0), (x0 + CELL_M, y0 + CELL_M), (x0, y0 + CELL_M), (x0, y0)]
    ll = [frame.to_geographic(x, y) for x, y in corners]
    features = []
    for i in range(len(best)):
        ring = [[round(float(np.atleast_1d(lon)[i]), 7), round(float(np.atleast_1d(lat)[i]), 7)] for lat, lon in ll]
        gateways = {name: {"heard": int(v.heard[i]), "snr_db": _num(v.snr[i]), "rssi_dbm": _num(v.rssi[i]),
                           "margin_db": _num(v.margin[i])} for name, v in per.items() if v.heard[i] > 0}
        g = int(best.gateway[i])
        props = {"frames": int(best.frames[i]), "heard": int(best.heard[i]),
                 "best_gateway": cells.gateways[g] if g >= 0 else None, "snr_db": _num(best.snr[i]),
                 "rssi_dbm": _num(best.rssi[i]), "margin_db": _num(best.margin[i]), "sf": sf,
                 "retried": int(best.retried[i]), "missed": int(best.missed[i]),
                 "marked": bool(best.retried[i] > 0 or best.missed[i] > 0), "gateways": gateways}
        features.append({"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [ring]},
                         "properties": props})
    return {"type": "FeatureCollection", "name": f"{game} radio coverage".strip(),
            "cell_m": CELL_M, "anchor": list(cells.anchor), "features": features}


def _num(value) -> float | None:
    v = float(value)
    return round(v, 2) if np.isfinite(v) else None
