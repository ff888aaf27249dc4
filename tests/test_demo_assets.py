"""The bundled demo assets of ``controlroom demo`` (resources/demo/): roster, field map, world file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from controlroom.rules.profile import default_profile
from controlroom.store.roster_csv import read_roster_csv

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


def test_world_file_is_a_north_up_metre_grid(world, meta):
    a, d, b, e, c, f = world
    size = meta["pixel_size_m"]
    assert (a, d, b, e) == (size, 0.0, 0.0, -size) == (1.0, 0.0, 0.0, -1.0)
    w, h = meta["width_px"], meta["height_px"]
    # pixel (0, 0) has its centre at (C, F); the image's outer edges are half a pixel further out
    left, top = c - a / 2, f - e / 2
    right, bottom = left + w * a, top + h * e
    assert (left, right, bottom, top) == pytest.approx((-w / 2, w / 2, -h / 2, h / 2))
    assert (left, right, bottom, top) == pytest.approx((-800, 800, -550, 550), abs=100)
    # the image's centre is the origin (lat/lon of field.json)
    cx, cy = c + a * (w - 1) / 2, f + e * (h - 1) / 2
    assert (cx, cy) == pytest.approx((0.0, 0.0), abs=1.0)
    assert meta["projection"] == "local-metres"
    assert (meta["origin_lat"], meta["origin_lon"]) == (58.38, 26.72)


def test_places_are_on_the_image(world, meta):
    a, _, _, e, c, f = world
    w, h = meta["width_px"], meta["height_px"]
    assert set(meta["places"]) >= {"fort", "ford", "valhalla", "forest"}
    for name, (x, y) in meta["places"].items():
        col, row = (x - c) / a, (y - f) / e
        assert 0 <= col <= w - 1 and 0 <= row <= h - 1, name
    battle = meta["battle_area_m"]
    vx, vy = meta["places"]["valhalla"]
    assert not (battle["x_min"] <= vx <= battle["x_max"] and battle["y_min"] <= vy <= battle["y_max"])


def test_field_png_loads_at_the_documented_size(meta):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication, QImage

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841
    path = DEMO / "field.png"
    assert path.stat().st_size < 1_600_000
    img = QImage(str(path))
    assert not img.isNull()
    assert (img.width(), img.height()) == (meta["width_px"], meta["height_px"]) == (1600, 1100)
