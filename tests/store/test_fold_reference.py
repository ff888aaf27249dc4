"""A large simulated game folds to exactly the game it folded to before the fold was made faster.

The battle of ``benchmarks/bench_eventlog.py`` (1,000 players, 40,000 events,
about 4,000 rule warnings), with trackers' positions and heartbeats between its
reports and a few late reports placed earlier in the log, is stored in a game
file and folded every way the program folds a game: ``load_state`` (reports,
read-only tools), ``open_fold`` (the core opening a game) and event by event
through ``GameState.apply``, on SQLite and on PostgreSQL.  Ten corrections
(``retracted``) are among its events: every fold leaves out what they correct.  Each must give the same state,
and its digest must be the one recorded when this test was written (commit 56b4d93, before
the fold's fast paths): a speed-up that changes any result fails here.
"""

from __future__ import annotations

from controlroom.game.state import GameState
from controlroom.store.game import GameStore
from tests.support.reference_game import EXPECTED, _game, digest


def test_the_large_game_folds_to_the_recorded_state_every_way(game_db):
    """On SQLite and on PostgreSQL (CONTROLROOM_TEST_PG): the two read their rows by different drivers."""
    members, items = _game()
    path = game_db
    with GameStore.open(path) as store:
        store.save_roster(members)
        for i in range(0, len(items), 2000):
            store.log.append(items[i:i + 2000])
    with GameStore.open(path, create=False) as store:
        loaded, last = store.load_state()
        fold = store.open_fold()
        by_event = GameState(store.roster(), store.profile())
        gone = store.retracted()
        for seq, ev in store.log.events():
            if seq not in gone:
                by_event.apply(ev)
    fold.state.take_dirty()
    loaded.take_dirty()
    by_event.take_dirty()
    assert last == len(items)
    assert len(loaded.warnings) > 1000 and len(loaded.deaths) > 1000 and len(loaded.positions) > 250
    assert len(fold.retracted) == 10 and len(loaded.retractions) == 10
    assert digest(loaded) == digest(by_event) == digest(fold.state)
    assert digest(loaded) == EXPECTED
