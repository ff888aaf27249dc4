"""The game as a TAK data package: one zip ATAK, iTAK and WinTAK import in one step (docs/tak.md).

It holds what a phone needs before the battle: ``MANIFEST/manifest.xml``
(PyTAK's ``TAKDataPackage`` writes it, listing every entry), the field map as
a GeoTIFF in its own coordinate system, a KML of the battle area (the map's
outline) and the map's named places, ``.cot`` markers for Valhalla and HQ
(the places of those names), and a ``.pref`` naming the game's TAK server
when one is set (``controlroom tak --server``).  The zip is written beside
its destination and moved there whole: a failed export leaves nothing.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
from pyproj import CRS, Transformer

from controlroom.game.tak_settings import SETTINGS_KEY, TakSettings, TakSettingsError, settings_from_json
from controlroom.geo.geotiff_write import geokeys, write_geotiff
from controlroom.geo.places import Place
from controlroom.geo.worldfile import WorldFile
from controlroom.i18n import translate
from controlroom.radio import tak_libs
from controlroom.radio.cot import to_xml
from controlroom.radio.tak_objects import HQ_NAMES, VALHALLA_NAMES, place_cot, place_named, uid_part, uid_prefix
from controlroom.store.game import GameStore
from controlroom.store.maps import current_map, map_file, stored_places

__all__ = ["TakPackage", "write_tak_package", "battle_area"]

KML_NS = "http://www.opengis.net/kml/2.2"


@dataclass
class TakPackage:
    """What a data package holds, and what it could not."""

    path: Path
    entries: list[str] = field(default_factory=list)     # zip entries besides the manifest
    notes: list[str] = field(default_factory=list)       # what is left out, and why


def battle_area(world: WorldFile, width: int, height: int, crs: CRS) -> list[tuple[float, float]]:
    """The map's outline in WGS84 (lon, lat), closed: the ground the battle is fought on."""
    xs, ys = world.corner_to_world(np.array([0, width, width, 0, 0]), np.array([0, 0, height, height, 0]))
    to_wgs84 = Transformer.from_crs(crs, CRS.from_epsg(4326), always_xy=True)
    lons, lats = to_wgs84.transform(xs, ys)
    return [(float(lo), float(la)) for lo, la in zip(lons, lats)]


def _kml(game: str, area: list[tuple[float, float]], places: list[Place]) -> bytes:
    ET.register_namespace("", KML_NS)

    def sub(parent, tag, text=None):
        e = ET.SubElement(parent, f"{{{KML_NS}}}{tag}")
        if text is not None:
            e.text = str(text)
        return e

    root = ET.Element(f"{{{KML_NS}}}kml")
    doc = sub(root, "Document")
    sub(doc, "name", game)
    if area:
        mark = sub(doc, "Placemark")
        sub(mark, "name", "Battle area")
        style = sub(mark, "Style")
        line = sub(style, "LineStyle")
        sub(line, "color", "ff0000ff")
        sub(line, "width", 3)
        sub(sub(style, "PolyStyle"), "fill", 0)
        ring = sub(sub(sub(mark, "Polygon"), "outerBoundaryIs"), "LinearRing")
        sub(ring, "coordinates", " ".join(f"{lo:.7f},{la:.7f},0" for lo, la in area))
    if places:
        folder = sub(doc, "Folder")
        sub(folder, "name", "Places")
        for p in places:
            mark = sub(folder, "Placemark")
            sub(mark, "name", p.name)
            sub(sub(mark, "Point"), "coordinates", f"{p.lon:.7f},{p.lat:.7f},0")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _pref(game: str, server: str) -> bytes:
    """An ATAK preference file naming the TAK server (the phone's certificate, for tls://, is its own)."""
    parts = urlsplit(server)
    connect = f"{parts.hostname}:{parts.port}:{'ssl' if parts.scheme == 'tls' else 'tcp'}"
    root = ET.Element("preferences")
    pref = ET.SubElement(root, "preference", version="1", name="cot_streams")
    for key, cls, value in (("count", "Integer", "1"), ("description0", "String", f"controlroom {game}"),
                            ("enabled0", "Boolean", "true"), ("connectString0", "String", connect)):
        ET.SubElement(pref, "entry", key=key, **{"class": f"class java.lang.{cls}"}).text = value
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _map_pixels(path: Path, kind: str) -> np.ndarray:
    """The map's pixels as rows x columns x 3 or 4 bytes (Pillow; tifffile for a TIFF Pillow cannot read)."""
    from PIL import Image

    try:
        with Image.open(path) as image:
            image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
            return np.asarray(image)
    except (OSError, ValueError):
        if kind != "geotiff":
            raise
    import tifffile

    data = tifffile.imread(path)
    if data.ndim == 2:
        data = np.repeat(data[:, :, None], 3, axis=2)
    return data[:, :, :4].astype(np.uint8)


def write_tak_package(store: GameStore, out: str | os.PathLike) -> TakPackage:
    """Write the data package of the game in ``store`` to ``out`` (a .zip); OSError if it cannot be written."""
    out = Path(out)
    stem = uid_part(store.name)
    result = TakPackage(out)
    try:
        settings = settings_from_json(store.meta(SETTINGS_KEY))
    except TakSettingsError as exc:
        settings = TakSettings()
        result.notes.append(str(exc))
    places = stored_places(store)
    kept = current_map(store)
    with tempfile.TemporaryDirectory(prefix="controlroom-tak-") as tmp:
        folder = Path(tmp)
        files: list[Path] = []
        area: list[tuple[float, float]] = []
        if kept is None:
            result.notes.append(translate("tak", "no map is kept with the game: no GeoTIFF, and the battle area is "
                                                 "not drawn"))
        else:
            crs, world = CRS.from_wkt(kept.crs), WorldFile(*kept.world)
            area = battle_area(world, kept.width, kept.height, crs)
            source = map_file(store, kept, folder / "map")
            if kept.kind == "mbtiles":
                files.append(source)        # ATAK reads MBTiles as they are
            else:
                try:
                    geokeys(crs)
                    files.append(write_geotiff(folder / f"{stem}.tif", _map_pixels(source, kept.kind), world, crs))
                except (ValueError, OSError) as exc:
                    result.notes.append(translate("tak", "the map {name} is not in the package as a GeoTIFF: {why}")
                                        .format(name=kept.name, why=exc))
        if area or places:
            kml = folder / f"{stem}.kml"
            kml.write_bytes(_kml(store.name, area, places))
            files.append(kml)
        else:
            result.notes.append(translate("tak", "the map has no named places (field.places.geojson beside it)"))
        prefix = uid_prefix(store.name)
        for names, label in ((VALHALLA_NAMES, "Valhalla"), (HQ_NAMES, "HQ")):
            place = place_named(places, names)
            if place is None:
                result.notes.append(translate("tak", "no place named {name} on the map: no {name} marker").format(
                    name=label))
                continue
            marker = folder / f"{uid_part(place.name)}.cot"
            marker.write_bytes(to_xml(place_cot(prefix, place)))
            files.append(marker)
        if settings.server:
            pref = folder / f"{stem}.pref"
            pref.write_bytes(_pref(store.name, settings.server))
            files.append(pref)
        if not files:
            raise ValueError(translate("tak", "there is nothing to put in a TAK data package: keep the field's map "
                                              "with the game (controlroom --db GAME --map FILE), name its places, or "
                                              "set the TAK server (controlroom tak --server URL)"))
        package = tak_libs.pytak().TAKDataPackage(f"controlroom {store.name}", uid=f"{prefix}package")
        for path in files:
            package.add_file(str(path))
        result.entries = [path.name for path in files]
        part = out.with_name(out.name + ".part.zip")
        with contextlib.redirect_stdout(io.StringIO()):       # (it prints each entry it adds)
            package.create_package(str(part))
        os.replace(part, out)
    return result
