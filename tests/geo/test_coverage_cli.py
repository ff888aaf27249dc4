"""``controlroom coverage plan`` as the organiser runs it: the files it writes, and every bad input refused in words."""

import subprocess
import sys

import numpy as np
import pytest
import tifffile

from controlroom.geo.geotiff import read_geotiff
from controlroom.geo.worldfile import read_world_file
from tests.support.coverage_helpers import EAST, RIDGE_X, WEST, field_map, gateway_arg, ridge_dem


def cli(*args):
    return subprocess.run([sys.executable, "-m", "controlroom", "coverage", "plan", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def field(tmp_path_factory):
    d = tmp_path_factory.mktemp("field")
    return d, field_map(d / "field.png"), ridge_dem(d / "ridge.tif", epsg=3301)


def test_a_plan_over_a_dem_in_another_coordinate_system_as_a_geotiff(field):
    d, map_png, dem = field
    out = d / "plan.tif"
    done = cli("--map", map_png, "--dem", dem, "--gateway", gateway_arg(WEST), "--gateway", gateway_arg(EAST),
               "--sf", 7, "--tx-dbm", 0, "--cell", 50, "--out", out)
    assert done.returncode == 0, done.stderr
    assert "Longley-Rice" in done.stdout and "ridge.tif" in done.stdout and "gateway 2" in done.stdout
    bands = tifffile.imread(out)
    assert bands.shape[0] == 3                                       # the best, then each gateway
    assert np.allclose(bands[0], np.maximum(bands[1], bands[2]))
    info = read_geotiff(out)
    x0, _w, _r, _y0, _s, _h = info.world.geotransform()
    cols = (x0 + (np.arange(bands.shape[2]) + 0.5) * 50.0)          # frame metres east of the map's centre
    behind = cols > RIDGE_X + 150
    assert (bands[1][:, behind] < 0).mean() > 0.9 and (bands[2][:, behind] >= 0).mean() > 0.9


def test_without_a_dem_it_says_it_is_free_space_and_writes_a_placed_png(field):
    d, map_png, _dem = field
    out = d / "plan.png"
    done = cli("--map", map_png, "--gateway", gateway_arg(WEST), "--out", out)
    assert done.returncode == 0, done.stderr
    assert "NO TERRAIN MODEL" in done.stdout
    assert out.is_file() and (d / "plan.prj").is_file()
    assert read_world_file(d / "plan.pgw").pixel_size == (25.0, 25.0)


def test_bad_input_is_refused_in_words_with_exit_1(field, tmp_path):
    d, map_png, dem = field
    small = ridge_dem(tmp_path / "small.tif", half=300.0)
    broken = tmp_path / "broken.tif"
    broken.write_bytes(dem.read_bytes()[:5000])
    here = gateway_arg(WEST)
    cases = [
        (("--dem", small, "--gateway", here), "does not cover the map"),
        (("--dem", broken, "--gateway", here), "broken.tif"),
        (("--gateway", "59.5,26.72,6"), "gateway 1 (59.50000, 26.72000) is outside the map"),
        (("--gateway", "26.72,58.38,6"), "outside the map"),
        (("--gateway", "58.38,26.72"), None),                           # two numbers: 2 m high, accepted
        (("--gateway", "58.38,26.72,2000"), "height"),
    ]
    for args, words in cases:
        done = cli("--map", map_png, *args, "--out", tmp_path / "x.tif")
        if words is None:
            assert done.returncode == 0, done.stderr
            continue
        assert done.returncode == 1, (args, done.stdout)
        assert done.stderr.startswith("controlroom: ") and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    done = cli("--map", map_png, "--gateway", here, "--out", tmp_path / "plan.kml")
    assert done.returncode == 1 and ".tif or .png" in done.stderr
    done = cli("--map", tmp_path / "nothing.png", "--gateway", here, "--out", tmp_path / "x.tif")
    assert done.returncode == 1 and "no such file" in done.stderr
    done = cli("--map", map_png, "--out", tmp_path / "x.tif")
    assert done.returncode == 2                                        # no --gateway: a usage error


def export(*args):
    return subprocess.run([sys.executable, "-m", "controlroom", "export", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def test_export_format_coverage_writes_the_logs_cells_and_says_what_is_wrong(tmp_path):
    from controlroom.game.devices import RadioMeta
    from controlroom.game.events import make_event
    from controlroom.game.roster import Member
    from controlroom.store.devices import register_device
    from controlroom.store.game import GameStore

    game = tmp_path / "radio.crgame"
    with GameStore.open(game) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves")])
        register_device(store, 31, "tracker", "T31")
        store.log.append([(make_event(1000 * i, "position", "tracker:31", device=31, lat=58.38 + 4e-4 * i, lon=26.72),
                           RadioMeta(31, 10 + i, -95.0, 2.0, ("1",), None, "1:-95:2")) for i in range(5)])
    done = export("--db", game, "--format", "coverage", "--out", tmp_path / "cells.geojson", "--sf", 7)
    assert done.returncode == 0, done.stderr
    assert "5 cells of radio coverage from 5 frames" in done.stdout
    import json

    features = json.loads((tmp_path / "cells.geojson").read_text())["features"]
    assert len(features) == 5 and {f["properties"]["margin_db"] for f in features} == {9.5}     # 2 dB over -7.5
    done = export("--db", game, "--format", "coverage", "--out", tmp_path / "cells.tif")
    assert done.returncode == 0 and tifffile.imread(tmp_path / "cells.tif").shape[0] == 5
    for args, words in ((("--out", tmp_path / "cells.kml"), ".geojson or .tif"),
                        (("--out", tmp_path / "x.geojson", "--scenario", "Fort"), "--scenario is not for")):
        done = export("--db", game, "--format", "coverage", *args)
        assert done.returncode == 1 and done.stderr.startswith("controlroom: ") and words in done.stderr
    quiet = tmp_path / "quiet.crgame"
    with GameStore.open(quiet) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves")])
    done = export("--db", quiet, "--format", "coverage", "--out", tmp_path / "none.geojson")
    assert done.returncode == 1 and "no coverage to write" in done.stderr
