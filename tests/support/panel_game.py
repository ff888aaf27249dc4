"""A small game for the panel tests: a roster, a settable game clock, and folding events into deltas."""

from controlroom.game.clock import parse_time
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.views import make_delta

ROSTER = [
    Member(1, "Aldo", "North", "Wolves", "warrior"),
    Member(2, "Birgit", "North", "Wolves", "warrior"),
    Member(3, "Carl", "North", "Bears", "healer"),
    Member(11, "Gerd", "South", "Ravens", "warrior"),
    Member(12, "Hilde", "South", "Ravens", "healer"),
]


class Clock:
    """The game clock a panel reads its countdowns from (a callable)."""

    def __init__(self, t=0):
        self.t = t

    def __call__(self):
        return self.t


def ms(text):
    return parse_time(text)


def fold(state, *events):
    """Fold (time, type, fields) events; return the delta of what changed."""
    for t, type_, fields in events:
        state.apply(make_event(ms(t), type_, "marshal:M1", **fields))
    badges, stopps = state.take_dirty()
    return make_delta(state, badges, stopps)
