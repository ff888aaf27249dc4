"""The propagation model: itmlogic's reference case, free space, a ridge's shadow, DEMs in any coordinate system."""

import math

import numpy as np
import pytest

from controlroom.geo.coverage_plan import make_plan
from controlroom.geo.dem import DemError, read_dem
from controlroom.geo.frame import MapFrame
from controlroom.geo.propagation import (
    SF_FLOOR_DB,
    Gateway,
    RadioModel,
    free_space_db,
    itm_loss,
    margin_db,
    noise_floor_dbm,
    parse_gateway,
)
from controlroom.geo.tmerc import LocalTM
from tests.support.coverage_helpers import EAST, ORIGIN, RIDGE_X, WEST, frame, latlon, ridge_dem

# The ITM's own test case (qkpfl.for, "Crystal Palace to Mursley", Hufford's and Stark's 1967 path), as
# itmlogic's tests/test_p2p.py run it: 157 heights over 77.8 km, 41.5 MHz, antennas 143.9 m and 8.5 m,
# horizontal polarization, average ground, continental temperate climate, N0 = 314.
MURSLEY = [
    96, 84, 65, 46, 46, 46, 61, 41, 33, 27, 23, 19, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 17, 19, 21, 23,
    25, 27, 29, 35, 46, 41, 35, 30, 33, 35, 37, 40, 35, 30, 51, 62, 76, 46, 46, 46, 46, 46, 46, 50, 56, 67, 106, 83,
    95, 112, 137, 137, 76, 103, 122, 122, 83, 71, 61, 64, 67, 71, 74, 77, 79, 86, 91, 83, 76, 68, 63, 76, 107, 107,
    107, 119, 127, 133, 135, 137, 142, 148, 152, 152, 107, 137, 104, 91, 99, 120, 152, 152, 137, 168, 168, 122, 137,
    137, 170, 183, 183, 187, 194, 201, 192, 152, 152, 166, 177, 198, 156, 127, 116, 107, 104, 101, 98, 95, 103, 91,
    97, 102, 107, 107, 107, 103, 98, 94, 91, 105, 122, 122, 122, 122, 122, 137, 137, 137, 137, 137, 137, 137, 137,
    140, 144, 147, 150, 152, 159,
]
# Basic transmission loss (dB) by (reliability %, confidence %): the values itmlogic's test asserts, the
# Fortran program's published 128.6 / 137.6 / 119.6 and 139.7 / 148.4 / 131.0.
MURSLEY_LOSS = {(1, 50): 128.5969039310673, (1, 90): 137.64279211442656, (1, 10): 119.55101574770802,
                (99, 50): 139.74127375512774, (99, 90): 148.4389165313392, (99, 10): 131.04363097891627}


@pytest.mark.parametrize(("reliability", "confidence"), sorted(MURSLEY_LOSS))
def test_the_itm_reference_path_is_reproduced(reliability, confidence):
    loss, kwx = itm_loss(MURSLEY, 77_800.0, 41.5, (143.9, 8.5), eps=15, sgm=0.005, klim=5, ens0=314, ipol=0,
                         reliability=reliability, confidence=confidence)
    assert loss == pytest.approx(MURSLEY_LOSS[(reliability, confidence)], abs=1e-6)
    assert kwx == 0


def test_free_space_link_budget_and_the_floors():
    assert float(free_space_db(1000.0, 868.1)) == pytest.approx(91.21, abs=0.01)
    assert float(free_space_db(2000.0)) - float(free_space_db(1000.0)) == pytest.approx(6.02, abs=0.01)
    assert noise_floor_dbm() == pytest.approx(-117.03, abs=0.01)
    assert SF_FLOOR_DB[7] == -7.5 and SF_FLOOR_DB[12] == -20.0
    assert float(margin_db(-10.0, 9)) == pytest.approx(2.5)
    model = RadioModel(sf=9, tx_dbm=14, clutter_db=10)
    gw = Gateway(*latlon(0, 0), 6)
    lat, lon = latlon(1000, 0)
    # 14 dBm - (91.2 + 10) dB = -87.2 dBm; over the -117.0 dBm noise: 29.8 dB SNR; over SF9's -12.5: 42.3 dB.
    assert float(model.rssi(gw, lat, lon)[0]) == pytest.approx(-87.21, abs=0.05)
    assert float(model.margin(gw, lat, lon)[0]) == pytest.approx(42.3, abs=0.1)
    assert "NO TERRAIN MODEL" in model.describe()


def test_a_ridge_casts_a_shadow_that_free_space_does_not(tmp_path):
    dem = read_dem(ridge_dem(tmp_path / "ridge.tif"))
    west = Gateway(*latlon(*WEST), 6)
    lats, lons = zip(*(latlon(x, 0.0) for x in (-250.0, RIDGE_X + 150.0, RIDGE_X + 450.0)))
    terrain = RadioModel(sf=7, tx_dbm=0, dem=dem).margin(west, lats, lons)
    flat = RadioModel(sf=7, tx_dbm=0).margin(west, lats, lons)
    assert terrain[0] > 10 and flat.min() > 10                   # in the open both hear well
    assert terrain[1] < -10 and terrain[2] < -10                 # behind the ridge: not heard
    assert flat[1] - terrain[1] > 30                             # the ridge costs more than 30 dB there
    assert "Longley-Rice" in RadioModel(dem=dem).describe()


def test_the_plan_puts_the_shadow_behind_the_ridge_for_one_gateway_and_not_for_the_other(tmp_path):
    dem = read_dem(ridge_dem(tmp_path / "ridge.tif"))
    f = frame()
    plan = make_plan(f, (-700, 400, 700, -400), [Gateway(*latlon(*WEST), 6), Gateway(*latlon(*EAST), 6)],
                     RadioModel(sf=7, tx_dbm=0, dem=dem), 50)
    xs, _ys = plan.centres()
    east_of_ridge, west_of_ridge = xs > RIDGE_X + 100, xs < RIDGE_X - 100
    assert (plan.margins[0][east_of_ridge] < 0).mean() > 0.9 and (plan.margins[0][west_of_ridge] >= 0).mean() > 0.9
    assert (plan.margins[1][west_of_ridge] < 0).mean() > 0.9 and (plan.margins[1][east_of_ridge] >= 0).mean() > 0.9
    assert plan.covered_share() > 0.95                   # together they hear nearly everything
    alone = make_plan(f, (-700, 400, 700, -400), [Gateway(*latlon(*WEST), 6)], RadioModel(sf=7, tx_dbm=0, dem=dem),
                      50)
    lat, lon, _gain = alone.suggestion()
    x, _y = f.to_local(lat, lon)
    assert x > RIDGE_X                                   # one more gateway helps most behind the ridge


def test_a_dem_in_another_coordinate_system_gives_the_same_heights(tmp_path):
    estonian = read_dem(ridge_dem(tmp_path / "lest97.tif", epsg=3301))
    utm = read_dem(ridge_dem(tmp_path / "utm.tif", epsg=32635))
    degrees_lats, degrees_lons = zip(*(latlon(x, y) for x in (-600, 0, RIDGE_X, 400) for y in (-300, 0, 250)))
    a, b = estonian.sample(degrees_lats, degrees_lons), utm.sample(degrees_lats, degrees_lons)
    assert np.allclose(a, b, atol=0.5) and a.max() > 85          # the ridge's top is found in both
    assert estonian.crs.to_epsg() == 3301 and utm.crs.to_epsg() == 32635


def test_a_dem_that_does_not_cover_the_field_or_cannot_be_read_says_so(tmp_path):
    small = read_dem(ridge_dem(tmp_path / "small.tif", half=200.0))
    far = latlon(600, 0)
    with pytest.raises(DemError, match="does not cover the field"):
        small.check_covers([ORIGIN[0], far[0]], [ORIGIN[1], far[1]], "the field")
    broken = tmp_path / "broken.tif"
    broken.write_bytes(ridge_dem(tmp_path / "whole.tif").read_bytes()[:3000])
    with pytest.raises(DemError, match="broken.tif"):
        read_dem(broken)
    with pytest.raises(DemError, match="no such file"):
        read_dem(tmp_path / "missing.tif")


def test_a_gateway_is_three_numbers_in_order():
    assert parse_gateway("58.3801, 26.7203, 6") == Gateway(58.3801, 26.7203, 6.0)
    for bad, words in (("58.38", "LAT,LON,HEIGHT_M"), ("north,26.7,6", "three numbers"), ("95,26,6", "latitude"),
                       ("58.38,26.72,900", "height")):
        with pytest.raises(ValueError, match=words):
            parse_gateway(bad)


def test_the_plain_python_projection_is_the_frames_own():
    f, tm = MapFrame(58.38, 26.72), LocalTM(58.38, 26.72)
    rng = np.random.default_rng(4)
    for lat, lon in zip(58.38 + rng.uniform(-0.05, 0.05, 200), 26.72 + rng.uniform(-0.1, 0.1, 200)):
        x, y = f.to_local(lat, lon)
        a, b = tm.forward(lat, lon)
        assert math.hypot(x - a, y - b) < 1e-4
        back = tm.inverse(a, b)
        assert back == pytest.approx((lat, lon), abs=1e-9)
