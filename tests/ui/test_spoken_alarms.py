"""Spoken alarms (issue 37, part 8): heard through a PulseAudio null sink; safety before game; one at a time.

The speech test needs espeak-ng besides PulseAudio (Debian: espeak-ng, pulseaudio, pulseaudio-utils); the test
command installs them.  The queue's order is checked with a speaker that only notes what it is given.
"""

import os
import shutil
import subprocess
import wave

import numpy as np
import pytest
from PySide6.QtCore import QObject, QSettings, Signal

from controlroom import i18n
from controlroom.core.thread import CoreThread
from controlroom.game.alarms import Alarm
from controlroom.game.clock import VirtualClock
from controlroom.store.game import GameStore
from controlroom.ui import language
from controlroom.ui.panels.alarms import AlarmBanner
from controlroom.ui.panels.speech import SETTING, AlarmSpeech, EspeakSpeaker, spoken_words
from tests.support.pulse_sink import RATE, needs_pulse, pulse_fixture, record_while  # noqa: F401 (the fixture "pulse")

PLACE = "STOPP kõigile, Fordi juures, ruut D3"


def loud_seconds(wav) -> float:
    """From the first to the last sample of a WAV file louder than the recording's threshold (s)."""
    with wave.open(str(wav)) as w:
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(float) / 32768.0
        rate = w.getframerate()
    loud = np.flatnonzero(np.abs(samples) > 0.02)
    return (loud[-1] - loud[0]) / rate


class FakeSpeaker(QObject):
    """Notes what it is asked to say; says it "done" only when the test says so."""

    finished = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.given: list[tuple[str, str]] = []

    def say(self, text: str, voice: str) -> None:
        self.given.append((text, voice))

    def done(self) -> None:
        self.finished.emit()


def stopp(n: int, message: str = "") -> Alarm:
    return Alarm(f"stopp:{n}", "stopp", message or f"STOPP {n} called (danger) near Wolves", n * 1000)


@pytest.fixture
def estonian(qapp):
    """The window speaks Estonian while the test runs: its words and espeak-ng's voice."""
    i18n.choose("et")
    translator = language.install_translator(qapp, "et")
    yield
    if translator is not None:
        qapp.removeTranslator(translator)
    qapp.setProperty("controlroom_translator", None)
    i18n.choose(None)


@pytest.fixture
def speech(qtbot):
    banner = AlarmBanner(sound=lambda cls: None)
    qtbot.addWidget(banner)
    now = [100.0]
    speech = AlarmSpeech(banner, FakeSpeaker(), clock=lambda: now[0])
    speech.set_enabled(True)
    return banner, speech, now


def test_a_newer_safety_alarm_goes_before_the_game_alarms_waiting(speech, estonian):
    banner, speech, now = speech
    speaker = speech.speaker
    banner.add_alarm(Alarm("marshal_silent:1001:5000", "marshal_silent", "Marshal 1 not heard for 10 min", 5000))
    assert [v for _t, v in speaker.given] == ["et"]               # the window's language's voice, at once
    now[0] += 3
    banner.add_alarm(Alarm("death:7:6000", "death", "Aldo (7, Wolves) died", 6000))    # waits: one voice at a time
    now[0] += 0.1
    banner.add_alarm(Alarm("late_report:8000", "late_report", "a late report", 8000))  # game, 0.1 s later: not said
    banner.add_alarm(stopp(9, PLACE))
    banner.add_alarm(stopp(10))                                   # a second safety alarm: after the first
    assert [w for _c, _i, w in speech.waiting] == [PLACE, "STOPP 10 called (danger) near Wolves",
                                                   "Surm: Aldo (7, Wolves) died"]
    for _ in range(4):
        speaker.done()
    assert [t for t, _v in speaker.given] == ["Marssal vaikib: Marshal 1 not heard for 10 min", PLACE,
                                              "STOPP 10 called (danger) near Wolves", "Surm: Aldo (7, Wolves) died"]
    assert speech.idle()


def test_an_acknowledged_alarm_is_not_said_and_speech_off_says_nothing(speech):
    banner, speech, now = speech
    banner.add_alarm(stopp(1))
    banner.add_alarm(stopp(2))
    banner.acknowledge("stopp:2")                 # seen before its turn
    speech.speaker.done()
    assert [t for t, _v in speech.speaker.given] == ["STOPP 1 called (danger) near Wolves"] and speech.idle()
    speech.set_enabled(False)
    banner.add_alarm(stopp(3))
    assert len(speech.speaker.given) == 1
    banner.add_alarm(Alarm("gateway_lost:a:1", "gateway_lost", "gateway a lost", 1))       # a link alarm: never
    speech.set_enabled(True)
    banner.add_alarm(Alarm("gateway_lost:b:2", "gateway_lost", "gateway b lost", 2))
    assert len(speech.speaker.given) == 1


def test_the_words_are_the_rows_without_its_time():
    assert spoken_words(stopp(1)) == "STOPP 1 called (danger) near Wolves"       # the kind said once
    assert spoken_words(Alarm("death:1:1", "death", "Aldo died", 1)) == "Death: Aldo died"


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_view_speak_alarms_is_off_by_default_and_remembered(qtbot, tmp_path):
    from controlroom.ui.main_window import MainWindow

    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    QSettings().remove(SETTING)

    path = tmp_path / "speak.crgame"
    GameStore.open(path).close()
    core = CoreThread(str(path), VirtualClock(0))           # (not started: the window is only looked at)
    windows = []
    for _ in range(2):
        window = MainWindow(core)
        qtbot.addWidget(window)
        windows.append(window)
        action = window.speak_action
        assert action.text().replace("&", "") in [a.text().replace("&", "") for a in window.menuBar().actions()[2]
                                                  .menu().actions()]        # in View
        if len(windows) == 1:
            assert not action.isChecked() and not action.speech.enabled
            if action.isEnabled():
                action.setChecked(True)
    if windows[0].speak_action.isEnabled():
        assert windows[1].speak_action.isChecked() and windows[1].speak_action.speech.enabled


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_closing_the_window_stops_what_is_said_and_what_waits(qtbot, tmp_path):
    from controlroom.ui.main_window import MainWindow

    path = tmp_path / "close.crgame"
    GameStore.open(path).close()
    window = MainWindow(CoreThread(str(path), VirtualClock(0)))         # (not started: only closed)
    qtbot.addWidget(window)
    speech = window.speak_action.speech
    speaker = FakeSpeaker()
    speaker.stopped = 0
    speaker.stop = lambda: setattr(speaker, "stopped", speaker.stopped + 1)
    speech.speaker = speaker
    speech.set_enabled(True)
    for n in (1, 2):
        window.panels.alarms.add_alarm(stopp(n))
    assert speech.speaking is not None and len(speech.waiting) == 1
    window.show()
    window.close()
    assert speaker.stopped == 1 and speech.speaking is None and not speech.waiting


@needs_pulse
@pytest.mark.skipif(shutil.which("espeak-ng") is None and os.environ.get("CI", "").lower() in ("", "0", "false"),
                    reason="espeak-ng is not installed (Debian: espeak-ng)")
def test_a_stopp_is_heard_spoken_in_estonian_one_alarm_after_the_other(pulse, qtbot, estonian, tmp_path):
    assert shutil.which("espeak-ng"), "espeak-ng is missing (Debian: espeak-ng)"
    banner = AlarmBanner(sound=lambda cls: None)
    qtbot.addWidget(banner)
    speech = AlarmSpeech(banner)
    assert isinstance(speech.speaker, EspeakSpeaker) and speech.speaker.available()
    speech.set_enabled(True)
    second = "STOPP kõigile, Karude juures, ruut F7"

    def play():
        banner.add_alarm(stopp(1, PLACE))
        banner.add_alarm(stopp(2, second))
        assert speech.speaking == PLACE             # said at once, the window not waiting for it
        qtbot.waitUntil(speech.idle, timeout=30_000)

    samples = record_while(pulse, play)
    assert speech.said == [PLACE, second]
    loud = np.flatnonzero(np.abs(samples) > 0.02)
    assert loud.size, "nothing was heard"
    heard_s = (loud[-1] - loud[0]) / RATE
    # Each sentence alone, as espeak-ng says it: the two were said one after the other, not over each other.
    alone = []
    for n, text in enumerate((PLACE, second)):
        wav = tmp_path / f"{n}.wav"
        subprocess.run(["espeak-ng", "-v", "et", "-w", str(wav), text], check=True, timeout=30)
        alone.append(loud_seconds(wav))
    assert 1.0 < alone[0] < 10
    assert heard_s > 0.9 * sum(alone), (heard_s, alone)          # (over each other: about the longer one)
    assert heard_s < sum(alone) + 5
    span = samples[loud[0]:loud[-1]]
    assert float(np.sqrt(np.mean(span ** 2))) > 0.02               # speech, not silence
    assert np.count_nonzero(np.abs(span) > 0.02) / RATE > 0.3 * sum(alone)
