"""The stored roster: updates in place, tidy groups, history protected."""

import pytest
import sqlalchemy as sa

from controlroom.game.events import make_event
from controlroom.game.roster import Member, RosterError, member_from_dict
from controlroom.rules.profile import default_profile
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore


@pytest.fixture
def store(game_db):
    s = GameStore.open(game_db)
    yield s
    s.close()


def test_renamed_group_leaves_no_empty_group_behind(store):
    store.save_roster([Member(1, "A", "North", "Wolves"), Member(2, "B", "North", "Wolves")])
    change = store.save_roster([Member(1, "A", "North", "Bears"), Member(2, "B", "North", "Bears")])
    assert (change.updated, change.added, change.removed) == (2, 0, 0)
    with store.engine.connect() as conn:
        assert [r[0] for r in conn.execute(sa.text("SELECT name FROM groups"))] == ["Bears"]


def test_badge_named_only_in_a_stopp_cannot_leave_the_roster(store):
    store.save_roster([Member(1, "A", "North", "Wolves"), Member(2, "B", "North", "Wolves")])
    store.log.append([make_event(10, "stopp_called", "gm", stopp="S1", badges=[2])])
    with pytest.raises(StoreError, match="badge 2 is missing from the new roster but appears"):
        store.save_roster([Member(1, "A", "North", "Wolves")])
    assert [m.badge for m in store.roster()] == [1, 2]


def test_re_saving_keeps_the_event_history(store):
    store.save_roster([Member(1, "A", "North", "Wolves")])
    store.log.append([make_event(10, "down", "gm", badge=1)])
    store.save_roster([Member(1, "A. Smith", "North", "Wolves", helmet="metal")])
    assert store.log.count() == 1
    state, _ = store.load_state()
    assert state.characters[1].member.name == "A. Smith" and state.characters[1].condition == "unconscious"


@pytest.mark.parametrize("value, paid", [("no", False), ("ei", False), ("yes", True), ("JAH", True), (False, False)])
def test_paid_is_read_as_yes_or_no(value, paid):
    m = member_from_dict({"badge": 1, "name": "A", "side": "N", "group": "G", "paid": value}, default_profile())
    assert m.paid is paid


def test_paid_that_is_neither_yes_nor_no_is_refused():
    with pytest.raises(RosterError, match="paid must be yes or no, not 'maybe'"):
        member_from_dict({"badge": 1, "name": "A", "side": "N", "group": "G", "paid": "maybe"}, default_profile())
