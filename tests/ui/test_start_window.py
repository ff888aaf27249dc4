"""The start window (issue 37, part 6): a first start that welcomes, instead of a save dialog asking for "games".

Each way out of it: a new game (saved in the games folder under its name, its
map kept and its roster imported: a real subprocess of ``controlroom``), a game
file, a PostgreSQL address, a recent game, the demo (what the command line
would launch, without running a battle); and what it says when a choice
cannot be taken.  In the user's language, with night mode and large text.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from controlroom import cli, i18n
from controlroom.store.game import GameStore
from controlroom.store.maps import current_map
from controlroom.ui import language
from controlroom.ui.dialogs import start
from controlroom.ui.dialogs.games import games_dir, recent_games, remember_game
from controlroom.ui.dialogs.start import StartDialog
from controlroom.ui.dialogs.start_choice import StartChoice, file_name_for

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEMO = ROOT / "resources" / "demo"
NAME = "Laupäevane lahing"

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The user's folders and settings in ``tmp_path``; no game opened yet."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("CONTROLROOM_LOG_DIR", str(tmp_path / "log"))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    QSettings().clear()
    yield tmp_path
    QSettings().clear()


@pytest.fixture
def dialog(qtbot, home):
    d = StartDialog()
    qtbot.addWidget(d)
    d.show()
    return d


def test_a_new_game_goes_to_the_games_folder_under_its_name(dialog, home):
    assert games_dir() == home / "data" / "controlroom" / "games"
    dialog.new_button.click()
    assert dialog.choice is None and "name" in dialog.message.text()          # no name: said, nothing chosen
    dialog.name.setText(NAME)
    dialog.map_file.setText(str(DEMO / "nowhere.png"))
    dialog.new_button.click()
    assert dialog.choice is None and "nowhere.png" in dialog.message.text()
    dialog.map_file.setText(str(DEMO / "field.png"))
    dialog.roster_file.setText(str(DEMO / "roster.csv"))
    dialog.new_button.click()
    assert dialog.choice == StartChoice("new", str(games_dir() / f"{NAME}.crgame"), str(DEMO / "field.png"),
                                        str(DEMO / "roster.csv"))
    assert games_dir().is_dir() and not dialog.isVisible()


def test_a_name_taken_is_refused_and_names_make_safe_file_names(qtbot, home):
    games_dir().mkdir(parents=True)
    (games_dir() / f"{NAME}.crgame").write_bytes(b"")
    d = StartDialog()
    qtbot.addWidget(d)
    d.name.setText(f"  {NAME} ")
    d.new_button.click()
    assert d.choice is None and NAME in d.message.text()
    assert file_name_for("Lahing: 1/2 ") == "Lahing_ 1_2.crgame"
    assert file_name_for("../..") == "game.crgame" and file_name_for("Võru „öö”") == "Võru _öö_.crgame"


def test_a_game_file_or_a_postgresql_address_is_opened(qtbot, home, monkeypatch):
    game = home / "old.crgame"
    GameStore.open(game).close()
    monkeypatch.setattr(start.QFileDialog, "getOpenFileName", lambda *a, **k: (str(game), ""))
    d = StartDialog()
    qtbot.addWidget(d)
    d.open_button.click()
    assert d.choice == StartChoice("open", str(game))
    d = StartDialog()
    qtbot.addWidget(d)
    d.address.setText("db.example/game")
    d.open_address()
    assert d.choice is None and "postgresql://" in d.message.text()
    d.address.setText("postgresql+psycopg://gm@db.example/game")
    d.open_address()
    assert d.choice == StartChoice("open", "postgresql+psycopg://gm@db.example/game")


def test_the_recent_games_are_offered_and_one_gone_is_said_so(qtbot, home):
    kept = home / "kept.crgame"
    GameStore.open(kept).close()
    remember_game(str(home / "gone.crgame"))
    remember_game("postgresql://gm:secret@db.example/summer")
    remember_game(str(kept))
    d = StartDialog()
    qtbot.addWidget(d)
    items = [d.recent.item(i) for i in range(d.recent.count())]
    assert [i.text() for i in items] == ["kept", "postgresql://gm@db.example/summer", "gone (not found)"]
    assert not items[2].flags() & items[2].flags().ItemIsEnabled
    d.recent.setCurrentItem(items[2])
    d.recent_button.click()
    assert d.choice is None and d.message.text()
    d.recent.setCurrentItem(items[0])
    d.recent_button.click()
    assert d.choice == StartChoice("open", str(kept))


def test_the_demo_is_chosen_and_the_command_line_launches_controlroom_demo(qtbot, home, monkeypatch):
    launched = []
    import controlroom.commands.demo as demo
    import controlroom.ui.app as app

    monkeypatch.setattr(demo, "run", lambda args: launched.append(("demo", vars(args))) or 0)
    monkeypatch.setattr(app, "run_window", lambda db, ports, **kw: launched.append(("window", db, kw)) or 0)

    def click(button: str):
        d = QApplication.activeModalWidget()
        if not isinstance(d, StartDialog):
            QTimer.singleShot(50, lambda: click(button))
            return
        if button == "new":
            d.name.setText(NAME)
        getattr(d, f"{button}_button").click()

    QTimer.singleShot(0, lambda: click("demo"))
    assert cli.main([]) == 0
    assert launched == [("demo", {"db": None, "speed": 10.0, "duration": 120.0, "seed": 2026, "quit_after": None,
                                  "screenshot": None, "night": False, "tcp": False})]
    launched.clear()
    QTimer.singleShot(0, lambda: click("new"))          # a new game: the window opens it, nothing else asked
    assert cli.main([]) == 0
    ((what, db, kw),) = launched
    assert what == "window" and db == str(games_dir() / f"{NAME}.crgame") and kw["before_start"] is not None
    launched.clear()
    remember_game(str(home / "gone.crgame"))            # the last game gone: the start window again
    QTimer.singleShot(0, lambda: click("demo"))
    assert cli.main([]) == 0 and launched[0][0] == "demo"
    launched.clear()
    GameStore.open(home / "there.crgame").close()
    remember_game(str(home / "there.crgame"))           # the last game there: opened without asking
    assert cli.main([]) == 0 and launched == [("window", str(home / "there.crgame"), launched[0][2])]
    QTimer.singleShot(0, lambda: QApplication.activeModalWidget().reject())
    remember_game(str(home / "gone.crgame"))
    assert cli.main([]) == 2                            # quit in the start window: no game chosen


def test_it_follows_night_mode_large_text_and_the_language(qtbot, home):
    QSettings().setValue("window/night", True)
    QSettings().setValue("window/large", True)
    i18n.choose("et")
    translator = language.install_translator(QApplication.instance(), "et")
    try:
        d = StartDialog()
        qtbot.addWidget(d)
        assert d.windowTitle() == "Tere tulemast controlroomi" and d.demo_button.text() == "Käivita demo"
        assert d.palette().color(QPalette.ColorRole.Window).name() == "#1e1e1e"
        assert d.font().pointSizeF() == start.LARGE_POINTS
    finally:
        if translator is not None:
            QApplication.instance().removeTranslator(translator)
        QApplication.instance().setProperty("controlroom_translator", None)
        i18n.choose(None)


def test_a_new_game_started_from_the_start_window_has_its_roster_and_map(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER")}
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    env.update(QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(run), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               CONTROLROOM_LOG_DIR=str(tmp_path / "log"))
    probe = str(HERE.parent / "support" / "start_probe.py")
    done = subprocess.run([sys.executable, probe, NAME, str(DEMO / "field.png"), str(DEMO / "roster.csv"), "8"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "start window: Welcome to controlroom" in done.stdout
    assert "Roster imported: 300 players added" in done.stdout, done.stdout
    game = tmp_path / "data" / "controlroom" / "games" / f"{NAME}.crgame"
    with GameStore.open(game, create=False) as store:
        assert len(store.roster()) == 300
        kept = current_map(store)
        assert kept is not None and kept.name == "field.png"
    assert not (tmp_path / "games").exists()                   # not in the folder it was started from
    settings = QSettings(str(tmp_path / "config" / "controlroom" / "controlroom.conf"), QSettings.Format.IniFormat)
    assert str(game) in (settings.value("games/recent") or [])


def test_recent_games_are_kept_newest_first(home):
    remember_game("a")
    remember_game("b")
    assert recent_games() == ["b", "a"]
