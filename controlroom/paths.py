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
