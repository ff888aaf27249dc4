"""A game state is freed as soon as it is dropped, without the cyclic garbage collector.

The core freezes the folded game (gc.freeze) and the window's process collects only in its GUI thread: a
state held in a reference cycle (it was: a table of its own bound methods) would stay in memory, a whole
8,000-player game each time the roster changed and the game was folded again.
"""

import gc
import weakref

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.snapshot import restore, take
from controlroom.game.state import GameState


def test_a_dropped_state_is_freed_without_a_collection():
    roster = [Member(b, f"P{b}", "North" if b % 2 else "South", f"G{b % 5}") for b in range(1, 201)]
    was = gc.isenabled()
    gc.disable()
    try:
        state = GameState(roster)
        for i, b in enumerate(range(1, 201, 3)):
            state.apply(make_event(1000 + i, "down", "marshal:1", badge=b))
        state.apply(make_event(5000, "stopp_called", "gm", stopp="GM1", reason="danger"))
        copy = restore(take(state))                 # a state made from a snapshot, as a fold's refold does
        refs = [weakref.ref(state), weakref.ref(copy)]
        del state, copy
        assert [r() for r in refs] == [None, None], "a state is kept alive by a reference cycle"
    finally:
        if was:
            gc.enable()
