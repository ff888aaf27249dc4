"""Each rule deadline is stored once per game: the log refuses a fired deadline whose identity it has already.

On both backends; on a shared game, also what the timer lock's holder is
at the moment of the append (a deadline fired under a lost lock is dropped
in the same transaction).
"""

import pytest
import sqlalchemy as sa

from controlroom.game.events import SOURCE_TIMER, make_event
from controlroom.game.roster import Member
from controlroom.store import pg
from controlroom.store.engine import make_engine
from controlroom.store.game import GameStore
from controlroom.store.migrations import migrate
from controlroom.store.timer_keys import timer_key

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Õie", "South", "Ravens", "healer")]


def woke(t=1_470_428, badge=1):
    return make_event(t, "woke", SOURCE_TIMER, badge=badge)


@pytest.fixture
def game(game_db):
    store = GameStore.open(game_db)
    store.save_roster(ROSTER)
    yield store
    store.close()


def test_a_deadlines_identity_is_its_kind_whom_and_when():
    assert timer_key(woke()) == "woke|1||1470428"
    assert timer_key(make_event(5, "stopp_overdue", SOURCE_TIMER, stopp="GM1")) == "stopp_overdue||GM1|5"
    assert timer_key(make_event(5, "down", "marshal:7", badge=1)) is None               # a report, no deadline
    assert timer_key(make_event(5, "retracted", SOURCE_TIMER, seq=3, reason="x")) is None


def test_a_deadline_stored_before_is_refused_and_said_so(game):
    first = game.log.append([woke(), make_event(1000, "down", "marshal:7", badge=2)])
    assert [s.event.type for s in first.stored] == ["woke", "down"] and first.doubled == []
    again = game.log.append([make_event(2000, "note", "gm", text="x"), woke(), woke(badge=2)])
    assert again.doubled == [1]                                  # the same woke of badge 1: not stored again
    assert [s.event.type for s in again.stored] == ["note", "woke"] and again.indexes == [0, 2]
    twice = game.log.append([woke(5), woke(5)])                  # twice in one batch: once
    assert twice.doubled == [1] and len(twice.stored) == 1
    assert sum(1 for _s, e in game.log.events() if e.type == "woke" and e.t == 1_470_428 and e.data["badge"] == 1) == 1


def test_a_deadline_taken_back_may_fire_again_with_its_identity(game):
    (stored,) = game.log.append([woke()]).stored
    # A late report moved it: the owner takes the stored one back and fires it at its new place, in one batch.
    out = game.log.append([(make_event(1_470_428, "retracted", SOURCE_TIMER, seq=stored.seq, reason="moved"),
                            None, None), (woke(), None, stored.seq - 0.5)])
    assert out.doubled == [] and len(out.stored) == 2
    assert game.log.append([woke()]).doubled == [0]              # the new one stands: not a third time
    assert game.retracted() == {stored.seq}                      # (read from the index of what each takes back)


def test_an_old_game_file_gets_the_identities_of_its_deadlines(tmp_path):
    path = tmp_path / "v5.crgame"
    engine = make_engine(path)
    migrate(engine, target=5)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO game_meta (key, value) VALUES ('name', 'old')"))
        for seq, (t, type_, source, payload) in enumerate([
                (1000, "woke", "timer", '{"badge":1}'), (2000, "retracted", "gm", '{"seq":1}'),
                (3000, "died", "timer", '{"badge":2,"cause":"bled_out"}')], start=1):
            conn.execute(sa.text("INSERT INTO events (seq, t, wall, source, type, payload) "
                                 "VALUES (:s, :t, 0, :src, :ty, :p)"),
                         {"s": seq, "t": t, "src": source, "ty": type_, "p": payload})
    engine.dispose()
    with GameStore.open(path, create=False) as store:
        with store.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT seq, timer_key, retracts FROM events ORDER BY seq")).all()
        assert rows == [(1, "woke|1||1000", None), (2, None, 1), (3, "died|2||3000", None)]
        assert store.retracted() == {1}
        assert store.log.append([make_event(3000, "died", SOURCE_TIMER, badge=2, cause="bled_out")]).doubled == [0]
        assert store.log.append([make_event(1000, "woke", SOURCE_TIMER, badge=1)]).doubled == []   # taken back


def test_a_deadline_fired_under_a_lock_no_longer_held_is_dropped_in_the_append(pg_url):
    """The holder is read in the transaction that appends, after every append begun before it."""

    from controlroom.store.pg import conninfo

    with GameStore.open(pg_url) as store:          # (pg_url: a fresh database, dropped after the test)
        store.save_roster(ROSTER)
        lock = pg.TimerLock(conninfo(store.engine))
        assert lock.poll()
        mine = lock.pid
        out = store.log.append([woke(), make_event(1, "down", "marshal:7", badge=2)], epochs=[mine, None])
        assert out.dropped == [] and len(out.stored) == 2
        lock.close()                                         # the lock is gone (the server went away, say)
        out = store.log.append([woke(7), make_event(2, "down", "marshal:7", badge=1)], epochs=[mine, None])
        assert out.dropped == [0] and [s.event.type for s in out.stored] == ["down"]
