"""One station per game file: an exclusive lock on ``<game>.station-lock`` while a station has the file open.

A SQLite game file is run by one station at a time: two would each run its
rule timers, and neither hears what the other appends (a shared game is
played on PostgreSQL).  The engine takes the lock when it opens a game file
(``engine.opening.open_game``) and the store lets it go when it is closed;
``controlroom roster import`` takes it for as long as it changes the file, so
that it never changes a game a station has open.  The lock is the operating
system's (``flock`` on POSIX, ``msvcrt.locking`` on Windows): a station that
ends in any way, a crash or a power cut included, holds it no more.  The
file stays beside the game, with the process that held it last written in it
(for the message); it is never deleted (deleting a lock file races with the
next one to take it).
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from pathlib import Path

from controlroom.i18n import translate
from controlroom.store.errors import StoreError

log = logging.getLogger(__name__)

SUFFIX = ".station-lock"


class StationBusyError(StoreError):
    """The game file is open at a station (``holder``: which process, when it could be read)."""

    def __init__(self, game: Path, holder: str) -> None:
        self.game, self.holder = game, holder
        where = f" ({holder})" if holder else ""
        super().__init__(translate("errors", "{game} is open at another station{where}: a game file is run by one "
                                             "station at a time (several stations share a game on PostgreSQL)").format(
            game=game, where=where))


def lock_path(game: str | os.PathLike) -> Path:
    """The lock file of a game file: ``battle.crgame`` -> ``battle.crgame.station-lock`` beside it."""
    game = Path(game)
    return game.with_name(game.name + SUFFIX)


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":                          # pragma: no cover - Windows only
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _unlock(fd: int) -> None:
    if sys.platform == "win32":                          # pragma: no cover - Windows only
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def _holder(path: Path) -> str:
    """Who holds the lock, as the holder wrote it ("process 1234 on laptop"), or "" when it cannot be read."""
    try:
        pid, _, host = path.read_text("utf-8", "replace").strip().partition(" ")
    except OSError:
        return ""
    if not pid.isdigit():
        return ""
    return (translate("errors", "process {pid} on {host}") if host else translate("errors", "process {pid}")).format(
        pid=pid, host=host)


class StationLock:
    """The lock of one game file, held from ``take`` until ``release`` (or the end of the process)."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path, self._fd = path, fd

    @classmethod
    def take(cls, game: str | os.PathLike) -> StationLock:
        """The game file's lock; StationBusyError when a station holds it.  Where no lock file can be made (a
        read-only folder), a lock that holds nothing (a station cannot have made one there either)."""
        path = lock_path(game)
        fd = None
        for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
            try:
                fd = os.open(path, flags, 0o666)
                break
            except OSError:
                continue
        if fd is None:
            log.warning("no station lock for %s: %s cannot be made", game, path)
            return cls(path, None)
        if not _try_lock(fd):
            os.close(fd)
            raise StationBusyError(Path(game), _holder(path))
        try:                                            # who holds it, for the message another one reads
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
        except OSError:
            pass
        return cls(path, fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            _unlock(fd)
        finally:
            os.close(fd)
