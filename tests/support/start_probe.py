"""Run ``controlroom`` with no game yet and, in the start window, start a new game with a map and a roster.

Used by test_start_window.py in a subprocess:

    python start_probe.py NAME MAP ROSTER SECONDS

Prints every message of the window's status line (the roster's import is said there).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from controlroom.cli import main
from controlroom.ui.app import application
from controlroom.ui.dialogs.start import StartDialog
from controlroom.ui.panels.status_message import StatusMessage


def fill() -> None:
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, StartDialog):
        QTimer.singleShot(100, fill)
        return
    name, map_file, roster = sys.argv[1:4]
    dialog.name.setText(name)
    dialog.map_file.setText(map_file)
    dialog.roster_file.setText(roster)
    print("start window:", dialog.windowTitle(), flush=True)
    dialog.new_button.click()


def said(set_text):
    """Every message the window's status line is given, as it is given: two within a moment (the roster's
    import, then the map kept) are both said, where a look every 200 ms saw only the second."""
    def setter(label, text: str) -> None:
        if text:
            print("status:", text, flush=True)
        set_text(label, text)
    return setter


if __name__ == "__main__":
    StatusMessage.setText = said(StatusMessage.setText)
    application()
    QTimer.singleShot(0, fill)
    sys.exit(main(["--quit-after", sys.argv[4]]))
