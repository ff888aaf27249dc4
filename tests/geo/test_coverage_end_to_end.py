"""End to end: a simulated battle over a ridge, through a headless station; the observed coverage against the plan.

The simulator hears by the plan's model over the ridge's DEM (in L-EST97: the
station never sees it, the plan reprojects it), two gateways on either side of
the ridge; the station stores what it hears; the plan is made by ``controlroom
coverage plan``.  In the cells frames came from, each gateway either heard
them (half of them or more) or not, and the plan says whether it can: the two
agree in at least 80 % of them, and the ridge's shadow is where both put it.
"""

import signal
import subprocess
import sys

import numpy as np
import tifffile
from pyproj import Transformer

from controlroom.geo.coverage_cells import Cells
from controlroom.geo.geotiff import read_geotiff
from controlroom.store.coverage_log import coverage_rows
from controlroom.store.game import GameStore
from tests.support.coverage_helpers import EAST, RIDGE_X, WEST, field_map, frame, gateway_arg, ridge_dem

RADIO = ("--sf", "7", "--tx-dbm", "0", "--clutter-db", "10")


def _cli(*args):
    return [sys.executable, "-m", "controlroom", *map(str, args)]


def _battle(tmp_path, dem):
    game = tmp_path / "ridge.crgame"
    sim = subprocess.Popen(
        _cli("sim", "--pty", "--db", game, "--gateways", 2, "--groups", 12, "--players", 120, "--seed", 11,
             "--speed", 120, "--duration", 30, "--loss", 0, "--corrupt-rate", 0, "--gateway", gateway_arg(WEST),
             "--gateway", gateway_arg(EAST), "--dem", dem, *RADIO, "--quiet"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    station = None
    try:
        ports = sim.stdout.readline().split()
        assert len(ports) == 2, sim.stderr.read()
        station = subprocess.Popen(_cli("headless", "--db", game, "--speed", 120, "--quiet",
                                        *[a for p in ports for a in ("--port", p)]),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _out, err = sim.communicate(timeout=300)
        assert sim.returncode == 0, err
        station.send_signal(signal.SIGTERM)
        _out, err = station.communicate(timeout=60)
        assert station.returncode == 0, err
    finally:
        for proc in (sim, station):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    return game


def _plan_at(path, lats, lons):
    """Each band of the plan's GeoTIFF at GPS positions (nearest cell)."""
    bands = tifffile.imread(path)
    info = read_geotiff(path)
    x, y = Transformer.from_crs(4326, info.crs, always_xy=True).transform(lons, lats)
    col, row = info.world.world_to_pixel(np.asarray(x), np.asarray(y))
    col, row = np.rint(col).astype(int), np.rint(row).astype(int)
    inside = (col >= 0) & (col < bands.shape[2]) & (row >= 0) & (row < bands.shape[1])
    out = np.full((bands.shape[0], len(lats)), np.nan)
    out[:, inside] = bands[:, row[inside], col[inside]]
    return out


def test_the_observed_layer_shows_the_shadow_where_the_plan_predicts_it(tmp_path):
    dem = ridge_dem(tmp_path / "ridge.tif", epsg=3301)
    game = _battle(tmp_path, dem)
    plan_file = tmp_path / "plan.tif"
    done = subprocess.run(_cli("coverage", "plan", "--map", field_map(tmp_path / "field.png"), "--dem", dem,
                               "--gateway", gateway_arg(WEST), "--gateway", gateway_arg(EAST), *RADIO,
                               "--out", plan_file), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with GameStore.open(game, create=False, read_only=True) as store:
        cells = Cells.of(coverage_rows(store))
    assert cells.gateways == ("1", "2") or cells.gateways == ("2", "1")
    best = cells.view(sf=7)
    assert len(cells) > 100 and best.frames.sum() > 300
    lats, lons = cells.centres(best)
    plan = _plan_at(plan_file, lats, lons)
    east, _north = frame().to_local(lats, lons)
    agree = total = 0
    for band, name in ((1, "1"), (2, "2")):
        view = cells.view(sf=7, gateway=name)
        heard = view.heard / view.frames >= 0.5
        predicted = plan[band] >= 0
        known = np.isfinite(plan[band])
        agree += int((heard == predicted)[known].sum())
        total += int(known.sum())
        # The shadow is seen: behind the ridge from this gateway, frames sent there were not heard by it.
        behind = (east > RIDGE_X + 100) if name == "1" else (east < RIDGE_X - 100)
        assert (~heard[behind & known]).sum() >= 20 and (~predicted[behind & known]).mean() > 0.9
    assert total > 200 and agree / total >= 0.8, f"{agree} of {total} cells agree"
