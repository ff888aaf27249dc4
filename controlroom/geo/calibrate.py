"""Place an image by points clicked on it with known GPS positions: a least-squares fit in the field's UTM zone."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pyproj import CRS, Geod, Transformer

from controlroom.geo.crs import write_aux_xml, write_prj
from controlroom.geo.frame import utm_crs_for
from controlroom.geo.worldfile import WorldFile, affine_from_control_points, sidecar_path, write_world_file

__all__ = ["Calibration", "calibrate", "save_calibration"]

_GEOD = Geod(ellps="WGS84")


@dataclass(frozen=True)
class Calibration:
    """An image placed by control points: its world file in ``crs`` and how far each point is from the fit."""

    crs: CRS                        # the UTM zone of the points' middle (WGS84)
    world: WorldFile                # pixel centres -> UTM metres
    residuals_m: tuple[float, ...]  # per point: metres on the ground between its GPS position and the fit's
    rms_m: float

    @property
    def worst(self) -> int:
        """The index of the point furthest from the fit (the one to check first)."""
        return int(np.argmax(self.residuals_m)) if self.residuals_m else -1


def calibrate(pixels: Sequence[Sequence[float]], latlons: Sequence[Sequence[float]]) -> Calibration:
    """Fit the affine from clicked pixels (column, row; (0, 0) the centre of the top-left pixel) to GPS points.

    Three points fit exactly; more are fitted by least squares, and each
    point's residual tells which one was clicked or typed wrong.  Raises
    ValueError (with a message for the game master) for fewer than three
    points, or points on one line.
    """
    ll = np.asarray(latlons, dtype=float)
    if ll.ndim != 2 or ll.shape[1:] != (2,):
        raise ValueError("control points must be (latitude, longitude) pairs")
    if len(ll) < 3:
        raise ValueError(f"need at least 3 control points, got {len(ll)}")
    crs = utm_crs_for(float(np.mean(ll[:, 0])), float(np.mean(ll[:, 1])))
    forward = Transformer.from_crs(4326, crs, always_xy=True)
    east, north = forward.transform(ll[:, 1], ll[:, 0])
    world = affine_from_control_points(pixels, np.column_stack([east, north]).tolist())
    px = np.asarray(pixels, dtype=float)
    fx, fy = world.pixel_to_world(px[:, 0], px[:, 1])
    lon, lat = Transformer.from_crs(crs, 4326, always_xy=True).transform(fx, fy)
    _, _, dist = _GEOD.inv(ll[:, 1], ll[:, 0], lon, lat)
    residuals = tuple(float(d) for d in np.atleast_1d(dist))
    if len(ll) == 3:
        residuals = (0.0, 0.0, 0.0)      # three points fit exactly; what remains is rounding
    rms = float(np.sqrt(np.mean(np.square(residuals))))
    return Calibration(crs, world, residuals, rms)


def save_calibration(image_path: str | os.PathLike, calibration: Calibration) -> list[Path]:
    """Write the world file, the .prj and GDAL's .aux.xml beside the image; QGIS and GDAL open it in place."""
    image_path = Path(image_path)
    return [
        write_world_file(sidecar_path(image_path), calibration.world),
        write_prj(image_path, calibration.crs),
        write_aux_xml(image_path, calibration.crs),
    ]
