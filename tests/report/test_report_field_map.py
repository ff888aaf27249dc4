"""The report's map page (issue 19): each side's deaths and falls on the game's field map."""

import shutil
import subprocess

import pytest
from PySide6.QtGui import QColor, QImage

from controlroom.cli import main
from controlroom.report.field_map import field_map
from controlroom.report.gis import load_gis
from controlroom.report.pdf import SIDE_COLOURS
from controlroom.store.game import GameStore
from tests.support.pdf_inspect import pdftotext
from tests.support.replay_battle import store_battle


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))       # where the game's map file is written
    return tmp_path / "data"


def test_the_casualties_of_each_side_are_placed_on_the_map(tmp_path, data_home):
    game = store_battle(tmp_path / "mapped.crgame", players=150, n_events=2000, with_map=True)
    with GameStore.open(game, create=False, read_only=True) as store:
        fm = field_map(store)
        layers = load_gis(store)
    assert fm is not None and fm.name == "field.png" and (fm.width, fm.height) == (1600, 1100)
    assert set(fm.sides) == {"East", "North", "South"}
    placed = [p for p in layers.places if p.kind == "casualty" and p.properties["counted"]
              and p.properties["event"] in ("died", "permanent_kill", "down", "knocked_out")]
    assert sum(len(points) for points in fm.sides.values()) + fm.outside == len(placed)
    assert fm.outside == 0             # the battle is on the demo field
    deaths = {side: sum(1 for p in placed if p.properties["side"] == side and p.properties["event"] in
                        ("died", "permanent_kill")) for side in fm.sides}
    assert deaths == {side: sum(1 for p in pts if p[2] == "death") for side, pts in fm.sides.items()}
    assert all(0 <= c <= fm.width and 0 <= r <= fm.height for pts in fm.sides.values() for c, r, _k in pts)


def test_the_pdf_has_the_map_page_and_a_game_without_a_map_has_none(tmp_path, data_home, capsys):
    game = store_battle(tmp_path / "mapped.crgame", players=150, n_events=2000, with_map=True)
    plain = store_battle(tmp_path / "plain.crgame", players=150, n_events=2000)
    assert main(["report", "--db", str(game), "--out", str(tmp_path / "out"), "--format", "pdf"]) == 0
    assert main(["report", "--db", str(plain), "--out", str(tmp_path / "plain"), "--format", "pdf"]) == 0
    capsys.readouterr()
    pdf = next((tmp_path / "out").glob("*.pdf"))
    pages = pdftotext(pdf)
    with GameStore.open(game, create=False, read_only=True) as store:
        fm = field_map(store)
    page = next(i for i, text in enumerate(pages) if "Casualties on the field map" in text)
    for side, points in fm.sides.items():
        deaths = sum(1 for p in points if p[2] == "death")
        assert f"{side}: {deaths} deaths, {len(points) - deaths} falls placed" in pages[page]
    plain = pdftotext(next((tmp_path / "plain").glob("*.pdf")))
    assert not any("Casualties on the field map" in text for text in plain)
    # The page drawn: the map's own colours, and each side's markers in its colour.
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (Debian's poppler-utils) is not installed")
    png = tmp_path / "page"
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", str(page + 1), "-l", str(page + 1), str(pdf), str(png)],
                   check=True, capture_output=True)
    image = QImage(str(next(tmp_path.glob("page*.png"))))
    assert not image.isNull()
    colours = [QColor(image.pixel(x, y)) for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)]

    def near(target: str) -> int:
        t = QColor(target)
        return sum(1 for c in colours
                   if abs(c.red() - t.red()) + abs(c.green() - t.green()) + abs(c.blue() - t.blue()) < 60)

    for i, side in enumerate(fm.sides):
        assert near(SIDE_COLOURS[i]) > 10, f"{side}'s markers are not on the page"
    distinct = {(c.red() // 16, c.green() // 16, c.blue() // 16) for c in colours}
    assert len(distinct) > 40, "the map image is not on the page"
