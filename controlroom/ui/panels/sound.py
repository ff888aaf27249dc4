"""The alarm sounds: one short WAV per alarm class (resources/sounds), played without blocking the window.

Qt Multimedia is not part of PySide6-Essentials (it comes with the much
larger PySide6-Addons), so the sounds go to the system's own player: on
Windows the standard library's ``winsound``; elsewhere ``paplay``
(PulseAudio and PipeWire), ``pw-play``, ``aplay`` (ALSA) or macOS's
``afplay``, whichever is installed, started as a process of its own.
"""

from __future__ import annotations

import logging
import shutil
import sys
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QObject, QProcess

from controlroom.game.alarms import CLASSES

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
        self.processes: list[QProcess] = []
        self.played: list[str] = []
        if self.player is None and sys.platform != "win32":
            log.warning("no sound player found (%s): alarms are shown but not heard", ", ".join(PLAYERS))

    def __call__(self, cls: str) -> None:
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
        process = QProcess(self)
        process.finished.connect(self._finished)
        process.start(self.player, [str(path)])
        self.processes.append(process)

    def _finished(self, *_args) -> None:
        done = [p for p in self.processes if p.state() == QProcess.ProcessState.NotRunning]
        for p in done:
            self.processes.remove(p)
            p.deleteLater()

    def wait(self, ms: int = 5000) -> bool:
        """Wait until every sound started has played (for tests and for closing)."""
        return all(p.waitForFinished(ms) for p in list(self.processes))
