"""Game, Import roster: an Estonian desk's export mapped by hand, checked by line, imported into the open game.

Real game files, the real core in its thread, the real window: the dialog
reads the file, offers a combo box for the column and the word it does not
know, keeps Import disabled while a problem stands, and the players it
imports are in the game the window shows, and in the game file.
"""

import pytest
from PySide6.QtCore import QSettings

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.store.game import GameStore
from controlroom.ui.app import build_window
from controlroom.ui.dialogs.roster_import import MAPPING_KEY, RosterImportDialog

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                                       "This plugin does not support raise")

ROSTER = [Member(1, "Aldo", "Põhi", "Hundid"), Member(2, "Birgit", "Põhi", "Hundid"),
          Member(11, "Gerd", "Lõuna", "Karud")]


def desk_file(path, rows):
    """As the Estonian desk's spreadsheet writes it: UTF-8 with a BOM, semicolons, CRLF line ends; its badge
    column under a header of its own ("Kaardi nr"), which no alias knows."""
    text = "Kaardi nr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n" + "".join(r + "\r\n" for r in rows)
    path.write_bytes(("\ufeff" + text).encode("utf-8"))
    return path


FIRST = ["1;Aldo;Põhi;Hundid;Sõdalane;jah;;",                # in the game already, as it is there
         "150;Õie Tamm;Põhi;Hundid;Võitleja;jah;nahk;ahel",  # "Võitleja": a word the ruleset does not know
         "151;Jüri Kask;Lõuna;Karud;Sõdalane;ei;metall;plaat"]


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "laupäev.crgame"
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
    return path


@pytest.fixture
def window(qtbot, tmp_path, game):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    QSettings().remove(MAPPING_KEY)
    core = CoreThread(str(game), VirtualClock(60_000), publish_interval_ms=20)
    w = build_window(core, None, "roster")
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    yield w
    assert core.shutdown()


def problems(dialog):
    return [dialog.problems.item(i).text() for i in range(dialog.problems.count())]


def stored_badges(game):
    with GameStore.open(game, create=False) as store:
        return [m.badge for m in store.roster()]


def open_dialog(qtbot, window) -> RosterImportDialog:
    window.roster_action.trigger()                  # Game, Import roster…
    dialog = window.roster_dialog
    assert isinstance(dialog, RosterImportDialog) and dialog.isVisible()
    return dialog


def test_a_desk_export_is_mapped_by_hand_imported_and_its_mapping_offered_again(qtbot, window, game, tmp_path):
    dialog = open_dialog(qtbot, window)
    dialog.open_file(desk_file(tmp_path / "registreerimine.csv", FIRST))
    # The column no alias knows: a combo box, and the problem by line; Import disabled.
    assert list(dialog.column_boxes) == ["kaardi nr"]
    assert problems(dialog) == ["line 1: missing column 'badge'"]
    assert not dialog.import_button.isEnabled()
    assert dialog.table.rowCount() == 3 and dialog.table.item(1, 2).text() == "Õie Tamm"
    box = dialog.column_boxes["kaardi nr"]
    box.setCurrentIndex(box.findData("badge"))
    # Now the word the ruleset does not know, on its line, with a combo box of the ruleset's classes.
    assert problems(dialog) == ["line 3: unknown class 'Võitleja' (this ruleset knows: healer, warrior)"]
    assert list(dialog.value_boxes) == [("class", "võitleja")]
    assert dialog.table.item(1, 0).text() == "⚠ 3" and not dialog.import_button.isEnabled()
    word = dialog.value_boxes[("class", "võitleja")]
    word.setCurrentIndex(word.findData("warrior"))
    assert problems(dialog) == []
    qtbot.waitUntil(dialog.import_button.isEnabled, timeout=10_000)    # the core found nothing against it
    assert "2 new players" in dialog.status.text() and "1 of the file's players" in dialog.status.text()
    assert stored_badges(game) == [1, 2, 11]                             # a check stores nothing
    core = window.core
    with qtbot.waitSignal(dialog.imported, timeout=10_000) as done, \
            qtbot.waitSignal(core.delta_published, timeout=10_000,
                             check_params_cb=lambda d: d.full and any(c.badge == 151 for c in d.characters)) as delta:
        dialog.import_button.click()
    assert done.args == [2, 1]
    views = {c.badge: c for c in delta.args[0].characters}
    assert (views[150].name, views[150].cls, views[150].side) == ("Õie Tamm", "warrior", "Põhi")
    assert views[151].group == "Karud" and set(views) == {1, 2, 11, 150, 151}
    qtbot.waitUntil(lambda: 150 in window.characters and 151 in window.characters, timeout=10_000)
    assert "2 players added" in window.status.text()
    assert stored_badges(game) == [1, 2, 11, 150, 151]
    # The next file: the mapping is remembered and offered again, so it imports as it is.
    again = open_dialog(qtbot, window)
    assert again is not dialog
    again.open_file(desk_file(tmp_path / "hilinejad.csv", ["160;Mart Mets;Lõuna;Karud;Võitleja;jah;;"]))
    assert again.column_boxes["kaardi nr"].currentData() == "badge"
    assert again.value_boxes[("class", "võitleja")].currentData() == "warrior"
    assert problems(again) == []
    qtbot.waitUntil(again.import_button.isEnabled, timeout=10_000)
    with qtbot.waitSignal(again.imported, timeout=10_000):
        again.import_button.click()
    assert stored_badges(game) == [1, 2, 11, 150, 151, 160]


def test_a_file_with_a_broken_line_imports_nothing(qtbot, window, game, tmp_path):
    dialog = open_dialog(qtbot, window)
    dialog.open_file(desk_file(tmp_path / "katki.csv", [
        "150;Õie Tamm;Põhi;Hundid;Sõdalane;jah;;",
        "kolm;Jüri Kask;Lõuna;Karud;Sõdalane;võib-olla;;",       # no badge number, no yes or no
        "152;Mari Mägi;Lõuna;Karud;Sõdalane;ei;;"]))
    box = dialog.column_boxes["kaardi nr"]
    box.setCurrentIndex(box.findData("badge"))
    assert problems(dialog) == [
        "line 3: badge 'kolm' is not a whole number above 0",
        "line 3: paid 'võib-olla' is not yes or no (accepted: yes, no, true, false, 1, 0, jah, ei)"]
    # The word "võib-olla" may be mapped by hand (a yes/no column), but the badge stays broken.
    assert list(dialog.value_boxes) == [("paid", "võib-olla")]
    paid = dialog.value_boxes[("paid", "võib-olla")]
    paid.setCurrentIndex(paid.findData("no"))
    assert problems(dialog) == ["line 3: badge 'kolm' is not a whole number above 0"]
    dialog.problems.setCurrentRow(0)
    assert dialog.table.currentRow() == 1                           # the problem's line, shown in the preview
    dialog.import_button.click()                                      # disabled: nothing happens
    qtbot.wait(200)
    assert not dialog.import_button.isEnabled() and dialog.isVisible()
    assert stored_badges(game) == [1, 2, 11]
    assert 150 not in window.characters


def test_players_the_game_has_otherwise_are_problems_by_line_before_import(qtbot, window, game, tmp_path):
    dialog = open_dialog(qtbot, window)
    dialog.open_file(desk_file(tmp_path / "muudetud.csv", [
        "2;Birgit;Põhi;Hundid;Sõdalane;ei;;",               # in the game as paid
        "170;Kai;Põhi;Karud;Sõdalane;jah;;"]))              # Karud fight for Lõuna in this game
    box = dialog.column_boxes["kaardi nr"]
    box.setCurrentIndex(box.findData("badge"))
    qtbot.waitUntil(lambda: len(problems(dialog)) == 2, timeout=10_000)
    assert problems(dialog) == [
        "line 2: badge 2 is already in the game as 'Birgit' (Hundid), and this line differs in: paid; "
        "a game under way only takes new players",
        "line 3: group 'Karud' is on side 'Lõuna' in the game, not 'Põhi'"]
    assert [dialog.table.item(r, 0).text() for r in range(2)] == ["⚠ 2", "⚠ 3"]
    assert not dialog.import_button.isEnabled() and "nothing was imported" in dialog.status.text()
    assert stored_badges(game) == [1, 2, 11]


@pytest.fixture
def estonian(monkeypatch):
    """The application speaks Estonian while the test runs (as tests/ui/test_window_estonian.py has it)."""
    from PySide6.QtWidgets import QApplication

    from controlroom import i18n
    from controlroom.ui import language

    monkeypatch.setenv("CONTROLROOM_LANG", "et")
    i18n.choose(None)
    app = QApplication.instance()
    translator = language.install_translator(app, "et")
    yield app
    app.removeTranslator(translator)
    app.setProperty("controlroom_translator", None)
    monkeypatch.setenv("CONTROLROOM_LANG", "en")
    i18n.choose(None)


def test_the_dialog_and_its_problems_speak_estonian(qtbot, estonian, tmp_path, game):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    QSettings().remove(MAPPING_KEY)
    core = CoreThread(str(game), VirtualClock(60_000), publish_interval_ms=20)
    window = build_window(core, None, "et")
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        game_menu = window.menuBar().actions()[0].menu()
        assert "&Impordi nimekiri…" in [a.text() for a in game_menu.actions()]
        dialog = open_dialog(qtbot, window)
        assert dialog.windowTitle() == "Nimekirja import" and dialog.import_button.text() == "Impordi"
        dialog.open_file(desk_file(tmp_path / "registreerimine.csv", FIRST))
        assert problems(dialog) == ["rida 1: veerg 'märk' puudub"]
        box = dialog.column_boxes["kaardi nr"]
        assert box.itemText(0) == "(jäta välja)" and box.findText("Märgi number") > 0
        box.setCurrentIndex(box.findData("badge"))
        assert problems(dialog) == ["rida 3: tundmatu klass 'Võitleja' (see reeglistik tunneb: healer, warrior)"]
        assert dialog.problems_title.text().startswith("Probleeme: 1")
        dialog.reject()
    finally:
        assert core.shutdown()


def test_an_answer_to_the_file_as_it_was_mapped_before_does_not_enable_import(qtbot, window, game, tmp_path):
    dialog = open_dialog(qtbot, window)
    dialog.open_file(desk_file(tmp_path / "registreerimine.csv", FIRST))
    box = dialog.column_boxes["kaardi nr"]
    box.setCurrentIndex(box.findData("badge"))
    word = dialog.value_boxes[("class", "võitleja")]
    with qtbot.waitSignal(window.core.roster_answered, timeout=10_000):
        word.setCurrentIndex(word.findData("warrior"))          # clean: the core is asked ...
        word.setCurrentIndex(0)                                 # ... and at once the word is unknown again
    qtbot.wait(100)
    assert problems(dialog) == ["line 3: unknown class 'Võitleja' (this ruleset knows: healer, warrior)"]
    assert not dialog.import_button.isEnabled()


def test_the_desks_jah_helmets_are_given_their_kind_in_the_dialog_and_its_xlsx_imports(qtbot, window, game,
                                                                                          tmp_path):
    """The desk's own file (tests/game/data/desk-roster.csv): one question for its 'jah' helmets, answered
    with a combo box of the ruleset's helmets; its quota problem reported beside it; the mended file, as .xlsx,
    imports with the helmets of the kind chosen."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "desk_roster_sample", Path(__file__).parents[1] / "game" / "test_roster_desk.py")
    desk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(desk)
    DESK, HELMET_QUESTION, QUOTA, as_xlsx, mended = (  # noqa: N806 - the sample's names, as it has them
        desk.DESK, desk.HELMET_QUESTION, desk.QUOTA, desk.as_xlsx, desk.mended)
    dialog = open_dialog(qtbot, window)
    dialog.open_file(DESK)
    assert problems(dialog) == [HELMET_QUESTION, QUOTA]
    assert list(dialog.value_boxes) == [("helmet", "jah")]
    label = dialog.values_form.labelForField(dialog.value_boxes[("helmet", "jah")])
    assert label.text() == "Helmet “jah” (its kind not written) is"
    kind = dialog.value_boxes[("helmet", "jah")]
    assert [kind.itemData(i) for i in range(kind.count())] == [None, "leather", "metal"]
    kind.setCurrentIndex(kind.findData("metal"))
    assert problems(dialog) == [QUOTA]
    good = as_xlsx(mended(DESK.read_text("utf-8-sig")), Path(tmp_path) / "parandatud.xlsx")
    dialog.open_file(good)
    assert problems(dialog) == [] and dialog.table.rowCount() == 11
    qtbot.waitUntil(dialog.import_button.isEnabled, timeout=10_000)
    with qtbot.waitSignal(dialog.imported, timeout=10_000):
        dialog.import_button.click()
    with GameStore.open(game, create=False) as store:
        helmets = {m.badge: m.helmet for m in store.roster()}
    assert helmets[101] == helmets[103] == "metal" and helmets[102] is None and len(helmets) == 14
