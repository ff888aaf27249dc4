"""The coverage grid's cells: the fold's rows summed per cell and gateway, their margins and their colours.

``Cells.add`` takes rows as they come (the live map) or all at once (a
replay's moment, an export); what a cell shows is a view of its sums:
frames sent from it, how many each gateway heard with what mean SNR and
RSSI, retries and missing frames.  The margin of a cell is the mean SNR of a
gateway (or of the best gateway there) over the spreading factor's floor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controlroom.geo.coverage import CELL_M, FRAME, HEARD, MISSED, RETRIED, CoverageRows
from controlroom.geo.frame import MapFrame
from controlroom.geo.propagation import SF_FLOOR_DB

__all__ = ["Cells", "CellView", "BEST", "margin_rgba", "MARGIN_STOPS"]

BEST = None                 # the view of the best gateway in each cell
# Margin (dB) -> colour, linear in between: not heard, barely, fair, good.
MARGIN_STOPS = ((-10.0, (120, 0, 0)), (0.0, (220, 40, 30)), (5.0, (250, 170, 40)), (10.0, (200, 220, 60)),
                (20.0, (40, 160, 60)))
NOT_HEARD = (90, 90, 90)    # frames were sent from the cell; the gateway shown never heard one


def margin_rgba(margin, alpha: int = 170) -> np.ndarray:
    """RGBA (uint8) of margins in dB; NaN (nothing known) is transparent."""
    m = np.asarray(margin, dtype=float)
    out = np.zeros(m.shape + (4,), dtype=np.uint8)
    known = np.isfinite(m)
    xs = [s[0] for s in MARGIN_STOPS]
    for k in range(3):
        out[..., k][known] = np.interp(m[known], xs, [s[1][k] for s in MARGIN_STOPS]).round().astype(np.uint8)
    out[..., 3][known] = alpha
    return out


@dataclass(frozen=True)
class CellView:
    """What the cells show for one gateway (or the best): one entry a cell."""

    ix: np.ndarray              # cell columns (east) and rows (north) in the grid's frame
    iy: np.ndarray
    frames: np.ndarray          # frames sent from the cell
    heard: np.ndarray           # of them heard by the gateway shown (the best: by any, so all)
    snr: np.ndarray             # mean SNR there (NaN: never heard)
    rssi: np.ndarray
    margin: np.ndarray          # snr over the floor of ``sf``
    retried: np.ndarray         # frames that needed retries
    missed: np.ndarray          # frames that never came
    gateway: np.ndarray         # the gateway shown in each cell (for the best view: the best one), -1 none
    sf: int

    def __len__(self) -> int:
        return len(self.ix)

    @property
    def marked(self) -> np.ndarray:
        """Cells where frames needed retries or went missing."""
        return (self.retried > 0) | (self.missed > 0)


class Cells:
    """Per-cell sums of coverage rows, grown as rows come."""

    def __init__(self) -> None:
        self.anchor: tuple[float, float] | None = None
        self.gateways: tuple[str, ...] = ()
        self._index: dict[int, int] = {}
        self.ix = np.empty(0, np.int32)
        self.iy = np.empty(0, np.int32)
        self.frames = np.empty(0)
        self.retried = np.empty(0)
        self.missed = np.empty(0)
        self.heard = np.empty((0, 0))           # (gateway, cell)
        self.snr_n = np.empty((0, 0))
        self.snr_sum = np.empty((0, 0))
        self.rssi_sum = np.empty((0, 0))
        self.rows = 0

    def __len__(self) -> int:
        return len(self.ix)

    @property
    def frame(self) -> MapFrame | None:
        return MapFrame(*self.anchor) if self.anchor is not None else None

    def add_all(self, batches: list[CoverageRows]) -> None:
        """Several sets of rows in the order they came, summed as ``add`` each would: consecutive ones whose gateway
        table only grew (the live fold's) are joined and summed at once (one pass instead of one a delta)."""
        runs: list[tuple[list[np.ndarray], tuple[str, ...], tuple[float, float] | None]] = []
        for rows in batches:
            if runs and rows.gateways[:len(runs[-1][1])] == runs[-1][1]:
                parts, _gateways, anchor = runs[-1]
                parts.append(rows.rows)
                runs[-1] = (parts, rows.gateways, rows.anchor if rows.anchor is not None else anchor)
            else:
                runs.append(([rows.rows], rows.gateways, rows.anchor))
        for parts, gateways, anchor in runs:
            self.add(CoverageRows(parts[0] if len(parts) == 1 else np.concatenate(parts), gateways, anchor))

    def add(self, rows: CoverageRows) -> None:
        if rows.anchor is not None:
            self.anchor = rows.anchor
        r = rows.rows
        # Each set of rows numbers its gateways in its own table (the live fold's, the log's): by name here.
        names = list(self.gateways)
        for g in rows.gateways:
            if g not in names:
                names.append(g)
        remap = np.array([names.index(g) for g in rows.gateways] or [0], dtype=np.int64)
        self.gateways = tuple(names)
        if not len(r):
            self._grow(len(self.ix), len(self.gateways))
            return
        self.rows += len(r)
        keys = (r["ix"].astype(np.int64) << 32) + (r["iy"].astype(np.int64) & 0xFFFFFFFF)
        index = self._index
        uniq, inverse = np.unique(keys, return_inverse=True)
        new = [k for k in uniq.tolist() if k not in index]
        if new:
            start = len(self.ix)
            for j, k in enumerate(new):
                index[k] = start + j
            new_arr = np.asarray(new, dtype=np.int64)
            self.ix = np.concatenate((self.ix, (new_arr >> 32).astype(np.int32)))
            self.iy = np.concatenate((self.iy, (new_arr & 0xFFFFFFFF).astype(np.uint32).astype(np.int32)))
        self._grow(len(self.ix), len(self.gateways))
        at = np.fromiter((index[k] for k in uniq.tolist()), dtype=np.int64, count=len(uniq))[inverse]
        kind = r["kind"]
        for k, target in ((FRAME, self.frames), (RETRIED, self.retried), (MISSED, self.missed)):
            sel = kind == k
            if sel.any():
                np.add.at(target, at[sel], r["n"][sel])
        sel = kind == HEARD
        if sel.any():
            gw, cell = remap[r["gw"][sel].astype(np.int64)], at[sel]
            np.add.at(self.heard, (gw, cell), 1)
            snr, rssi = r["snr"][sel].astype(float), r["rssi"][sel].astype(float)
            ok = np.isfinite(snr)
            np.add.at(self.snr_n, (gw[ok], cell[ok]), 1)
            np.add.at(self.snr_sum, (gw[ok], cell[ok]), snr[ok])
            np.add.at(self.rssi_sum, (gw[ok], cell[ok]), np.nan_to_num(rssi[ok]))

    def _grow(self, n: int, g: int) -> None:
        for name in ("frames", "retried", "missed"):
            a = getattr(self, name)
            if len(a) < n:
                setattr(self, name, np.concatenate((a, np.zeros(n - len(a)))))
        for name in ("heard", "snr_n", "snr_sum", "rssi_sum"):
            a = getattr(self, name)
            if a.shape != (g, n):
                b = np.zeros((g, n))
                b[:a.shape[0], :a.shape[1]] = a
                setattr(self, name, b)

    def view(self, sf: int = 9, gateway: str | None = BEST) -> CellView:
        """What the cells show for ``gateway`` (by name), or for the best gateway in each cell."""
        n = len(self.ix)
        with np.errstate(invalid="ignore", divide="ignore"):
            snr = self.snr_sum / self.snr_n
            rssi = self.rssi_sum / self.snr_n
        if gateway is BEST:
            if len(self.gateways):
                filled = np.where(np.isfinite(snr), snr, -np.inf)
                g = np.argmax(filled, axis=0)
                cols = np.arange(n)
                best_snr, best_rssi = snr[g, cols], rssi[g, cols]
                heard = self.frames.copy()          # every frame folded was heard, by some gateway
                g = np.where(np.isfinite(best_snr), g, -1)
            else:
                best_snr = best_rssi = np.full(n, np.nan)
                heard, g = np.zeros(n), np.full(n, -1)
        else:
            k = self.gateways.index(gateway) if gateway in self.gateways else -1
            if k < 0:
                best_snr = best_rssi = np.full(n, np.nan)
                heard, g = np.zeros(n), np.full(n, -1)
            else:
                best_snr, best_rssi, heard, g = snr[k], rssi[k], self.heard[k], np.where(self.heard[k] > 0, k, -1)
        margin = best_snr - SF_FLOOR_DB[sf]
        return CellView(self.ix.copy(), self.iy.copy(), self.frames.copy(), np.asarray(heard, float), best_snr,
                        best_rssi, margin, self.retried.copy(), self.missed.copy(), np.asarray(g), sf)

    def raster(self, view: CellView):
        """The view as a north-up raster: (margins rows x cols from the north, geotransform in the grid's frame)."""
        if not len(view):
            return np.empty((0, 0)), (0.0, CELL_M, 0.0, 0.0, 0.0, -CELL_M)
        x0, x1, y0, y1 = view.ix.min(), view.ix.max(), view.iy.min(), view.iy.max()
        grid = np.full((y1 - y0 + 1, x1 - x0 + 1), np.nan)
        grid[y1 - view.iy, view.ix - x0] = view.margin
        return grid, (x0 * CELL_M, CELL_M, 0.0, (y1 + 1) * CELL_M, 0.0, -CELL_M)

    def centres(self, view: CellView) -> tuple[np.ndarray, np.ndarray]:
        """GPS (lats, lons) of the cells' centres."""
        frame = self.frame
        if frame is None or not len(view):
            return np.empty(0), np.empty(0)
        lat, lon = frame.to_geographic((view.ix + 0.5) * CELL_M, (view.iy + 0.5) * CELL_M)
        return np.atleast_1d(lat), np.atleast_1d(lon)

    @staticmethod
    def of(rows: CoverageRows) -> Cells:
        cells = Cells()
        cells.add(rows)
        return cells
