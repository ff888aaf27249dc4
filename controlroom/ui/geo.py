"""Map geometry without Qt: world files, control-point affines and a local metric projection."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

__all__ = [
    "EARTH_RADIUS_M",
    "WorldFile",
    "WorldFileError",
    "read_world_file",
    "world_file_for",
    "affine_from_control_points",
    "LocalProjection",
]

#: Mean Earth radius (IUGG), metres.
EARTH_RADIUS_M = 6371008.8

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


class LocalProjection:
    """GPS degrees <-> metres east (x) and north (y) of an origin (lat0, lon0).

    An equirectangular local tangent plane: x = Rx * dlon, y = Ry * dlat (in
    radians).  By default Rx = R cos(lat0) and Ry = R with R the mean Earth
    radius 6371008.8 m.  Error bound: distances between points within 5 km of
    the origin differ from great-circle distances on that sphere by less than
    0.1 % at latitudes up to 65 degrees (0.07 % at 58.5 N, Estonia); the error
    grows with distance from the origin, so put the origin in the middle of
    the field.

    The sphere itself is off from the WGS84 ellipsoid GPS uses by up to about
    0.4 % in scale (at 58.5 N: 0.17 % north-south, 0.36 % east-west, i.e. up
    to 18 m over 5 km).  Pass ``ellipsoid=True`` to use the WGS84 radii of
    curvature at lat0 instead, which brings measured distances to within
    about 0.1 % of the geodesic.  Both variants are affine in (lon, lat), so
    an image georeferenced in degrees stays an exact affine in metres
    (:meth:`world_file_to_local`).
    """

    def __init__(self, lat0: float, lon0: float, *, ellipsoid: bool = False) -> None:
        if not -89.0 < lat0 < 89.0:
            raise ValueError(f"origin latitude {lat0} is too close to a pole for this projection")
        self.lat0 = float(lat0)
        self.lon0 = float(lon0)
        self.ellipsoid = bool(ellipsoid)
        deg = math.pi / 180.0
        if ellipsoid:
            sin2 = math.sin(math.radians(self.lat0)) ** 2
            meridian = _WGS84_A * (1 - _WGS84_E2) / (1 - _WGS84_E2 * sin2) ** 1.5
            prime_vertical = _WGS84_A / math.sqrt(1 - _WGS84_E2 * sin2)
            self._ky = meridian * deg
            self._kx = prime_vertical * math.cos(math.radians(self.lat0)) * deg
        else:
            self._ky = EARTH_RADIUS_M * deg
            self._kx = self._ky * math.cos(math.radians(self.lat0))

    def __repr__(self) -> str:
        return (f"LocalProjection(lat0={self.lat0!r}, lon0={self.lon0!r}"
                f"{', ellipsoid=True' if self.ellipsoid else ''})")

    @property
    def metres_per_degree(self) -> tuple[float, float]:
        """(metres per degree of longitude, metres per degree of latitude) at the origin."""
        return self._kx, self._ky

    def to_local(self, lat, lon):
        """Metres (x east, y north) of degrees (lat, lon); scalars or arrays."""
        dlon = (np.asarray(lon, dtype=float) - self.lon0 + 180.0) % 360.0 - 180.0
        x = self._kx * dlon
        y = self._ky * (np.asarray(lat, dtype=float) - self.lat0)
        return _unwrap(x), _unwrap(y)

    def to_geographic(self, x, y):
        """Degrees (lat, lon) of metres (x east, y north); the inverse of :meth:`to_local`."""
        lat = self.lat0 + np.asarray(y, dtype=float) / self._ky
        lon = self.lon0 + np.asarray(x, dtype=float) / self._kx
        lon = (lon + 180.0) % 360.0 - 180.0
        return _unwrap(lat), _unwrap(lon)

    def world_file_to_local(self, world: WorldFile) -> WorldFile:
        """Turn a world file in degrees (x = lon, y = lat, EPSG:4326) into one in local metres.

        Exact, because this projection is affine in degrees.  Does not
        handle world files in other projected systems (UTM, L-EST97): those
        need a CRS library, or control points clicked against GPS positions.
        """
        kx, ky = self._kx, self._ky
        # Shift lon0 to the image's side of the antimeridian (no-op elsewhere).
        cx = ((world.c - self.lon0 + 180.0) % 360.0 - 180.0)
        return WorldFile(kx * world.a, ky * world.d, kx * world.b, ky * world.e,
                         kx * cx, ky * (world.f - self.lat0))


_WGS84_A = 6378137.0
_WGS84_F = 1 / 298.257223563
_WGS84_E2 = _WGS84_F * (2 - _WGS84_F)
