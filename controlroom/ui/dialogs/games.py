"""The games this window knows: the recent ones (File, Open recent), the games folder, the dialog that picks one."""

from __future__ import annotations

from pathlib import Path

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


def games_dir() -> Path:
    """The user's games folder, where a new game is saved under its name."""
    return data_dir() / "games"


def game_exists(db: str) -> bool:
    """Whether a recent game is still there: a file that exists, or a database address (asked when opened)."""
    return "://" in db or Path(db).is_file()


def ask_for_game() -> str | None:
    """A file dialog in the games folder: an existing game to open, or a new file to start."""
    folder = games_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)       # (a folder not there was taken for a file name, "games")
    except OSError:
        folder = Path.home()
    start = str(folder)
    path, _ = QFileDialog.getSaveFileName(
        None, QCoreApplication.translate("app", "Open or start a game"), start,
        QCoreApplication.translate("app", "controlroom games (*{suffix})").format(suffix=GAME_SUFFIX),
        options=QFileDialog.Option.DontConfirmOverwrite,
    )
    return path or None
