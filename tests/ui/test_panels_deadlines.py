"""DeadlinePanel: live countdowns of rule deadlines from a real GameState's deltas."""

import pytest
from PySide6.QtCore import Qt

from controlroom.game.state import GameState
from controlroom.game.views import make_delta
from controlroom.ui.panels.deadlines import (
    CRITICAL,
    HELD,
    NORMAL,
    REMAINING_ROLE,
    URGENCY_COLOURS,
    URGENCY_ROLE,
    WARNING,
    DeadlinePanel,
)
from tests.support.panel_game import ROSTER, Clock, fold, ms


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def panel(qtbot, clock):
    p = DeadlinePanel(clock)
    qtbot.addWidget(p)
    return p


def cell(panel, row, column, role=Qt.ItemDataRole.DisplayRole):
    m = panel.model
    return m.data(m.index(row, column), role)


def column_texts(panel, column):
    return [cell(panel, r, column) for r in range(panel.model.rowCount())]


def test_soonest_first_with_what_and_who(panel, clock):
    state = GameState(ROSTER)
    delta = fold(state,
                 ("00:01:00", "down", {"badge": 2}),          # dies at 00:11:00
                 ("00:02:00", "knocked_out", {"badge": 11}),  # wakes at 00:07:00
                 ("00:03:00", "down", {"badge": 1}))          # dies at 00:13:00
    clock.t = ms("00:03:00")
    panel.apply_delta(delta)
    assert panel.model.rowCount() == 3
    assert column_texts(panel, 2) == ["Gerd (11)", "Birgit (2)", "Aldo (1)"]
    assert column_texts(panel, 1) == ["wakes", "dies", "dies"]
    assert column_texts(panel, 0) == ["4:00", "8:00", "10:00"]
    assert column_texts(panel, 3) == ["Ravens", "Wolves", "Wolves"]
    assert column_texts(panel, 4) == ["South", "North", "North"]
    assert panel.model.headerData(0, Qt.Orientation.Horizontal) == "Due in"


def test_countdown_is_live_without_new_data(panel, clock, qtbot):
    state = GameState(ROSTER)
    panel.apply_delta(fold(state, ("00:01:00", "down", {"badge": 2})))
    clock.t = ms("00:01:00")
    panel.refresh()
    assert cell(panel, 0, 0) == "10:00"
    clock.t = ms("00:05:30")
    qtbot.waitUntil(lambda: cell(panel, 0, 0) == "5:30", timeout=2000)   # the 500 ms timer
    assert cell(panel, 0, 0, REMAINING_ROLE) == ms("00:05:30")


def test_colour_by_urgency(panel, clock):
    state = GameState(ROSTER)
    panel.apply_delta(fold(state,
                           ("00:00:00", "knocked_out", {"badge": 11}),
                           ("00:00:00", "down", {"badge": 2})))
    # Rows: Gerd wakes 00:05:00, Birgit dies 00:10:00.
    clock.t = ms("00:04:00")
    panel.refresh()
    assert cell(panel, 1, 1) == "dies"
    assert cell(panel, 1, 0, URGENCY_ROLE) == NORMAL
    assert cell(panel, 1, 0, Qt.ItemDataRole.BackgroundRole) is None
    clock.t = ms("00:05:30")     # 4:30 left
    panel.refresh()
    assert cell(panel, 1, 0, URGENCY_ROLE) == WARNING
    assert cell(panel, 1, 3, Qt.ItemDataRole.BackgroundRole).color() == URGENCY_COLOURS[WARNING]
    clock.t = ms("00:08:30")     # 1:30 left
    panel.refresh()
    assert cell(panel, 1, 0, URGENCY_ROLE) == CRITICAL
    assert cell(panel, 1, 0, Qt.ItemDataRole.BackgroundRole).color() == URGENCY_COLOURS[CRITICAL]
    # Waking is never red, however close.
    clock.t = ms("00:04:59")
    panel.refresh()
    assert cell(panel, 0, 1) == "wakes"
    assert cell(panel, 0, 0, URGENCY_ROLE) == NORMAL
    assert "1 within 2 minutes" not in panel.summary.text()


def test_held_by_a_stopp_is_grey_and_last(panel, clock):
    state = GameState(ROSTER)
    fold(state, ("00:00:00", "down", {"badge": 2}), ("00:00:00", "down", {"badge": 11}))
    delta = fold(state, ("00:02:00", "stopp_called", {"stopp": "S1", "badges": [2], "reason": "injury"}))
    clock.t = ms("00:09:00")
    panel.apply_delta(make_delta(state, (), (), full=True))
    assert delta.characters[0].badge == 2
    assert column_texts(panel, 2) == ["Gerd (11)", "Birgit (2)"]
    assert cell(panel, 1, 0) == "held 8:00"
    assert cell(panel, 1, 0, URGENCY_ROLE) == HELD
    assert cell(panel, 1, 0, Qt.ItemDataRole.ForegroundRole).color() == URGENCY_COLOURS[HELD]
    assert "STOPP" in cell(panel, 1, 0, Qt.ItemDataRole.ToolTipRole)
    assert cell(panel, 0, 0, URGENCY_ROLE) == CRITICAL    # Gerd: 1 minute left, not covered
    # Lifted at 00:05:00: Birgit's death moves by exactly the 3 minutes held.
    panel.apply_delta(fold(state, ("00:05:00", "stopp_lifted", {"stopp": "S1"})))
    clock.t = ms("00:05:00")
    panel.refresh()
    assert column_texts(panel, 2) == ["Gerd (11)", "Birgit (2)"]
    assert column_texts(panel, 0) == ["5:00", "8:00"]


def test_delta_replaces_only_its_characters_and_full_replaces_all(panel, clock):
    state = GameState(ROSTER)
    panel.apply_delta(fold(state, ("00:00:00", "down", {"badge": 2}), ("00:00:00", "knocked_out", {"badge": 11})))
    assert panel.model.rowCount() == 2
    # Birgit's wounds are bound: dying stops, regaining starts; Gerd's row is untouched.
    panel.apply_delta(fold(state, ("00:01:00", "bound", {"badge": 2})))
    assert sorted(column_texts(panel, 1)) == ["+1 HP", "wakes"]
    # Gerd wakes: his deadline goes.
    panel.apply_delta(fold(state, ("00:05:00", "woke", {"badge": 11})))
    assert column_texts(panel, 1) == ["+1 HP"]
    # A full delta of a fresh game replaces everything.
    panel.apply_delta(make_delta(GameState(ROSTER), (), (), full=True))
    assert panel.model.rowCount() == 0


def test_respawn_deadline_after_death(panel, clock):
    state = GameState(ROSTER)
    fold(state, ("00:00:00", "scenario_started", {"name": "Bridge", "respawn": True, "respawn_time": 600}))
    panel.apply_delta(fold(state, ("00:01:00", "died", {"badge": 12})))
    clock.t = ms("00:02:00")
    panel.refresh()
    assert column_texts(panel, 1) == ["respawns"]
    assert column_texts(panel, 0) == ["9:00"]
    assert cell(panel, 0, 0, URGENCY_ROLE) == NORMAL


def test_countdowns_read_as_a_kitchen_timer():
    """Minutes and seconds under an hour, hours from an hour; rounded up, so 0:00 shows only when due."""
    from controlroom.ui.panels.words import countdown

    assert countdown(10 * 60_000) == "10:00"
    assert countdown(59_001) == "1:00"
    assert countdown(1) == "0:01"
    assert countdown(0) == "0:00" and countdown(-5_000) == "0:00"
    assert countdown(3_600_000) == "1:00:00"
    assert countdown(3_600_000 + 61_500) == "1:01:02"


def test_the_clock_announces_the_countdowns_and_only_the_rows_that_change_colour(panel, clock):
    """A redraw of the countdowns repaints their column, and whole rows only where a colour changes: the
    view repaints what is announced, each cell a dozen calls into Python (a 12 ms paint at 2,000 dying)."""
    state = GameState(ROSTER)
    panel.apply_delta(fold(state,
                           ("00:01:00", "down", {"badge": 2}),      # dies at 00:11:00
                           ("00:02:00", "down", {"badge": 1}),      # dies at 00:12:00
                           ("00:02:00", "knocked_out", {"badge": 11})))   # wakes at 00:07:00
    clock.t = ms("00:03:00")
    panel.refresh()
    announced = []
    panel.model.dataChanged.connect(lambda a, b, _roles=(): announced.append(
        ((a.row(), a.column()), (b.row(), b.column()))))
    clock.t = ms("00:04:00")
    panel.refresh()                         # no colour changes: 7:00 and 8:00 left to die
    assert announced == [((0, 0), (2, 0))]
    assert column_texts(panel, 0) == ["3:00", "7:00", "8:00"]
    announced.clear()
    clock.t = ms("00:06:30")                # Birgit now within 5 minutes (orange); Gerd's waking stays plain
    panel.refresh()
    assert announced == [((0, 0), (2, 0)), ((1, 0), (1, 4))]
    assert cell(panel, 1, 0, URGENCY_ROLE) == WARNING
    announced.clear()
    clock.t = ms("00:10:30")                # Birgit red, Aldo orange
    panel.refresh()
    assert announced == [((0, 0), (2, 0)), ((1, 0), (2, 4))]
    assert [cell(panel, r, 0, URGENCY_ROLE) for r in range(3)] == [NORMAL, CRITICAL, CRITICAL]
    announced.clear()
    clock.t = ms("00:03:00")                # back (a replay's seek): every row again
    panel.refresh()
    assert announced == [((0, 0), (2, 0)), ((0, 0), (2, 4))]


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_columns_fit_without_measuring_at_each_redraw(panel, clock, qtbot):
    """The columns are fitted by the view's ColumnFitter (at most once a second), not by Qt's
    ResizeToContents; group and side hidden for want of room and shown again are fitted once more."""
    from PySide6.QtWidgets import QHeaderView

    header = panel.view.horizontalHeader()
    assert all(header.sectionResizeMode(c) != QHeaderView.ResizeMode.ResizeToContents for c in range(5))
    assert header.sectionResizeMode(2) == QHeaderView.ResizeMode.Stretch
    state = GameState(ROSTER)
    panel.apply_delta(fold(state, ("00:01:00", "down", {"badge": 2}), ("00:02:00", "down", {"badge": 1})))
    panel.resize(700, 300)
    panel.show()
    qtbot.waitExposed(panel)
    fitter = panel.view.fitter
    qtbot.waitUntil(lambda: fitter.fits >= 1 and not panel.view.isColumnHidden(3), timeout=3000)
    for c in (0, 1, 3, 4):
        assert header.sectionSize(c) >= panel.view.sizeHintForColumn(c)
    panel.setMinimumWidth(0)
    panel.resize(180, 300)                  # too narrow: group and side hidden
    qtbot.waitUntil(lambda: panel.view.isColumnHidden(3) and panel.view.isColumnHidden(4), timeout=3000)
    panel.resize(700, 300)                  # room again: shown, and still fitted by the fitter
    qtbot.waitUntil(lambda: not panel.view.isColumnHidden(3), timeout=3000)
    assert fitter.by_hand == set()
    for c in (0, 1, 3, 4):
        assert header.sectionSize(c) >= panel.view.sizeHintForColumn(c)


def test_a_painted_cell_gets_every_role_in_one_call_as_data_gives_it(panel, clock):
    """The delegate asks a cell for seven roles at once (multiData): each as data() gives it, for rows of
    every urgency (normal, orange, red, held, waking), and the summary counts them as a pass over every
    row would."""
    from PySide6.QtCore import QModelRoleData, QModelRoleDataSpan
    from PySide6.QtWidgets import QStyleOptionViewItem

    state = GameState(ROSTER)
    fold(state, ("00:00:00", "down", {"badge": 1}),              # dies 00:10:00
         ("00:03:00", "down", {"badge": 2}),                     # dies 00:13:00
         ("00:06:00", "down", {"badge": 3}),                     # dies 00:16:00
         ("00:06:00", "knocked_out", {"badge": 12}),             # wakes 00:11:00
         ("00:01:00", "down", {"badge": 11}),
         ("00:02:00", "stopp_called", {"stopp": "S1", "badges": [11], "reason": "injury"}))
    clock.t = ms("00:09:00")
    panel.apply_delta(make_delta(state, (), (), full=True))
    model = panel.model
    urgencies = [cell(panel, r, 0, URGENCY_ROLE) for r in range(model.rowCount())]
    assert urgencies == [CRITICAL, NORMAL, WARNING, NORMAL, HELD]
    roles = [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole,
             Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole,
             URGENCY_ROLE, REMAINING_ROLE]
    items = [QModelRoleData(int(role)) for role in roles]
    delegate = panel.view.itemDelegate()

    def same(a, b):
        return a.color() == b.color() if hasattr(a, "color") and hasattr(b, "color") else a == b

    for row in list(range(model.rowCount())) + [0, 4, 1]:             # the items used again, as the delegate does
        for column in range(model.columnCount()):
            index = model.index(row, column)
            for role, item in zip(roles, items):
                model.multiData(index, QModelRoleDataSpan(item))
                assert same(item.data(), model.data(index, role)), (row, column, role)
            option = QStyleOptionViewItem()                             # the delegate's seven roles at once
            delegate.initStyleOption(option, index)
            assert option.text == model.data(index)
            background = model.data(index, Qt.ItemDataRole.BackgroundRole)
            assert (option.backgroundBrush.style() == Qt.BrushStyle.NoBrush) == (background is None)
            assert background is None or option.backgroundBrush.color() == background.color()
    for item in items:                                                  # no such row: the item cleared
        model.multiData(model.index(9, 0), QModelRoleDataSpan(item))
        assert item.data() is None
    # Two dying by the clock (Aldo within 2 minutes), Carl's and Birgit's too; Gerd held.
    rows = model.rows
    dying = sum(1 for r in rows if r.due is not None and r.kind == "dies")
    critical = sum(1 for r in rows if r.urgency(model.now) == CRITICAL)
    held = sum(1 for r in rows if r.due is None)
    assert (dying, critical, held) == (3, 1, 1)
    assert panel.summary.text() == f"{dying} dying ({critical} within 2 minutes), {held} held by a STOPP"
