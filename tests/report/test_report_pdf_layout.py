"""The PDF ready to hand over (issue 20): in Estonian, no word split, at least 8 pt, no mostly-empty page,
the chart's axis in game time HH:MM, STOPPs placed by the field map's named features and grid."""

import csv
import re
from pathlib import Path

import pytest

from controlroom import i18n
from controlroom.cli import main
from controlroom.geo.places import Place, grid_for, nearest, read_places
from controlroom.report.field_map import place_text
from tests.support.pdf_inspect import page_streams, pdftotext, render_pages, text_sizes, used_share
from tests.support.replay_battle import store_battle
from tests.support.report_helpers import store_script

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def pdftotext_raw(path) -> str:
    """The PDF's text in the order it was drawn (a table cell's lines one after the other)."""
    import subprocess

    pdftotext(path)                     # (skips when poppler is missing)
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def speak():
    """Run the command line in a language; the environment's language again afterwards."""
    yield lambda code, argv: main(["--lang", code, *argv])
    i18n.choose(None)


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    """The two-scenario game and a 300-player battle on the demo field, as PDFs in English and Estonian."""
    folder = tmp_path_factory.mktemp("pdfs")
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_DATA_HOME", str(folder / "data"))
    try:
        store_script(folder / "lahing.crgame")
        store_battle(folder / "valja.crgame", players=300, n_events=4000, with_map=True)
        out = {}
        for code in ("en", "et"):
            for game in ("lahing", "valja"):
                target = folder / code
                assert main(["--lang", code, "report", "--db", str(folder / f"{game}.crgame"), "--out",
                             str(target), "--format", "pdf,csv", "--delimiter", ","]) == 0
                out[code, game] = next(target.glob(f"{'Lõuna-lahing' if game == 'lahing' else 'valja'}.pdf"))
    finally:
        i18n.choose(None)
        mp.undo()
    return out


def test_the_estonian_pdf_speaks_estonian_with_the_rulesets_terms(pdfs):
    pages = pdftotext(pdfs["et", "lahing"])
    text = "\n".join(pages)
    for heading in ("Kaotuste aruanne: Lõuna lahing", "Põhinäitajad", "Kokkuvõte poolte kaupa",
                    "Surmad mänguaja jooksul", "Mängu lõpus", "Kokkuvõte gruppide kaupa", "Ohutusaruanne",
                    "Piiramismasinate kaotused", "Valhalla nimekiri", "Tagastamata saak", "Parandused",
                    "Lisa: reeglihoiatused"):
        assert heading in text, heading
    for term in ("STOPP-hüüdeid 2, neist tühiseks loetud 1", "Hüüdja", "Tühine", "Teataja", "kogu väli",
                 "Tõnu Tamm (marssali", "käsiseade 8)", "ANDMATA", "hävitatud", "Mänguaeg", "vigastus"):
        assert term in text, term
    for english in ("Key figures", "Safety report", "Valhalla roster", "Casualty report", "Page 1 of",
                    "not reported", "the whole game", "Called by", "unpleasant", "injury"):
        assert english not in text, english
    for i, page in enumerate(pages, 1):
        assert f"Lehekülg {i}/{len(pages)}" in page and "Lõuna lahing · kogu mäng · 2026-05-" in page


@pytest.mark.parametrize("code, words", [
    ("en", ["unpleasant", "Trivial", "Players", "injury", "Reported", "Duration", "Healer", "touches",
            "Knock-outs", "Valhalla", "check-ins", "handset", "destroyed"]),
    ("et", ["ebameeldiv", "Tühine", "Mängijaid", "vigastus", "Teataja", "Kestus", "Ravipuudutused",
            "Uimastamised", "Valhalla", "kirjed", "käsiseade", "hävitatud", "Hüüdja"]),
])
def test_no_word_is_split_inside_a_table_cell(pdfs, code, words):
    """Each word of the tables stands whole on its line (the safety table split 'unpleasan t', 'Trivia l')."""
    for game in ("lahing", "valja"):
        text = "\n".join(pdftotext(pdfs[code, game]))
        tokens = set(re.findall(r"[\w-]+", text))
        for word in words:
            if game == "valja" and word in ("unpleasant", "destroyed", "hävitatud", "handset", "käsiseade",
                                            "injury", "ebameeldiv", "vigastus"):
                continue                                    # (not in that game)
            assert word in tokens, (code, game, word)
        # No cell ends in a piece of a word: no line part is one or two lowercase letters after a word cut.
        for line in text.splitlines():
            assert not re.search(r"\b(?:unpleasa|unpleasan|Trivia|Tühin|Mängija|ebameeldi)\b", line), line


@pytest.mark.parametrize("code", ["en", "et"])
def test_no_text_is_smaller_than_8_points(pdfs, code):
    for game in ("lahing", "valja"):
        streams = page_streams(pdfs[code, game])
        sizes = [s for stream in streams for s in text_sizes(stream)]
        assert len(streams) >= 2 and len(sizes) > 500
        assert min(sizes) >= 7.99, (game, sorted({round(s, 2) for s in sizes})[:5])


def test_the_font_size_reader_sees_small_text(tmp_path):
    """The check above can fail: a page with 6 pt text is read as 6 pt."""
    from PySide6.QtCore import QMarginsF, QPointF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from controlroom.report.pdf_listing import report_font

    path = tmp_path / "small.pdf"
    writer = QPdfWriter(str(path))
    writer.setResolution(300)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 12, 15, 12), QPageLayout.Unit.Millimeter))
    painter = QPainter(writer)
    painter.setFont(report_font(6))
    painter.drawText(QPointF(100, 100), "six points")
    painter.setFont(report_font(12))
    painter.drawText(QPointF(100, 300), "twelve points")
    painter.end()
    sizes = [round(s, 1) for stream in page_streams(path) for s in text_sizes(stream)]
    assert min(sizes) == pytest.approx(6.0, abs=0.15) and max(sizes) == pytest.approx(12.0, abs=0.15)


@pytest.mark.parametrize("code", ["en", "et"])
def test_no_page_but_the_last_is_mostly_empty(pdfs, tmp_path, code):
    for game in ("lahing", "valja"):
        pages = render_pages(pdfs[code, game], tmp_path / f"{code}-{game}")
        assert len(pages) >= 2
        shares = [used_share(p) for p in pages]
        assert all(s >= 0.5 for s in shares[:-1]), (game, [round(s, 2) for s in shares])


def test_a_section_heading_never_stands_alone_at_the_foot_of_a_page(pdfs):
    for key, pdf in pdfs.items():
        for page in pdftotext(pdf):
            body = [line.strip() for line in page.splitlines() if line.strip()][:-1]     # the footer left out
            last = body[-1] if body else ""
            assert last not in ("Summary per group", "Kokkuvõte gruppide kaupa", "Safety report", "Ohutusaruanne",
                                "Siege engine losses", "Piiramismasinate kaotused"), (key, last)


def test_the_deaths_chart_reads_game_time_in_hours_and_minutes(qapp):
    from controlroom.report.model import Report
    from controlroom.report.pdf import deaths_plot, hhmm, time_ticks

    assert hhmm(0) == "00:00" and hhmm(95) == "01:35" and hhmm(24 * 60 + 5) == "24:05"
    assert time_ticks(100) == [0, 15, 30, 45, 60, 75, 90, 105]
    assert time_ticks(7) == [0, 1, 2, 3, 4, 5, 6, 7]
    assert time_ticks(600) == [0, 120, 240, 360, 480, 600]
    report = Report("g", "r", "the whole game", None, [], None, None, 150 * 60_000, 0,
                    deaths_over_time=[(10 * 60_000, "Põhi"), (80 * 60_000, "Lõuna")])
    plot = deaths_plot(report)
    try:
        levels = plot.getPlotItem().getAxis("bottom")._tickLevels
        labels = [text for value, text in levels[0]]
        assert labels == ["00:00", "00:20", "00:40", "01:00", "01:20", "01:40", "02:00", "02:20", "02:40"]
        assert all(re.fullmatch(r"\d\d:\d\d", text) for text in labels)
        low, high = plot.getPlotItem().viewRange()[0]
        assert low < 0 and high > 160, "the first and last labels have room"
    finally:
        plot.close()


def test_a_map_grid_and_the_nearest_named_feature(qapp):
    grid = grid_for(1600, 1100, 1.0)            # the demo field: 1 m pixels
    assert (grid.step, grid.columns, grid.rows) == (200, 8, 6)
    assert grid.square(0, 0) == "A1" and grid.square(835, 594) == "E3" and grid.square(1600, 1100) == "H6"
    assert grid.square(-1, 5) is None
    assert grid_for(5000, 3000, 2.0).step == 1000 and grid_for(300, 200, 0.5).step == 20
    assert [grid.letter(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
    measured = grid_for(1600, 1100, 1.0024)          # the ground measured a little wider: no sliver of a ninth column
    assert (measured.columns, measured.rows) == (8, 6) and measured.square(1599, 1099) == "H6"
    places = [Place("Fort", 58.0, 26.0), Place("Ford", 58.001, 26.0)]
    place, metres, bearing = nearest(places, 58.0011, 26.0)                  # 11 m north of the ford
    assert place.name == "Ford" and 10 < metres < 12 and bearing == 0
    place, metres, bearing = nearest(places, 57.9995, 25.999)                # south-west of the fort
    assert place.name == "Fort" and bearing == 5
    assert place_text(places, None, None, 58.0011, 26.0) == "Ford"           # within 15 m: at it
    assert place_text(places, None, None, 57.999, 26.0) == "Fort, 110 m south"
    assert place_text([], None, None, 57.999, 26.0) == "" and place_text(places, None, None, None, None) == ""
    assert place_text(places, None, None, 57.97, 26.0) == ""                  # 3.3 km away: no feature named
    assert place_text(places, grid, None, 57.9965, 26.0) == "Fort, 390 m south"     # within two squares


def test_the_demo_fields_places_are_its_labelled_features():
    places = {p.name: p for p in read_places(DEMO / "field.places.geojson")}
    assert set(places) == {"Fort", "Ford", "Valhalla", "Forest"}
    assert all(58.37 < p.lat < 58.39 and 26.70 < p.lon < 26.74 for p in places.values())


def test_a_stopp_is_placed_by_the_field_maps_feature_and_grid_and_the_csv_keeps_coordinates(pdfs):
    """The battle's STOPP F1 is 90 m west of the ford in square E3 (1 m pixels, 200 m squares)."""
    for code, words in (("en", "Ford, 90 m west; square E3"), ("et", "Ford, 90 m läänes; ruut E3")):
        text = " ".join(pdftotext_raw(pdfs[code, "valja"]).split())
        assert words in text, code
        assert "58.37960" not in text, "the PDF gives no raw coordinates where the map has words"
    with open(pdfs["en", "valja"].with_name("valja-stopps.csv"), encoding="utf-8-sig", newline="") as f:
        rows = {r["stopp"]: r for r in csv.DictReader(f)}
    assert rows["F1"]["place"] == "Ford, 90 m west; square E3"
    assert float(rows["F1"]["lat"]) == pytest.approx(58.3796) and float(rows["F1"]["lon"]) == pytest.approx(26.7206)
    assert rows["F1"]["where"].startswith("58.37960, 26.72060")


def test_a_places_file_that_is_not_right_is_refused_with_what_is_wrong(tmp_path):
    from controlroom.geo.places import PlacesError

    cases = {
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, '
        '"geometry": {"type": "Point", "coordinates": [26.7, 58.3]}}]}': "feature 1 has no name",
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Mill"}, '
        '"geometry": "Point"}]}': "feature 1 has a geometry that is not an object",
        '{"type": "FeatureCollection", "crs": "EPSG:3301", "features": []}': "its points are in EPSG:3301",
        '{"type": "FeatureCollection", "features": {"a": 1}}': "its 'features' is not a list",
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Mill"}, '
        '"geometry": {"type": "Point", "coordinates": [659000, 6470000]}}]}': "not in WGS84 degrees",
        '{"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": "EPSG:3301"}}, '
        '"features": []}': "save the layer as WGS84",
        "[1, 2]": "not a GeoJSON FeatureCollection",
        "{": "not GeoJSON",
    }
    for text, message in cases.items():
        path = tmp_path / "x.places.geojson"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(PlacesError, match=re.escape(message)):
            read_places(path)


def test_lines_and_areas_of_a_places_layer_are_passed_over(tmp_path):
    """A QGIS layer with a road or a wood drawn beside its named points: the points are the places."""
    path = tmp_path / "x.places.geojson"
    path.write_text('{"type": "FeatureCollection", "features": ['
                    '{"type": "Feature", "properties": {"name": "Road"}, "geometry": {"type": "LineString", '
                    '"coordinates": [[26.7, 58.3], [26.8, 58.3]]}},'
                    '{"type": "Feature", "properties": {"name": "Mill"}, "geometry": {"type": "Point", '
                    '"coordinates": [26.7, 58.3]}}]}', encoding="utf-8")
    assert read_places(path) == [Place("Mill", 58.3, 26.7)]


def test_a_map_kept_without_readable_places_drops_the_last_maps_and_says_why(tmp_path, qtbot):
    """Keeping a map: its places file's problem comes back with the job (the window says it), and the places
    of a map kept before are not left to name this one's STOPPs."""
    from controlroom.core.jobs import Jobs
    from controlroom.geo.places import places_to_json
    from controlroom.store.game import GameStore
    from controlroom.store.maps import save_places, stored_places

    db = tmp_path / "g.crgame"
    with GameStore.open(db) as store:
        save_places(store, [Place("Old fort", 58.0, 26.0)])
    image = tmp_path / "field.png"
    image.write_bytes((DEMO / "field.png").read_bytes())
    (tmp_path / "field.places.geojson").write_text('{"type": "FeatureCollection", "crs": "EPSG:3301"}',
                                                   encoding="utf-8")
    jobs = Jobs(str(db))
    try:
        job = jobs.keep_map(image, "image", "", (1.0, 0.0, 0.0, -1.0, 0.0, 0.0), 100, 100)
        assert job.done.wait(20)
        how, kept = job.outcome
        assert how == "finished", kept
        assert kept.name == "field.png" and kept.places == 0 and "EPSG:3301" in kept.problem
        with GameStore.open(db, create=False) as store:
            assert stored_places(store) == []
        assert places_to_json([]) == "[]"
    finally:
        assert jobs.shutdown()
