"""Spoken alarms (View, Speak alarms): safety and game alarms read aloud by espeak-ng, one at a time.

In a loud tent a head game master looking at a marshal, not at the screen,
hears where the STOPP is.  The words are the alarm row's, in the window's
language (espeak-ng's voices "et" and "en"); espeak-ng writes them as a WAV
file and the alarm sounds' player plays it (ui/panels/sound.py), both as
processes of their own: the window never waits.  Nothing goes to the network.

What is said, and when:

- one alarm at a time, never two voices at once;
- a safety alarm goes before every game alarm waiting (after the safety
  alarms already waiting); an alarm acknowledged before its turn is not said;
- as the sounds are, a class is rate-limited: game alarms at most one every
  ``AlarmSounds.QUIET_DEFAULT_S`` (others in between are not said, as their
  sound does not ring), and at most ``GAME_WAITING`` wait; a safety alarm is
  never left unsaid (each STOPP's place matters), but is said once per row.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QSettings, QTimer, Signal
from PySide6.QtGui import QAction

from controlroom import i18n
from controlroom.game.alarms import GAME, SAFETY, Alarm, AlarmRowState
from controlroom.ui.panels.alarms import ALARM_KINDS, AlarmBanner
from controlroom.ui.panels.sound import AlarmSounds, find_player, server_runs
from controlroom.ui.panels.words import word

log = logging.getLogger(__name__)

# The window's language -> espeak-ng's voice.
VOICES = {"et": "et", "en": "en"}
# The classes said aloud.
SPOKEN = (SAFETY, GAME)
# At most this many game alarms wait their turn (the oldest waiting is dropped for a newer one).
GAME_WAITING = 3
SETTING = "window/speak_alarms"


def find_espeak() -> str | None:
    """espeak-ng's command line (Debian: espeak-ng), or None."""
    return shutil.which("espeak-ng")


def voice() -> str:
    """espeak-ng's voice for the window's language."""
    return VOICES.get(i18n.language(), "en")


def spoken_words(alarm: Alarm) -> str:
    """The alarm row's words without its time: its kind, then its message (the kind once, when it begins it)."""
    kind = word(ALARM_KINDS, alarm.kind)
    if alarm.message.casefold().startswith(kind.casefold()):
        return alarm.message
    return f"{kind}: {alarm.message}"


class EspeakSpeaker(QObject):
    """Says a text: espeak-ng writes it as a WAV, the sound player plays it; ``finished`` once it is heard."""

    finished = Signal()

    def __init__(self, parent: QObject | None = None, espeak: str | None = None, player: str | None = None) -> None:
        super().__init__(parent)
        self.espeak = espeak if espeak is not None else find_espeak()
        self.player = player if player is not None else (None if sys.platform == "win32" else find_player())
        # What espeak-ng writes for the player, removed once played.
        self.wav = Path(tempfile.gettempdir()) / f"controlroom-speech-{os.getpid()}-{id(self):x}.wav"
        self.process: QProcess | None = None

    def available(self) -> bool:
        return self.espeak is not None

    def say(self, text: str, voice: str) -> None:
        """Start saying ``text`` in ``voice``; ``finished`` follows, whether it was heard or not."""
        if self.espeak is None or (sys.platform != "win32" and not server_runs(self.player)):
            QTimer.singleShot(0, self.finished)         # (said once, in the log: no sound server)
            return
        args = ["-v", voice, "--stdin"]
        if self.player is not None:            # written, then played; Windows: espeak-ng plays it itself
            args[2:2] = ["-w", str(self.wav)]
        self._start(self.espeak, args, self._synthesised, text)

    def _start(self, program: str, args: list[str], then: Callable[[int], None], text: str | None = None) -> None:
        process = QProcess(self)
        process.setProgram(program)
        process.setArguments(args)
        process.finished.connect(lambda code, _status, p=process: self._ended(p, code, then))
        process.errorOccurred.connect(lambda error, p=process: self._failed(p, error, then))
        self.process = process
        process.start()
        if text is not None:
            process.write(text.encode("utf-8"))
            process.closeWriteChannel()

    def _ended(self, process: QProcess, code: int, then: Callable[[int], None]) -> None:
        if process is not self.process:
            return
        if code != 0:
            err = bytes(process.readAllStandardError()).decode("utf-8", "replace").strip()
            log.warning("%s ended with %d: %s", Path(process.program()).name, code, err)
        self.process = None
        process.deleteLater()
        then(code)

    def _failed(self, process: QProcess, error, then: Callable[[int], None]) -> None:
        if process is self.process and error == QProcess.ProcessError.FailedToStart:
            log.warning("%s could not be started: %s", process.program(), process.errorString())
            self.process = None
            process.deleteLater()
            then(-1)

    def _synthesised(self, code: int) -> None:
        if code == 0 and self.player is not None:
            self._start(self.player, [str(self.wav)], self._played)
        else:
            self._played(code)

    def _played(self, _code: int) -> None:
        self.wav.unlink(missing_ok=True)
        self.finished.emit()

    def stop(self) -> None:
        """Stop what is being said now (the window closes)."""
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.waitForFinished(2000)
            process.deleteLater()
        self.wav.unlink(missing_ok=True)


class AlarmSpeech(QObject):
    """What waits to be said, in order; one alarm at a time through ``speaker`` (an EspeakSpeaker by default)."""

    def __init__(self, banner: AlarmBanner, speaker=None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(banner)
        self.speaker = speaker if speaker is not None else EspeakSpeaker(self)
        self.speaker.finished.connect(self._said)
        self.clock = clock
        self.enabled = False
        self.waiting: list[tuple[str, str, str]] = []        # (class, alarm id, words), in the order to say
        self.speaking: str | None = None                     # the words being said
        self.said: list[str] = []
        self._last: dict[str, float] = {}                    # class -> when it was last taken to be said
        banner.rang.connect(self.hear)
        banner.acknowledged.connect(self.forget)

    def set_enabled(self, on: bool) -> None:
        self.enabled = bool(on)
        if not on:
            self.waiting.clear()

    def idle(self) -> bool:
        return self.speaking is None and not self.waiting

    def hear(self, state: AlarmRowState) -> None:
        """A new alarm row: said in its turn (safety first), unless speech is off or its class said just now."""
        if not self.enabled or state.cls not in SPOKEN:
            return
        now = self.clock()
        if state.cls != SAFETY:
            last = self._last.get(state.cls)
            if last is not None and now - last < AlarmSounds.QUIET_S.get(state.cls, AlarmSounds.QUIET_DEFAULT_S):
                return
        self._last[state.cls] = now
        entry = (state.cls, state.latest.id, spoken_words(state.latest))
        if state.cls == SAFETY:
            at = sum(1 for cls, _id, _w in self.waiting if cls == SAFETY)
            self.waiting.insert(at, entry)
        else:
            self.waiting.append(entry)
            games = [e for e in self.waiting if e[0] != SAFETY]
            if len(games) > GAME_WAITING:
                self.waiting.remove(games[0])
        self._next()

    def forget(self, alarm_id: str) -> None:
        """An alarm acknowledged: not said, if it still waits."""
        self.waiting = [e for e in self.waiting if e[1] != alarm_id]

    def _next(self) -> None:
        if self.speaking is not None or not self.waiting:
            return
        _cls, _id, words = self.waiting.pop(0)
        self.speaking = words
        self.said.append(words)
        self.speaker.say(words, voice())

    def _said(self) -> None:
        self.speaking = None
        self._next()

    def stop(self) -> None:
        self.waiting.clear()
        if hasattr(self.speaker, "stop"):
            self.speaker.stop()
        self.speaking = None


class SpeakAlarmsAction(QAction):
    """View, Speak alarms: off by default, remembered; disabled (saying why) without espeak-ng."""

    def __init__(self, window, speaker=None) -> None:
        super().__init__(window)
        self.setText(self.tr("&Speak alarms"))
        self.setCheckable(True)
        self.speech = AlarmSpeech(window.panels.alarms, speaker)
        if not getattr(self.speech.speaker, "available", lambda: True)():
            self.setEnabled(False)
            self.setToolTip(self.tr("Install espeak-ng to hear the alarms spoken"))
        self.setChecked(self.isEnabled() and QSettings().value(SETTING, False, type=bool))
        self.speech.set_enabled(self.isChecked())
        self.toggled.connect(self._toggled)

    def _toggled(self, on: bool) -> None:
        self.speech.set_enabled(on)
        QSettings().setValue(SETTING, bool(on))
        if not on:
            self.speech.stop()
