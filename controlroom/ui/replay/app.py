"""``controlroom --db GAME --replay``: the replay window in a program of its own (it never writes to the game)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer

from controlroom.ui.app import application
from controlroom.ui.replay.window import ReplayWindow


def run_replay(loader: Callable[[], object], title: str = "", *, quit_after: float | None = None,
               screenshot: str | None = None) -> int:
    """Open the replay window on a game (``loader`` reads it, in the window's worker thread)."""
    app = application()
    window = ReplayWindow(loader, title, freeze_loaded=True)
    window.show()

    def finish() -> None:
        if screenshot:
            window.grab().save(screenshot)
        window.close()

    if quit_after is not None:
        QTimer.singleShot(int(quit_after * 1000), finish)
    return app.exec()
