"""World files: the six numbers placing an image's pixels in its coordinate system, read, written and fitted."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = [
    "WorldFile",
    "WorldFileError",
    "read_world_file",
    "world_file_for",
    "write_world_file",
    "sidecar_path",
    "affine_from_control_points",
]

# Sidecar suffixes tried for an image, in order.  The generic ".wld" comes last.
_SIDECARS = {
    ".png": (".pgw", ".pngw"),
    ".jpg": (".jgw", ".jpgw"),
    ".jpeg": (".jgw", ".jpegw", ".jpgw"),
    ".tif": (".tfw", ".tifw"),
    ".tiff": (".tfw", ".tiffw"),
    ".gif": (".gfw", ".gifw"),
    ".bmp": (".bpw", ".bmpw"),
}


class WorldFileError(ValueError):
    """A world file could not be read or does not describe a usable transform."""


@dataclass(frozen=True)
class WorldFile:
    """An affine pixel -> world transform in world-file terms.

    ``a`` x size of a pixel, ``d`` rotation about y, ``b`` rotation about x,
    ``e`` y size of a pixel (negative for north-up images), and ``c``, ``f``
    the world x, y of the CENTRE of the top-left pixel.  Pixel (col, row) =
    (0, 0) is that centre; the image's outer corner is at (-0.5, -0.5).
    """

    a: float
    d: float
    b: float
    e: float
    c: float
    f: float

    def __post_init__(self) -> None:
        values = (self.a, self.d, self.b, self.e, self.c, self.f)
        if not all(math.isfinite(v) for v in values):
            raise WorldFileError(f"world file values must be finite numbers: {values}")
        if self.determinant == 0.0:
            raise WorldFileError("world file has zero determinant (a*e - b*d = 0): "
                                 "pixels would collapse onto a line")

    @property
    def determinant(self) -> float:
        """a*e - b*d; its sign tells whether the image is mirrored."""
        return self.a * self.e - self.b * self.d

    @classmethod
    def from_geotransform(cls, gt) -> WorldFile:
        """From GDAL's geotransform (x0, a, b, y0, d, e), which places pixel CORNERS (GeoTIFF, .aux.xml)."""
        x0, a, b, y0, d, e = (float(v) for v in gt)
        return cls(a, d, b, e, x0 + (a + b) / 2.0, y0 + (d + e) / 2.0)

    def geotransform(self) -> tuple[float, float, float, float, float, float]:
        """GDAL's geotransform (x0, a, b, y0, d, e): the top-left CORNER, not the pixel's centre."""
        return (self.c - (self.a + self.b) / 2.0, self.a, self.b, self.f - (self.d + self.e) / 2.0, self.d, self.e)

    @property
    def pixel_size(self) -> tuple[float, float]:
        """The length of a pixel's two sides, in the coordinate system's units."""
        return math.hypot(self.a, self.d), math.hypot(self.b, self.e)

    def as_lines(self) -> list[float]:
        """The six values in file order A, D, B, E, C, F."""
        return [self.a, self.d, self.b, self.e, self.c, self.f]

    def matrix(self) -> np.ndarray:
        """The 3x3 homogeneous matrix mapping (col, row, 1) to (x, y, 1)."""
        return np.array([[self.a, self.b, self.c],
                         [self.d, self.e, self.f],
                         [0.0, 0.0, 1.0]])

    def pixel_to_world(self, col, row):
        """World (x, y) of pixel position (col, row); (0, 0) is the top-left pixel's centre.

        Accepts scalars or numpy arrays (broadcast); returns floats or arrays.
        """
        col = np.asarray(col, dtype=float)
        row = np.asarray(row, dtype=float)
        x = self.a * col + self.b * row + self.c
        y = self.d * col + self.e * row + self.f
        return _unwrap(x), _unwrap(y)

    def world_to_pixel(self, x, y):
        """Pixel position (col, row) of world (x, y); the inverse of :meth:`pixel_to_world`."""
        dx = np.asarray(x, dtype=float) - self.c
        dy = np.asarray(y, dtype=float) - self.f
        det = self.determinant
        col = (self.e * dx - self.b * dy) / det
        row = (-self.d * dx + self.a * dy) / det
        return _unwrap(col), _unwrap(row)

    def corner_to_world(self, col, row):
        """World (x, y) of a pixel-EDGE coordinate, where (0, 0) is the image's top-left corner.

        This is the convention of image items (Qt, pyqtgraph): the pixel
        centre convention shifted by half a pixel.
        """
        return self.pixel_to_world(np.asarray(col, dtype=float) - 0.5,
                                   np.asarray(row, dtype=float) - 0.5)

    def image_bounds(self, width: int, height: int) -> tuple[float, float, float, float]:
        """(xmin, xmax, ymin, ymax) of the outer corners of a width x height image."""
        xs, ys = self.corner_to_world(np.array([0, width, width, 0]),
                                      np.array([0, 0, height, height]))
        return float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max())



def _unwrap(value: np.ndarray):
    """A 0-d array becomes a Python float; other arrays are returned as they are."""
    return float(value) if np.ndim(value) == 0 else value


def read_world_file(path: str | os.PathLike) -> WorldFile:
    """Read a six-line world file (.pgw, .jgw, .wld, .pngw, .tfw ...).

    Raises :class:`WorldFileError` (a ValueError) naming the file when it does
    not hold exactly six numbers or describes a degenerate transform, and
    OSError when it cannot be read.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) != 6:
        raise WorldFileError(
            f"{path}: a world file has 6 lines of numbers (A, D, B, E, C, F), "
            f"this one has {len(lines)}")
    values = []
    for number, line in enumerate(lines, start=1):
        try:
            values.append(float(line))
        except ValueError:
            raise WorldFileError(f"{path}: line {number} is not a number: {line!r}") from None
    try:
        return WorldFile(*values)
    except WorldFileError as exc:
        raise WorldFileError(f"{path}: {exc}") from None


def world_file_for(image_path: str | os.PathLike) -> Path | None:
    """The world file beside an image, found by the usual naming conventions, or None.

    foo.png -> foo.pgw, foo.pngw, foo.wld; foo.jpg -> foo.jgw, foo.jpgw, foo.wld;
    foo.tif -> foo.tfw, foo.tifw, foo.wld.  Suffix case is matched loosely.
    """
    image_path = Path(image_path)
    suffix = image_path.suffix.lower()
    candidates = list(_SIDECARS.get(suffix, ()))
    if suffix and suffix + "w" not in candidates:
        candidates.append(suffix + "w")
    candidates.append(".wld")
    for candidate in candidates:
        for variant in (candidate, candidate.upper()):
            sidecar = image_path.with_suffix(variant)
            if sidecar.is_file():
                return sidecar
    return None


def affine_from_control_points(pixels: Sequence[Sequence[float]],
                               worlds: Sequence[Sequence[float]]) -> WorldFile:
    """The affine taking clicked pixel centres (col, row) to their world (x, y).

    Three points give an exact fit; more are fitted by least squares.  Raises
    ValueError when there are fewer than three points, the counts differ, or
    the pixel (or world) points are collinear.
    """
    px = np.asarray(pixels, dtype=float)
    wd = np.asarray(worlds, dtype=float)
    if px.ndim != 2 or px.shape[1] != 2 or wd.shape != px.shape:
        raise ValueError("control points must be matching lists of (col, row) and (x, y) pairs")
    if len(px) < 3:
        raise ValueError(f"need at least 3 control points, got {len(px)}")
    for name, pts in (("pixel", px), ("world", wd)):
        if _collinear(pts):
            raise ValueError(f"the {name} control points lie on one line; "
                             "pick three points that form a triangle")
    design = np.column_stack([px, np.ones(len(px))])
    coeffs, *_ = np.linalg.lstsq(design, wd, rcond=None)
    (a, d), (b, e), (c, f) = coeffs
    return WorldFile(float(a), float(d), float(b), float(e), float(c), float(f))


def _collinear(points: np.ndarray) -> bool:
    centred = points - points.mean(axis=0)
    singular = np.linalg.svd(centred, compute_uv=False)
    scale = max(float(singular[0]), 1e-300)
    return len(singular) < 2 or singular[1] <= 1e-9 * scale


# The name a world file is written under: foo.png -> foo.pgw, foo.jpg -> foo.jgw, foo.tif -> foo.tfw.
_WRITE_AS = {".png": ".pgw", ".jpg": ".jgw", ".jpeg": ".jgw", ".tif": ".tfw", ".tiff": ".tfw",
             ".gif": ".gfw", ".bmp": ".bpw"}


def sidecar_path(image_path: str | os.PathLike) -> Path:
    """Where the world file for an image is saved: foo.png -> foo.pgw, foo.jpg -> foo.jgw, else foo.wld."""
    image_path = Path(image_path)
    return image_path.with_suffix(_WRITE_AS.get(image_path.suffix.lower(), ".wld"))


def write_text_atomically(path: str | os.PathLike, text: str) -> Path:
    """Write a small text file beside its target and rename it into place (never half a file)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8", newline="\n")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def write_world_file(path: str | os.PathLike, wf: WorldFile) -> Path:
    """Write ``wf`` as a six-line world file (A, D, B, E, C, F), one number a line, full precision.

    ``repr`` of a float round-trips exactly, so :func:`read_world_file` reads the
    same values back.
    """
    return write_text_atomically(path, "".join(f"{float(v)!r}\n" for v in wf.as_lines()))
