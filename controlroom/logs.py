"""Log files: one rotating file per process in the platform's log folder, old ones pruned (no Qt)."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import time
from pathlib import Path

MAX_BYTES = 2 * 1024 * 1024     # a file this big rotates (controlroom.log -> .log.1 ...)
BACKUPS = 3                     # rotated files kept per process
KEEP_DAYS = 30                  # older log files are deleted when a process starts
KEEP_FILES = 60                 # and of the rest, no more than this many (the newest)
FORMAT = "%(asctime)s %(levelname)s %(process)d %(threadName)s %(name)s: %(message)s"

_handler: logging.handlers.RotatingFileHandler | None = None


def log_dir() -> Path:
    """The platform's folder for controlroom's logs (``CONTROLROOM_LOG_DIR`` overrides it).

    Linux: ``$XDG_STATE_HOME/controlroom/log`` (``~/.local/state/controlroom/log``);
    Windows: ``%LOCALAPPDATA%\\controlroom\\Logs``; macOS: ``~/Library/Logs/controlroom``.
    """
    override = os.environ.get("CONTROLROOM_LOG_DIR")
    if override:
        return Path(override)
    if sys.platform.startswith("win"):
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "controlroom" / "Logs"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Logs" / "controlroom"
    return Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "controlroom" / "log"


def log_file_name(role: str, pid: int | None = None, when: float | None = None) -> str:
    """``window-20250614-101502-4242.log``: the role, the start time and the process id."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if when is None else when))
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in role) or "controlroom"
    return f"{safe}-{stamp}-{os.getpid() if pid is None else pid}.log"


def prune(folder: Path, keep_days: float = KEEP_DAYS, keep_files: int = KEEP_FILES, now: float | None = None,
          spare: Path | None = None) -> list[Path]:
    """Delete log files older than ``keep_days``, then the oldest beyond ``keep_files``; returns those deleted.

    Files written in the last day are never deleted (another window may be writing them).
    """
    now = time.time() if now is None else now
    files = []
    for path in folder.glob("*.log*"):
        try:
            if path.is_file() and path != spare:
                files.append((path.stat().st_mtime, path))
        except OSError:
            continue
    files.sort(reverse=True)
    gone = []
    for rank, (mtime, path) in enumerate(files):
        age = now - mtime
        if age < 86_400:
            continue
        if age > keep_days * 86_400 or rank >= keep_files:
            try:
                path.unlink()
                gone.append(path)
            except OSError:
                pass
    return gone


def setup_logging(role: str, folder: Path | None = None, level: int = logging.INFO) -> Path | None:
    """Log this process to a rotating file of its own (``role``: window, headless...); returns its path.

    Once per process: later calls return the same file.  When the folder
    cannot be made (a read-only home), logging goes on to standard error only
    and None is returned.
    """
    global _handler
    if _handler is not None:
        return Path(_handler.baseFilename)
    folder = log_dir() if folder is None else folder
    path = folder / log_file_name(role)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS,
                                                       encoding="utf-8")
    except OSError as exc:
        logging.getLogger(__name__).warning("no log file in %s: %s", folder, exc)
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    _handler = handler
    prune(folder, spare=path)
    logging.getLogger(__name__).info("controlroom %s started (%s, pid %d)", role, sys.argv[0], os.getpid())
    return path
