"""The map's drawing frame: metres east and north of the field's centre, with true distances (pyproj)."""

from __future__ import annotations

import math

import numpy as np
from pyproj import CRS, Transformer

__all__ = ["MapFrame", "WGS84", "utm_crs_for"]

#: GPS positions: latitude and longitude on the WGS84 ellipsoid.
WGS84 = CRS.from_epsg(4326)


def _unwrap(value):
    """A 0-d array becomes a Python float; other arrays are returned as they are."""
    return float(value) if np.ndim(value) == 0 else value


def utm_crs_for(lat: float, lon: float) -> CRS:
    """The WGS84 UTM zone of a place (EPSG:326NN north, 327NN south), Norway's and Svalbard's exceptions included."""
    if not (-80.0 <= lat <= 84.0):
        raise ValueError(f"latitude {lat} is outside the UTM zones (80 S to 84 N)")
    lon = (lon + 180.0) % 360.0 - 180.0
    zone = int((lon + 180.0) // 6.0) + 1
    if 56.0 <= lat < 64.0 and 3.0 <= lon < 12.0:
        zone = 32
    elif 72.0 <= lat < 84.0 and lon >= 0.0:
        for limit, z in ((9.0, 31), (21.0, 33), (33.0, 35), (42.0, 37)):
            if lon < limit:
                zone = z
                break
    return CRS.from_epsg((32600 if lat >= 0 else 32700) + min(zone, 60))


class MapFrame:
    """Metres east (x) and north (y) of a centre (lat0, lon0) on the WGS84 ellipsoid.

    A transverse Mercator with scale 1 on the meridian through the centre
    (PROJ's ``tmerc``): over a field of a few kilometres the map's distances
    are the ground's to better than a millimetre per kilometre, which a UTM
    zone (scale 0.9996, 0.4 m per km) is not.  Grid north is true north on the
    centre's meridian.
    """

    def __init__(self, lat0: float, lon0: float) -> None:
        if not (math.isfinite(lat0) and math.isfinite(lon0)) or not -85.0 < lat0 < 85.0:
            raise ValueError(f"the map's centre must be a latitude between 85 S and 85 N, not {lat0}")
        self.lat0 = float(lat0)
        self.lon0 = float(lon0) if -180.0 <= lon0 <= 180.0 else (float(lon0) + 180.0) % 360.0 - 180.0
        self.crs = CRS.from_proj4(f"+proj=tmerc +lat_0={self.lat0!r} +lon_0={self.lon0!r} +k=1 +x_0=0 +y_0=0 "
                                  "+datum=WGS84 +units=m +no_defs +type=crs")
        self._to = Transformer.from_crs(WGS84, self.crs, always_xy=True)
        self._back = Transformer.from_crs(self.crs, WGS84, always_xy=True)
        self._cache: dict[tuple[str, bool], Transformer] = {}

    def __repr__(self) -> str:
        return f"MapFrame(lat0={self.lat0!r}, lon0={self.lon0!r})"

    @classmethod
    def around(cls, lats, lons) -> MapFrame:
        """A frame centred in the middle of some positions (the median, so one stray fix does not move it)."""
        lats, lons = np.asarray(lats, dtype=float), np.asarray(lons, dtype=float)
        ok = np.isfinite(lats) & np.isfinite(lons)
        if not ok.any():
            raise ValueError("no position to centre the map on")
        return cls(float(np.median(lats[ok])), float(np.median(lons[ok])))

    def to_local(self, lat, lon):
        """Metres (x east, y north) of GPS degrees (lat, lon); scalars or arrays."""
        x, y = self._to.transform(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float))
        return _unwrap(x), _unwrap(y)

    def to_geographic(self, x, y):
        """GPS degrees (lat, lon) of metres (x east, y north); the inverse of :meth:`to_local`."""
        lon, lat = self._back.transform(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        return _unwrap(lat), _unwrap(lon)

    def from_crs(self, crs: CRS, x, y):
        """Frame metres of coordinates (x, y) in another coordinate system (x = easting or longitude)."""
        fx, fy = self._transformer(crs, forward=True).transform(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        return _unwrap(fx), _unwrap(fy)

    def to_crs(self, crs: CRS, x, y):
        """Coordinates in another coordinate system of frame metres (x, y); the inverse of :meth:`from_crs`."""
        cx, cy = self._transformer(crs, forward=False).transform(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        return _unwrap(cx), _unwrap(cy)

    def _transformer(self, crs: CRS, forward: bool) -> Transformer:
        key = (crs.to_wkt(), forward)
        found = self._cache.get(key)
        if found is None:
            pair = (crs, self.crs) if forward else (self.crs, crs)
            found = self._cache[key] = Transformer.from_crs(*pair, always_xy=True)
        return found
