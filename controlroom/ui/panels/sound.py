"""The alarm sounds: one short WAV per alarm class (resources/sounds), played without blocking the window.

Qt Multimedia is not part of PySide6-Essentials (it comes with the much
larger PySide6-Addons), so the sounds go to the system's own player: on
Windows the standard library's ``winsound``; elsewhere ``paplay``
(PulseAudio and PipeWire), ``pw-play``, ``aplay`` (ALSA) or macOS's
``afplay``, whichever is installed, started as a process of its own.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import time
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QObject, QProcess

from controlroom.game.alarms import CLASSES, SAFETY

log = logging.getLogger(__name__)

#: Players tried in this order (the first one found is used).
PLAYERS = ("paplay", "pw-play", "aplay", "afplay")


def sound_file(cls: str) -> Path:
    """The WAV file of an alarm class."""
    return Path(str(resources.files("controlroom.resources").joinpath("sounds", f"{cls}.wav")))


def find_player() -> str | None:
    """The command that plays a WAV file here, or None (Windows uses winsound)."""
    return next((p for p in (shutil.which(name) for name in PLAYERS) if p), None)


class AlarmSounds(QObject):
    """Plays an alarm class's sound; silent (with one log line) where no player is found."""

    def __init__(self, parent: QObject | None = None, player: str | None = None) -> None:
        super().__init__(parent)
        self.player = player if player is not None else (None if sys.platform == "win32" else find_player())
        self.files = {cls: sound_file(cls) for cls in CLASSES}
        self.pids: list[int] = []           # players started (detached: nothing to clean up when the window closes)
        self.played: list[str] = []
        self._rang: dict[str, float] = {}   # class -> when it last rang (monotonic seconds)
        if self.player is None and sys.platform != "win32":
            log.warning("no sound player found (%s): alarms are shown but not heard", ", ".join(PLAYERS))

    #: A class rings at most this often (seconds): a burst of new rows (a hundred marshals gone silent at once,
    #: a volley of deaths) rings once, not a hundred players at a time.  Safety rings sooner again.
    QUIET_S = {SAFETY: 0.5}
    QUIET_DEFAULT_S = 2.0

    def __call__(self, cls: str) -> None:
        now = time.monotonic()
        last = self._rang.get(cls)
        if last is not None and now - last < self.QUIET_S.get(cls, self.QUIET_DEFAULT_S):
            return
        self._rang[cls] = now
        self.play(cls)

    def play(self, cls: str) -> None:
        path = self.files.get(cls)
        if path is None or not path.is_file():
            log.warning("no sound for alarm class %r", cls)
            return
        self.played.append(cls)
        if sys.platform == "win32":
            import winsound

            winsound.PlaySound(str(path), winsound.SND_FILENAME | winsound.SND_ASYNC | winsound.SND_NODEFAULT)
            return
        if self.player is None:
            return
        ok, pid = QProcess.startDetached(self.player, [str(path)])
        if not ok:
            log.warning("the sound player %s could not be started", self.player)
            return
        self.pids = [p for p in self.pids if _running(p)] + [pid]

    def wait(self, ms: int = 5000) -> bool:
        """Wait until every sound started has played (for tests)."""
        deadline = time.monotonic() + ms / 1000
        while any(_running(p) for p in self.pids):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True


def _running(pid: int) -> bool:
    """Whether a process still runs (a detached player is not our child: its end is seen by its absence)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if sys.platform.startswith("linux"):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                return f.read().split(")")[-1].split()[0] != "Z"        # a zombie has ended
        except OSError:
            return False
    return True
