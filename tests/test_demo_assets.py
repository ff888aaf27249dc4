"""The bundled demo assets of ``controlroom demo`` (resources/demo/): roster, field map, world file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from controlroom.game.roster_csv import read_roster_csv
from controlroom.rules.profile import default_profile

DEMO = Path(__file__).resolve().parent.parent / "resources" / "demo"


@pytest.fixture(scope="module")
def meta() -> dict:
    return json.loads((DEMO / "field.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def world() -> list[float]:
    lines = [s for s in (DEMO / "field.pgw").read_text(encoding="ascii").splitlines() if s.strip()]
    assert len(lines) == 6
    return [float(s) for s in lines]


def test_roster_imports_cleanly():
    members = read_roster_csv(DEMO / "roster.csv", default_profile())   # raises on any problem
    assert 280 <= len(members) <= 320
    assert len({m.badge for m in members}) == len(members)
    assert len({m.group for m in members}) == 12
    assert {m.side for m in members} == {"Northmen", "Ravens", "Free Cities"}
    groups_per_side = {}
    for m in members:
        groups_per_side.setdefault(m.side, set()).add(m.group)
    assert all(len(g) == 4 for g in groups_per_side.values())
    assert any(m.cls == "healer" for m in members)
    assert any(ch in m.name for m in members for ch in "ÕÄÖÜõäöü")


def _pixel_of_metres(x: float, y: float, meta) -> tuple[float, float]:
    """Where the field's metres (as the simulator places them on the ground) fall on the map, by its georeference."""
    from controlroom.geo.source import open_map
    from controlroom.sim.battle import to_latlon_e7

    lat, lon = to_latlon_e7((meta["origin_lat"], meta["origin_lon"]), x, y)
    return open_map(DEMO / "field.png").locate(lat / 1e7, lon / 1e7)


def test_georeference_is_degrees_named_by_prj_and_aux_xml(world, meta):
    from controlroom.geo.source import open_map

    a, d, b, e, c, f = world
    assert d == b == 0.0 and a > 0 > e and 26.70 < c < 26.72 and 58.38 < f < 58.39     # longitude, latitude
    source = open_map(DEMO / "field.png")
    assert source.crs.to_epsg() == 4326 and (source.width, source.height) == (1600, 1100)
    assert source.crs_from == "field.png.aux.xml" and (DEMO / "field.prj").is_file()
    assert source.centre() == pytest.approx((meta["origin_lat"], meta["origin_lon"]), abs=1e-9)
    gw, gh = source.ground_size()
    assert gw == pytest.approx(1600, rel=0.005) and gh == pytest.approx(1100, rel=0.005)    # about 1 m a pixel
    assert meta["projection"] == "simulator-metres"


def test_places_are_on_the_image(world, meta):
    w, h = meta["width_px"], meta["height_px"]
    assert set(meta["places"]) >= {"fort", "ford", "valhalla", "forest"}
    for name, (x, y) in meta["places"].items():
        col, row = _pixel_of_metres(x, y, meta)
        # Drawn at pixel centre C + col, F - row: the georeference puts the simulator's position there exactly.
        assert (col, row) == pytest.approx((x + 800, 550 - y), abs=0.01), name
        assert 0 <= col <= w and 0 <= row <= h, name
    battle = meta["battle_area_m"]
    vx, vy = meta["places"]["valhalla"]
    assert not (battle["x_min"] <= vx <= battle["x_max"] and battle["y_min"] <= vy <= battle["y_max"])


def test_field_png_loads_at_the_documented_size(meta):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication, QImage

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 - kept alive: QImage needs it
    path = DEMO / "field.png"
    assert path.stat().st_size < 1_600_000
    img = QImage(str(path))
    assert not img.isNull()
    assert (img.width(), img.height()) == (meta["width_px"], meta["height_px"]) == (1600, 1100)
