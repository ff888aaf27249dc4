"""The coverage layer through the engine: per-gateway signals stored, retries recorded, weak spots alarmed."""

import pytest

from controlroom.game.clock import VirtualClock
from controlroom.geo.coverage import FRAME, HEARD, MISSED, RETRIED, CoverageRows
from controlroom.geo.coverage_cells import Cells
from controlroom.radio import codec
from controlroom.radio.link import FrameHeard
from controlroom.store.coverage_log import coverage_rows
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, new_game

LAT, LON = 58.3805, 26.7225


@pytest.fixture
def radio_game(tmp_path):
    path = new_game(tmp_path / "coverage.crgame")
    with GameStore.open(path) as store:
        key = register_device(store, 12, "marshal", "").key
    return path, key


def position(key, counter, lat=LAT, lon=LON):
    return codec.encode_position(key, 12, counter, int(lat * 1e7), int(lon * 1e7), 80, 1, 9)


def rows_of(deltas) -> CoverageRows:
    got = [d.coverage for d in deltas if d.coverage is not None]
    import numpy as np

    return CoverageRows(np.concatenate([g.rows for g in got]), got[-1].gateways, got[-1].anchor)


def test_each_gateways_signal_is_stored_and_the_layer_is_the_same_live_and_from_the_log(radio_game):
    path, key = radio_game
    pump = Pump(path)
    frame = position(key, 1)
    pump.hear(FrameHeard("a", 1, -97, -3.5, frame), FrameHeard("b", 2, -110, -11.25, frame))
    pump.frame(codec.encode_heartbeat(key, 12, 2, 80, 5), gateway=2, rssi=-101, snr=-6.0)
    live = rows_of([pump.delta()])
    stored = [s for s in pump.game.store.log.read() if s.radio is not None]
    assert stored[0].radio.signals == "1:-97:-3.5,2:-110:-11.25"
    assert stored[1].radio.signals == "2:-101:-6"
    from_log = coverage_rows(pump.game.store)
    assert len(from_log) == len(live) == 5 and from_log.rows.tobytes() == live.rows.tobytes()    # NaN and all
    assert from_log.gateways == live.gateways == ("1", "2")
    kinds = live.rows["kind"].tolist()
    assert kinds.count(FRAME) == 2 and kinds.count(HEARD) == 3
    view = Cells.of(live).view(sf=9, gateway="2")
    assert view.frames.tolist() == [2] and view.heard.tolist() == [2]
    assert view.snr[0] == pytest.approx((-11.25 - 6.0) / 2)
    assert view.margin[0] == pytest.approx((-11.25 - 6.0) / 2 + 12.5)        # SF9's floor is -12.5 dB
    best = Cells.of(live).view(sf=7)
    assert best.snr[0] == pytest.approx(-3.5) and best.margin[0] == pytest.approx(4.0)
    pump.close()


def test_a_gap_in_a_devices_counters_marks_its_cell_and_a_late_frame_unmarks_it(radio_game):
    path, key = radio_game
    pump = Pump(path)
    pump.frame(position(key, 10))
    pump.frame(position(key, 14))                      # 11, 12 and 13 never came
    pump.frame(codec.encode_heartbeat(key, 12, 12, 80, 5))  # 12 came after all
    rows = rows_of([pump.delta()]).rows
    assert rows[rows["kind"] == MISSED]["n"].tolist() == [3, -1]
    assert Cells.of(coverage_rows(pump.game.store)).view().missed.tolist() == [2]
    pump.close()


def test_a_copy_heard_again_seconds_later_records_that_the_report_needed_retries(radio_game):
    path, key = radio_game
    clock = VirtualClock(0)
    pump = Pump(path, clock)
    first = position(key, 1)
    pump.frame(first)
    clock.advance_to(5_000)
    pump.frame(first)                                  # a position is never retried: a late copy is no retry
    report = codec.encode_casualty(key, 12, 2, 1, "down")
    pump.frame(report)
    pump.frame(report, gateway=2)                      # another gateway at once: a copy, not a retry
    assert not [e for e in pump.events() if e.type == "radio_retried"]
    clock.advance_to(9_500)                            # the handset got no ack: its first retry
    pump.frame(report)
    clock.advance_to(17_800)
    pump.frame(report)                                 # and another: still one record
    retried = [e for e in pump.events() if e.type == "radio_retried"]
    assert [(e.data["device"], e.data["counter"], e.source) for e in retried] == [(12, 2, "marshal:12")]
    assert retried[0].data["tries"] >= 2
    cells = Cells.of(coverage_rows(pump.game.store))
    assert cells.view().retried.tolist() == [1]
    pump.close()


def test_a_key_press_heard_seconds_late_was_heard_on_a_retry(radio_game):
    import time

    path, key = radio_game
    pump = Pump(path)
    pump.frame(position(key, 1))
    pressed = int(time.time()) - 13
    pump.frame(codec.encode_casualty(key, 12, 2, 1, "down", pressed=pressed))
    pump.frame(codec.encode_casualty(key, 12, 3, 2, "down", pressed=int(time.time())))
    retried = [e for e in pump.events() if e.type == "radio_retried"]
    assert [e.data["counter"] for e in retried] == [2]
    assert rows_of([pump.delta()]).rows["kind"].tolist().count(RETRIED) == 1
    pump.close()


def test_a_marshal_whose_reports_keep_needing_retries_is_in_a_weak_spot(radio_game):
    path, key = radio_game
    clock = VirtualClock(0)
    pump = Pump(path, clock)
    pump.frame(position(key, 1))
    alarms = []
    for n, retried in enumerate((True, False, True, True, True), start=2):
        report = codec.encode_casualty(key, 12, n, 1, "down")
        t = n * 10_000
        clock.advance_to(t)
        alarms += pump.frame(report).alarms
        if retried:
            clock.advance_to(t + 4_500)
            alarms += pump.frame(report).alarms
    weak = [a for a in alarms if a.kind == "weak_spot"]
    # The third retried report of the last four raises it; the fourth (still 3 of the last 4) raises it again.
    assert len(weak) == 2 and weak[0].cls == "link"
    assert weak[0].message.startswith("marshal 12 in a weak spot (58.38")
    assert weak[0].message.endswith("3 of the last 4 reports needed retries")
    from controlroom.game.alarms import AlarmBoard

    board = AlarmBoard()
    rows = [board.add(a) for a in weak]
    assert rows[0][1] and not rows[1][1] and len(board) == 1        # merged into one row, counted twice
    pump.close()


def test_the_weak_spot_is_named_by_the_square_of_the_map_kept_with_the_game(radio_game, tmp_path):
    import numpy as np
    from PIL import Image
    from pyproj import CRS, Transformer

    from controlroom.geo.crs import write_prj
    from controlroom.geo.source import open_map
    from controlroom.geo.worldfile import WorldFile, write_world_file
    from controlroom.store.maps import save_map

    path, key = radio_game
    cx, cy = Transformer.from_crs(4326, 3301, always_xy=True).transform(LON, LAT)
    png = tmp_path / "field.png"
    Image.fromarray(np.full((200, 200, 3), 200, np.uint8)).save(png)         # 1 km square, the position in it
    write_world_file(tmp_path / "field.pgw", WorldFile.from_geotransform((cx - 430, 5.0, 0, cy + 620, 0, -5.0)))
    write_prj(png, CRS.from_epsg(3301))
    source = open_map(png)
    with GameStore.open(path) as store:
        save_map(store, png, source.kind, source.crs.to_wkt(), source.world.as_lines(), source.width, source.height)
    clock = VirtualClock(0)
    pump = Pump(path, clock)
    pump.frame(position(key, 1))
    alarms = []
    for n in range(2, 6):
        report = codec.encode_casualty(key, 12, n, 1, "down")
        clock.advance_to(n * 10_000)
        alarms += pump.frame(report).alarms
        clock.advance_to(n * 10_000 + 4_500)
        alarms += pump.frame(report).alarms
    weak = [a for a in alarms if a.kind == "weak_spot"]
    # 200 m squares (1 km on the ground is a little more than 10 of 100 m): 430 m east of the left edge, 620 m
    # below the top: C4.
    assert weak and weak[0].message == "marshal 12 in a weak spot (C4): 3 of the last 3 reports needed retries"
    pump.close()


def test_a_log_without_radio_frames_has_no_coverage_and_is_not_read_for_it(radio_game):
    """The report, the replay and the window ask every game for its coverage: one with no radio frame (typed-in
    reports, positions of a game master) is answered from the index of frames, not by two walks of its log."""
    import sqlalchemy as sa

    path, key = radio_game
    pump = Pump(path)
    pump.submit("position", {"device": 12, "lat": LAT, "lon": LON})
    assert any(e.type == "position" for e in pump.events())
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args):
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append(statement)

    engine = pump.game.store.engine
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        rows = coverage_rows(pump.game.store)
        assert not len(rows) and rows.anchor is None
        assert len(statements) == 1 and "device IS NOT NULL" in statements[0] and "LIMIT" in statements[0]
        with engine.connect() as conn:
            plan = " ".join(str(r) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statements[0], (1, 0)))
        assert "INDEX" in plan, plan
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)
    pump.frame(position(key, 1))
    assert len(coverage_rows(pump.game.store)) == 2         # a frame and its gateway
    pump.close()
