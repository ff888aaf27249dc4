"""`controlroom export`: tracks, casualties, STOPPs and siege engines as GeoJSON, GPX and KML, read back by their
parsers.

A small stored game: a group's tracker walking north, a marshal's handset, a
siege engine; casualties reported by the marshal (placed at the handset) and
entered by a game master (placed at the group's tracker); a STOPP and a
siege report with their own positions; two scenarios.  Each file is read back
by a well-kept parser (json, gpxpy, ElementTree for KML) and by GDAL's OGR,
which is what QGIS opens them with.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import gpxpy
import pytest

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore

KML = "{http://www.opengis.net/kml/2.2}"
T0 = 1_751_360_400_000          # 2025-07-01 09:00:00 UTC, the first event's wall time
WOLF_TRACK = [(58.3800 + 0.0002 * i, 26.7200) for i in range(6)]      # every minute, northwards
MARSHAL = (58.3810, 26.7250)
STOPP = (58.3815, 26.7222)
SIEGE = (58.3790, 26.7180)


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "ford.crgame"
    with GameStore.open(path) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
                           Member(11, "Cnut", "South", "Ravens")])
        register_device(store, 5, "tracker", "Wolves tracker", group="Wolves")
        register_device(store, 7, "marshal", "handset 7", marshal="Mari")
        register_device(store, 9, "tracker", "", siege_engine="Trebuchet")

        def add(seconds, type_, source, **fields):
            store.log.append([make_event(seconds * 1000, type_, source, **fields)], wall_ms=T0 + seconds * 1000)

        add(0, "scenario_started", "gm", name="Ford")
        add(5, "position", "marshal:7", device=7, lat=MARSHAL[0], lon=MARSHAL[1])
        add(8, "position", "tracker:9", device=9, lat=SIEGE[0], lon=SIEGE[1])
        for i, (lat, lon) in enumerate(WOLF_TRACK[:3]):
            add(10 + 60 * i, "position", "tracker:5", device=5, lat=lat, lon=lon)
        add(100, "strike", "marshal:7", badge=11)                  # placed at the marshal's handset
        add(130, "down", "gm", badge=1)                           # placed at the Wolves' tracker (2nd fix)
        add(140, "stopp_called", "marshal:7", stopp="7-1", reason="injury", lat=STOPP[0], lon=STOPP[1])
        add(170, "stopp_lifted", "gm", stopp="7-1")
        add(180, "siege_status", "tracker:9", engine="Trebuchet", status="firing", lat=SIEGE[0], lon=SIEGE[1])
        add(200, "scenario_started", "gm", name="Fort")
        for i, (lat, lon) in enumerate(WOLF_TRACK[3:], start=3):
            add(10 + 60 * i, "position", "tracker:5", device=5, lat=lat, lon=lon)
        add(250, "died", "gm", badge=2)                           # Fort: the tracker's 4th fix
        add(260, "down", "gm", badge=11)                          # Ravens have no tracker: not placed
    return path


def _ogrinfo() -> str:
    """GDAL's ogrinfo (Debian's gdal-bin): skipped without it, but a failure under CI, which installs it."""
    import os
    import shutil

    found = shutil.which("ogrinfo")
    if found:
        return found
    message = "ogrinfo is missing (Debian package gdal-bin; installer/quickstart.py test installs it as root)"
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(message)
    pytest.skip(message)


def export(game, fmt, out, *extra):
    done = subprocess.run([sys.executable, "-m", "controlroom", "export", "--db", str(game), "--format", fmt,
                           "--out", str(out), *extra], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_geojson_for_qgis(game, tmp_path):
    out = tmp_path / "battle.geojson"
    said = export(game, "geojson", out)
    assert "3 tracks of 8 positions, 3 casualties, 1 STOPPs, 1 siege engine reports" in said
    assert "1 events had no position" in said and "Cnut (11): down" in said
    doc = json.loads(out.read_text())
    assert doc["type"] == "FeatureCollection"
    tracks = {f["properties"]["name"]: f for f in doc["features"] if f["properties"]["layer"] == "track"}
    assert set(tracks) == {"Wolves", "Mari", "Trebuchet"}
    wolves = tracks["Wolves"]
    assert wolves["geometry"]["type"] == "LineString" and wolves["properties"]["kind"] == "group"
    assert wolves["geometry"]["coordinates"] == [[lon, lat] for lat, lon in WOLF_TRACK]      # GeoJSON: lon, lat
    assert wolves["properties"]["start"] == "2025-07-01T09:00:10.000Z"
    assert tracks["Mari"]["geometry"] == {"type": "Point", "coordinates": [MARSHAL[1], MARSHAL[0]]}
    places = [f for f in doc["features"] if f["properties"]["layer"] != "track"]
    by_name = {f["properties"]["name"]: f for f in places}
    struck = by_name["Cnut (11): struck 1 time"]
    assert struck["geometry"]["coordinates"] == [MARSHAL[1], MARSHAL[0]]
    assert struck["properties"]["position"] == "reporter"
    assert struck["properties"]["reported_by"] == "Mari (marshal handset 7)"
    down = by_name["Aldo (1): down (0 hit points)"]
    assert down["geometry"]["coordinates"] == [WOLF_TRACK[2][1], WOLF_TRACK[2][0]]
    assert down["properties"]["position"] == "group tracker" and down["properties"]["position_age_s"] == 0
    stopp = by_name["STOPP 7-1 (injury)"]
    assert stopp["geometry"]["coordinates"] == [STOPP[1], STOPP[0]] and stopp["properties"]["position"] == "reported"
    assert stopp["properties"]["duration_s"] == 30
    assert by_name["Trebuchet: firing"]["geometry"]["coordinates"] == [SIEGE[1], SIEGE[0]]


def test_gpx_for_gps_tools(game, tmp_path):
    out = tmp_path / "battle.gpx"
    export(game, "gpx", out)
    with out.open() as f:
        gpx = gpxpy.parse(f)
    tracks = {t.name: t for t in gpx.tracks}
    assert set(tracks) == {"Wolves", "Mari", "Trebuchet"}
    points = tracks["Wolves"].segments[0].points
    assert [(p.latitude, p.longitude) for p in points] == WOLF_TRACK
    assert points[0].time.isoformat() == "2025-07-01T09:00:10+00:00"
    waypoints = {w.name: w for w in gpx.waypoints}
    assert len(waypoints) == 5 and {w.type for w in gpx.waypoints} == {"casualty", "stopp", "siege"}
    assert (waypoints["STOPP 7-1 (injury)"].latitude, waypoints["STOPP 7-1 (injury)"].longitude) == STOPP


def test_kml_for_google_earth(game, tmp_path):
    out = tmp_path / "battle.kml"
    export(game, "kml", out)
    root = ET.parse(out).getroot()
    assert root.tag == f"{KML}kml"
    folders = {f.find(f"{KML}name").text: f for f in root.iter(f"{KML}Folder")}
    assert set(folders) == {"Casualties", "STOPPs", "Siege engines", "Tracks"}
    assert len(folders["Casualties"].findall(f"{KML}Placemark")) == 3
    tracks = {p.find(f"{KML}name").text: p for p in folders["Tracks"].findall(f"{KML}Placemark")}
    line = tracks["Wolves"].find(f"{KML}LineString/{KML}coordinates").text.split()
    assert [tuple(float(v) for v in c.split(",")) for c in line] == [(lon, lat) for lat, lon in WOLF_TRACK]
    assert tracks["Wolves"].find(f"{KML}TimeSpan/{KML}begin").text == "2025-07-01T09:00:10.000Z"


@pytest.mark.parametrize("fmt, layers", [("geojson", {"ford (the whole game)": 8}), ("kml", None),
                                         ("gpx", {"waypoints": 5, "tracks": 3})])
def test_gdal_ogr_opens_each_file_as_qgis_would(game, tmp_path, fmt, layers):
    out = tmp_path / f"battle.{fmt}"
    export(game, fmt, out)
    done = subprocess.run([_ogrinfo(), "-ro", "-al", "-so", str(out)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "ERROR" not in done.stderr, done.stderr
    counts = {}
    layer = None
    for line in done.stdout.splitlines():
        if line.startswith("Layer name:"):
            layer = line.split(":", 1)[1].strip()
        elif line.startswith("Feature Count:"):
            counts[layer] = int(line.split(":")[1])
    if fmt == "kml":
        assert counts == {"Casualties": 3, "STOPPs": 1, "Siege engines": 1, "Tracks": 3}
    else:
        assert {k: v for k, v in counts.items() if k in layers} == layers


def test_one_scenario_only_and_unknown_scenario(game, tmp_path):
    out = tmp_path / "fort.geojson"
    said = export(game, "geojson", out, "--scenario", "Fort")
    assert "scenario Fort" in said
    doc = json.loads(out.read_text())
    tracks = [f for f in doc["features"] if f["properties"]["layer"] == "track"]
    assert [t["properties"]["name"] for t in tracks] == ["Wolves"]
    assert tracks[0]["geometry"]["coordinates"] == [[lon, lat] for lat, lon in WOLF_TRACK[3:]]
    names = [f["properties"]["name"] for f in doc["features"] if f["properties"]["layer"] == "casualty"]
    assert names == ["Birgit (2): died"]
    done = subprocess.run([sys.executable, "-m", "controlroom", "export", "--db", str(game), "--format", "kml",
                           "--out", str(tmp_path / "x.kml"), "--scenario", "Bridge"], capture_output=True, text=True)
    assert done.returncode == 1 and "no scenario 'Bridge'" in done.stderr and not (tmp_path / "x.kml").exists()
    missing = subprocess.run([sys.executable, "-m", "controlroom", "export", "--db", str(tmp_path / "none.crgame"),
                              "--format", "gpx", "--out", str(tmp_path / "y.gpx")], capture_output=True, text=True)
    assert missing.returncode == 1 and "does not exist" in missing.stderr
