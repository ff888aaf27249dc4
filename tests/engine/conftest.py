"""The engine tests' shared game: one PostgreSQL database with the pump's roster, for two engines at once."""

import uuid

import psycopg
import pytest

from controlroom.store.engine import make_engine
from controlroom.store.game import GameStore
from controlroom.store.pg import conninfo
from tests.support.engine_pump import ROSTER


@pytest.fixture
def shared(pg_url, tmp_path):
    db = f"twice_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(conninfo(make_engine(pg_url)), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{db}"')
    url = pg_url.rsplit("/", 1)[0] + "/" + db
    with GameStore.open(url) as store:
        store.save_roster(ROSTER)
    return url
