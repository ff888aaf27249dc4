"""The alarm sounds: one short WAV per alarm class (resources/sounds), played without blocking the window.

Qt Multimedia is not part of PySide6-Essentials (it comes with the much
larger PySide6-Addons), so the sounds go to the system's own player: on
Windows the standard library's ``winsound``; elsewhere ``paplay``
(PulseAudio and PipeWire), ``pw-play``, ``aplay`` (ALSA) or macOS's
``afplay``, whichever is installed, started as a process of its own.  A
player is started only when its sound server runs (``sound_server``): with
none, paplay only printed "Connection failure" on the console for each alarm.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
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


def _listening(path: Path) -> bool:
    """Whether a server answers on the Unix socket ``path`` (a file left by a server gone does not)."""
    if not hasattr(socket, "AF_UNIX"):
        return path.exists()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.2)
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


def _pulse_server() -> str | None:
    """Where PulseAudio (or PipeWire's PulseAudio server) listens, as its clients look for it; None: nowhere."""
    given = os.environ.get("PULSE_SERVER", "").split()
    for server in given:
        server = server.split("}", 1)[-1]           # "{machine-id}unix:/path": for that machine only
        if server.startswith(("unix:", "/")):
            if _listening(Path(server.removeprefix("unix:"))):
                return server
        elif server:
            host, _sep, port = server.removeprefix("tcp:").removeprefix("tcp4:").removeprefix("tcp6:").partition(":")
            try:
                socket.create_connection((host.strip("[]"), int(port or 4713)), timeout=0.2).close()
                return server
            except (OSError, ValueError):
                continue
    if given:
        return None
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    places = [Path(os.environ["PULSE_RUNTIME_PATH"]) / "native"] if os.environ.get("PULSE_RUNTIME_PATH") else []
    places += [Path(runtime) / "pulse" / "native", Path("/var/run/pulse/native")]
    return next((str(p) for p in places if _listening(p)), None)


def _pipewire_server() -> str | None:
    runtime = os.environ.get("PIPEWIRE_RUNTIME_DIR") or os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    path = Path(runtime) / os.environ.get("PIPEWIRE_REMOTE", "pipewire-0")
    return str(path) if _listening(path) else None


def sound_server(player: str | None) -> str | None:
    """The sound server ``player`` would play to, if one runs (None: the player would only fail).

    paplay needs PulseAudio's (PipeWire serves one too), pw-play PipeWire's;
    aplay a sound card (or, through ALSA's pulse plugin, PulseAudio); macOS's
    afplay and Windows' winsound always have the system's.
    """
    if sys.platform in ("win32", "darwin"):
        return "system"
    name = Path(player).name if player else ""
    if name == "paplay":
        return _pulse_server()
    if name == "pw-play":
        return _pipewire_server() or _pulse_server()
    if name == "aplay":
        cards = Path("/proc/asound/cards")
        try:
            if cards.is_file() and "no soundcards" not in cards.read_text(errors="replace"):
                return "alsa"
        except OSError:
            pass
        return _pulse_server()
    return "system" if player else None


class ServerWatch:
    """Looks for the sound server before each sound, and says once in the log when there is none (or again)."""

    def __init__(self) -> None:
        self.said_none = False

    def __call__(self, player: str | None) -> bool:
        server = sound_server(player)
        if server is None and not self.said_none:
            self.said_none = True
            log.warning("no sound server runs (PulseAudio or PipeWire, for %s): alarms are shown but not heard",
                        Path(player).name if player else "no player")
        elif server is not None and self.said_none:
            self.said_none = False
            log.info("a sound server runs again (%s): alarms are heard", server)
        return server is not None


#: One watch for the window: the sounds and the spoken alarms say it once between them.
server_runs = ServerWatch()


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
        if self.player is None or not server_runs(self.player):
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
