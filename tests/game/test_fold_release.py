"""game.fold_release: a fold a refold replaced, emptied a piece at a time, and nothing of the new fold with it."""

from controlroom.game import fold_release
from controlroom.game.fold import Fold
from controlroom.game.state import GameState
from tests.support.fold_station import battle, plain_log
from tests.support.game_helpers import ROSTER, fingerprint


def test_a_fold_let_go_of_is_emptied_a_piece_at_a_time_and_the_new_fold_keeps_its_events(monkeypatch):
    monkeypatch.setattr(fold_release, "STEP", 16)
    rows = battle(400)
    old, new = (Fold(GameState(ROSTER), checkpoint_every=50, keep=4) for _ in range(2))
    old.load(rows)
    new.load(rows)                          # the same events and data: what a refold reads again
    pauses = []
    fold_release.let_go(old, lambda: pauses.append(1))
    assert not old.entries and not old._keys and not old._checkpoints
    assert not old.state.characters and not old.state.warnings
    assert len(pauses) >= 200 // 16         # (the entries alone: 200 in the tail, 16 at a time)
    plain = plain_log(rows)
    plain.take_dirty()
    new.state.take_dirty()
    assert all(row.event.data for row in rows) and fingerprint(new.state) == fingerprint(plain)
