"""A stored game and a real core thread for the desk tests (SQLite file, virtual game clock)."""

from contextlib import contextmanager

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.events import make_event
from controlroom.store.game import GameStore
from controlroom.ui.desks.common import game_clock, wire_desk
from tests.support.panel_game import ROSTER

# Respawn after 10 minutes; Birgit (2) died at 00:01:00; everyone else is up.
OPENING = [
    make_event(0, "scenario_started", "gm", name="Ford", respawn=True, respawn_time=600),
    make_event(60_000, "died", "marshal:M1", badge=2),
]


def new_game(path, events=OPENING):
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        store.log.append(list(events))
    return str(path)


def stored(path):
    """Every event stored in the game, in order."""
    with GameStore.open(path, create=False) as store:
        return [e for _, e in store.log.events()]


def folded(path):
    """The game folded from its log, as a new station would open it."""
    with GameStore.open(path, create=False) as store:
        return store.load_state()[0]


@contextmanager
def running(qtbot, path, desk, now_ms=120_000):
    """A core thread on the game with ``desk`` wired to it (as the window wires it), until the block ends."""
    core = CoreThread(path, VirtualClock(now_ms), publish_interval_ms=20)
    wire_desk(desk, core)
    if hasattr(desk, "now_ms"):
        desk.now_ms = game_clock(core)
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        yield core
    finally:
        assert core.shutdown(), "the core thread did not stop"
