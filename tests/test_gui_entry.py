"""``controlroom-window`` (the gui-scripts entry point): the window without a console, errors in a dialog."""

import sys
import tomllib
from pathlib import Path

import pytest

from controlroom import gui

ROOT = Path(__file__).resolve().parent.parent


def test_the_gui_script_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["gui-scripts"] == {"controlroom-window": "controlroom.gui:main"}


@pytest.mark.parametrize("console", [True, False])
def test_an_error_is_shown_in_a_dialog_even_without_a_console(monkeypatch, tmp_path, console):
    shown = []
    monkeypatch.setattr(gui, "show_error", shown.append)
    if not console:                     # pythonw: no standard streams at all
        monkeypatch.setattr(sys, "stderr", None)
        monkeypatch.setattr(sys, "stdout", None)
    code = gui.main(["--db", str(tmp_path / "g.crgame"), "--origin", "north"])
    assert code == 1
    assert shown and "--origin takes LAT,LON in degrees" in shown[0]


def test_a_bad_command_line_is_shown_too(monkeypatch):
    shown = []
    monkeypatch.setattr(gui, "show_error", shown.append)
    assert gui.main(["--no-such-option"]) == 2
    assert "unrecognized arguments: --no-such-option" in shown[0]


def test_a_command_that_succeeds_shows_nothing(monkeypatch, capsys):
    shown = []
    monkeypatch.setattr(gui, "show_error", shown.append)
    assert gui.main(["airtime", "--sf", "9", "--bw", "125", "--payload", "24"]) == 0
    assert shown == [] and "ms" in capsys.readouterr().out


def test_the_dialog_is_a_real_message_box(qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    seen = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: seen.append((title, text)))
    gui.show_error("controlroom: the game file x does not exist\n")
    assert seen == [("controlroom could not start", "controlroom: the game file x does not exist")]
