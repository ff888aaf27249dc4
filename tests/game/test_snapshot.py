"""Snapshots of the fold: restoring one and folding on gives what folding from the start gives."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controlroom.game import snapshot
from controlroom.game.events import make_event
from controlroom.game.state import GameState
from tests.support.game_helpers import ROSTER, Game, fingerprint
from tests.support.game_strategies import game_event


def test_every_attribute_of_a_game_state_is_known_to_the_snapshot():
    g = Game()
    g.at(10_000, "down", badge=1)
    g.at(20_000, "looted", badge=2, by=11, items=["sword"], consent=True)
    g.at(30_000, "stopp_called", stopp="S1", groups=["Wolves"], source="gm")
    names = set(snapshot.attributes(g.state))
    assert not hasattr(g.state, "__dict__"), "GameState keeps its attributes in slots (a dict slows the fold)"
    unknown = names - snapshot.KNOWN
    assert not unknown, f"GameState attributes the snapshot does not copy: {unknown}"
    assert snapshot.KNOWN - names == set(), "the snapshot lists attributes GameState no longer has"


def test_a_restored_snapshot_is_independent_of_the_state_it_was_taken_of():
    g = Game()
    g.at(10_000, "down", badge=1)
    snap = snapshot.take(g.state)
    before = fingerprint(g.state)
    g.at(20_000, "bound", badge=1)
    g.at(30_000, "stopp_called", stopp="S1", source="gm")
    first = snapshot.restore(snap)
    assert fingerprint(first) == before
    first.apply(make_event(40_000, "permanent_kill", "gm", badge=2))
    second = snapshot.restore(snap)
    assert fingerprint(second) == before, "folding a restored state changed the snapshot"


def test_snapshots_share_the_lists_the_fold_appends_to_and_each_restores_its_own_prefix():
    """Warnings, deaths, check-ins, retractions and loot are kept by every snapshot as the state's list and a
    length (a fold keeps 64 checkpoints: a copy each held 64 pointers for every record); a restored state
    gets a list of its own, so folding it leaves the snapshots' lists as they were."""
    g = Game()
    g.at(10_000, "died", badge=1)
    g.at(11_000, "strike", badge=1)                  # a warning: the dead take no strikes
    first = snapshot.take(g.state)
    g.at(20_000, "died", badge=2)
    g.at(21_000, "strike", badge=2)
    second = snapshot.take(g.state)
    for name in snapshot.APPENDED:
        assert first.attrs[name].items is second.attrs[name].items is getattr(g.state, name)
    assert (first.attrs["warnings"].n, second.attrs["warnings"].n) == (1, 2)
    back = snapshot.restore(first)
    assert [d[1] for d in back.deaths] == [1] and len(back.warnings) == 1
    assert back.warnings is not g.state.warnings
    back.apply(make_event(30_000, "strike", "gm", badge=1))
    snapshot.restore_into(back, second)
    assert [d[1] for d in back.deaths] == [1, 2] and len(back.warnings) == 2
    assert len(g.state.warnings) == 2 and len(snapshot.restore(first).warnings) == 1


timed = st.lists(st.tuples(st.integers(0, 900_000), game_event), min_size=1, max_size=50)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(timed, st.integers(0, 50))
def test_folding_on_from_a_snapshot_equals_folding_from_the_start(steps, cut):
    g = Game()
    t = 0
    for gap, (type_, fields) in steps:
        t += gap
        g.at(t, type_, **fields)
    g.run_to(t + 3_600_000)
    log = g.applied
    cut = min(cut, len(log))
    whole = GameState(ROSTER)
    for e in log:
        whole.apply(e)
    part = GameState(ROSTER)
    for e in log[:cut]:
        part.apply(e)
    resumed = snapshot.restore(snapshot.take(part))
    for e in log[cut:]:
        resumed.apply(e)
        part.apply(e)
    assert fingerprint(resumed) == fingerprint(whole)
    assert fingerprint(part) == fingerprint(whole)


def test_a_carer_with_no_patients_at_the_snapshot_has_none_when_restored():
    """A snapshot kept the carer's empty set of patients itself: caring after it changed the snapshot."""
    g = Game()
    g.at(10_000, "down", badge=1)
    g.at(11_000, "bound", badge=1)
    snap = snapshot.take(g.state)
    assert not g.state.characters[3].patients
    g.at(12_000, "cared_for", badge=1, carer=3)
    assert g.state.characters[3].patients == {1}
    assert snapshot.restore(snap).characters[3].patients == set()


def test_restoring_into_a_state_equals_a_full_restore():
    g = Game()
    g.at(10_000, "down", badge=1)
    g.at(11_000, "bound", badge=1)
    g.at(12_000, "cared_for", badge=1, carer=3)
    snap = snapshot.take(g.state)
    work = snapshot.restore(snap)
    work.apply(make_event(20_000, "permanent_kill", "gm", badge=2))
    work.apply(make_event(21_000, "down", "gm", badge=3))           # the carer's patients go
    snapshot.restore_into(work, snap)
    assert fingerprint(work) == fingerprint(snapshot.restore(snap))
    assert work.characters[3].patients == {1}
    work.characters[3].patients.discard(1)                          # the snapshot keeps its own copy
    assert snapshot.restore(snap).characters[3].patients == {1}
    snapshot.restore_into(work, snap)
    assert fingerprint(work) == fingerprint(snapshot.restore(snap))
    other = GameState(ROSTER[:3])
    with pytest.raises(ValueError):
        snapshot.restore_into(other, snap)
