"""Maps made by GDAL's tools are placed where GDAL places them: every format, every coordinate system of the issue.

Each map covers a field near Tartu (58.38 N, 26.72 E) or near Tallinn (for a
second UTM zone and L-EST97's other end).  For WGS84 points spread over the
map, controlroom's pixel must be GDAL's (gdaltransform) within a pixel, and
the drawing frame must put it within a pixel and 0.5 m of where pyproj puts
the point.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
from pyproj import Transformer

from controlroom.geo.crs import write_prj
from controlroom.geo.frame import MapFrame
from controlroom.geo.placement import place_pieces
from controlroom.geo.source import open_map
from tests.support.gdal_helpers import gdal, latlon_of, make_geotiff, pixel_of, srs_of

TARTU = (58.38, 26.72)


def _ullr(epsg: int, lat: float, lon: float, width_m: float, height_m: float):
    """Upper-left and lower-right corners in a CRS of a field width_m x height_m around (lat, lon)."""
    t = Transformer.from_crs(4326, epsg, always_xy=True)
    x, y = t.transform(lon, lat)
    if epsg == 4326:
        dx, dy = width_m / 2 / (111_320 * np.cos(np.radians(lat))), height_m / 2 / 111_132
    else:
        dx, dy = width_m / 2, height_m / 2
    return [round(v, 6) for v in (x - dx, y + dy, x + dx, y - dy)]


def _points(source, n=12, seed=1):
    """WGS84 points spread over the map (from pixel positions, through GDAL's own answer)."""
    rng = np.random.default_rng(seed)
    cols = rng.uniform(0.05, 0.95, n) * source.width
    rows = rng.uniform(0.05, 0.95, n) * source.height
    return [latlon_of(source.path, c, r) for c, r in zip(cols, rows)]


def _check(path, frame_centre=None):
    """controlroom's pixel of each point is GDAL's, and the frame places it within a pixel and 0.5 m."""
    source = open_map(path)
    frame = MapFrame(*(frame_centre or source.centre()))
    pieces = place_pieces(lambda c, r: frame.from_crs(source.crs, *source.corner_to_crs(c, r)),
                          source.width, source.height)
    ground = source.ground_size()
    pixel_m = max(ground[0] / source.width, ground[1] / source.height)
    for lat, lon in _points(source):
        want = pixel_of(path, lat, lon)
        got = source.locate(lat, lon)
        assert got == pytest.approx(want, abs=1e-3), (lat, lon)
        # The window: the point's frame metres, and the pixel the image's piece shows there.
        x, y = frame.to_local(lat, lon)
        piece = next(p for p in pieces if p.col0 - 1e-6 <= want[0] <= p.col0 + p.cols + 1e-6
                     and p.row0 - 1e-6 <= want[1] <= p.row0 + p.rows + 1e-6)
        px, py = piece.to_frame(want[0] - piece.col0, want[1] - piece.row0)
        miss_m = float(np.hypot(px - x, py - y))
        assert miss_m <= 0.5 and miss_m <= pixel_m, (lat, lon, miss_m, pixel_m)
    return source, pieces


@pytest.mark.parametrize("epsg", [4326, 3301, 32635, 3857, 3067, 25835])
def test_geotiff_in_each_coordinate_system(tmp_path, epsg):
    path = make_geotiff(tmp_path / f"field_{epsg}.tif", epsg, _ullr(epsg, *TARTU, 1600, 1100), size=(1600, 1100))
    source, _ = _check(path)
    assert source.kind == "geotiff" and source.crs.to_epsg() == epsg


def test_utm_zone_of_tallinn_and_pixel_is_point(tmp_path):
    area = make_geotiff(tmp_path / "area.tif", 32635, _ullr(32635, 59.437, 24.7536, 2000, 1500), size=(1000, 750))
    point = tmp_path / "point.tif"
    gdal("gdal_translate", "-q", "-mo", "AREA_OR_POINT=POINT", area, point)
    src_area, _ = _check(area)
    src_point, _ = _check(point)
    lat, lon = 59.437, 24.7536
    assert src_point.locate(lat, lon) == pytest.approx(src_area.locate(lat, lon), abs=1e-6)


def test_compressed_geotiff_is_placed_by_its_tags(tmp_path):
    plain = make_geotiff(tmp_path / "plain.tif", 3301, _ullr(3301, *TARTU, 1000, 800), size=(500, 400))
    packed = tmp_path / "packed.tif"
    gdal("gdal_translate", "-q", "-co", "COMPRESS=LZW", "-co", "TILED=YES", plain, packed)
    _check(packed)


@pytest.mark.parametrize("epsg", [3301, 4326, 32635])
def test_png_with_world_file_and_gdal_aux_xml(tmp_path, epsg):
    tif = make_geotiff(tmp_path / "src.tif", epsg, _ullr(epsg, *TARTU, 1200, 900), size=(600, 450))
    png = tmp_path / "field.png"
    gdal("gdal_translate", "-q", "-of", "PNG", "-co", "WORLDFILE=YES", tif, png)
    assert (tmp_path / "field.wld").is_file() and (tmp_path / "field.png.aux.xml").is_file()
    source, _ = _check(png)
    assert source.placed_by == "field.wld" and source.crs_from == "field.png.aux.xml"


def test_jpeg_with_world_file_and_prj(tmp_path):
    tif = make_geotiff(tmp_path / "src.tif", 3301, _ullr(3301, *TARTU, 1200, 900), size=(600, 450))
    jpg = tmp_path / "field.jpg"
    gdal("gdal_translate", "-q", "-of", "JPEG", "-co", "WORLDFILE=YES", tif, jpg)
    (tmp_path / "field.jpg.aux.xml").unlink()
    shutil.move(tmp_path / "field.wld", tmp_path / "field.jgw")
    write_prj(jpg, open_map(tif).crs)
    source = open_map(jpg)
    assert source.crs_from == "field.prj" and source.crs.to_epsg() == 3301
    for lat, lon in _points(open_map(tif)):
        # GDAL does not read .prj beside a JPEG: its answer comes from the GeoTIFF the JPEG was made from.
        assert source.locate(lat, lon) == pytest.approx(pixel_of(tif, lat, lon), abs=1e-3)


def test_rotated_world_file(tmp_path):
    tif = make_geotiff(tmp_path / "src.tif", 32635, _ullr(32635, *TARTU, 800, 600), size=(400, 300))
    png = tmp_path / "turned.png"
    gdal("gdal_translate", "-q", "-of", "PNG", "-co", "WORLDFILE=YES", tif, png)
    a = np.radians(20)
    c, f = (float(v) for v in (tmp_path / "turned.wld").read_text().split()[4:])
    (tmp_path / "turned.wld").write_text("\n".join(repr(float(v)) for v in (
        2 * np.cos(a), 2 * np.sin(a), 2 * np.sin(a), -2 * np.cos(a), c, f)) + "\n")
    _check(png)


def test_mbtiles_from_gdal_with_overviews(tmp_path):
    tif = make_geotiff(tmp_path / "src.tif", 32635, _ullr(32635, *TARTU, 1600, 1100), size=(1600, 1100))
    mb = tmp_path / "field.mbtiles"
    gdal("gdal_translate", "-q", "-of", "MBTILES", tif, mb)
    gdal("gdaladdo", "-q", "-r", "average", mb, 2, 4)
    source, _ = _check(mb)
    assert source.kind == "mbtiles" and source.crs.to_epsg() == 3857
    info = gdal("gdalinfo", "-json", mb)
    size = json.loads(info)["size"]
    assert [source.width, source.height] == size
    # gdallocationinfo's whole pixel for the field's centre agrees too.
    out = gdal("gdallocationinfo", "-wgs84", mb, TARTU[1], TARTU[0])
    col, row = (int(v) for v in out.split("(")[1].split(")")[0].replace("P", "").replace("L", "").split(","))
    x, y = source.locate(*TARTU)
    assert (int(x), int(y)) == (col, row)


def test_calibrated_png_is_read_by_gdal_in_place(tmp_path):
    """The calibration's world file, .prj and .aux.xml: GDAL (so QGIS) sees the UTM zone and the same placement."""
    from controlroom.geo.calibrate import calibrate, save_calibration

    truth = make_geotiff(tmp_path / "truth.tif", 3301, _ullr(3301, *TARTU, 1500, 1000), size=(1500, 1000))
    png = tmp_path / "field.png"
    gdal("gdal_translate", "-q", "-of", "PNG", truth, png)
    for extra in tmp_path.glob("field.png.aux.xml"):
        extra.unlink()
    clicks = [(100.5, 80.5), (1400.5, 120.5), (700.5, 900.5), (1300.5, 850.5), (200.5, 700.5)]
    gps = [latlon_of(truth, c + 0.5, r + 0.5) for c, r in clicks]   # clicks are pixel centres (world-file terms)
    cal = calibrate(clicks, gps)
    assert cal.crs.to_epsg() == 32635 and max(cal.residuals_m) < 0.05
    written = save_calibration(png, cal)
    assert [p.name for p in written] == ["field.pgw", "field.prj", "field.png.aux.xml"]
    assert srs_of(png) == "EPSG:32635"
    for lat, lon in _points(open_map(truth)):
        assert pixel_of(png, lat, lon) == pytest.approx(pixel_of(truth, lat, lon), abs=0.05)
        assert open_map(png).locate(lat, lon) == pytest.approx(pixel_of(truth, lat, lon), abs=0.05)


def test_map_locate_command_against_gdal(tmp_path):
    tif = make_geotiff(tmp_path / "est.tif", 3301, _ullr(3301, *TARTU, 1000, 800), size=(500, 400))
    done = subprocess.run([sys.executable, "-m", "controlroom", "map", "locate", str(tif), "58.381", "26.719",
                           "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"x", "y", "crs"} and answer["crs"] == "EPSG:3301"
    assert (answer["x"], answer["y"]) == pytest.approx(pixel_of(tif, 58.381, 26.719), abs=1e-3)
