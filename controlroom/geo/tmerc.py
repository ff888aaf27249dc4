"""The field's transverse Mercator (``MapFrame``'s projection) in plain Python: no PROJ, a few microseconds a point.

Krüger's series to the fourth order in the third flattening n (Karney 2011,
"Transverse Mercator with an accuracy of a few nanometers", eqs. 35-36): on
the WGS84 ellipsoid, within a few kilometres of the centre, it agrees with
PROJ's ``tmerc`` (what ``MapFrame`` uses) far below a millimetre
(tests/geo/test_coverage.py).  The coverage fold projects every position it
folds with it, in the engine's thread, where nothing else needs PROJ.
"""

from __future__ import annotations

import cmath
import math

__all__ = ["LocalTM"]

_A = 6378137.0
_F = 1 / 298.257223563
_N = _F / (2 - _F)
_RECT = _A / (1 + _N) * (1 + _N ** 2 / 4 + _N ** 4 / 64)
_ALPHA = (_N / 2 - 2 * _N ** 2 / 3 + 5 * _N ** 3 / 16 + 41 * _N ** 4 / 180,
          13 * _N ** 2 / 48 - 3 * _N ** 3 / 5 + 557 * _N ** 4 / 1440,
          61 * _N ** 3 / 240 - 103 * _N ** 4 / 140,
          49561 * _N ** 4 / 161280)
_BETA = (_N / 2 - 2 * _N ** 2 / 3 + 37 * _N ** 3 / 96 - _N ** 4 / 360,
         _N ** 2 / 48 + _N ** 3 / 15 - 437 * _N ** 4 / 1440,
         17 * _N ** 3 / 480 - 37 * _N ** 4 / 840,
         4397 * _N ** 4 / 161280)
_E = math.sqrt(_F * (2 - _F))


class LocalTM:
    """Metres east (x) and north (y) of (lat0, lon0): a transverse Mercator, scale 1 on the central meridian."""

    def __init__(self, lat0: float, lon0: float) -> None:
        self.lat0, self.lon0 = float(lat0), float(lon0)
        self._y0 = 0.0
        self._y0 = self.forward(self.lat0, self.lon0)[1]

    def forward(self, lat: float, lon: float) -> tuple[float, float]:
        phi = math.radians(lat)
        lam = math.radians(lon - self.lon0)
        s = math.sin(phi)
        t = math.sinh(math.atanh(s) - _E * math.atanh(_E * s))
        z = complex(math.atan2(t, math.cos(lam)), math.atanh(math.sin(lam) / math.sqrt(1 + t * t)))
        z += _clenshaw(_ALPHA, z)
        return _RECT * z.imag, _RECT * z.real - self._y0

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        """(lat, lon) of frame metres: the inverse of ``forward``."""
        z = complex((y + self._y0) / _RECT, x / _RECT)
        z -= _clenshaw(_BETA, z)
        xi_, eta_ = z.real, z.imag
        chi = math.asin(math.sin(xi_) / math.cosh(eta_))
        lam = math.atan2(math.sinh(eta_), math.cos(xi_))
        phi = chi                           # conformal latitude -> geodetic, by fixed-point iteration
        for _ in range(8):
            s = math.sin(phi)
            phi = 2 * math.atan(math.tan(math.pi / 4 + chi / 2)
                                * ((1 + _E * s) / (1 - _E * s)) ** (_E / 2)) - math.pi / 2
        return math.degrees(phi), self.lon0 + math.degrees(lam)


def _clenshaw(coefficients, z: complex) -> complex:
    """sum of c_j sin(2 j z), j = 1.., by Clenshaw's recurrence (one complex sine and cosine)."""
    c = 2 * cmath.cos(2 * z)
    b1 = b2 = 0j
    for a in reversed(coefficients):
        b1, b2 = a + c * b1 - b2, b1
    return cmath.sin(2 * z) * b1
