"""Write the alarm sounds (one short WAV per alarm class) that resources/sounds holds.

    python resources/sounds/make_sounds.py

Each class has its own pattern, told apart without looking: safety a fast
high two-tone, storage a long low-high warble, game two falling notes, radio
security three short clicks, a lost link one low tone.  16-bit mono, 22 050 Hz.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22_050

# class -> [(frequency Hz or 0 for silence, seconds), ...]
PATTERNS = {
    "safety": [(1320, 0.12), (880, 0.12)] * 3,
    "storage": [(440, 0.2), (660, 0.2), (440, 0.2)],
    "game": [(784, 0.18), (0, 0.04), (523, 0.28)],
    "security": [(1000, 0.05), (0, 0.07)] * 3,
    "link": [(330, 0.4)],
}


def samples(pattern, volume: float = 0.6):
    for freq, seconds in pattern:
        n = int(RATE * seconds)
        fade = max(1, int(RATE * 0.005))          # 5 ms ramps: no clicks between notes
        for i in range(n):
            ramp = min(1.0, i / fade, (n - 1 - i) / fade)
            value = math.sin(2 * math.pi * freq * i / RATE) if freq else 0.0
            yield int(32767 * volume * ramp * value)


def write(path: Path, pattern) -> None:
    data = list(samples(pattern))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(struct.pack(f"<{len(data)}h", *data))


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    for name, pattern in PATTERNS.items():
        write(here / f"{name}.wav", pattern)
