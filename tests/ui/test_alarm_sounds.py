"""The alarm sounds are heard: a PulseAudio daemon of the test's own, with a null sink, records what plays.

Needs the Debian packages pulseaudio and pulseaudio-utils (pulseaudio, paplay, parec).
"""

import os
import shutil
import subprocess
import time

import numpy as np
import pytest

from controlroom.game.alarms import GAME, LINK, SAFETY, SECURITY, STORAGE
from controlroom.ui.panels.sound import AlarmSounds, find_player

RATE = 22_050
NEEDED = ("pulseaudio", "paplay", "parec", "pactl")


def _missing():
    return [name for name in NEEDED if shutil.which(name) is None]


pytestmark = pytest.mark.skipif(bool(_missing()) and os.environ.get("CI", "").lower() in ("", "0", "false"),
                                reason="PulseAudio is not installed (Debian: pulseaudio pulseaudio-utils)")


@pytest.fixture
def pulse(tmp_path, monkeypatch):
    """A private PulseAudio server with one null sink; its socket is where paplay and parec go."""
    assert not _missing(), f"missing: {', '.join(_missing())} (Debian: pulseaudio pulseaudio-utils)"
    home = tmp_path / "pulse"
    home.mkdir()
    socket = home / "native"
    env = dict(os.environ, HOME=str(home), PULSE_RUNTIME_PATH=str(home), XDG_RUNTIME_DIR=str(home))
    env.pop("DISPLAY", None)
    daemon = subprocess.Popen(
        ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=false",
         "-L", "module-null-sink sink_name=controlroom_test rate=22050 channels=1",
         "-L", f"module-native-protocol-unix socket={socket} auth-anonymous=1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env["PULSE_SERVER"] = f"unix:{socket}"
    deadline = time.monotonic() + 10
    while subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode != 0:
        assert daemon.poll() is None and time.monotonic() < deadline, "the PulseAudio daemon did not start"
        time.sleep(0.1)
    for key in ("HOME", "PULSE_RUNTIME_PATH", "XDG_RUNTIME_DIR", "PULSE_SERVER"):
        monkeypatch.setenv(key, env[key])
    monkeypatch.setenv("PULSE_SINK", "controlroom_test")
    yield env
    daemon.terminate()
    daemon.wait(10)


def record_while(env, play) -> np.ndarray:
    """Record the null sink's monitor while ``play()`` runs; the samples as floats in -1..1."""
    recorder = subprocess.Popen(["parec", "-d", "controlroom_test.monitor", "--raw", "--format=s16le",
                                 f"--rate={RATE}", "--channels=1", "--latency-msec=20"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)                  # the recorder is connected before the sound starts
        play()
        time.sleep(0.3)
    finally:
        recorder.terminate()
        data, _ = recorder.communicate(timeout=10)
    return np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2").astype(float) / 32768.0


def dominant_hz(samples: np.ndarray) -> float:
    loud = samples[np.abs(samples) > 0.05 * np.abs(samples).max()] if samples.size else samples
    spectrum = np.abs(np.fft.rfft(loud * np.hanning(loud.size)))
    return float(np.fft.rfftfreq(loud.size, 1 / RATE)[spectrum.argmax()])


def test_every_class_sound_is_heard_and_they_differ(pulse, qtbot):
    assert find_player().endswith("paplay")
    sounds = AlarmSounds()
    heard = {}
    for cls in (SAFETY, GAME, SECURITY, LINK, STORAGE):
        def play(cls=cls):
            sounds.play(cls)
            assert sounds.wait(5000)
        samples = record_while(pulse, play)
        rms = float(np.sqrt(np.mean(samples ** 2))) if samples.size else 0.0
        peak = float(np.abs(samples).max()) if samples.size else 0.0
        assert peak > 0.3 and rms > 0.02, (cls, peak, rms)          # the WAVs peak at 0.6
        heard[cls] = (dominant_hz(samples), np.count_nonzero(np.abs(samples) > 0.1) / RATE)
    # Told apart by ear: the link's low tone, safety's high two-tone, security's short clicks.
    assert heard[LINK][0] < 400 and heard[SAFETY][0] > 800
    assert heard[SECURITY][1] < heard[LINK][1] and heard[SECURITY][1] < heard[SAFETY][1]

