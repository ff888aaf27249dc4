"""The engine tests' shared game: one PostgreSQL database with the pump's roster, for two engines at once."""

import pytest

from controlroom.store.game import GameStore
from tests.support.engine_pump import ROSTER


@pytest.fixture
def shared(pg_url):
    """A PostgreSQL game (pg_url's fresh database, dropped after the test) with the pump's roster."""
    with GameStore.open(pg_url) as store:
        store.save_roster(ROSTER)
    return pg_url
