"""``controlroom export --format tak``: the data package ATAK imports, opened with zipfile and checked by GDAL."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest
import tifffile
from PIL import Image
from pyproj import CRS, Transformer

from controlroom.cli import main
from controlroom.game.roster import Member
from controlroom.game.tak_settings import SETTINGS_KEY, TakSettings
from controlroom.geo.geotiff import read_geotiff
from controlroom.geo.places import Place, places_beside, read_places
from controlroom.geo.source import open_map
from controlroom.radio.tak_objects import uid_part
from controlroom.store.game import GameStore
from controlroom.store.maps import save_map, save_places
from tests.support.cot_schema import check
from tests.support.gdal_helpers import latlon_of, make_geotiff, srs_of

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
KML = "{http://www.opengis.net/kml/2.2}"
HQ = Place("HQ", 58.3790, 26.7200)


def _game(tmp_path, map_path: Path | None, places=(), server=""):
    db = str(tmp_path / "Field day.crgame")
    with GameStore.open(db) as store:
        store.save_roster([Member(1, "A", "North", "Wolves")])
        if map_path is not None:
            source = open_map(map_path)
            save_map(store, map_path, source.kind, source.crs.to_wkt(), source.world.as_lines(), source.width,
                     source.height)
        save_places(store, list(places))
        if server:
            store.set_meta(SETTINGS_KEY, TakSettings(server=server).to_json())
    return db


def _export(db, out):
    return main(["export", "--db", db, "--format", "tak", "--out", str(out)])


def _check_placement(tif: Path, map_path: Path) -> None:
    """GDAL's own reading of the GeoTIFF puts each corner and the middle where the kept map has them."""
    source = open_map(map_path)
    to_wgs84 = Transformer.from_crs(source.crs, CRS.from_epsg(4326), always_xy=True)
    for col, row in ((0, 0), (source.width, 0), (0, source.height), (source.width / 2, source.height / 3)):
        x, y = source.world.corner_to_world(col, row)
        lon, lat = to_wgs84.transform(x, y)
        assert latlon_of(tif, col, row) == pytest.approx((lat, lon), abs=1e-7)


def test_the_package_holds_the_map_the_battle_area_the_places_the_markers_and_the_server(tmp_path, capsys):
    field = DEMO / "field.png"
    places = [*read_places(places_beside(field)), HQ]
    db = _game(tmp_path, field, places, "tcp://10.0.0.5:8087")
    out = tmp_path / "Field day.zip"
    assert _export(db, out) == 0
    assert "TAK data package" in capsys.readouterr().out
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        manifest = ET.fromstring(z.read("MANIFEST/manifest.xml"))
        listed = {c.get("zipEntry") for c in manifest.iter("Content")}
        assert listed == names - {"MANIFEST/manifest.xml"}                     # every entry, and only those
        stem = uid_part("Field day")                # "Field_day-" and a short hash: a name without spaces
        assert names == {"MANIFEST/manifest.xml", f"{stem}.tif", f"{stem}.kml", "Valhalla.cot", "HQ.cot",
                         f"{stem}.pref"}
        z.extractall(tmp_path / "unzipped")
    unzipped = tmp_path / "unzipped"
    tif = next(unzipped.glob("*.tif"))
    assert srs_of(tif) == "EPSG:4326" and read_geotiff(tif).crs.to_epsg() == 4326
    _check_placement(tif, field)
    with Image.open(field) as image:
        assert np.array_equal(tifffile.imread(tif), np.asarray(image.convert("RGB")))        # the same pixels
    kml = ET.parse(next(unzipped.glob("*.kml"))).getroot()
    marks = {m.findtext(f"{KML}name"): m for m in kml.iter(f"{KML}Placemark")}
    assert set(marks) == {"Battle area", "Fort", "Ford", "Valhalla", "Forest", "HQ"}
    ring = marks["Battle area"].findtext(f".//{KML}coordinates").split()
    assert len(ring) == 5 and ring[0] == ring[-1]
    corner = [float(v) for v in ring[0].split(",")[:2]]
    assert latlon_of(tif, 0, 0) == pytest.approx((corner[1], corner[0]), abs=1e-6)
    lon, lat = (float(v) for v in marks["Ford"].findtext(f".//{KML}coordinates").split(",")[:2])
    assert (lat, lon) == pytest.approx((58.3795958, 26.7221486))
    for name, place in (("Valhalla", places[2]), ("HQ", HQ)):
        event = check((unzipped / f"{name}.cot").read_bytes())
        assert event.get("type") == "b-m-p-s-m" and event.find("detail/contact").get("callsign") == name
        assert (float(event.find("point").get("lat")), float(event.find("point").get("lon"))) == pytest.approx(
            (place.lat, place.lon))
    pref = ET.parse(next(unzipped.glob("*.pref"))).getroot()
    entries = {e.get("key"): e.text for e in pref.iter("entry")}
    assert entries["connectString0"] == "10.0.0.5:8087:tcp" and entries["count"] == "1"


def test_a_projected_map_is_a_geotiff_in_its_own_system_placed_as_gdal_placed_it(tmp_path):
    source = make_geotiff(tmp_path / "estonia.tif", 3301, (658000, 6474000, 659600, 6472900), size=(160, 110))
    db = _game(tmp_path, source)
    out = tmp_path / "p.zip"
    assert _export(db, out) == 0
    with zipfile.ZipFile(out) as z:
        z.extractall(tmp_path / "p")
    tif = next((tmp_path / "p").glob("*.tif"))
    assert srs_of(tif) == "EPSG:3301"
    _check_placement(tif, source)


def test_nothing_to_package_is_said_and_no_file_is_left(tmp_path, capsys):
    db = _game(tmp_path, None)
    out = tmp_path / "empty.zip"
    assert _export(db, out) == 1
    assert "nothing to put in a TAK data package" in capsys.readouterr().err
    assert not out.exists() and not list(tmp_path.glob("*.part*"))
    assert main(["export", "--db", db, "--format", "tak", "--out", str(out), "--scenario", "x"]) == 1
    assert "leave out --scenario" in capsys.readouterr().err


def test_places_alone_make_a_package_that_says_what_it_lacks(tmp_path, capsys):
    db = _game(tmp_path, None, [Place("Valhalla", 58.37, 26.73)])
    assert _export(db, tmp_path / "v.zip") == 0
    said = capsys.readouterr().out
    assert "no map is kept with the game" in said and "no place named HQ" in said
    with zipfile.ZipFile(tmp_path / "v.zip") as z:
        assert {n.rsplit(".", 1)[-1] for n in z.namelist()} == {"xml", "kml", "cot"}
