"""Deltas carry only the field reports that changed (issue 17): FieldSent on the publisher's side, merge_field on
the reader's; what a reader keeps is the same as the whole field at every moment."""

import random

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.game.views import FIELD_PARTS, FieldSent, field_of, merge_field

ROSTER = [Member(b, f"P{b}", "North" if b < 50 else "South", f"G{b // 10}") for b in range(1, 101)]


def position(t, device, lat, lon):
    return make_event(t, "position", f"tracker:{device}", device=device, lat=lat, lon=lon, fix=1)


def test_a_delta_carries_what_changed_since_the_last_and_the_reader_keeps_the_whole_field():
    state = GameState(ROSTER)
    sent = FieldSent()
    for d in range(1, 6):
        state.apply(position(1000, d, 58.38 + d / 1000, 26.72))
    whole = sent.changes(state, whole=True)
    assert "partial" not in whole and len(whole["positions"]) == 5
    kept = merge_field({}, whole)
    assert kept == field_of(state)
    # Two trackers move: the next field names only them.
    state.apply(position(2000, 2, 58.5, 26.8))
    state.apply(position(2100, 4, 58.6, 26.9))
    field = sent.changes(state)
    assert field["partial"] is True
    assert set(field["positions"]) == {"tracker:2", "tracker:4"} and set(field["heard"]) == {"tracker:2", "tracker:4"}
    assert field["siege"] == {} and field["headcounts"] == {}
    kept = merge_field(kept, field)
    assert kept == field_of(state)
    # Nothing new: an empty field of changes, and the reader keeps what it had.
    field = sent.changes(state)
    assert all(field[name] == {} for name in FIELD_PARTS)
    assert merge_field(kept, field) == field_of(state)


def test_many_random_reports_folded_by_changes_give_the_whole_field_every_time():
    rng = random.Random(4)
    state = GameState(ROSTER)
    sent = FieldSent()
    kept = merge_field({}, sent.changes(state, whole=True))
    t = 0
    for _round in range(60):
        for _ in range(rng.randint(0, 12)):
            t += rng.randint(1, 500)
            kind = rng.random()
            if kind < 0.7:
                state.apply(position(t, rng.randint(1, 30), 58 + rng.random(), 26 + rng.random()))
            elif kind < 0.85:
                state.apply(make_event(t, "siege_status", f"marshal:{rng.randint(1, 3)}",
                                       engine=rng.choice(("ram", "tower")), status=rng.choice(("moved", "hit"))))
            else:
                state.apply(make_event(t, "headcount", f"marshal:{rng.randint(1, 3)}", group=f"G{rng.randint(0, 9)}",
                                       up=rng.randint(0, 9), down=rng.randint(0, 3), dead=rng.randint(0, 3)))
        whole = rng.random() < 0.1                  # now and then a whole field (a fold again)
        kept = merge_field(kept, sent.changes(state, whole=whole))
        assert kept == field_of(state)


def test_a_part_not_named_is_kept_and_a_whole_part_replaces():
    kept = {"positions": {"a": (1, 2.0, 3.0, None, 1)}, "heard": {"a": (1, None)}}
    assert merge_field(kept, {}) == kept
    merge_field(kept, {"positions": {"b": (2, 4.0, 5.0, None, 1)}})       # not partial: replaces the part
    assert kept["positions"] == {"b": (2, 4.0, 5.0, None, 1)} and kept["heard"] == {"a": (1, None)}
