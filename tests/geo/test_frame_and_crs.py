"""The drawing frame's distances are true; unknown coordinate systems are never guessed, only offered."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from pyproj import Geod, Transformer

from controlroom.geo.calibrate import calibrate
from controlroom.geo.crs import CrsError, candidates, describe, parse_crs, read_aux_xml, write_aux_xml
from controlroom.geo.frame import MapFrame, utm_crs_for
from controlroom.geo.source import CrsUnknown, MapError, NotPlaced, open_map
from controlroom.geo.worldfile import WorldFile
from tests.support.gdal_helpers import gdal, make_geotiff

GEOD = Geod(ellps="WGS84")


@pytest.mark.parametrize("lat0, lon0", [(58.38, 26.72), (59.437, 24.7536), (0.0, 10.0), (-33.9, 18.4), (69.65, 18.96)])
def test_frame_distances_are_geodesic_within_half_a_metre(lat0, lon0):
    frame = MapFrame(lat0, lon0)
    rng = np.random.default_rng(7)
    for _ in range(200):
        # Two points anywhere in a 5 km x 5 km field around the centre.
        dx1, dy1, dx2, dy2 = rng.uniform(-2500, 2500, 4)
        lat1, lon1 = frame.to_geographic(dx1, dy1)
        lat2, lon2 = frame.to_geographic(dx2, dy2)
        x1, y1 = frame.to_local(lat1, lon1)
        x2, y2 = frame.to_local(lat2, lon2)
        planar = math.hypot(x2 - x1, y2 - y1)
        assert abs(planar - GEOD.inv(lon1, lat1, lon2, lat2)[2]) < 0.5 * 1e-3 * max(planar, 1) + 1e-3
    # Much better than asked: a few millimetres over the field's diagonal.
    lat1, lon1 = frame.to_geographic(-2500, -2500)
    lat2, lon2 = frame.to_geographic(2500, 2500)
    assert abs(math.hypot(5000, 5000) - GEOD.inv(lon1, lat1, lon2, lat2)[2]) < 0.01


def test_frame_round_trip_and_north_up():
    frame = MapFrame(58.38, 26.72)
    assert frame.to_local(58.38, 26.72) == pytest.approx((0.0, 0.0), abs=1e-6)
    x, y = frame.to_local(58.39, 26.72)
    assert x == pytest.approx(0.0, abs=1e-6) and y == pytest.approx(1114.0, abs=1.0)
    lats, lons = np.array([58.37, 58.385]), np.array([26.70, 26.75])
    back = frame.to_geographic(*frame.to_local(lats, lons))
    np.testing.assert_allclose(back, (lats, lons), atol=1e-10)
    moved = MapFrame.around([58.38, 58.381, 10.0], [26.72, 26.721, 0.0])
    assert (moved.lat0, moved.lon0) == (58.38, 26.72)      # the median: one stray fix does not move it


def test_utm_zones():
    assert utm_crs_for(58.38, 26.72).to_epsg() == 32635
    assert utm_crs_for(59.437, 24.7536).to_epsg() == 32635
    assert utm_crs_for(59.9, 5.3).to_epsg() == 32632          # Bergen: Norway's exception
    assert utm_crs_for(-33.9, 18.4).to_epsg() == 32734
    with pytest.raises(ValueError):
        utm_crs_for(85.0, 0.0)


def test_parse_crs_forms():
    assert parse_crs("3301").to_epsg() == 3301
    assert parse_crs("EPSG:32635").to_epsg() == 32635
    assert parse_crs(parse_crs("3301").to_wkt()).to_epsg() == 3301
    assert "Estonian" in describe(parse_crs("3301")) and "metres" in describe(parse_crs("3301"))
    for bad in ("", "EPSG:999999", "not a crs"):
        with pytest.raises(CrsError):
            parse_crs(bad)


def _world_of(epsg, lat, lon, size=1.0, cols=1000, rows=800):
    x, y = Transformer.from_crs(4326, epsg, always_xy=True).transform(lon, lat)
    return WorldFile(size, 0.0, 0.0, -size, x - cols * size / 2, y + rows * size / 2)


def test_candidates_by_the_numbers():
    est = candidates(_world_of(3301, 58.38, 26.72), 1000, 800)
    assert est[0].label == "EPSG:3301" and est[0].lat == pytest.approx(58.38, abs=0.01)
    deg = candidates(WorldFile(1e-5, 0, 0, -1e-5, 26.71, 58.39), 1000, 800)
    assert [c.label for c in deg] == ["EPSG:4326"]
    # A UTM world file: the zone cannot be told from the numbers, but the field's positions tell it.
    utm = _world_of(32635, 58.38, 26.72)
    near = candidates(utm, 1000, 800, near=(58.381, 26.721))
    labels = [c.label for c in near]
    assert "EPSG:32635" in labels and "EPSG:32634" not in labels
    best = next(c for c in near if c.label == "EPSG:32635")
    assert best.distance_km < 0.5
    assert all(c.distance_km <= 30 for c in near)


def test_world_file_without_crs_is_refused_with_candidates(tmp_path):
    png = tmp_path / "field.png"
    tif = make_geotiff(tmp_path / "src.tif", 3301, [658000, 6475000, 659000, 6474200], size=(500, 400))
    gdal("gdal_translate", "-q", "-of", "PNG", "-co", "WORLDFILE=YES", tif, png)
    (tmp_path / "field.png.aux.xml").unlink()
    with pytest.raises(CrsUnknown) as caught:
        open_map(png)
    text = caught.value.explain()
    assert "coordinate system is not known" in text and "EPSG:3301" in text and "--crs" in text
    done = subprocess.run([sys.executable, "-m", "controlroom", "map", "locate", str(png), "58.38", "26.72"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "EPSG:3301" in done.stderr and not done.stdout
    named = subprocess.run([sys.executable, "-m", "controlroom", "map", "locate", str(png), "58.38", "26.72",
                            "--crs", "EPSG:3301"], capture_output=True, text=True, timeout=60)
    assert named.returncode == 0 and "(EPSG:3301)" in named.stdout, named.stderr


def test_old_local_metre_world_files_are_explained(tmp_path):
    png = tmp_path / "old.png"
    gdal("gdal_create", "-q", "-of", "PNG", "-outsize", 160, 110, "-bands", 3, png)
    (tmp_path / "old.pgw").write_text("10\n0\n0\n-10\n-795\n545\n")
    with pytest.raises(CrsUnknown) as caught:
        open_map(png)
    assert "three points" in caught.value.explain()


def test_bad_map_files_are_explained(tmp_path):
    (tmp_path / "notes.png").write_text("not an image")
    with pytest.raises(MapError, match="cannot be read as a map image"):
        open_map(tmp_path / "notes.png")
    with pytest.raises(MapError, match="no such file"):
        open_map(tmp_path / "missing.tif")
    plain = tmp_path / "plain.png"
    gdal("gdal_create", "-q", "-of", "PNG", "-outsize", 10, 10, plain)
    with pytest.raises(NotPlaced, match="three points"):
        open_map(plain)
    (tmp_path / "empty.mbtiles").write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    with pytest.raises(MapError, match="MBTiles"):
        open_map(tmp_path / "empty.mbtiles")
    (tmp_path / "bad.tif").write_bytes(b"II*\x00garbage")
    with pytest.raises(MapError, match="TIFF"):
        open_map(tmp_path / "bad.tif")
    done = subprocess.run([sys.executable, "-m", "controlroom", "map", "locate", str(plain), "95", "26"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "latitude" in done.stderr


def test_aux_xml_keeps_other_metadata_and_drops_an_old_geotransform(tmp_path):
    image = tmp_path / "f.png"
    (tmp_path / "f.png.aux.xml").write_text(
        "<PAMDataset><GeoTransform>0, 1, 0, 0, 0, -1</GeoTransform>"
        "<Metadata><MDI key=\"AUTHOR\">Mari</MDI></Metadata></PAMDataset>")
    write_aux_xml(image, parse_crs("32635"))
    crs, world = read_aux_xml(tmp_path / "f.png.aux.xml")
    assert crs.to_epsg() == 32635 and world is None
    assert "Mari" in (tmp_path / "f.png.aux.xml").read_text()


def test_calibration_residuals_point_at_the_wrong_click():
    frame = MapFrame(58.38, 26.72)
    # A 0.5 m/pixel image, north up, top-left pixel centre 400 m west and 300 m north of the centre.
    pixels = [(100, 100), (1500, 120), (800, 1100), (1400, 1000), (200, 900)]
    gps = [frame.to_geographic(-400 + 0.5 * c, 300 - 0.5 * r) for c, r in pixels]
    exact = calibrate(pixels[:3], gps[:3])
    assert exact.residuals_m == (0.0, 0.0, 0.0) and exact.crs.to_epsg() == 32635
    good = calibrate(pixels, gps)
    assert max(good.residuals_m) < 0.02
    wrong = list(gps)
    wrong[3] = frame.to_geographic(-400 + 0.5 * 1400 + 15, 300 - 0.5 * 1000)   # typed 15 m off
    bad = calibrate(pixels, wrong)
    assert bad.worst == 3 and bad.residuals_m[3] > 5 and bad.rms_m > 3
    with pytest.raises(ValueError, match="at least 3"):
        calibrate(pixels[:2], gps[:2])
    with pytest.raises(ValueError, match="one line"):
        calibrate([(0, 0), (10, 10), (20, 20)], gps[:3])
