"""The coverage fold and its cells: where frames came from, who heard them, retries and gaps; written for GIS."""

import json
import shutil
import subprocess

import numpy as np
import pytest
import tifffile

from controlroom.game.devices import VIA_MESH_PKI, RadioMeta
from controlroom.geo.coverage import CELL_M, FRAME, HEARD, HOLD_MS, MISSED, RETRIED, CoverageFold
from controlroom.geo.coverage_cells import Cells, margin_rgba
from controlroom.geo.coverage_files import write_cells
from controlroom.geo.geotiff import read_geotiff

LAT, LON = 58.3812, 26.7234


def meta(counter, signals="1:-90:5", device=7, via=None):
    return RadioMeta(device, counter, -90.0, 5.0, tuple(p.split(":")[0] for p in signals.split(",")), via, signals)


def fold_of(*events):
    fold = CoverageFold()
    for e in events:
        fold.add(*e)
    return fold


def test_a_position_frame_places_itself_and_the_frames_after_it_for_two_minutes():
    fold = fold_of((0, "tracker:7", "position", {"lat": LAT, "lon": LON}, meta(1, "1:-90:5,2:-101.5:-8.25")),
                   (110_000, "tracker:7", "heartbeat", {}, meta(2, "2:-99:-7")),
                   (130_000, "tracker:7", "heartbeat", {}, meta(3)))      # 130 s after its position: not placed
    rows = fold.take()
    assert rows.anchor == (58.38, 26.72) and rows.gateways == ("1", "2")
    assert rows.rows["kind"].tolist() == [FRAME, HEARD, HEARD, FRAME, HEARD]
    assert fold.frames == 3 and len(set(zip(rows.rows["ix"].tolist(), rows.rows["iy"].tolist()))) == 1
    x, y = fold.tm.forward(LAT, LON)
    assert (rows.rows["ix"][0], rows.rows["iy"][0]) == (int(x // CELL_M), int(y // CELL_M))
    cells = Cells.of(rows)
    two = cells.view(sf=9, gateway="2")
    assert two.frames.tolist() == [2] and two.heard.tolist() == [2] and two.snr[0] == pytest.approx(-7.625)
    assert two.rssi[0] == pytest.approx(-100.25) and two.margin[0] == pytest.approx(-7.625 + 12.5)
    best = cells.view(sf=12)
    assert best.snr[0] == pytest.approx(5.0) and best.margin[0] == pytest.approx(25.0) and best.gateway[0] == 0
    assert not fold.take().rows.size                     # taken once


def test_frames_of_other_paths_and_without_a_position_are_not_placed():
    fold = fold_of((0, "marshal:7", "casualty", {}, meta(1)),
                   (0, "phone:9", "position", {"lat": LAT, "lon": LON}, meta(1, device=9, via=VIA_MESH_PKI)),
                   (0, "gm", "note", {"text": "x"}, None))
    assert not len(fold.take()) and fold.tm is None


def test_gaps_late_frames_and_retries_mark_the_cell_they_came_from():
    fold = fold_of((0, "marshal:7", "position", {"lat": LAT, "lon": LON}, meta(10)),
                   (5_000, "marshal:7", "casualty", {}, meta(11)),
                   (9_000, "marshal:7", "radio_retried", {"device": 7, "counter": 11, "tries": 2}, None),
                   (9_500, "marshal:7", "radio_retried", {"device": 7, "counter": 11, "tries": 3}, None),  # known
                   (20_000, "marshal:7", "position", {"lat": LAT + 0.001, "lon": LON}, meta(16)),   # 12-15 missing
                   (21_000, "marshal:7", "heartbeat", {}, meta(13)),                               # 13 came late
                   (22_000, "marshal:7", "heartbeat", {}, meta(900)))          # a restart: not 883 frames lost
    rows = fold.take().rows
    retried, missed = rows[rows["kind"] == RETRIED], rows[rows["kind"] == MISSED]
    assert len(retried) == 1 and missed["n"].tolist() == [4, -1]
    first = (rows["ix"][0], rows["iy"][0])
    assert (retried["ix"][0], retried["iy"][0]) == first == (missed["ix"][0], missed["iy"][0])
    view = Cells.of(_rows(rows, fold)).view()
    at_first = (view.ix == first[0]) & (view.iy == first[1])
    assert view.retried[at_first].tolist() == [1] and view.missed[at_first].tolist() == [3]
    assert view.marked[at_first].all() and not view.marked[~at_first].any()


def test_retries_and_late_frames_are_placed_for_half_an_hour_then_forgotten():
    """A handset retries a report for 30 minutes: its cell is kept at least that long (two generations of
    HOLD_MS), not for the whole game (3 hours of 500 devices' frames were 57 MB), and only for frames that
    want an acknowledgement (a position is never retried)."""
    half = HOLD_MS
    fold = fold_of((half - 1_000, "marshal:7", "position", {"lat": LAT, "lon": LON}, meta(9)),
                   (half - 900, "marshal:7", "down", {}, meta(10)),
                   (half - 500, "marshal:7", "down", {}, meta(11)),
                   (half + 10, "marshal:7", "down", {}, meta(14)),              # a new generation; 12, 13 missing
                   (2 * half - 1_000, "marshal:7", "radio_retried", {"device": 7, "counter": 11, "tries": 9}, None),
                   (2 * half - 900, "marshal:7", "heartbeat", {}, meta(12)))    # late
    assert fold.retried(7, 11) and fold.cell_of(7, 10) is not None and fold.cell_of(7, 9) is None
    fold.add(2 * half, "marshal:7", "heartbeat", {}, meta(15))                 # the third: the first is forgotten
    assert fold.cell_of(7, 10) is None and fold.cell_of(7, 14) is not None and fold.retried(7, 11)
    fold.add(2 * half + 1, "marshal:7", "radio_retried", {"device": 7, "counter": 10, "tries": 9}, None)
    fold.add(3 * half, "marshal:7", "heartbeat", {}, meta(16))                 # the fourth
    fold.add(3 * half + 1, "marshal:7", "heartbeat", {}, meta(13))             # counted missing an hour ago
    assert fold.cell_of(7, 14) is None and not fold.retried(7, 11)
    rows = fold.take().rows
    assert (rows["kind"] == RETRIED).sum() == 1 and rows[rows["kind"] == MISSED]["n"].tolist() == [2, -1]


def _rows(rows, fold):
    from controlroom.geo.coverage import CoverageRows

    return CoverageRows(rows, tuple(fold.gateways), fold.anchor)


def test_cells_grow_as_rows_come_and_sum_as_if_taken_at_once():
    events = [(t * 1000, "tracker:7", "position", {"lat": LAT + (t % 7) * 3e-4, "lon": LON + (t % 5) * 4e-4},
               meta(t + 1, "1:-90:5" if t % 3 else "1:-95:1,2:-110:-10")) for t in range(60)]
    fold = fold_of(*events)
    whole = fold.take()
    grown = Cells()
    for part in np.array_split(whole.rows, 7):
        grown.add(_rows(part, fold))
    once = Cells.of(whole)
    a, b = grown.view(), once.view()
    order_a, order_b = np.lexsort((a.ix, a.iy)), np.lexsort((b.ix, b.iy))
    for name in ("frames", "heard", "snr", "margin", "retried", "missed"):
        assert np.allclose(getattr(a, name)[order_a], getattr(b, name)[order_b], equal_nan=True), name
    assert len(once) == len(set(zip(b.ix.tolist(), b.iy.tolist())))
    assert whole.until(29_000).rows["t"].max() == 29_000


def test_rows_summed_together_are_the_rows_summed_one_set_after_the_other():
    """Cells.add_all (the live layer's rows kept aside, then summed in one pass) gives what ``add`` of each set in
    turn gives, for each gateway: the live fold's sets, whose gateway table grows, and the log's, whose table
    numbers the same gateways otherwise."""
    live, log = CoverageFold(), CoverageFold()
    batches = []
    for t in range(48):
        signals = "1:-90:5" if t < 20 else ("2:-112:-8" if t % 2 else "1:-95:1,3:-101:2")
        live.add(t * 1000, "tracker:7", "position", {"lat": LAT + (t % 6) * 3e-4, "lon": LON + (t % 4) * 4e-4},
                 meta(t + 1, signals))
        if t % 5 == 4:
            batches.append(live.take())
        if t == 30:                          # the log's coverage, read by a job: gateway 3 first, then 1
            log.add(500, "tracker:8", "position", {"lat": LAT, "lon": LON}, meta(1, "3:-99:4", device=8))
            log.add(900, "tracker:8", "position", {"lat": LAT + 6e-4, "lon": LON}, meta(2, "1:-97:3", device=8))
            batches.append(log.take())
    batches.append(live.take())
    assert batches[0].gateways == ("1",) and batches[-1].gateways[:1] == ("1",) and len(batches[-1].gateways) == 3
    one_by_one, together = Cells(), Cells()
    for rows in batches:
        one_by_one.add(rows)
    together.add_all(batches)
    assert together.gateways == one_by_one.gateways and together.anchor == one_by_one.anchor
    assert together.rows == one_by_one.rows == sum(len(b) for b in batches)
    for gateway in (None, *together.gateways):
        a, b = one_by_one.view(gateway=gateway), together.view(gateway=gateway)
        order_a, order_b = np.lexsort((a.ix, a.iy)), np.lexsort((b.ix, b.iy))
        for name in ("ix", "iy", "frames", "heard", "snr", "rssi", "retried", "missed"):
            assert np.allclose(getattr(a, name)[order_a], getattr(b, name)[order_b], equal_nan=True), (gateway, name)


def test_margins_have_colours_and_nothing_known_is_transparent():
    rgba = margin_rgba([-20, 0, 7.5, 30, np.nan])
    assert rgba[4, 3] == 0 and (rgba[:4, 3] > 0).all()
    assert rgba[0, 0] > rgba[0, 1] and rgba[3, 1] > rgba[3, 0]       # not heard: red; good: green


@pytest.fixture
def cells():
    events = [(t * 1000, "tracker:7", "position", {"lat": LAT + t * 2e-4, "lon": LON}, meta(t + 1))
              for t in range(10)]
    events.append((11_000, "tracker:7", "heartbeat", {}, meta(15, "2:-120:-15")))
    fold = fold_of(*events)
    return Cells.of(fold.take())


def test_the_cells_as_geojson_squares_in_wgs84(tmp_path, cells):
    (path,) = write_cells(cells, tmp_path / "coverage.geojson", sf=9, game="battle")
    doc = json.loads(path.read_text())
    assert doc["type"] == "FeatureCollection" and len(doc["features"]) == len(cells)
    ring = doc["features"][0]["geometry"]["coordinates"][0]
    assert len(ring) == 5 and ring[0] == ring[-1] and abs(ring[0][1] - LAT) < 0.01 and abs(ring[0][0] - LON) < 0.01
    marked = [f["properties"] for f in doc["features"] if f["properties"]["marked"]]
    assert len(marked) == 1 and marked[0]["missed"] == 4 and marked[0]["heard"] == 2
    assert marked[0]["gateways"]["2"]["snr_db"] == -15.0


def test_the_cells_as_a_geotiff_that_gdal_places(tmp_path, cells):
    (path,) = write_cells(cells, tmp_path / "coverage.tif", sf=9)
    bands = tifffile.imread(path)
    assert bands.shape[0] == 5 and np.nanmax(bands[1]) >= 1                  # margin, frames, share, retried, missed
    info = read_geotiff(path)
    assert info.crs is not None and info.world.pixel_size == (CELL_M, CELL_M)
    if shutil.which("gdallocationinfo"):
        out = subprocess.run(["gdallocationinfo", "-valonly", "-wgs84", str(path), str(LON), str(LAT)],
                             capture_output=True, text=True, check=True).stdout.split()
        assert float(out[1]) >= 1                                             # frames sent from the first cell
    with pytest.raises(ValueError, match=".geojson or .tif"):
        write_cells(cells, tmp_path / "coverage.kml")
    with pytest.raises(ValueError, match="no coverage"):
        write_cells(Cells(), tmp_path / "empty.geojson")
