"""Two engines on one PostgreSQL game, both believing they run the timers (the race a game day found): each
deadline is stored once, and the station whose copy was refused folds the other's."""

import uuid

import psycopg
import pytest

from controlroom.engine.authority import OWNER
from controlroom.game.clock import VirtualClock
from controlroom.store.engine import make_engine
from controlroom.store.game import GameStore
from controlroom.store.pg import conninfo
from tests.support.engine_pump import ROSTER, Pump


@pytest.fixture
def shared(pg_url, tmp_path):
    db = f"twice_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(conninfo(make_engine(pg_url)), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{db}"')
    url = pg_url.rsplit("/", 1)[0] + "/" + db
    with GameStore.open(url) as store:
        store.save_roster(ROSTER)
    return url


def owner(url, tmp_path, name):
    pump = Pump(url, VirtualClock(0), open={"queue_path": str(tmp_path / f"{name}.queue")})
    pump.engine.authority.state = OWNER          # (no lock: both fire, as two owners did around an outage)
    return pump


def test_a_deadline_fired_at_two_stations_is_stored_once(shared, tmp_path):
    a, b = owner(shared, tmp_path, "a"), owner(shared, tmp_path, "b")
    try:
        a.submit("knocked_out", {"badge": 1}, "marshal:7")
        b.engine.logged([(s, None) for s in b.writer.read_after()])       # B hears of it
        assert b.state.characters[1].condition == "knocked_out"
        a.clock.advance_to(300_000)
        b.clock.advance_to(300_000)
        a.at(300_000)                                   # A fires the wake-up first: stored
        out = b.at(300_000)                             # B fires it too: refused, and B folds A's
        assert b.engine.doubled_deadlines == 1 and not out.rejected
        assert b.state.characters[1].condition == "active" and a.state.characters[1].condition == "active"
        woke = [e for e in a.events() if e.type == "woke"]
        assert len(woke) == 1 and woke[0].t == 300_000
        assert not b.engine.fold.provisional
    finally:
        a.close()
        b.close()
