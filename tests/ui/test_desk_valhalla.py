"""The Valhalla desk on a real core and game file: check-ins by badge, refusals, countdowns, counts per side."""

import pytest
from PySide6.QtCore import Qt

from controlroom.ui.desks.common import ERROR_STYLE, OK_STYLE
from controlroom.ui.desks.valhalla import ValhallaDesk
from tests.support.desk_game import folded, new_game, running, stored


@pytest.fixture
def desk(qtbot):
    d = ValhallaDesk(lambda: 0)
    qtbot.addWidget(d)
    return d


def type_badge(qtbot, desk, text):
    desk.badge_field.clear()
    qtbot.keyClicks(desk.badge_field, text)
    qtbot.keyClick(desk.badge_field, Qt.Key.Key_Return)


def rows(model):
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def checkins(path):
    return [(e.data["badge"], e.source) for e in stored(path) if e.type == "valhalla_checkin"]


def test_a_dead_player_checks_in_and_the_counts_follow(qtbot, desk, game_db):
    game = new_game(game_db)            # a SQLite file, then a PostgreSQL database (when a server is given)
    with running(qtbot, game, desk):
        assert desk.side_text("North") == "North\n0 in Valhalla \u00b7 1 dead \u00b7 1 deaths"
        type_badge(qtbot, desk, " 2 ")
        assert desk.badge_field.text() == ""
        qtbot.waitUntil(lambda: desk.result.text().startswith("Checked in"), timeout=5000)
        assert "Birgit (badge 2) \u00b7 North / Wolves" in desk.result.text()
        assert "Respawns in 9:00" in desk.result.text() and desk.result.styleSheet() == OK_STYLE
        assert desk.side_labels["North"].text() == "North\n1 in Valhalla \u00b7 1 dead \u00b7 1 deaths"
        assert desk.side_labels["South"].text() == "South\n0 in Valhalla \u00b7 0 dead \u00b7 0 deaths"
        assert desk.history.item(0).text().endswith("Birgit (badge 2) checked in")
        assert rows(desk.model)[0][:5] == ["Birgit (2)", "North", "Wolves", "in Valhalla", "1"]
        qtbot.waitUntil(lambda: checkins(game) == [(2, "gm:valhalla")], timeout=5000)
    assert folded(game).characters[2].in_valhalla


def test_a_living_player_is_refused_and_nothing_changes(qtbot, desk, tmp_path):
    game = new_game(tmp_path / "v.crgame")
    with running(qtbot, game, desk):
        type_badge(qtbot, desk, "1")
        qtbot.waitUntil(lambda: desk.result.text().startswith("REFUSED"), timeout=5000)
        assert desk.result.text().startswith(
            "REFUSED: Aldo (badge 1) is not dead (active): only the dead check in at Valhalla.")
        assert desk.result.styleSheet() == ERROR_STYLE
        assert desk.history.item(0).text().endswith("Aldo (badge 1) refused")
        assert desk.side_text("North") == "North\n0 in Valhalla \u00b7 1 dead \u00b7 1 deaths"
        qtbot.waitUntil(lambda: checkins(game) == [(1, "gm:valhalla")], timeout=5000)
    state = folded(game)            # the refused check-in is in the log, and changes nothing
    assert not any(c.in_valhalla for c in state.characters.values())
    assert [(w.badge, w.code) for w in state.warnings] == [(1, "not_dead")]


def test_a_second_check_in_is_refused(qtbot, desk, tmp_path):
    game = new_game(tmp_path / "v.crgame")
    with running(qtbot, game, desk):
        type_badge(qtbot, desk, "2")
        qtbot.waitUntil(lambda: desk.result.text().startswith("Checked in"), timeout=5000)
        type_badge(qtbot, desk, "2")
        qtbot.waitUntil(lambda: desk.result.text().startswith("REFUSED"), timeout=5000)
        assert "Birgit (badge 2) has already checked in at Valhalla." in desk.result.text()
        assert desk.side_text("North") == "North\n1 in Valhalla \u00b7 1 dead \u00b7 1 deaths"


def test_unknown_and_bad_badges_send_nothing(qtbot, desk, tmp_path):
    game = new_game(tmp_path / "v.crgame")
    with running(qtbot, game, desk):
        with qtbot.assertNotEmitted(desk.entry):
            type_badge(qtbot, desk, "99")
            assert desk.result.text() == "No player has badge 99 in this game's roster."
            type_badge(qtbot, desk, "Birgit")
            assert desk.result.text().startswith("\u201cBirgit\u201d is not a badge number")
            assert desk.result.styleSheet() == ERROR_STYLE
    assert checkins(game) == []


def test_respawn_countdowns_of_the_dead(qtbot, desk, tmp_path):
    game = new_game(tmp_path / "v.crgame")
    with running(qtbot, game, desk) as core:
        assert rows(desk.model) == [["Birgit (2)", "North", "Wolves", "dead, not yet in Valhalla", "1", "9:00"]]
        assert desk.respawn_note.text() == ""
        core.worker.clock.advance_to(300_000)
        with qtbot.waitSignal(core.delta_published, timeout=5000):
            core.poll()
        desk.refresh()
        assert rows(desk.model)[0][5] == "6:00"
        core.worker.clock.advance_to(660_000)           # respawned: no longer among the dead
        core.poll()
        qtbot.waitUntil(lambda: desk.model.rowCount() == 0, timeout=5000)
        assert desk.respawn_note.text().startswith("No respawn countdowns")


def test_the_game_still_opening_is_said(qtbot, desk):
    with qtbot.assertNotEmitted(desk.entry):
        type_badge(qtbot, desk, "2")
    assert desk.result.text() == "The game is still opening: try again in a moment."
