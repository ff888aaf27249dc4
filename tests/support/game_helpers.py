"""Small builders for game tests: a roster, events in MM:SS, a timed game."""

from __future__ import annotations

from controlroom.game import snapshot
from controlroom.game.character import Character
from controlroom.game.clock import parse_time
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.scheduler import Schedule, fire_due
from controlroom.game.state import GameState

WOLVES = [
    Member(1, "Aldo", "North", "Wolves", "warrior", helmet="leather", armour=("chain",)),
    Member(2, "Birgit", "North", "Wolves", "warrior"),
    Member(3, "Carl", "North", "Wolves", "healer"),
    Member(4, "Dagmar", "North", "Wolves", "warrior"),
    Member(5, "Erik", "North", "Wolves", "warrior", helmet="metal"),
    Member(6, "Frode", "North", "Wolves", "warrior"),
]
RAVENS = [
    Member(11, "Gerd", "South", "Ravens", "warrior"),
    Member(12, "Hilde", "South", "Ravens", "healer"),
    Member(13, "Ivar", "South", "Ravens", "warrior", armour=("leather", "plate")),
    Member(14, "Jorunn", "South", "Ravens", "warrior"),
    Member(15, "Knut", "South", "Ravens", "warrior"),
]
ROSTER = WOLVES + RAVENS


def ms(text: str) -> int:
    return parse_time(text)


def ev(t, type_, source="marshal:M1", **fields):
    return make_event(ms(t) if isinstance(t, str) else t, type_, source, **fields)


class Game:
    """A GameState with its schedule, driven on a virtual clock."""

    def __init__(self, members=ROSTER, profile=None):
        self.state = GameState(members, profile)
        self.schedule = Schedule()
        self.fired = []
        self.applied = []        # every event folded, scripted or fired: the log a core would store

    def at(self, t, type_, source="marshal:M1", **fields):
        """Run the clock to ``t`` (firing deadlines), then fold one event; returns its warnings."""
        event = ev(t, type_, source, **fields)
        self.run_to(event.t)
        self.applied.append(event)
        warnings = self.state.apply(event)
        self.schedule.sync(self.state)
        return warnings

    def run_to(self, t):
        t = ms(t) if isinstance(t, str) else t
        fired = fire_due(self.state, self.schedule, t)
        self.fired += fired
        self.applied += fired
        self.state.t = max(self.state.t, t)
        self.schedule.sync(self.state)
        return self

    def ch(self, badge):
        return self.state.characters[badge]

    def fired_of(self, badge, type_=None):
        return [(e.t, e.type) for e in self.fired
                if e.data.get("badge") == badge and (type_ is None or e.type == type_)]


def fingerprint(state: GameState) -> dict:
    """Everything a state holds, as plain comparable values."""
    out = {}
    for name, value in snapshot.attributes(state).items():
        if name in ("_handlers", "_event"):
            continue
        if name == "characters":
            value = {b: tuple(getattr(c, s) for s in Character.__slots__) for b, c in value.items()}
        elif name in ("stopps", "active_stopps"):
            value = {k: vars(s) if hasattr(s, "__dict__") else tuple(getattr(s, f) for f in s.__dataclass_fields__)
                     for k, s in value.items()}
        elif name in ("scenario",):
            value = tuple(getattr(value, f) for f in value.__dataclass_fields__)
        elif name == "scenarios":
            value = [tuple(getattr(s, f) for f in s.__dataclass_fields__) for s in value]
        out[name] = value
    return out
