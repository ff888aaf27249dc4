"""The deltas after a refold: whole, yet only the characters the refold changed are viewed again."""

from dataclasses import replace
from typing import NamedTuple

from controlroom.engine.publisher import Publisher
from controlroom.game.events import make_event
from controlroom.game.fold import Fold, key_of
from controlroom.game.state import GameState
from controlroom.game.views import character_view, side_counts
from tests.support.played_game import played_game, roster


class Rec(NamedTuple):
    seq: int
    pos: float | None
    event: object
    radio: object = None


def _timeless(view):
    """A view without the time left of its deadlines (which a reader counts from their due times)."""
    return view._replace(deadlines=tuple(replace(d, remaining=0) for d in view.deadlines))


def test_a_whole_delta_after_each_refold_shows_every_character_as_a_fresh_view_would(monkeypatch):
    from controlroom.game import views

    made = []
    real = views.character_view
    monkeypatch.setattr("controlroom.engine.publisher.character_view", lambda s, b: made.append(b) or real(s, b))
    members = roster(400)
    log = played_game(members, 4000)
    fold = Fold(GameState(members), checkpoint_every=50, keep=40)
    publisher = Publisher(fold)
    publisher.opened(fold, [])
    stored, seq, wholes, viewed = [], 0, 0, []
    for i in range(0, len(log), 20):
        batch = []
        for event in log[i:i + 20]:
            seq += 1
            pos = key_of(stored[-15])[0] + 0.5 if seq % 61 == 0 and len(stored) > 15 else None
            if seq % 83 == 0 and len(stored) > 12:      # a game master takes back a report of a while ago
                event = make_event(event.t, "retracted", "gm", seq=stored[-12].seq, reason="wrong badge")
            batch.append((Rec(seq, pos, event), None))
        stored += [rec for rec, _t in batch]
        confirmed = fold.confirm(batch, may_fire=False)
        if confirmed.refolded:
            publisher.refolded(fold)
        made.clear()
        delta = publisher.delta(fold)
        if not delta.full:
            continue
        wholes += 1
        state = fold.state
        assert [_timeless(v) for v in delta.characters] == [
            _timeless(character_view(state, b)) for b in sorted(state.characters)]
        assert delta.sides == side_counts(state)
        viewed.append(len(made))
    assert wholes >= 20
    # (A scenario's start or end changes every character: a refold over one views them all.)
    assert sorted(viewed)[len(viewed) // 2] < len(members) // 4, "a refold views only the characters it changed"
