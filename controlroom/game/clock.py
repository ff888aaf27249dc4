"""Game time: milliseconds on the game's timeline, parsed from and written as HH:MM:SS."""

from __future__ import annotations

import re
import time
from typing import Protocol

_HMS = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d{1,3})?)$")


class TimeFormatError(ValueError):
    """A time that is not HH:MM:SS, MM:SS or a number of seconds."""


MAX_HOURS = 10_000          # longer than any game (about 14 months): a time past it is a typing error


def _checked(ms: float, value: object) -> int:
    if ms > MAX_HOURS * 3_600_000:
        raise TimeFormatError(f"bad time {value!r}: more than {MAX_HOURS} hours into the game")
    return int(round(ms))


def parse_time(value: object) -> int:
    """Milliseconds from ``"01:02:03"``, ``"02:03.5"`` or a number of seconds (>= 0, at most MAX_HOURS)."""
    if isinstance(value, bool):
        raise TimeFormatError(f"bad time {value!r}: give HH:MM:SS or seconds")
    if isinstance(value, (int, float)):
        if value != value or value < 0:
            raise TimeFormatError(f"bad time {value!r}: must be zero or more seconds")
        if value > MAX_HOURS * 3600:
            raise TimeFormatError(f"bad time {value!r}: more than {MAX_HOURS} hours into the game")
        return int(round(value * 1000))
    if isinstance(value, str):
        text = value.strip()
        m = _HMS.match(text)
        if m:
            hours = int(m.group(1) or 0)
            minutes = int(m.group(2))
            seconds = float(m.group(3))
            if m.group(1) is not None and minutes >= 60 or seconds >= 60:
                raise TimeFormatError(f"bad time {value!r}: minutes and seconds must be below 60")
            return _checked((hours * 3600 + minutes * 60 + seconds) * 1000, value)
        try:
            number = float(text)
        except ValueError:
            pass
        else:
            return parse_time(number)
    raise TimeFormatError(f"bad time {value!r}: give HH:MM:SS, MM:SS or seconds")


def format_time(ms: int) -> str:
    """``HH:MM:SS`` (with ``.mmm`` when not a whole second); negative values get a sign."""
    sign = "-" if ms < 0 else ""
    ms = abs(int(ms))
    seconds, millis = divmod(ms, 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{sign}{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{text}.{millis:03d}" if millis else text


class Clock(Protocol):
    """Where the timeline's 'now' comes from: the wall in production, a variable in tests."""

    speed: float

    def now_ms(self) -> int: ...

    def real_ms(self, game_ms: float) -> float: ...


class WallClock:
    """Game time from the computer's monotonic clock, from ``start_ms`` on, ``speed`` times real time.

    ``speed`` is game seconds per real second: 1 in a real game, more when a
    simulated battle is played fast.
    """

    runs = True

    def __init__(self, start_ms: int = 0, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError(f"speed must be above 0, not {speed}")
        self.speed = speed
        self._start = start_ms
        self._origin = time.monotonic_ns()

    def now_ms(self) -> int:
        return self._start + int((time.monotonic_ns() - self._origin) * self.speed) // 1_000_000

    def real_ms(self, game_ms: float) -> float:
        """Real milliseconds that ``game_ms`` of game time take."""
        return game_ms / self.speed


class VirtualClock:
    """A clock that moves only when told to: ten game-minutes in a microsecond."""

    speed = 1.0
    runs = False                # it moves only when told to: nothing to interpolate between reports

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms

    def real_ms(self, game_ms: float) -> float:
        return float(game_ms)

    def now_ms(self) -> int:
        return self._now

    def advance_to(self, ms: int) -> None:
        if ms < self._now:
            raise ValueError(f"a clock cannot run backwards ({format_time(ms)} < {format_time(self._now)})")
        self._now = ms

    def advance(self, ms: int) -> None:
        self.advance_to(self._now + ms)
