"""Run ``controlroom demo --quit-after SECONDS`` with, a second in, a safety alarm and a real Qt warning.

Used by test_quiet_console.py in a subprocess: the alarm makes the window
play its sound (with no sound server: nothing on the console, a line in the
log), and the warning (QFont given a point size of -1) is one Qt must still
say on stderr and in the log.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from controlroom.cli import main
from controlroom.game.alarms import Alarm
from controlroom.ui.app import application
from controlroom.ui.main_window import MainWindow


def poke() -> None:
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    if not windows:
        QTimer.singleShot(200, poke)
        return
    windows[0].panels.alarms.add_alarm(Alarm("stopp:test-1", "stopp", "STOPP test-1 called (injury)", 1000))
    QFont().setPointSize(-1)            # Qt: "QFont::setPointSize: Point size <= 0 (-1), must be greater than 0"
    print("poked", flush=True)


if __name__ == "__main__":
    application()
    QTimer.singleShot(1000, poke)
    sys.exit(main(["demo", "--quit-after", sys.argv[1]]))
