"""The alarm sounds are heard: a PulseAudio daemon of the test's own, with a null sink, records what plays.

Needs the Debian packages pulseaudio and pulseaudio-utils (pulseaudio, paplay, parec): see pulse_sink.py.
"""

import numpy as np

from controlroom.game.alarms import GAME, LINK, SAFETY, SECURITY, STORAGE
from controlroom.ui.panels.sound import AlarmSounds, find_player
from tests.support.pulse_sink import RATE, needs_pulse, pulse_fixture, record_while  # noqa: F401 (the fixture "pulse")

pytestmark = needs_pulse

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

