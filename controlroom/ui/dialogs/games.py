"""The games this window knows: the recent ones (File, Open recent) and the dialog that picks one."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtWidgets import QFileDialog

from controlroom.paths import GAME_SUFFIX, data_dir, without_password

RECENT_KEY = "games/recent"


def recent_games() -> list[str]:
    """The games opened last, newest first.

    QSettings' INI files give back a list of one as a plain string, which
    iterated would be its letters: normalise to a list of strings.
    """
    value = QSettings().value(RECENT_KEY)
    if not value:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value if v]


def remember_game(db: str) -> None:
    """Put a game at the top of the recent games (File, Open recent; `controlroom` alone opens it).

    A database URL is kept without its password (the server's own ~/.pgpass or PGPASSWORD gives it again)."""
    db = without_password(db)
    s = QSettings()
    recent = [g for g in recent_games() if g != db]
    s.setValue(RECENT_KEY, [db, *recent][:10])


def last_game() -> str | None:
    recent = recent_games()
    return recent[0] if recent else None


def ask_for_game() -> str | None:
    """A file dialog: an existing game to open, or a new file to start."""
    start = str(data_dir() / "games")
    path, _ = QFileDialog.getSaveFileName(
        None, QCoreApplication.translate("app", "Open or start a game"), start,
        QCoreApplication.translate("app", "controlroom games (*{suffix})").format(suffix=GAME_SUFFIX),
        options=QFileDialog.Option.DontConfirmOverwrite,
    )
    return path or None
