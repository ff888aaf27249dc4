"""TimelinePanel: events from deltas, a text filter, a cap on rows, double click gives the seq."""

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QHeaderView

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.game.views import StoredView, make_delta
from controlroom.ui.panels.timeline import SEQ_ROLE, TimelinePanel

ROSTER = [Member(1, "Aldo", "North", "Wolves", "warrior"), Member(11, "Gerd", "South", "Ravens", "warrior")]


def stored(n, t, type_, source="marshal:M1", **fields):
    return StoredView(n, 1_700_000_000_000 + t, make_event(t, type_, source, **fields))


def delta_of(state, *events):
    for s in events:
        state.apply(s.event)
    badges, stopps = state.take_dirty()
    return make_delta(state, badges, stopps, events)


@pytest.fixture
def panel(qtbot):
    p = TimelinePanel()
    qtbot.addWidget(p)
    return p


def shown(panel, column):
    p = panel.view.model()                  # what the view shows (the model, or the filter over it)
    return [p.data(p.index(r, column)) for r in range(p.rowCount())]


def test_rows_show_time_type_who_and_source(panel):
    state = GameState(ROSTER)
    panel.apply_delta(delta_of(state,
                               stored(1, 60_000, "down", badge=11),
                               stored(2, 90_500, "healer_touch", "marshal:M2", badge=11, healer=1),
                               stored(3, 120_000, "stopp_called", "gm", stopp="GM1", reason="injury")))
    assert shown(panel, 0) == ["00:01:00", "00:01:30.500", "00:02:00"]
    assert shown(panel, 1) == ["down (0 hit points)", "healer's touch", "STOPP called"]
    assert shown(panel, 2) == ["Gerd (11)", "Gerd (11)", ""]
    assert shown(panel, 3)[1] == "healer: 1"
    assert "reason: injury" in shown(panel, 3)[2]
    assert shown(panel, 4) == ["marshal:M1", "marshal:M2", "gm"]
    assert panel.model.headerData(4, Qt.Orientation.Horizontal) == "Source"


def test_filter_box(panel):
    state = GameState(ROSTER)
    panel.apply_delta(delta_of(state,
                               stored(1, 1000, "down", badge=11),
                               stored(2, 2000, "knocked_out", "marshal:M7", badge=1),
                               stored(3, 3000, "died", badge=11)))
    panel.filter.setText("gerd")
    assert shown(panel, 1) == ["down (0 hit points)", "died"]
    panel.set_filter("M7")
    assert shown(panel, 2) == ["Aldo (1)"]
    panel.filter.clear()
    assert panel.view.model().rowCount() == 3


def test_repeated_seqs_are_not_shown_twice(panel):
    state = GameState(ROSTER)
    first = stored(1, 1000, "down", badge=11)
    panel.apply_delta(delta_of(state, first))
    panel.apply_delta(make_delta(state, (), (), (first, stored(2, 2000, "woke", "timer", badge=11))))
    assert [panel.model.data(panel.model.index(r, 0), SEQ_ROLE) for r in range(2)] == [1, 2]


def test_capped_at_the_last_rows(qtbot):
    panel = TimelinePanel(max_rows=5)
    qtbot.addWidget(panel)
    state = GameState(ROSTER)
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(1, 5)]))
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(5, 9)]))
    assert shown(panel, 3) == ["text: n4", "text: n5", "text: n6", "text: n7", "text: n8"]
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(9, 20)]))
    assert shown(panel, 3) == [f"text: n{i}" for i in range(15, 20)]


def test_default_cap_is_twenty_thousand(panel):
    assert panel.model.max_rows == 20_000


def test_double_click_emits_the_seq(panel, qtbot):
    state = GameState(ROSTER)
    panel.apply_delta(delta_of(state, stored(41, 1000, "down", badge=11), stored(42, 2000, "died", badge=1)))
    panel.filter.setText("aldo")
    index = panel.view.model().index(0, 1)
    with qtbot.waitSignal(panel.event_activated, timeout=1000) as blocker:
        panel.view.doubleClicked.emit(index)
    assert blocker.args == [42]


def test_retracted_rows_are_struck_out(panel):
    state = GameState(ROSTER)
    panel.apply_delta(delta_of(state, stored(1, 1000, "down", badge=11)))
    panel.apply_delta(delta_of(state, stored(2, 2000, "retracted", "gm", seq=1, reason="wrong badge")))
    font = panel.model.data(panel.model.index(0, 1), Qt.ItemDataRole.FontRole)
    assert font.strikeOut()
    assert panel.model.data(panel.model.index(1, 1), Qt.ItemDataRole.FontRole) is None


def test_reports_on_a_meshtastic_channel_are_marked_as_weaker(panel):
    from controlroom.game.devices import VIA_MESH_CHANNEL, VIA_MESH_PKI

    state = GameState(ROSTER)
    channel = StoredView(1, 1, make_event(1000, "down", "marshal:21", badge=1), VIA_MESH_CHANNEL)
    pki = StoredView(2, 2, make_event(2000, "down", "marshal:21", badge=11), VIA_MESH_PKI)
    ours = stored(3, 3000, "down", badge=1)
    panel.apply_delta(delta_of(state, channel, pki, ours))
    assert shown(panel, 4) == ["marshal:21 (channel key)", "marshal:21", "marshal:M1"]
    tip = panel.view.model().data(panel.view.model().index(0, 4), Qt.ItemDataRole.ToolTipRole)
    assert "Meshtastic channel" in tip
    assert panel.view.model().data(panel.view.model().index(1, 4), Qt.ItemDataRole.ToolTipRole) is None


def test_a_tak_phones_position_is_marked_as_not_authenticated(panel):
    from controlroom.game.devices import VIA_TAK

    state = GameState(ROSTER)
    came = StoredView(1, 1, make_event(1000, "position", "marshal:5", device=5, lat=58.38, lon=26.72, fix=1),
                      VIA_TAK)
    panel.apply_delta(delta_of(state, came))
    assert shown(panel, 4) == ["marshal:5 (TAK, not authenticated)"]
    tip = panel.view.model().data(panel.view.model().index(0, 4), Qt.ItemDataRole.ToolTipRole)
    assert "no rule uses it" in tip


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_the_view_follows_the_newest_event_until_scrolled_up(panel, qtbot):
    """A view made smaller while it follows (the docks arranged at start) keeps following; scrolled up by
    the game master, it stays where it was left; back at the bottom, it follows again."""
    state = GameState(ROSTER)
    panel.resize(600, 900)
    panel.show()
    qtbot.waitExposed(panel)
    panel.apply_delta(delta_of(state, *(stored(n, n * 1000, "position", device=3001, lat=58.0, lon=26.0)
                                        for n in range(1, 6))))
    bar = panel.view.verticalScrollBar()
    qtbot.waitUntil(lambda: panel.view.model().rowCount() == 5)
    assert bar.maximum() == 0                                   # all five in view
    panel.resize(600, 250)                                      # the docks arranged: a smaller view
    panel.apply_delta(delta_of(state, *(stored(n, n * 1000, "position", device=3001, lat=58.0, lon=26.0)
                                        for n in range(6, 60))))
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=2000)
    last = panel.view.model().index(panel.view.model().rowCount() - 1, 0)
    assert panel.view.viewport().rect().intersects(panel.view.visualRect(last))   # the newest in view
    bar.setValue(0)                                             # the game master reads back
    panel.apply_delta(delta_of(state, stored(60, 60_000, "position", device=3001, lat=58.0, lon=26.0)))
    qtbot.wait(50)
    assert bar.value() == 0 and not panel.following
    bar.setValue(bar.maximum())                                 # and comes back to the bottom
    panel.apply_delta(delta_of(state, *(stored(n, n * 1000, "position", device=3001, lat=58.0, lon=26.0)
                                        for n in range(61, 70))))
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() and panel.following, timeout=2000)


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_rows_read_while_scrolled_up_stay_in_view_when_the_cap_drops_the_oldest(qtbot):
    """At the cap each new event drops the oldest row: the rows the game master scrolled up to read stay where
    they are (the view moves up with them), and the view does not start following."""
    panel = TimelinePanel(max_rows=200)
    qtbot.addWidget(panel)
    panel.resize(600, 300)
    panel.show()
    qtbot.waitExposed(panel)
    state = GameState(ROSTER)
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(1, 201)]))
    bar = panel.view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 100 and bar.value() == bar.maximum(), timeout=2000)

    def top_seq():
        return panel.view.model().data(panel.view.model().index(panel.view.rowAt(0), 0), SEQ_ROLE)

    bar.setValue(bar.maximum() // 2)                           # the game master reads back
    reading = top_seq()
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(201, 231)]))
    qtbot.wait(20)
    assert panel.model.rowCount() == 200 and panel.model.rows[0].seq == 31
    assert top_seq() == reading and not panel.following
    for n in range(231, 260):                                 # one at a time, as deltas come
        panel.apply_delta(make_delta(state, (), (), [stored(n, n * 1000, "note", text=f"n{n}")]))
    assert top_seq() == reading
    panel.set_filter("n2")                                    # filtered: the proxy's rows are the ones counted
    bar.setValue(5)
    reading = top_seq()
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(260, 280)]))
    assert top_seq() == reading
    panel.set_filter("")
    bar.setValue(0)                                           # at the very top: the oldest kept row is shown
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(280, 290)]))
    assert bar.value() == 0 and top_seq() == panel.model.rows[0].seq
    bar.setValue(bar.maximum())                               # back at the bottom: it follows again
    panel.apply_delta(make_delta(state, (), (), [stored(i, i * 1000, "note", text=f"n{i}") for i in range(290, 300)]))
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() and panel.following, timeout=2000)
    assert panel.view.model().data(panel.view.model().index(panel.view.rowAt(panel.view.viewport().height() - 2), 0),
                            SEQ_ROLE) == 299


def test_a_name_learned_later_is_shown_in_rows_already_shown(panel):
    """The texts of a row are made once, but a character's name that a later delta brings (or changes) is shown
    in the rows about it made before."""
    panel.apply_delta(make_delta(GameState([]), (), (), [stored(1, 1000, "down", badge=11)]))
    assert shown(panel, 2) == ["11"]
    state = GameState(ROSTER)
    panel.apply_delta(delta_of(state, stored(2, 2000, "down", badge=11)))
    assert shown(panel, 2) == ["Gerd (11)", "Gerd (11)"]
    renamed = GameState([Member(11, "Gerda", "South", "Ravens", "warrior")])
    panel.apply_delta(delta_of(renamed, stored(3, 3000, "down", badge=11)))
    assert shown(panel, 2) == ["Gerda (11)"] * 3
    assert panel.view.model().data(panel.view.model().index(0, 0), Qt.ItemDataRole.DecorationRole) is None
    assert panel.view.model().data(panel.view.model().index(0, 0), SEQ_ROLE) == 1


def notes(first, last):
    return [stored(i, i * 1000, "note", text=f"n{i}") for i in range(first, last)]


def test_the_view_shows_the_model_itself_and_the_filter_only_while_one_is_typed(panel):
    """Without a filter the view shows the model (no proxy per cell painted, none kept up to date as rows come
    and go); a filter puts the proxy between them, rows that come meanwhile are filtered, and the filter
    cleared shows every row again."""
    state = GameState(ROSTER)
    panel.apply_delta(make_delta(state, (), (), notes(1, 30)))
    assert panel.view.model() is panel.model and panel.proxy.sourceModel() is None
    panel.set_filter("n2")
    assert panel.view.model() is panel.proxy
    assert shown(panel, 3) == ["text: n2"] + [f"text: n{i}" for i in range(20, 30)]
    panel.apply_delta(make_delta(state, (), (), notes(30, 40)))          # rows while filtered
    assert len(shown(panel, 3)) == 11
    panel.set_filter("n3")
    assert shown(panel, 3) == ["text: n3"] + [f"text: n{i}" for i in range(30, 40)]
    panel.set_filter("")
    assert panel.view.model() is panel.model and panel.proxy.sourceModel() is None
    assert shown(panel, 3) == [f"text: n{i}" for i in range(1, 40)]


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_the_row_chosen_while_filtered_stays_chosen_and_in_view_when_the_filter_is_cleared(panel, qtbot):
    state = GameState(ROSTER)
    panel.resize(600, 250)
    panel.show()
    qtbot.waitExposed(panel)
    panel.apply_delta(make_delta(state, (), (), notes(1, 300)))
    panel.set_filter("n25")
    row = shown(panel, 3).index("text: n25")
    panel.view.selectRow(row)
    panel.set_filter("")
    view = panel.view
    assert view.model() is panel.model
    assert view.model().data(view.currentIndex(), SEQ_ROLE) == 25
    assert view.selectionModel().isRowSelected(view.currentIndex().row())
    assert view.viewport().rect().intersects(view.visualRect(view.currentIndex()))
    assert not panel.following
    panel.set_filter("n29")                                     # nothing chosen: a view following keeps following
    view.clearSelection()
    view.setCurrentIndex(QModelIndex())
    view.scrollToBottom()
    panel.set_filter("")
    qtbot.waitUntil(lambda: view.verticalScrollBar().value() == view.verticalScrollBar().maximum())
    assert panel.following


def test_rows_are_one_line_high_and_no_column_is_measured_by_qt_at_each_change(panel):
    """Qt's ResizeToContents asks the cells of the rows in view again at every change of the rows, and rows
    sized to their contents ask each row's cells: neither, here."""
    state = GameState(ROSTER)
    panel.apply_delta(make_delta(state, (), (), notes(1, 50)))
    header = panel.view.horizontalHeader()
    assert [header.sectionResizeMode(c) for c in range(header.count())] == [
        QHeaderView.ResizeMode.Interactive, QHeaderView.ResizeMode.Interactive, QHeaderView.ResizeMode.Interactive,
        QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Interactive]
    assert panel.view.verticalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.Fixed
    panel.set_filter("n4")
    assert header.sectionResizeMode(3) == QHeaderView.ResizeMode.Stretch
    assert header.sectionResizeMode(1) == QHeaderView.ResizeMode.Interactive


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_the_event_and_source_columns_fit_the_widest_text_that_came_unless_sized_by_hand(panel, qtbot):
    panel.resize(900, 300)
    panel.show()
    qtbot.waitExposed(panel)
    header, metrics = panel.view.horizontalHeader(), panel.view.fontMetrics()
    state = GameState(ROSTER)
    panel.apply_delta(delta_of(state, stored(1, 1000, "down", "gm", badge=11)))
    event_width, source_width = header.sectionSize(1), header.sectionSize(4)
    assert event_width > metrics.horizontalAdvance("down (0 hit points)") >= event_width - 20
    assert header.sectionSize(0) > metrics.horizontalAdvance("00:00:01.000")
    panel.apply_delta(delta_of(state, stored(2, 2000, "valhalla_checkin", "marshal:M77", badge=11)))
    assert header.sectionSize(1) > metrics.horizontalAdvance("checked in at Valhalla") > event_width
    assert header.sectionSize(4) > metrics.horizontalAdvance("marshal:M77") > source_width
    assert panel.view.columnWidth(4) >= panel.view.sizeHintForColumn(4)      # what Qt would have fitted
    header.resizeSection(1, 60)                                # the game master narrows the Event column
    panel.apply_delta(make_delta(state, (), (), [stored(3, 3000, "roster_added", "gm", added=[21, 22])]))
    assert header.sectionSize(1) == 60
    panel.apply_delta(delta_of(state, stored(4, 4000, "note", "marshal:M1234567", text="x")))
    assert header.sectionSize(4) > metrics.horizontalAdvance("marshal:M1234567")
    widths = [header.sectionSize(c) for c in (0, 1, 4)]
    panel.set_filter("M77")                                    # the view on the filter, then on the model again
    panel.set_filter("")
    assert [header.sectionSize(c) for c in (0, 1, 4)] == widths and panel.by_hand == {1}
    font = panel.font()                                        # large text: every text measured again
    font.setPointSizeF(font.pointSizeF() * 2)
    panel.setFont(font)
    assert header.sectionSize(0) > 1.5 * widths[0] and header.sectionSize(4) > 1.5 * widths[2]
    assert header.sectionSize(1) == 60


def test_a_cell_painted_gets_its_text_and_a_retracted_rows_font_in_one_call(panel):
    """The delegate asks a cell for seven roles at once (multiData): the text and a retracted row's font come
    from the model's one call, as data() gives them."""
    from PySide6.QtCore import QModelRoleData, QModelRoleDataSpan
    from PySide6.QtWidgets import QStyleOptionViewItem

    state = GameState(ROSTER)
    panel.apply_delta(delta_of(state, stored(1, 1000, "down", badge=11), stored(2, 1500, "woke", badge=1)))
    panel.apply_delta(delta_of(state, stored(3, 2000, "retracted", "gm", seq=1, reason="wrong badge")))
    model = panel.model
    delegate = panel.view.itemDelegate()
    for row, struck in ((0, True), (1, False), (0, True), (2, False)):     # the delegate's items used again
        for column in range(model.columnCount()):
            option = QStyleOptionViewItem()
            delegate.initStyleOption(option, model.index(row, column))
            assert option.text == model.data(model.index(row, column))
            assert option.font.strikeOut() is struck
    item = QModelRoleData(int(Qt.ItemDataRole.DisplayRole))
    model.multiData(model.index(1, 2), QModelRoleDataSpan(item))
    assert item.data() == "Aldo (1)"
    model.multiData(model.index(5, 0), QModelRoleDataSpan(item))     # no such row: the item cleared
    assert item.data() is None


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_many_events_come_a_chunk_a_turn_of_the_event_loop_in_order_and_followed(qtbot):
    """Rows given by the thousand (a game opened, 200,000 given) are added CHUNK a turn, so the window is never
    held long; a delta coming meanwhile is added after them; the view follows the newest throughout."""
    panel = TimelinePanel(max_rows=1000)
    panel.model.CHUNK = 100
    qtbot.addWidget(panel)
    panel.resize(600, 250)
    panel.show()
    qtbot.waitExposed(panel)
    state = GameState(ROSTER)
    added = []
    panel.model.rowsInserted.connect(lambda _parent, first, last: added.append(last - first + 1))
    panel.set_events(notes(1, 1500))                          # the last 1,000 kept: seqs 500..1499
    assert panel.model.rowCount() == 100 and panel.model.pending_rows == 900
    assert panel.model.rows[0].seq == 500
    panel.apply_delta(make_delta(state, (), (), notes(1500, 1510)))     # a delta while they come
    assert panel.model.pending_rows == 910
    QApplication.processEvents()                              # one turn of the event loop: one chunk
    assert panel.model.rowCount() == 200
    qtbot.waitUntil(lambda: panel.model.pending_rows == 0)
    assert added == [100] * 10 + [10]                           # never more than a chunk at a time
    assert [s.seq for s in panel.model.rows] == list(range(510, 1510))    # in order, the cap kept
    bar = panel.view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() > 0)
    assert panel.following
    panel.set_events(notes(1, 350))                           # given again while the last come: replaced
    panel.set_events(notes(2000, 2150))
    qtbot.waitUntil(lambda: panel.model.pending_rows == 0)
    assert [s.seq for s in panel.model.rows] == list(range(2000, 2150))


def test_a_delta_of_a_few_events_is_added_at_once(panel):
    state = GameState(ROSTER)
    panel.set_events(notes(1, 50))
    panel.apply_delta(make_delta(state, (), (), notes(50, 60)))
    assert panel.model.rowCount() == 59 and panel.model.pending_rows == 0


def test_the_windows_timeline_adds_live_rows_at_most_every_hold_ms_together(qtbot):
    """A view following the newest event scrolls and paints every row again at each addition: the window's
    timeline adds what comes live at most every LIVE_HOLD_MS, in order and in one addition; the first delta
    after a quiet spell and a game opened show at once."""
    from controlroom.ui.panels.timeline import LIVE_HOLD_MS

    panel = TimelinePanel(hold_ms=LIVE_HOLD_MS)
    qtbot.addWidget(panel)
    state = GameState(ROSTER)
    panel.set_events(notes(1, 50))
    assert panel.model.rowCount() == 49                     # opened: at once
    additions = []
    panel.model.rowsInserted.connect(lambda _p, first, last: additions.append((first, last)))
    qtbot.wait(LIVE_HOLD_MS + 50)                           # a quiet spell
    panel.apply_delta(make_delta(state, (), (), notes(50, 52)))
    assert panel.model.rowCount() == 51                     # at once: nothing added in the last LIVE_HOLD_MS
    panel.apply_delta(make_delta(state, (), (), notes(52, 55)))
    panel.apply_delta(make_delta(state, (), (), notes(55, 60)))
    assert panel.model.rowCount() == 51 and panel.model.pending_rows == 8
    qtbot.waitUntil(lambda: panel.model.rowCount() == 59, timeout=LIVE_HOLD_MS + 1000)
    assert additions == [(49, 50), (51, 58)]                # the two held deltas in one addition
    assert [r.seq for r in panel.model.rows] == list(range(1, 60))
    assert TimelinePanel().model.hold_ms == 0               # (a panel of its own adds at once, as the tests expect)
    panel.apply_delta(make_delta(state, (), (), [stored(60, 60_000, "retracted", seq=55, reason="x")]))
    rows, retracted = panel.model.everything()              # held back, yet known (a player's card shows them)
    assert panel.model.rowCount() == 59 and [r.seq for r in rows][-2:] == [59, 60] and retracted == {55}


def test_a_long_text_is_elided_on_its_one_line_not_wrapped_into_a_row_too_low(panel):
    """Rows are one line high (fixed): a long name wrapped onto two lines was cut in half in the window."""
    assert not panel.view.wordWrap()
    assert panel.view.textElideMode() == Qt.TextElideMode.ElideRight
    assert panel.view.verticalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.Fixed
