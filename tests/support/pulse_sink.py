"""A PulseAudio server of a test's own, with a null sink whose monitor records what plays (the ``pulse`` fixture).

Needs the Debian packages pulseaudio and pulseaudio-utils (pulseaudio, paplay, parec).
"""

import os
import shutil
import subprocess
import tempfile
import time

import numpy as np
import pytest

RATE = 22_050
NEEDED = ("pulseaudio", "paplay", "parec", "pactl")


def _missing():
    return [name for name in NEEDED if shutil.which(name) is None]


#: A test module's mark: skipped where PulseAudio is not installed, but never under CI (the test command installs it).
needs_pulse = pytest.mark.skipif(bool(_missing()) and os.environ.get("CI", "").lower() in ("", "0", "false"),
                                reason="PulseAudio is not installed (Debian: pulseaudio pulseaudio-utils)")


@pytest.fixture(name="pulse")
def pulse_fixture(tmp_path, monkeypatch):
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
    """Record the null sink's monitor while ``play()`` runs; the samples as floats in -1..1.

    The recorder writes into a file, not a pipe: a pipe nobody reads while ``play()`` runs is full after
    about 1.5 s of sound, and what the recorder then cannot write the server drops.
    """
    with tempfile.TemporaryFile() as out:
        recorder = subprocess.Popen(["parec", "-d", "controlroom_test.monitor", "--raw", "--format=s16le",
                                     f"--rate={RATE}", "--channels=1", "--latency-msec=20"],
                                    env=env, stdout=out, stderr=subprocess.DEVNULL)
        try:
            time.sleep(0.3)                  # the recorder is connected before the sound starts
            play()
            time.sleep(0.3)
        finally:
            recorder.terminate()
            recorder.wait(timeout=10)
        out.seek(0)
        data = out.read()
    return np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2").astype(float) / 32768.0
