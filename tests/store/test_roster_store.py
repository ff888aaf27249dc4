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


def test_a_roster_saved_while_another_connection_writes_waits_for_it(tmp_path):
    """The roster reads the stored groups, then writes.  Another connection writing between the two (the window
    keeping the map of a game just started, while its roster is imported) made the write fail at once with
    "locked by another program": begun IMMEDIATE, the save holds the write lock from its first read."""
    import sqlite3

    path = tmp_path / "race.crgame"
    with GameStore.open(path) as store:
        store.save_roster([Member(1, "A", "North", "Wolves")])
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        wrote = []

        def between(conn, cursor, statement, *_args):
            if statement.lstrip().upper().startswith("INSERT") and not wrote:
                try:        # the other connection's write, after the roster's first read
                    other.execute("INSERT INTO game_meta (key, value) VALUES ('map', 'kept')")
                    wrote.append(True)
                except sqlite3.OperationalError:
                    wrote.append(False)     # it waits for the roster's transaction instead (its own retry)

        sa.event.listen(store.engine, "before_cursor_execute", between)
        change = store.save_roster([Member(1, "A", "North", "Wolves"), Member(2, "B", "South", "Ravens")])
        sa.event.remove(store.engine, "before_cursor_execute", between)
        other.close()
        assert change.added == 1 and [m.badge for m in store.roster()] == [1, 2]
        assert wrote == [False]
