"""Planning coverage before the game: the predicted margin of every cell of the field at each gateway.

The field is the map's extent (or any rectangle of a ``MapFrame``), cut into
cells; each gateway's margin in each cell is ``RadioModel.margin`` at the
cell's centre.  Where one more gateway helps most is the spot with the most
shortfall near it: each cell weighs what its best margin lacks of
``GOOD_DB`` (up to 20 dB), and the weights within ``HELP_RADIUS_M`` are
summed (a box filter); the heaviest spot wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from controlroom.geo.frame import MapFrame
from controlroom.geo.propagation import Gateway, RadioModel

__all__ = ["Plan", "make_plan", "plan_area", "GOOD_DB", "HELP_RADIUS_M"]

GOOD_DB = 5.0               # a margin that survives fading and a body in the way
HELP_RADIUS_M = 250.0       # what one more gateway is expected to cover well around itself


@dataclass
class Plan:
    """The predicted margins over the field: ``margins[g]`` rows from the north, columns from the west."""

    frame: MapFrame
    x0: float                   # frame metres of the north-west corner of the north-west cell
    y0: float
    cell_m: float
    gateways: list[Gateway]
    model: RadioModel
    margins: np.ndarray         # (gateways, rows, cols), dB

    @property
    def shape(self) -> tuple[int, int]:
        return self.margins.shape[1:]

    @property
    def best(self) -> np.ndarray:
        """The best gateway's margin in each cell (NaN without gateways)."""
        if not len(self.gateways):
            return np.full(self.shape, np.nan)
        return self.margins.max(axis=0)

    @property
    def geotransform(self) -> tuple[float, float, float, float, float, float]:
        """GDAL's geotransform in the plan's frame (``frame.crs``)."""
        return (self.x0, self.cell_m, 0.0, self.y0, 0.0, -self.cell_m)

    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """Frame metres (xs, ys) of every cell's centre, as (rows, cols) arrays."""
        rows, cols = self.shape
        xs = self.x0 + (np.arange(cols) + 0.5) * self.cell_m
        ys = self.y0 - (np.arange(rows) + 0.5) * self.cell_m
        return np.meshgrid(xs, ys)

    def margin_at(self, lats, lons, gateway: int | None = None) -> np.ndarray:
        """The plan's margin at GPS positions (the cell they fall in; NaN outside the plan)."""
        xs, ys = self.frame.to_local(np.atleast_1d(np.asarray(lats, float)), np.atleast_1d(np.asarray(lons, float)))
        col = np.floor((np.atleast_1d(xs) - self.x0) / self.cell_m).astype(int)
        row = np.floor((self.y0 - np.atleast_1d(ys)) / self.cell_m).astype(int)
        rows, cols = self.shape
        inside = (col >= 0) & (col < cols) & (row >= 0) & (row < rows)
        grid = self.best if gateway is None else self.margins[gateway]
        out = np.full(col.shape, np.nan)
        out[inside] = grid[row[inside], col[inside]]
        return out

    def covered_share(self) -> float:
        """The share of the field's cells where some gateway's margin is 0 dB or more."""
        best = self.best
        return float(np.mean(best >= 0)) if best.size else 0.0

    def suggestion(self) -> tuple[float, float, float] | None:
        """Where one more gateway helps most: (lat, lon, the shortfall near it in dB·cells); None when none lacks."""
        best = self.best
        lack = np.clip(GOOD_DB - np.nan_to_num(best, nan=-20.0), 0.0, 20.0)
        if not lack.any():
            return None
        k = max(1, int(round(HELP_RADIUS_M / self.cell_m)))
        summed = _box_sum(lack, k)
        row, col = np.unravel_index(int(np.argmax(summed)), summed.shape)
        xs, ys = self.centres()
        lat, lon = self.frame.to_geographic(xs[row, col], ys[row, col])
        return float(lat), float(lon), float(summed[row, col])


def _box_sum(a: np.ndarray, k: int) -> np.ndarray:
    """The sum of ``a`` over a square of (2k+1) cells around each cell (cut at the edges)."""
    p = np.pad(a, ((1, 0), (1, 0)))
    s = p.cumsum(0).cumsum(1)
    rows, cols = a.shape
    r = np.arange(rows)
    c = np.arange(cols)
    r0, r1 = np.clip(r - k, 0, rows), np.clip(r + k + 1, 0, rows)
    c0, c1 = np.clip(c - k, 0, cols), np.clip(c + k + 1, 0, cols)
    return (s[r1][:, c1] - s[r0][:, c1] - s[r1][:, c0] + s[r0][:, c0])


def plan_area(source) -> tuple[MapFrame, float, float, float, float]:
    """A map's (``geo.source.MapSource``) extent as a frame centred on it and its bounds (x0, y0 north-west, x1,
    y1 south-east), in that frame's metres."""
    lat, lon = source.centre()
    frame = MapFrame(lat, lon)
    cols = np.array([0.0, source.width, source.width, 0.0, source.width / 2, 0.0, source.width / 2, source.width])
    rows = np.array([0.0, 0.0, source.height, source.height, 0.0, source.height / 2, source.height, source.height / 2])
    lats, lons = source.latlon(cols, rows)
    xs, ys = frame.to_local(lats, lons)
    return frame, float(np.min(xs)), float(np.max(ys)), float(np.max(xs)), float(np.min(ys))


def make_plan(frame: MapFrame, bounds: tuple[float, float, float, float], gateways: Sequence[Gateway],
              model: RadioModel, cell_m: float = 25.0,
              progress: Callable[[int, int], bool] | None = None) -> Plan:
    """Each gateway's predicted margin in each cell of ``bounds`` (x0, y0 north-west, x1, y1 south-east)."""
    x0, y0, x1, y1 = bounds
    cols = max(1, int(np.ceil((x1 - x0) / cell_m)))
    rows = max(1, int(np.ceil((y0 - y1) / cell_m)))
    plan = Plan(frame, x0, y0, cell_m, list(gateways), model, np.full((len(gateways), rows, cols), np.nan))
    xs, ys = plan.centres()
    lats, lons = frame.to_geographic(xs.ravel(), ys.ravel())
    for g, gateway in enumerate(gateways):
        if progress is not None and not progress(g, len(gateways)):
            break
        plan.margins[g] = model.margin(gateway, lats, lons, frame).reshape(rows, cols)
    return plan
