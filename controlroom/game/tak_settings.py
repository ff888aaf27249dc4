"""A game's TAK settings (kept in game_meta): each side's affiliation and team colour, the server, the pace.

What a TAK client shows of the battle (docs/tak.md) depends on choices only
the organisers can make: which side the phones' owners count as friends and
which as hostile, the colour of each side's groups, how often an object may
be sent.  They are kept with the game as one JSON value (``SETTINGS_KEY``),
set by ``controlroom tak``, read when the game is opened.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

SETTINGS_KEY = "tak_settings"

#: CoT affiliations (MIL-STD-2525's standard identities), the second part of an atom's type "a-f-G...".
AFFILIATIONS = {
    "f": "friend", "h": "hostile", "n": "neutral", "u": "unknown", "a": "assumed friend", "s": "suspect",
    "j": "joker", "k": "faker", "p": "pending",
}
DEFAULT_AFFILIATION = "n"

#: The 14 team colours a TAK client knows (the ``name`` of a CoT ``__group``).
TEAM_COLOURS = ("White", "Yellow", "Orange", "Magenta", "Red", "Maroon", "Purple", "Dark Blue", "Blue", "Cyan",
                "Teal", "Green", "Dark Green", "Brown")
#: The sides' colours when none is set: the map's own side colours in the same order (ui/map/layers.py
#: SIDE_COLOURS: blue, red, green, purple, orange, brown), as the nearest team colours.
SIDE_TEAM_COLOURS = ("Blue", "Red", "Green", "Purple", "Orange", "Brown")

#: Ways to reach a TAK server or client that the station sends to (``--tak``).
TAK_SCHEMES = ("tcp", "tls", "udp")
DEFAULT_EVERY_S = 5.0
MIN_EVERY_S = 0.5
DEFAULT_AREA_PER_FIGHTER_M2 = 20.0


class TakSettingsError(ValueError):
    """A TAK setting that cannot be used, in words."""


def check_tak_url(url: str) -> str:
    """``url`` if the station can send to it (tcp://, tls://, udp:// with a host and a port), else TakSettingsError."""
    parts = urlsplit(str(url).strip())
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in TAK_SCHEMES or not parts.hostname or port is None:
        raise TakSettingsError(f"a TAK server is tcp://HOST:PORT, tls://HOST:PORT or udp://HOST:PORT "
                               f"(e.g. tcp://192.168.1.10:8087), not {url!r}")
    return str(url).strip()


def team_colour(name: str) -> str:
    """The team colour named (any case, "dark-blue" too), or TakSettingsError listing the 14."""
    wanted = str(name).strip().lower().replace("-", " ").replace("_", " ")
    for colour in TEAM_COLOURS:
        if colour.lower() == wanted:
            return colour
    raise TakSettingsError(f"{name!r} is not a TAK team colour ({', '.join(TEAM_COLOURS)})")


def affiliation(code: str) -> str:
    """The one-letter affiliation of a code or its word ("f", "friend", "hostile"...), or TakSettingsError."""
    wanted = str(code).strip().lower()
    for letter, word in AFFILIATIONS.items():
        if wanted in (letter, word):
            return letter
    raise TakSettingsError(f"{code!r} is not an affiliation (" + ", ".join(
        f"{letter} {word}" for letter, word in AFFILIATIONS.items()) + ")")


@dataclass(frozen=True)
class TakSettings:
    """What the TAK feed of a game needs to know besides the game itself."""

    affiliations: Mapping[str, str] = field(default_factory=dict)     # side -> "f", "h", "n"...
    colours: Mapping[str, str] = field(default_factory=dict)          # side -> team colour
    server: str = ""                    # the TAK server for the data package's .pref ("" when none)
    every_s: float = DEFAULT_EVERY_S    # each object at most once per this many seconds
    area_per_fighter_m2: float = DEFAULT_AREA_PER_FIGHTER_M2      # a group's footprint: this much ground each

    def affiliation_of(self, side: str | None) -> str:
        return self.affiliations.get(side or "", DEFAULT_AFFILIATION)

    def colours_for(self, sides: Iterable[str]) -> dict[str, str]:
        """Each side's team colour: the one set, else the map's colour in the sides' order."""
        out, free = {}, [c for c in SIDE_TEAM_COLOURS if c not in self.colours.values()] or ["White"]
        unset = 0
        for side in sorted(set(sides)):
            if side in self.colours:
                out[side] = self.colours[side]
            else:
                out[side] = free[unset % len(free)]
                unset += 1
        return out

    def to_json(self) -> str:
        return json.dumps({"affiliations": dict(self.affiliations), "colours": dict(self.colours),
                           "server": self.server, "every_s": self.every_s,
                           "area_per_fighter_m2": self.area_per_fighter_m2}, ensure_ascii=False, sort_keys=True)


def settings_from_json(text: str | None) -> TakSettings:
    """The settings kept with a game (defaults for what is missing); TakSettingsError if they are damaged."""
    if not text:
        return TakSettings()
    try:
        raw = json.loads(text)
        if not isinstance(raw, dict):
            raise ValueError("not an object")
        every = float(raw.get("every_s", DEFAULT_EVERY_S))
        area = float(raw.get("area_per_fighter_m2", DEFAULT_AREA_PER_FIGHTER_M2))
        server = str(raw.get("server") or "")
        return TakSettings({str(k): affiliation(v) for k, v in dict(raw.get("affiliations") or {}).items()},
                           {str(k): team_colour(v) for k, v in dict(raw.get("colours") or {}).items()},
                           check_tak_url(server) if server else "", max(MIN_EVERY_S, every), max(1.0, area))
    except (TypeError, ValueError) as exc:
        raise TakSettingsError(f"the game's TAK settings are damaged ({exc}); set them again with controlroom tak") \
            from None
