"""World files and control-point affines (pure, no Qt)."""

import math
import subprocess
import sys

import numpy as np
import pytest

from controlroom.geo.worldfile import (
    WorldFile,
    WorldFileError,
    affine_from_control_points,
    read_world_file,
    world_file_for,
)

# 0.5 m pixels, north-up, top-left pixel centre at (1000.25, 2000.75).
PLAIN = "0.5\n0.0\n0.0\n-0.5\n1000.25\n2000.75\n"


def rotated_lines(angle_deg=30.0, size=2.0, c=500.0, f=800.0):
    """A world file of an image rotated by angle_deg (counter-clockwise) with square pixels."""
    t = math.radians(angle_deg)
    a, d = size * math.cos(t), size * math.sin(t)
    b, e = size * math.sin(t), -size * math.cos(t)
    return [a, d, b, e, c, f]


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_reads_six_numbers_in_file_order(tmp_path):
    wf = read_world_file(write(tmp_path, "field.pgw", PLAIN))
    assert (wf.a, wf.d, wf.b, wf.e, wf.c, wf.f) == (0.5, 0.0, 0.0, -0.5, 1000.25, 2000.75)
    assert wf.as_lines() == [0.5, 0.0, 0.0, -0.5, 1000.25, 2000.75]


def test_known_coordinate_lands_on_expected_pixel(tmp_path):
    wf = read_world_file(write(tmp_path, "field.pgw", PLAIN))
    # Pixel (col 10, row 4) centre: x = 1000.25 + 10 * 0.5, y = 2000.75 - 4 * 0.5.
    assert wf.pixel_to_world(10, 4) == pytest.approx((1005.25, 1998.75))
    assert wf.world_to_pixel(1005.25, 1998.75) == pytest.approx((10.0, 4.0))
    # A point anywhere inside that pixel rounds to it.
    col, row = wf.world_to_pixel(1005.4, 1998.6)
    assert (round(col), round(row)) == (10, 4)


def test_centre_of_pixel_convention(tmp_path):
    wf = read_world_file(write(tmp_path, "field.wld", PLAIN))
    # C, F are the CENTRE of the top-left pixel ...
    assert wf.pixel_to_world(0, 0) == pytest.approx((wf.c, wf.f))
    # ... so the image's outer top-left corner is half a pixel up and left of it.
    corner = (wf.c - wf.a / 2, wf.f - wf.e / 2)
    assert corner == pytest.approx((1000.0, 2001.0))
    assert wf.pixel_to_world(-0.5, -0.5) == pytest.approx(corner)
    assert wf.corner_to_world(0, 0) == pytest.approx(corner)
    # A 4 x 2 image covers x 1000..1002 and y 2000..2001.
    assert wf.image_bounds(4, 2) == pytest.approx((1000.0, 1002.0, 2000.0, 2001.0))


def test_rotated_world_file(tmp_path):
    lines = rotated_lines()
    wf = read_world_file(write(tmp_path, "rot.jgw", "\n".join(map(repr, lines)) + "\n"))
    assert wf.b != 0 and wf.d != 0
    a, d, b, e, c, f = lines
    col, row = 7.0, 3.0
    expected = (a * col + b * row + c, d * col + e * row + f)
    assert wf.pixel_to_world(col, row) == pytest.approx(expected)
    # Stepping one column moves 2 m along the rotated x axis (30 degrees from east).
    x0, y0 = wf.pixel_to_world(0, 0)
    x1, y1 = wf.pixel_to_world(1, 0)
    assert math.degrees(math.atan2(y1 - y0, x1 - x0)) == pytest.approx(30.0)
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(2.0)
    assert wf.world_to_pixel(*expected) == pytest.approx((col, row))


def test_round_trip_vectorised():
    wf = WorldFile(*rotated_lines(-12.5, 0.37, 654321.0, 6543210.0))
    rng = np.random.default_rng(1)
    cols, rows = rng.uniform(-10, 5000, 200), rng.uniform(-10, 3000, 200)
    xs, ys = wf.pixel_to_world(cols, rows)
    assert isinstance(xs, np.ndarray) and xs.shape == (200,)
    back_c, back_r = wf.world_to_pixel(xs, ys)
    np.testing.assert_allclose(back_c, cols, atol=1e-6)
    np.testing.assert_allclose(back_r, rows, atol=1e-6)


def test_scalar_in_scalar_out():
    x, y = WorldFile(1, 0, 0, -1, 0, 0).pixel_to_world(1, 2)
    assert type(x) is float and type(y) is float


@pytest.mark.parametrize("text, message", [
    ("1\n0\n0\n-1\n5\n", "has 5"),
    ("1\n0\n0\n-1\n5\n6\n7\n", "has 7"),
    ("1\n0\nzero\n-1\n5\n6\n", "line 3 is not a number"),
    ("1\n2\n2\n4\n5\n6\n", "zero determinant"),
    ("0\n0\n0\n0\n5\n6\n", "zero determinant"),
    ("", "has 0"),
])
def test_bad_world_files_name_the_file(tmp_path, text, message):
    path = write(tmp_path, "broken.pgw", text)
    with pytest.raises(WorldFileError, match=message) as info:
        read_world_file(path)
    assert "broken.pgw" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_tolerates_blank_lines_crlf_and_bom(tmp_path):
    path = tmp_path / "x.wld"
    path.write_bytes(b"\xef\xbb\xbf0.5\r\n0\r\n0\r\n-0.5\r\n1000.25\r\n2000.75\r\n\r\n")
    assert read_world_file(path).c == 1000.25


@pytest.mark.parametrize("image, sidecars, expected", [
    ("foo.png", ["foo.pgw"], "foo.pgw"),
    ("foo.png", ["foo.pngw"], "foo.pngw"),
    ("foo.png", ["foo.wld"], "foo.wld"),
    ("foo.png", ["foo.wld", "foo.pgw"], "foo.pgw"),
    ("foo.jpg", ["foo.jgw"], "foo.jgw"),
    ("foo.jpg", ["foo.jpgw"], "foo.jpgw"),
    ("foo.jpg", ["foo.wld"], "foo.wld"),
    ("foo.tif", ["foo.tfw"], "foo.tfw"),
    ("foo.jpg", ["foo.pgw"], None),
    ("foo.png", [], None),
])
def test_world_file_for(tmp_path, image, sidecars, expected):
    (tmp_path / image).write_bytes(b"")
    for name in sidecars:
        write(tmp_path, name, PLAIN)
    found = world_file_for(tmp_path / image)
    if expected is None:
        assert found is None
    else:
        assert found.name.lower() == expected


def test_control_points_reproduce_the_world_file():
    wf = WorldFile(*rotated_lines(23.0, 0.8, 1234.5, 6789.0))
    pixels = [(0, 0), (400, 30), (120, 300)]
    worlds = [wf.pixel_to_world(c, r) for c, r in pixels]
    fitted = affine_from_control_points(pixels, worlds)
    np.testing.assert_allclose(fitted.as_lines(), wf.as_lines(), atol=1e-9)
    assert fitted.world_to_pixel(*wf.pixel_to_world(55, 66)) == pytest.approx((55, 66))


def test_control_points_least_squares_with_noise():
    wf = WorldFile(*rotated_lines(-40.0, 1.5, 0.0, 0.0))
    rng = np.random.default_rng(7)
    pixels = rng.uniform(0, 1000, size=(12, 2))
    xs, ys = wf.pixel_to_world(pixels[:, 0], pixels[:, 1])
    worlds = np.column_stack([xs, ys]) + rng.normal(0, 0.05, size=(12, 2))
    fitted = affine_from_control_points(pixels, worlds)
    # Within a few centimetres anywhere on the image.
    assert np.hypot(*np.subtract(fitted.pixel_to_world(500, 500), wf.pixel_to_world(500, 500))) < 0.1


@pytest.mark.parametrize("pixels, worlds", [
    ([(0, 0), (10, 10), (20, 20)], [(0, 0), (5, 1), (1, 7)]),   # pixels on a line
    ([(0, 0), (10, 0), (0, 10)], [(0, 0), (1, 1), (2, 2)]),     # world points on a line
    ([(3, 3), (3, 3), (3, 3)], [(0, 0), (5, 1), (1, 7)]),       # one point thrice
])
def test_collinear_control_points_refused(pixels, worlds):
    with pytest.raises(ValueError, match="one line"):
        affine_from_control_points(pixels, worlds)


def test_control_points_need_three_matching_pairs():
    with pytest.raises(ValueError, match="at least 3"):
        affine_from_control_points([(0, 0), (1, 0)], [(0, 0), (1, 0)])
    with pytest.raises(ValueError, match="matching"):
        affine_from_control_points([(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0)])


def test_geotransform_round_trip():
    wf = WorldFile(*rotated_lines())
    assert WorldFile.from_geotransform(wf.geotransform()) == pytest.approx(wf)
    x0, a, b, y0, d, e = wf.geotransform()
    assert wf.corner_to_world(0.0, 0.0) == pytest.approx((x0, y0))


def test_geo_imports_without_qt():
    code = ("import sys; sys.modules['PySide6'] = None; sys.modules['pyqtgraph'] = None\n"
            "import controlroom.geo.worldfile, controlroom.geo.source, controlroom.geo.frame, controlroom.geo.gis, "
            "controlroom.geo.calibrate, controlroom.geo.placement, controlroom.geo.mbtiles\n"
            "assert not any(m.startswith(('controlroom.store', 'controlroom.game', 'controlroom.ui', "
            "'controlroom.radio', 'controlroom.core')) for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)
