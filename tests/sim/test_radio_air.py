"""The simulator's air by the plan's model: a frame from behind a ridge is not heard there, nor is an ack; bad input."""

import random
import subprocess
import sys

import pytest

from controlroom.geo.dem import read_dem
from controlroom.geo.propagation import RadioModel, parse_gateway
from controlroom.sim.battle import ORIGIN
from controlroom.sim.radio_air import AirModel, ring_gateways
from controlroom.sim.simulator import GATEWAY_RADIUS, Simulator
from tests.support.coverage_helpers import EAST, RIDGE_X, WEST, gateway_arg, ridge_dem


def test_who_hears_a_frame_and_whose_ack_arrives_follow_the_terrain(tmp_path):
    dem = read_dem(ridge_dem(tmp_path / "ridge.tif"))
    air = AirModel.make(RadioModel(sf=7, tx_dbm=0, dem=dem), [parse_gateway(gateway_arg(WEST)),
                                                              parse_gateway(gateway_arg(EAST))], ORIGIN, 4.0)
    rng = random.Random(3)
    west_side, east_side = (-300.0, 50.0), (RIDGE_X + 300.0, -50.0)    # battle metres east, north of the origin
    heard_west = [air.hear(west_side, rng) for _ in range(200)]
    heard_east = [air.hear(east_side, rng) for _ in range(200)]
    assert all({g for g, _r, _s in h} == {0} for h in heard_west)       # only the west gateway, always
    assert all({g for g, _r, _s in h} == {1} for h in heard_east)
    assert all(-137 <= r <= -30 and -7.5 <= s <= 12.5 for h in heard_west for _g, r, s in h)
    assert sum(air.reaches(0, west_side, rng) for _ in range(100)) == 100
    assert sum(air.reaches(0, east_side, rng) for _ in range(100)) == 0
    assert "Longley-Rice" in air.describe() and air.sf == 7


def test_without_a_dem_the_air_is_free_space_around_the_ring():
    gateways = ring_gateways(3, GATEWAY_RADIUS)
    air = AirModel.make(RadioModel(), gateways, ORIGIN)
    rng = random.Random(1)
    assert {g for g, _r, _s in air.hear((0.0, 0.0), rng)} == {0, 1, 2}
    assert len(gateways) == 3 and "NO TERRAIN MODEL" in air.describe()
    with pytest.raises(ValueError, match="places 3 gateways, but there are 2 ports"):
        Simulator(battle=None, ports=[object(), object()], air=air)


def test_the_sim_command_refuses_bad_propagation_input(tmp_path):
    small = ridge_dem(tmp_path / "small.tif", half=300.0)

    def sim(*args):
        return subprocess.run([sys.executable, "-m", "controlroom", "sim", "--pty", "--gateways", "2", "--duration",
                               "1", "--quiet", *map(str, args)], capture_output=True, text=True, timeout=120)

    done = sim("--gateway", gateway_arg(WEST))
    assert done.returncode == 1 and "1 --gateway for 2 gateways" in done.stderr
    done = sim("--dem", small)
    assert done.returncode == 1 and "does not cover the simulated field" in done.stderr
    done = sim("--gateway", "58.38,26.72,6", "--gateway", "58.38,north,6")
    assert done.returncode == 1 and "three numbers" in done.stderr
