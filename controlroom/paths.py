"""Where controlroom keeps the user's games, maps and reports (no Qt: the same answer as Qt's data location)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

GAME_SUFFIX = ".crgame"


def data_dir() -> Path:
    """The user's data folder for controlroom (Qt's AppLocalDataLocation, computed without Qt)."""
    if sys.platform.startswith("win"):
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "controlroom"


def default_game_path() -> Path:
    """The game a command opens when none is given."""
    return data_dir() / "games" / f"game{GAME_SUFFIX}"


def cache_dir() -> Path:
    """The user's cache folder for controlroom (Qt's CacheLocation, computed without Qt): things made again at will."""
    if sys.platform.startswith("win"):
        return data_dir() / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "controlroom"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "controlroom"


# -- what holds secrets ------------------------------------------------------------------------------------
# A game file holds every radio device's key; a station's local queue, the reports it keeps.  On POSIX they
# are made readable by their user only (mode 0600), and so are SQLite's -wal and -shm files beside them,
# which SQLite makes with the database file's own mode.
PRIVATE_MODE = 0o600
COMPANIONS = ("", "-wal", "-shm", "-journal")


def private_file(path: str | os.PathLike) -> None:
    """Make ``path`` an empty file only its user can read and write, unless it exists (POSIX; elsewhere: nothing)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    except FileExistsError:
        return
    os.close(fd)


def exposed(path: str | os.PathLike) -> list[Path]:
    """The file and its SQLite companions that other users of this computer can read (POSIX; else none)."""
    if os.name != "posix":
        return []
    out = []
    for suffix in COMPANIONS:
        p = Path(f"{os.fspath(path)}{suffix}")
        try:
            if p.stat().st_mode & 0o077:
                out.append(p)
        except OSError:
            continue
    return out


def make_private(path: str | os.PathLike) -> list[Path]:
    """Make the file and its SQLite companions readable by their user only; the ones changed."""
    changed = exposed(path)
    for p in changed:
        os.chmod(p, PRIVATE_MODE)
    return changed


def without_password(db: str) -> str:
    """A game's ``--db`` as it may be kept or shown: a database URL without its password (a path as it is)."""
    if "://" not in db:
        return db
    scheme, rest = db.split("://", 1)
    netloc, sep, tail = rest.partition("/")
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}@{host}"
    return f"{scheme}://{netloc}{sep}{tail}"
