"""Issue 17: the window follows deltas incrementally (row inserts and dataChanged, not resets; layers set only
when they changed), and what it shows is the same as drawing everything again."""

import numpy as np
import pytest
from PySide6.QtTest import QAbstractItemModelTester

from controlroom.game.state import GameState
from controlroom.geo.frame import MapFrame
from controlroom.ui.map.layers import MapLayers
from controlroom.ui.map.view import MapView
from controlroom.ui.panels.deadlines import DeadlineModel
from controlroom.ui.panels.radio import DeviceModel, FrameModel
from controlroom.ui.panels.table import RowTable
from tests.support.panel_game import ROSTER, fold, ms


class Signals:
    """Counts a model's structural signals."""

    def __init__(self, model):
        self.seen = {"reset": 0, "inserted": 0, "removed": 0, "changed": 0}
        model.modelReset.connect(lambda: self._count("reset"))
        model.rowsInserted.connect(lambda *_a: self._count("inserted"))
        model.rowsRemoved.connect(lambda *_a: self._count("removed"))
        model.dataChanged.connect(lambda *_a: self._count("changed"))

    def _count(self, what):
        self.seen[what] += 1

    def clear(self):
        self.seen = dict.fromkeys(self.seen, 0)


class Words(RowTable):
    """A table of plain texts under the given column titles."""

    def __init__(self, titles):
        super().__init__()
        self.titles = titles

    def data(self, index, role=0):
        return self.rows[index.row()][index.column()] if role == 0 and index.isValid() else None


def shown_table(qtbot, titles, width):
    """A Words model in a panel's read-only view (columns fitted by a ColumnFitter), shown."""
    from PySide6.QtWidgets import QWidget

    from controlroom.ui.panels.table import read_only_view

    box = QWidget()
    qtbot.addWidget(box)
    model = Words(titles)
    view = read_only_view(box, model)
    view.resize(width, 300)
    box.show()
    qtbot.waitExposed(box)
    return box, model, view             # (the box kept by the caller: qtbot holds it weakly)


def model_tester(model):
    return QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)


def test_the_dying_list_inserts_and_removes_rows_in_order_without_a_reset(qtbot):
    model = DeadlineModel()
    keep = model_tester(model)
    signals = Signals(model)
    state = GameState(ROSTER)
    model.apply_delta(fold(state, ("00:01:00", "down", {"badge": 2}), ("00:02:00", "knocked_out", {"badge": 11})),
                      now=ms("00:02:00"))
    signals.clear()
    model.apply_delta(fold(state, ("00:03:00", "down", {"badge": 1})), now=ms("00:03:00"))    # a third one
    assert signals.seen["reset"] == 0 and signals.seen["inserted"] == 1
    model.apply_delta(fold(state, ("00:04:00", "woke", {"badge": 11})), now=ms("00:04:00"))    # Gerd wakes
    assert signals.seen["reset"] == 0 and signals.seen["removed"] == 1
    model.apply_delta(fold(state, ("00:05:00", "bound", {"badge": 2})), now=ms("00:05:00"))    # dying -> regaining
    assert signals.seen["reset"] == 0
    # The rows are what a model made from scratch shows, in the same order.
    fresh = DeadlineModel()
    fresh.apply_delta(fold(state)._replace(full=True, characters=tuple(
        state_view for state_view in _all_characters(state))), now=ms("00:05:00"))
    assert [(r.badge, r.kind, r.due) for r in model.rows] == [(r.badge, r.kind, r.due) for r in fresh.rows]
    assert len(model.rows) == 2
    # Positions only: no signal at all (the countdowns are redrawn by the panel's timer).
    signals.clear()
    model.apply_delta(fold(state, ("00:05:30", "position", {"device": 5, "lat": 58.38, "lon": 26.72})),
                      now=ms("00:05:30"))
    assert signals.seen == {"reset": 0, "inserted": 0, "removed": 0, "changed": 0} and model.now == ms("00:05:30")
    del keep


def _all_characters(state):
    from controlroom.game.views import make_delta

    return make_delta(state, [m.badge for m in ROSTER], [], full=True).characters


def test_a_full_or_large_delta_resets_the_dying_list(qtbot):
    model = DeadlineModel()
    signals = Signals(model)
    state = GameState(ROSTER)
    model.apply_delta(fold(state, ("00:01:00", "down", {"badge": 2}))._replace(full=True))
    assert signals.seen["reset"] == 1


def frame(i, verdict="accepted"):
    return (1000 * i, 1, 1000 + i % 7, i, verdict, -90, 7.5, "")


def test_the_frame_log_is_a_bounded_ring_newest_first(qtbot):
    model = FrameModel()
    keep = model_tester(model)
    signals = Signals(model)
    model.set_frames([frame(i) for i in range(150)])
    assert signals.seen["reset"] == 1 and model.rows[0] == frame(149)
    signals.clear()
    model.set_frames([frame(i) for i in range(30, 180)])        # 30 new frames (the station keeps its last ones)
    assert signals.seen == {"reset": 0, "inserted": 1, "removed": 0, "changed": 0}
    assert model.rows[:2] == [frame(179), frame(178)] and len(model.rows) == 180
    model.set_frames([frame(i) for i in range(100, 250)])       # over the bound: the oldest go
    assert signals.seen["reset"] == 0 and signals.seen["removed"] == 1
    assert len(model.rows) == FrameModel.MAX_ROWS and model.rows[0] == frame(249)
    assert model.rows == [frame(i) for i in range(249, 249 - FrameModel.MAX_ROWS, -1)]
    signals.clear()
    model.set_frames([frame(i) for i in range(100, 250)])       # nothing new: nothing announced
    assert signals.seen == {"reset": 0, "inserted": 0, "removed": 0, "changed": 0}
    model.set_frames([frame(i) for i in range(1000, 1010)])     # nothing in common (a new station): start again
    assert signals.seen["reset"] == 1 and model.rows == [frame(i) for i in range(1009, 999, -1)]
    del keep


def test_devices_heard_change_by_data_changed_while_the_same_devices(qtbot):
    model = DeviceModel()
    keep = model_tester(model)
    signals = Signals(model)
    heard = {d: (ms("00:10:00"), -90, 7.0, 1, 1) for d in (1, 2, 3, 4)}
    model.set_devices(heard, {}, ms("00:10:00"))
    signals.clear()
    heard[3] = (ms("00:10:05"), -80, 8.0, 2, 1)
    model.set_devices(heard, {}, ms("00:10:05"))
    assert signals.seen == {"reset": 0, "inserted": 0, "removed": 0, "changed": 1}
    assert model.rows[2].counter == 2
    heard[9] = (ms("00:10:06"), -80, 8.0, 1, 1)               # a new device: the rows are laid out again
    model.set_devices(heard, {}, ms("00:10:06"))
    assert signals.seen["reset"] == 1 and [r.device for r in model.rows] == [1, 2, 3, 4, 9]
    del keep


def test_the_clock_announces_only_the_columns_that_follow_it(qtbot):
    """"Last heard" follows the clock; the other columns do not, and a view need not repaint them. A table
    that names no such columns announces all of them."""
    model = DeviceModel()
    keep = model_tester(model)
    model.set_devices({d: (ms("00:10:00"), -90, 7.0, 1, 1) for d in (1, 2, 3)}, {}, ms("00:10:00"))
    announced = []
    model.dataChanged.connect(lambda a, b, _roles=(): announced.append((a.row(), a.column(), b.row(), b.column())))
    model.set_now(ms("00:10:30"))
    assert announced == [(0, 2, 2, 2)]
    assert model.data(model.index(0, 2)) == "30 s ago"
    words = Words(("a", "b", "c"))
    words.rows = [("x", "y", "z")] * 4
    words.dataChanged.connect(lambda a, b, _roles=(): announced.append((a.row(), a.column(), b.row(), b.column())))
    announced.clear()
    words.set_now(5)
    assert announced == [(0, 0, 3, 2)]
    del keep


# -- the map -------------------------------------------------------------------------------------------

GROUP_OF = {"tracker:1": "Wolves", "tracker:2": "Ravens", "tracker:3": "Bears"}


def positions_delta(state, t, shift):
    delta = fold(state)
    field = {"positions": {source: (ms(t), 58.38 + i * 1e-4 + shift, 26.72 + shift, 80, 1)
                           for i, source in enumerate(GROUP_OF)}}
    return delta._replace(field=field, t=ms(t))


def casualties(view):
    item = view.layer_item("casualties")
    xs, ys = item.getData()
    layer = view._layers["casualties"]
    return sorted(zip(np.round(xs, 6).tolist(), np.round(ys, 6).tolist(), layer.labels))


@pytest.fixture
def map_view(qtbot):
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    return view


def test_the_casualties_layer_kept_up_by_deltas_is_the_one_drawn_anew(qtbot, map_view):
    frame = MapFrame(58.38, 26.72)
    live = MapLayers(map_view, frame)
    devices = {source: {"role": "tracker", "group": group} for source, group in GROUP_OF.items()}
    live.set_devices(devices)
    state = GameState(ROSTER)
    steps = [
        [("00:01:00", "down", {"badge": 1}), ("00:01:05", "down", {"badge": 2})],
        [("00:02:00", "knocked_out", {"badge": 11}), ("00:02:10", "down", {"badge": 3})],
        [("00:03:00", "bound", {"badge": 1})],
        [("00:04:00", "woke", {"badge": 11}), ("00:04:10", "died", {"badge": 12})],
    ]
    for k, events in enumerate(steps):
        live.apply(fold(state, *events))
        live.apply(positions_delta(state, f"00:0{k + 1}:30", k * 1e-4))      # the groups move
        map_view.flush()
        shown = casualties(map_view)
        # The same game drawn by a map that sees it whole, once.
        other = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
        qtbot.addWidget(other)
        fresh = MapLayers(other, frame)
        fresh.set_devices(devices)
        fresh.fell_at = dict(live.fell_at)
        fresh.apply(positions_delta(state, f"00:0{k + 1}:30", k * 1e-4)._replace(
            full=True, characters=_all_characters(state)))
        other.flush()
        assert shown == casualties(other) and shown


def test_a_layer_moved_keeps_its_styles_and_moves_its_markers(qtbot, map_view):
    colours = ["#ff0000", "#00ff00", "#0000ff"]
    labels = ["a", "b", "c"]
    map_view.set_layer("groups", [0, 1, 2], [0, 1, 2], colours=colours, labels=labels)
    map_view.flush()
    item = map_view.layer_item("groups")
    brushes = map_view._layers["groups"].brushes
    map_view.set_layer("groups", [5, 6, 7], [8, 9, 10], colours=colours, labels=labels)   # the same lists
    assert map_view._layers["groups"].brushes is brushes                                 # not converted again
    map_view.flush()
    xs, ys = item.getData()
    assert xs.tolist() == [5, 6, 7] and ys.tolist() == [8, 9, 10]
    assert [p.brush().color().name() for p in item.points()] == colours
    assert map_view.label_of("groups", 2) == "c"
    map_view.set_layer("groups", [1, 2], [3, 4], colours=["#000000", "#ffffff"], labels=["x", "y"])  # new ones
    map_view.flush()
    assert [p.brush().color().name() for p in item.points()] == ["#000000", "#ffffff"]
    assert item.getData()[0].tolist() == [1, 2]


def test_the_window_draws_the_layers_at_most_every_redraw_ms(qtbot, map_view):
    layers = MapLayers(map_view, MapFrame(58.38, 26.72), redraw_ms=200)
    layers.set_devices({source: {"role": "tracker", "group": group} for source, group in GROUP_OF.items()})
    state = GameState(ROSTER)
    layers.apply(positions_delta(state, "00:00:10", 0))                 # drawn at once
    map_view.flush()
    first = map_view.layer_item("groups").getData()[1].tolist()
    layers.apply(positions_delta(state, "00:00:20", 1e-3))              # too soon: drawn when the time is up
    map_view.flush()
    assert map_view.layer_item("groups").getData()[1].tolist() == first
    qtbot.waitUntil(lambda: (map_view.flush(), map_view.layer_item("groups").getData()[1].tolist() != first)[1],
                    timeout=2000)


def test_the_window_plans_the_casualties_and_sets_the_trails_again_at_most_every_so_often(qtbot, map_view):
    """Each sets every marker of its layer again: a new casualty waits for its time (and is drawn then, with
    no delta needed), the fallen already shown keep moving with their group meanwhile."""
    layers = MapLayers(map_view, MapFrame(58.38, 26.72), replan_ms=600, trails_ms=600)
    layers.set_devices({source: {"role": "tracker", "group": group} for source, group in GROUP_OF.items()})
    state = GameState(ROSTER)
    layers.apply(positions_delta(state, "00:00:10", 0))                              # planned: nobody fell
    layers.apply(fold(state, ("00:01:00", "down", {"badge": 1})))                   # too soon: drawn in time
    layers.apply(positions_delta(state, "00:01:01", 0))          # (these deltas carry the groups' positions)
    map_view.flush()
    assert casualties(map_view) == []
    qtbot.waitUntil(lambda: (map_view.flush(), len(casualties(map_view)) == 1)[1], timeout=3000)
    trails = map_view.layer_item("trails").getData()[0].size
    before = casualties(map_view)
    layers.apply(fold(state, ("00:01:05", "down", {"badge": 11})))                  # too soon after
    layers.apply(positions_delta(state, "00:01:10", 1e-3))                           # the groups move
    map_view.flush()
    assert len(casualties(map_view)) == 1 and casualties(map_view) != before         # moved with its group
    assert map_view.layer_item("trails").getData()[0].size == trails                 # trails wait too
    qtbot.waitUntil(lambda: (map_view.flush(), len(casualties(map_view)) == 2)[1], timeout=3000)
    qtbot.waitUntil(lambda: (map_view.flush(), map_view.layer_item("trails").getData()[0].size > trails)[1],
                    timeout=3000)


def test_columns_are_fitted_to_their_contents_at_most_once_a_second_and_a_hand_width_stays(qtbot):
    from controlroom.ui.panels.table import ColumnFitter

    _box, model, view = shown_table(qtbot, ("A", "B", "C"), 900)
    fitter = view.fitter
    assert isinstance(fitter, ColumnFitter)
    long = "a rather long piece of text in the first column"
    model.replace_rows([(long, "b", "c")])
    qtbot.waitUntil(lambda: fitter.fits == 1)
    assert view.columnWidth(0) >= view.fontMetrics().horizontalAdvance(long)
    # Ten changes in quick succession: measured once more, a second after the last fit, not ten times.
    for i in range(10):
        model.replace_rows([(f"{long} {i}", "b" * (i + 1), "c")])
    qtbot.wait(300)
    assert fitter.fits == 1
    qtbot.waitUntil(lambda: fitter.fits == 2, timeout=3000)
    assert view.columnWidth(1) >= view.fontMetrics().horizontalAdvance("b" * 10)
    # The game master narrows the first column by hand: the next fit leaves it so.
    view.horizontalHeader().resizeSection(0, 60)
    model.replace_rows([(long + " and more", "b", "c")])
    qtbot.waitUntil(lambda: fitter.fits == 3, timeout=3000)
    assert view.columnWidth(0) == 60


def test_a_view_not_shown_is_fitted_when_shown(qtbot):
    from PySide6.QtWidgets import QTabWidget

    from controlroom.ui.panels.table import read_only_view

    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    front, behind = Words(("A", "B")), Words(("A", "B"))
    tabs.addTab(read_only_view(tabs, front), "front")
    view = read_only_view(tabs, behind)
    tabs.addTab(view, "behind")
    tabs.resize(900, 300)
    tabs.show()
    qtbot.waitExposed(tabs)
    long = "a rather long piece of text behind the first tab"
    behind.replace_rows([(long, "b")])
    qtbot.wait(200)
    assert view.fitter.fits == 0                     # not measured while not seen
    qtbot.waitUntil(lambda: tabs.widget(0).fitter.fits == 1)     # the front table: fitted when first shown
    tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: view.fitter.fits == 1)
    assert view.columnWidth(0) >= view.fontMetrics().horizontalAdvance(long)


def test_the_window_lets_the_gui_thread_take_the_gil_back_soon():
    import sys

    from controlroom.ui.app import SWITCH_INTERVAL, share_the_interpreter

    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        share_the_interpreter()
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL, rel=0.01) and SWITCH_INTERVAL <= 0.001
    finally:
        sys.setswitchinterval(before)


def test_a_table_whose_widths_stay_is_measured_less_and_less_often(qtbot):
    from controlroom.ui.panels.table import ColumnFitter

    _box, model, view = shown_table(qtbot, ("A", "B"), 600)
    fitter = view.fitter
    model.replace_rows([("same width", "x")])
    qtbot.waitUntil(lambda: fitter.fits == 1)
    assert fitter.interval_ms == ColumnFitter.FIT_MS          # the widths changed: the next fit within a second
    fitter.fit()                                              # nothing new: the same widths
    assert fitter.interval_ms == 2 * ColumnFitter.FIT_MS
    fitter.fit()
    assert fitter.interval_ms == 4 * ColumnFitter.FIT_MS
    model.replace_rows([("a much longer text than before, wider", "x")])
    fitter.fit()                                              # a width changed: back to a second
    assert fitter.interval_ms == ColumnFitter.FIT_MS
    fitter.fit()
    fitter.fit()
    assert fitter.interval_ms == 4 * ColumnFitter.FIT_MS
    model.replace_rows([("new rows, whose texts may be wider still", "x")])
    assert fitter.interval_ms == ColumnFitter.FIT_MS          # new rows: fitted within a second, not four
    assert fitter._timer.isActive() and fitter._timer.interval() <= ColumnFitter.FIT_MS   # (its remainingTime is
    # coarse: Qt's coarse timers may fire up to 5 % late, so it can read 1,018 ms)


def test_rows_inserted_bring_the_next_fit_closer_only_when_one_is_wider_than_its_column(qtbot):
    """The deadlines take a row at each report: measuring the whole table each second for that blocked the window
    at 200 frames/s.  The rows inserted are measured alone; only a text wider than its column (or more rows than
    MEASURE_ROWS at once) brings the next fit within a second."""
    from PySide6.QtCore import QModelIndex

    from controlroom.ui.panels.table import ColumnFitter

    _box, model, view = shown_table(qtbot, ("A", "B", "C"), 600)
    fitter = view.fitter
    model.replace_rows([("a middling text", "x", "y")])
    qtbot.waitUntil(lambda: fitter.fits == 1)
    fitter.fit()
    fitter.fit()
    assert fitter.interval_ms == 4 * ColumnFitter.FIT_MS

    def insert(*rows):
        at = len(model.rows)
        model.beginInsertRows(QModelIndex(), at, at + len(rows) - 1)
        model.rows = model.rows + list(rows)
        model.endInsertRows()

    insert(("short", "x", "y"), ("a middling", "x", "y"))
    assert fitter.interval_ms == 4 * ColumnFitter.FIT_MS          # no text wider than its column: the wait stays
    insert(("short", "x", "y"), ("a text much wider than any before it", "x", "y"))
    assert fitter.interval_ms == ColumnFitter.FIT_MS              # wider: fitted within a second
    assert fitter._timer.isActive() and fitter._timer.interval() <= ColumnFitter.FIT_MS
    for _ in range(3):                                            # widened, then the same twice
        fitter.fit()
    assert fitter.interval_ms == 4 * ColumnFitter.FIT_MS
    insert(("x", "a wider text in the second column", "y"))       # (the last column stretches: never measured)
    assert fitter.interval_ms == ColumnFitter.FIT_MS
    for _ in range(3):
        fitter.fit()
    assert fitter.interval_ms == 4 * ColumnFitter.FIT_MS
    insert(*[("short", "x", "y")] * (ColumnFitter.MEASURE_ROWS + 1))     # too many to measure one by one
    assert fitter.interval_ms == ColumnFitter.FIT_MS


def test_a_groups_marker_and_label_are_made_again_only_when_its_report_or_counts_change(qtbot, map_view):
    """Of 400 groups a few move between two drawings: the others' markers and labels are the ones made before
    (the same objects), and a group whose counts or position changed shows them."""
    layers = MapLayers(map_view, MapFrame(58.38, 26.72))
    layers.set_devices({source: {"role": "tracker", "group": group} for source, group in GROUP_OF.items()})
    state = GameState(ROSTER)
    layers.apply(positions_delta(state, "00:00:10", 0))
    before = dict(layers._made)
    assert {made[2][2] for made in before.values()} == {"Wolves 0\u2191 0\u2193 0\u2020",    # (no character yet)
                                                        "Ravens 0\u2191 0\u2193 0\u2020",
                                                        "Bears 0\u2191 0\u2193 0\u2020"}
    delta = fold(state, ("00:00:20", "down", {"badge": 1}))         # Aldo, a Wolf, down; nobody moved
    layers.apply(delta._replace(field={}))
    after = layers._made
    assert after["tracker:2"] is before["tracker:2"] and after["tracker:3"] is before["tracker:3"]
    assert after["tracker:1"][2][2] == "Wolves 0\u2191 1\u2193 0\u2020"
    assert map_view.label_of("groups", 0) == "Wolves (North): 0 up, 1 down, 0 dead"
    moved = positions_delta(state, "00:00:30", 0)
    field = {"partial": True,
             "positions": {"tracker:3": moved.field["positions"]["tracker:3"][:1] + (58.39, 26.73, 80, 1)}}
    layers.apply(moved._replace(field=field))
    assert layers._made["tracker:2"] is before["tracker:2"]
    x, y = MapFrame(58.38, 26.72).to_local(58.39, 26.73)
    assert layers._made["tracker:3"][1][:2] == pytest.approx((x, y))
    map_view.flush()
    assert [round(v, 3) for v in map_view.layer_item("groups").getData()[0]][2] == round(x, 3)
