"""Run ``controlroom`` with no game yet and, in the start window, start a new game with a map and a roster.

Used by test_start_window.py in a subprocess:

    python start_probe.py NAME MAP ROSTER SECONDS

Prints the window's last status message before it closes (the roster's import is said there).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from controlroom.cli import main
from controlroom.ui.app import application
from controlroom.ui.dialogs.start import StartDialog
from controlroom.ui.main_window import MainWindow


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
    QTimer.singleShot(500, watch)


def watch() -> None:
    """Say the window's status line as it changes, until the window closes."""
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    if windows:
        text = windows[0].status.text()
        if text != getattr(watch, "said", None):
            watch.said = text
            print("status:", text, flush=True)
    QTimer.singleShot(200, watch)


if __name__ == "__main__":
    application()
    QTimer.singleShot(0, fill)
    sys.exit(main(["--quit-after", sys.argv[4]]))
