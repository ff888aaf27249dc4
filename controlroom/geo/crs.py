"""Coordinate systems as GIS tools write them (.prj, QGIS/GDAL .aux.xml) and the likely ones when none is given."""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from pyproj import CRS, Geod, Transformer
from pyproj.aoi import AreaOfInterest
from pyproj.database import query_crs_info
from pyproj.enums import PJType, WktVersion
from pyproj.exceptions import CRSError

from controlroom.geo.worldfile import WorldFile, WorldFileError, write_text_atomically

__all__ = [
    "CrsError", "Candidate", "parse_crs", "crs_label", "describe", "read_prj", "read_aux_xml",
    "prj_path", "aux_xml_path", "write_prj", "write_aux_xml", "candidates", "looks_like_local_metres",
]

_GEOD = Geod(ellps="WGS84")

# National grids and zones organisers are likely to get maps in, tried when nothing says where the field is.
# (Estonia, Finland, Latvia, Lithuania, Poland, Sweden, Great Britain, France, ETRS89 UTM 32N to 35N.)
_LIKELY_GRIDS = (3301, 3067, 3059, 3346, 2180, 3006, 27700, 2154, 25832, 25833, 25834, 25835)
# Preferred first among candidates near the field, before other systems that also fit.
_PREFERRED = (4326, 3301, 3857)
_NEAR_KM = 30.0          # a map whose centre would fall this close to the field's positions is a candidate
_MAX_CANDIDATES = 8


class CrsError(ValueError):
    """A coordinate system that cannot be read or is not one pyproj knows."""


@dataclass(frozen=True)
class Candidate:
    """A coordinate system a map's numbers fit, with where the map's centre would then be."""

    crs: CRS
    label: str              # "EPSG:3301"
    name: str               # "Estonian Coordinate System of 1997"
    lat: float
    lon: float
    distance_km: float | None = None    # from the field's positions, when they are known

    def __str__(self) -> str:
        where = f"centre at {self.lat:.4f}, {self.lon:.4f}"
        if self.distance_km is not None:
            where += f", {self.distance_km:.1f} km from the field's positions"
        return f"{self.label} {self.name} ({where})"


def parse_crs(text: str, where: str = "the coordinate system") -> CRS:
    """A CRS from what a person or a file gives: "3301", "EPSG:3301", WKT (OGC or ESRI) or a PROJ string."""
    text = (text or "").strip().lstrip("\ufeff")
    if not text:
        raise CrsError(f"{where} is empty")
    if text.isdigit():
        text = f"EPSG:{text}"
    try:
        crs = CRS.from_user_input(text)
    except CRSError as exc:
        raise CrsError(f"{where} is not a coordinate system pyproj knows ({_first_line(exc)})") from None
    if not (crs.is_projected or crs.is_geographic):
        raise CrsError(f"{where} ({crs.name}) is not a map's coordinate system (neither degrees nor a projection)")
    return crs


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def crs_label(crs: CRS) -> str:
    """"EPSG:3301" when the system has an EPSG code, else its name."""
    found = crs.to_authority(min_confidence=90)
    if found is not None:
        return f"{found[0]}:{found[1]}"
    return crs.name or "a custom coordinate system"


def describe(crs: CRS) -> str:
    """"EPSG:3301 Estonian Coordinate System of 1997 (metres)": label, name and units."""
    label = crs_label(crs)
    units = "degrees" if crs.is_geographic else (crs.axis_info[0].unit_name if crs.axis_info else "units")
    plural = {"metre": "metres", "degree": "degrees", "US survey foot": "US survey feet", "foot": "feet"}
    units = plural.get(units, units)
    name = "" if label == crs.name else f" {crs.name}"
    return f"{label}{name} ({units})"


def prj_path(image_path: str | os.PathLike) -> Path:
    """foo.png -> foo.prj (the ESRI naming that ArcGIS, Global Mapper and controlroom read)."""
    return Path(image_path).with_suffix(".prj")


def aux_xml_path(image_path: str | os.PathLike) -> Path:
    """foo.png -> foo.png.aux.xml (GDAL's and so QGIS's file of what the image itself cannot hold)."""
    path = Path(image_path)
    return path.with_name(path.name + ".aux.xml")


def read_prj(path: str | os.PathLike) -> CRS:
    """The CRS in a .prj file (ESRI or OGC WKT, or an EPSG code)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise CrsError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return parse_crs(text, str(path))


def read_aux_xml(path: str | os.PathLike) -> tuple[CRS | None, WorldFile | None]:
    """The coordinate system and geotransform a GDAL/QGIS .aux.xml (PAM) file holds, each None when absent."""
    path = Path(path)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise CrsError(f"{path}: cannot be read as GDAL's .aux.xml ({exc})") from None
    srs = root.find("SRS")
    crs = parse_crs(srs.text or "", f"the SRS in {path}") if srs is not None and (srs.text or "").strip() else None
    world = None
    gt = root.find("GeoTransform")
    if gt is not None and (gt.text or "").strip():
        try:
            values = [float(v) for v in (gt.text or "").replace(",", " ").split()]
            if len(values) != 6:
                raise ValueError
            world = WorldFile.from_geotransform(values)
        except (ValueError, WorldFileError):
            raise CrsError(f"{path}: its GeoTransform is not six numbers placing the image") from None
    return crs, world


def write_prj(image_path: str | os.PathLike, crs: CRS) -> Path:
    """Write foo.prj beside an image: the CRS as ESRI WKT (what .prj readers expect)."""
    try:
        text = crs.to_wkt(WktVersion.WKT1_ESRI)
    except CRSError:
        text = None
    return write_text_atomically(prj_path(image_path), (text or crs.to_wkt(WktVersion.WKT1_GDAL)) + "\n")


def write_aux_xml(image_path: str | os.PathLike, crs: CRS) -> Path:
    """Write (or update) foo.png.aux.xml with the CRS, as GDAL does, so that QGIS opens the image in place.

    Any other metadata already in the file is kept; a GeoTransform in it is
    dropped, because GDAL would prefer it to the world file just written.
    """
    path = aux_xml_path(image_path)
    root = None
    if path.exists():
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError):
            root = None
    if root is None or root.tag != "PAMDataset":
        root = ET.Element("PAMDataset")
    for tag in ("SRS", "GeoTransform"):
        for old in root.findall(tag):
            root.remove(old)
    srs = ET.Element("SRS", {"dataAxisToSRSAxisMapping": _axis_mapping(crs)})
    srs.text = crs.to_wkt(WktVersion.WKT1_GDAL)
    root.insert(0, srs)
    ET.indent(root)
    return write_text_atomically(path, ET.tostring(root, encoding="unicode") + "\n")


def _axis_mapping(crs: CRS) -> str:
    """GDAL's data-axis mapping: world files are always easting (longitude) first."""
    first = crs.axis_info[0].direction.lower() if crs.axis_info else "east"
    return "2,1" if first in ("north", "south") else "1,2"


# -- candidates when nothing names the coordinate system ---------------------------------

def looks_like_local_metres(world: WorldFile, width: int, height: int) -> bool:
    """Small numbers around zero: metres from a point, as earlier versions of controlroom wrote."""
    x0, x1, y0, y1 = world.image_bounds(width, height)
    return max(abs(x0), abs(x1), abs(y0), abs(y1)) < 50_000 and not _degrees(x0, x1, y0, y1)


def _degrees(x0, x1, y0, y1) -> bool:
    return -180.0 <= x0 <= x1 <= 180.0 and -90.0 <= y0 <= y1 <= 90.0 and (x1 - x0) < 5 and (y1 - y0) < 5


def candidates(world: WorldFile, width: int, height: int,
               near: tuple[float, float] | None = None) -> list[Candidate]:
    """Coordinate systems the map's numbers fit, likeliest first.

    Degrees (EPSG:4326) when the numbers are longitudes and latitudes.  With
    ``near`` (the field's latitude, longitude): every EPSG projected system in
    use there that puts the map within 30 km of it, nearest and best known
    first.  Without it: the national grids and ETRS89 UTM zones of
    :data:`_LIKELY_GRIDS` whose area the map would fall in.
    """
    x0, x1, y0, y1 = world.image_bounds(width, height)
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    out: list[Candidate] = []
    if _degrees(x0, x1, y0, y1):
        out.append(_candidate(CRS.from_epsg(4326), cx, cy, near))
        return out
    if near is not None:
        lat, lon = near
        infos = query_crs_info(auth_name="EPSG", pj_types=[PJType.PROJECTED_CRS],
                               area_of_interest=AreaOfInterest(lon, lat, lon, lat))
        codes = dict.fromkeys(int(i.code) for i in infos if not i.deprecated and i.code.isdigit())
        for code in codes:
            found = _try(code, cx, cy, near, inside_area=False)
            if found is not None and found.distance_km is not None and found.distance_km <= _NEAR_KM:
                out.append(found)
        rank = {code: i for i, code in enumerate(_PREFERRED)}
        out.sort(key=lambda c: (rank.get(_code(c), len(rank) + (0 if c.label.startswith("EPSG:32") else 1)),
                                round(c.distance_km or 0.0, 1)))
        return out[:_MAX_CANDIDATES]
    for code in _LIKELY_GRIDS:
        found = _try(code, cx, cy, None, inside_area=True)
        if found is not None:
            out.append(found)
    return out[:_MAX_CANDIDATES]


def _code(c: Candidate) -> int:
    return int(c.label.split(":")[1]) if c.label.startswith("EPSG:") and c.label[5:].isdigit() else -1


def _try(code: int, x: float, y: float, near, inside_area: bool) -> Candidate | None:
    try:
        crs = CRS.from_epsg(code)
        lon, lat = Transformer.from_crs(crs, 4326, always_xy=True).transform(x, y)
    except Exception:       # a database entry PROJ cannot use is no candidate
        return None
    if not (math.isfinite(lat) and math.isfinite(lon)) or abs(lat) > 90:
        return None
    if inside_area:
        area = crs.area_of_use
        if area is None or not (area.south <= lat <= area.north and _lon_within(lon, area.west, area.east)):
            return None
    return _candidate(crs, lon, lat, near, already_geographic=True)


def _lon_within(lon: float, west: float, east: float) -> bool:
    return west <= lon <= east if west <= east else (lon >= west or lon <= east)


def _candidate(crs: CRS, x: float, y: float, near, already_geographic: bool = False) -> Candidate:
    lon, lat = (x, y) if already_geographic or crs.is_geographic else Transformer.from_crs(
        crs, 4326, always_xy=True).transform(x, y)
    distance = None
    if near is not None:
        distance = _GEOD.inv(near[1], near[0], lon, lat)[2] / 1000.0
    return Candidate(crs, crs_label(crs), crs.name, float(lat), float(lon), distance)
