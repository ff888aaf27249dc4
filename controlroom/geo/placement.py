"""Where a map's pixels go in the drawing frame: pieces of the image, each placed by an affine within tolerance."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["Piece", "place_pieces", "fit_affine"]

#: A piece's affine may put no sampled point further than this from where pyproj puts it, in pixels ...
TOLERANCE_PX = 0.25
#: ... nor in metres (for very fine orthophotos, where a quarter pixel is a centimetre).
TOLERANCE_M = 0.1
#: Pieces are not cut smaller than this (pixels a side).
MIN_PIECE = 256
_SAMPLES = 9        # a 9 x 9 grid of points checked in each piece


@dataclass(frozen=True)
class Piece:
    """A rectangle of the image (columns col0..col0+cols, rows row0..row0+rows) and its placement.

    ``affine`` (a, b, c, d, e, f) takes a pixel position inside the piece,
    measured from the piece's top-left CORNER, to frame metres:
    x = a*u + b*v + c, y = d*u + e*v + f.  ``error_m`` is the largest distance
    between that and pyproj's exact placement over the sampled points.
    """

    col0: int
    row0: int
    cols: int
    rows: int
    affine: tuple[float, float, float, float, float, float]
    error_m: float

    def to_frame(self, u, v):
        a, b, c, d, e, f = self.affine
        u, v = np.asarray(u, float), np.asarray(v, float)
        return a * u + b * v + c, d * u + e * v + f


def fit_affine(u: np.ndarray, v: np.ndarray, x: np.ndarray, y: np.ndarray):
    """The least-squares affine (a, b, c, d, e, f) with x = a u + b v + c, y = d u + e v + f."""
    design = np.column_stack([u, v, np.ones_like(u)])
    (a, b, c), *_ = np.linalg.lstsq(design, x, rcond=None)
    (d, e, f), *_ = np.linalg.lstsq(design, y, rcond=None)
    return float(a), float(b), float(c), float(d), float(e), float(f)


def place_pieces(to_frame: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
                 width: int, height: int, *, tolerance_px: float = TOLERANCE_PX,
                 tolerance_m: float = TOLERANCE_M, min_piece: int = MIN_PIECE) -> list[Piece]:
    """Cut a width x height image into as few pieces as keep each one's affine within tolerance.

    ``to_frame(cols, rows)`` gives the exact frame metres of pixel positions
    (corner convention) through the map's coordinate system: an affine is
    exact for a map in the frame's own terms and very nearly so over a field
    in UTM or L-EST97; degrees and Web Mercator bend a little more, and a
    large map is cut until every piece is placed to a quarter pixel.
    """
    out: list[Piece] = []
    todo = [(0, 0, int(width), int(height))]
    while todo:
        col0, row0, cols, rows = todo.pop()
        s = np.linspace(0.0, 1.0, _SAMPLES)
        uu, vv = np.meshgrid(s * cols, s * rows)
        u, v = uu.ravel(), vv.ravel()
        x, y = to_frame(u + col0, v + row0)
        x, y = np.asarray(x, float), np.asarray(y, float)
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            raise ValueError("the map's coordinate system cannot place part of it (is it the right one?)")
        affine = fit_affine(u, v, x, y)
        a, b, _c, d, e, _f = affine
        px, py = a * u + b * v + affine[2], d * u + e * v + affine[5]
        error = float(np.max(np.hypot(px - x, py - y)))
        pixel_m = float(np.sqrt(abs(a * e - b * d)))
        limit = min(tolerance_px * pixel_m, tolerance_m) if pixel_m > 0 else tolerance_m
        if error <= limit or (cols <= min_piece and rows <= min_piece):
            out.append(Piece(col0, row0, cols, rows, affine, error))
            continue
        half_c, half_r = (cols + 1) // 2 if cols > min_piece else cols, (rows + 1) // 2 if rows > min_piece else rows
        for c0, w in ((col0, half_c), (col0 + half_c, cols - half_c)):
            for r0, h in ((row0, half_r), (row0 + half_r, rows - half_r)):
                if w > 0 and h > 0:
                    todo.append((c0, r0, w, h))
    out.sort(key=lambda p: (p.row0, p.col0))
    return out
