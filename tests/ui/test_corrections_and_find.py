"""Correcting a report (timeline and player card), Ctrl+Z within a minute, and Find (Ctrl+F) with a player card."""

import time

import pytest
from PySide6.QtCore import QSettings

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.ui.app import build_window
from controlroom.ui.dialogs.correction import CorrectionDialog
from controlroom.ui.dialogs.find import FindDialog, find
from controlroom.ui.dialogs.player_card import PlayerCard
from tests.support.desk_game import folded, new_game, stored

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                                       "This plugin does not support raise")


@pytest.fixture
def game(tmp_path):
    return new_game(tmp_path / "corrections.crgame")


@pytest.fixture
def window(qtbot, tmp_path, game):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    core = CoreThread(game, VirtualClock(120_000), publish_interval_ms=20)
    w = build_window(core, None, "corrections")
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    yield w
    for dialog in list(w.entries.cards.values()):
        dialog.close()
    assert core.shutdown()


def enter(qtbot, window, type_, **fields):
    """A report entered by the game master on the voice-radio form; its stored seq."""
    timeline = window.panels.panels["timeline"].model
    before = timeline.last_seq
    window.panels.panels["controls"].manual_entry.emit(type_, fields)
    qtbot.waitUntil(lambda: any(s.seq > before and s.event.type == type_ for s in timeline.rows), timeout=5000)
    return next(s.seq for s in timeline.rows if s.seq > before and s.event.type == type_)


def wait_stored(qtbot, game, predicate):
    qtbot.waitUntil(lambda: any(predicate(e) for e in stored(game)), timeout=5000)


def test_a_report_on_the_wrong_badge_is_taken_back_and_replaced(window, qtbot, game):
    seq = enter(qtbot, window, "down", badge=1)                    # the marshal said 1; it was 3
    panel = window.panels.panels["timeline"]
    row = next(s for s in panel.model.rows if s.seq == seq)
    menu = panel.menu_for(row)
    actions = {a.text(): a for a in menu.actions()}
    assert actions["Correct this report\u2026"].isEnabled() and "Player card" in actions
    with qtbot.waitSignal(panel.correct_requested) as asked:
        actions["Correct this report\u2026"].trigger()
    assert asked.args == [seq]
    dialog = window.entries.correction_dialog
    assert isinstance(dialog, CorrectionDialog) and dialog.badge.text() == "1"
    dialog.accept()                                               # no reason: refused, said why
    assert dialog.isVisible() and "Say why" in dialog.message.text()
    dialog.reason.setText("the marshal gave the wrong badge")
    dialog.replace.setChecked(True)
    dialog.badge.setText("3")
    dialog.accept()
    wait_stored(qtbot, game, lambda e: e.type == "down" and e.data.get("badge") == 3)
    events = stored(game)
    retraction = next(e for e in events if e.type == "retracted")
    assert retraction.data == {"seq": seq, "reason": "the marshal gave the wrong badge"}
    assert [e.type for e in events].index("retracted") < [e.data.get("badge") for e in events].index(3)
    state = folded(game)
    assert state.characters[1].condition == "active" and state.characters[3].condition != "active"
    # The wrong row is struck out and cannot be corrected twice.
    qtbot.waitUntil(lambda: seq in panel.model.retracted, timeout=5000)
    again = {a.text(): a for a in panel.menu_for(row).actions()}
    assert not again["Correct this report\u2026"].isEnabled()


def test_ctrl_z_takes_back_the_last_entry_within_a_minute(window, qtbot, game):
    window.undo_action.trigger()
    assert window.status.text().startswith("Nothing to undo")
    seq = enter(qtbot, window, "valhalla_checkin", badge=2)        # the wrong player checked in
    assert window.undo_action.shortcut().toString() == "Ctrl+Z"
    window.undo_action.trigger()
    wait_stored(qtbot, game, lambda e: e.type == "retracted" and e.data.get("seq") == seq)
    assert next(e for e in stored(game) if e.type == "retracted").data["reason"] == "undone by the game master (Ctrl+Z)"
    window.undo_action.trigger()                                  # once only
    assert window.status.text().startswith("Nothing to undo")
    # A report of another station's game master (or a radio) is not this window's to undo.
    window.core.submit("down", {"badge": 12}, "gm")
    model = window.panels.panels["timeline"].model
    qtbot.waitUntil(lambda: any(s.event.data.get("badge") == 12 for s in model.rows), timeout=5000)
    window.undo_action.trigger()
    assert window.status.text().startswith("Nothing to undo")
    # A desk's entry at this window is.
    desk = window.desk_switch.desks["valhalla"]
    desk.badge_field.setText("2")
    desk.check_in()
    qtbot.waitUntil(lambda: any(s.event.type == "valhalla_checkin" and s.event.source != "gm" for s in model.rows),
                    timeout=5000)
    window.undo_action.trigger()
    wait_stored(qtbot, game, lambda e: e.type == "retracted" and e.data.get("seq") == max(
        s.seq for s in model.rows if s.event.type == "valhalla_checkin"))
    # An entry older than a minute is not undone by Ctrl+Z.
    late = enter(qtbot, window, "down", badge=11)
    window.entries._last_entry = (late, time.monotonic() - 61)
    window.undo_action.trigger()
    assert "more than a minute old" in window.status.text()
    assert not any(e.type == "retracted" and e.data.get("seq") == late for e in stored(game))


def test_find_names_a_badge_a_player_or_a_group(window):
    people = list(window.characters.values())
    assert [f.key for f in find("2", people)] == [2]
    assert [f.key for f in find("birgit", people)] == [2]
    assert [(f.kind, f.key) for f in find("ravens", people)] == [("group", "Ravens")]
    assert len(find("e", people)) > 1 and find("nobody", people) == []
    dialog = FindDialog(people, window)
    dialog.field.setText("Wol")
    dialog.accept()
    assert dialog.found is None and "match" in dialog.message.text()         # Wolves, and two Wolves players
    dialog.field.setText("42")
    dialog.accept()
    assert "No badge, player or group" in dialog.message.text()
    dialog.field.setText("Hilde")
    dialog.accept()
    assert dialog.found.key == 12


def test_find_opens_the_player_card_and_corrections_start_there(window, qtbot, game):
    seq = enter(qtbot, window, "strike", badge=2, count=1)
    window.find_action.trigger()
    dialog = window.entries.find_dialog
    assert window.find_action.shortcut().toString() == "Ctrl+F"
    dialog.field.setText("Birgit (2) \u00b7 Wolves")
    dialog.accept()
    card = window.entries.cards[2]
    assert isinstance(card, PlayerCard) and card.isVisible()
    assert "Birgit" in card.title.text() and "Hit points" in card.state.text() and "armour points" in card.state.text()
    assert "dead" in card.state.text()                       # Birgit died at 00:01:00 (the test game)
    assert "respawns" in card.deadlines.text()               # ... and respawns after 10 minutes
    assert [s.seq for s in card.history_rows][-1] == seq and "Reported by: " in card.devices.text()
    assert "gm" in card.devices.text() and "marshal:M1" in card.devices.text()
    card.history.selectRow(len(card.history_rows) - 1)
    with qtbot.waitSignal(card.correct_requested) as asked:
        card.correct.click()
    assert asked.args == [seq]
    window.entries.correction_dialog.reason.setText("a strike on the shield")
    window.entries.correction_dialog.accept()
    wait_stored(qtbot, game, lambda e: e.type == "retracted" and e.data.get("seq") == seq)
    qtbot.waitUntil(lambda: seq in card.retracted, timeout=5000)             # the card follows
    assert card.history.item(len(card.history_rows) - 1, 0).font().strikeOut()


def test_deaths_raise_one_game_alarm_row_with_a_count(window, qtbot):
    alarms = window.panels.alarms
    alarms.sound.player = None                         # recorded, not played
    enter(qtbot, window, "died", badge=1)
    enter(qtbot, window, "died", badge=11)
    qtbot.waitUntil(lambda: any(s.latest.kind == "death" and s.count == 2 for s in alarms.board.rows()), timeout=5000)
    row = next(r for r in alarms.shown_rows() if r.state.latest.kind == "death")
    assert row.cls_label.text() == "GAME" and "Gerd (11, Ravens) died" in row.label.full and "\u00d72" in row.label.full
    assert row.button.text() == "Acknowledge all game"


def test_injury_stopps_from_the_core_are_listed_under_more_and_acknowledged_there(qtbot, window, game):
    """Five STOPPs for injuries (from the core, through the window's wiring): three rows on the strip, "+2 more"
    opens the window's list of all five, and acknowledging one there stores it as acknowledged."""
    from PySide6.QtCore import Qt

    banner = window.panels.alarms
    banner.sound = lambda cls: None
    for _ in range(5):
        window.panels.panels["controls"].stopp_call.emit("injury")
    qtbot.waitUntil(lambda: len(banner.alarm_ids()) == 5, timeout=5000)
    assert {r.state.latest.kind for r in banner.shown_rows()} == {"injury"} and banner.more.text() == "+2 more"
    qtbot.mouseClick(banner.more, Qt.MouseButton.LeftButton)
    dialog = window.alarm_list
    assert dialog is not None and dialog.isVisible() and len(dialog.shown_rows()) == 5
    last = dialog.shown_rows()[-1]                       # not on the strip
    assert last.state.key not in [r.state.key for r in banner.shown_rows()]
    qtbot.mouseClick(last.button, Qt.MouseButton.LeftButton)
    wait_stored(qtbot, game, lambda e: e.type == "alarm_acknowledged" and e.data["alarm"] == last.state.key)
    assert len(dialog.shown_rows()) == 4 and banner.more.isHidden() is False
    dialog.close()
