"""Blocks of the downlink counter reserved in the game: stations opening one game at once never share a block.

Several GameStore handles on one SQLite file and on one PostgreSQL database
(as several stations), each reserving from its own thread at the same moment.
"""

import threading

from controlroom.engine.opening import DOWNLINK_KEY
from controlroom.radio.ingest import DownlinkCounter
from controlroom.store.game import GameStore

STATIONS, EACH = 4, 25


def test_concurrent_reservations_get_disjoint_blocks(game_db):
    GameStore.open(game_db).close()
    block = DownlinkCounter.BLOCK
    stores = [GameStore.open(game_db) for _ in range(STATIONS)]
    tops: list[list[int]] = [[] for _ in stores]
    start = threading.Barrier(STATIONS)

    def station(i: int) -> None:
        start.wait()
        for _ in range(EACH):
            tops[i].append(stores[i].reserve_block(DOWNLINK_KEY, block))

    threads = [threading.Thread(target=station, args=(i,)) for i in range(STATIONS)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        every = sorted(top for mine in tops for top in mine)
        assert every == [block * n for n in range(1, STATIONS * EACH + 1)]      # each block once, none lost
        for mine in tops:
            assert mine == sorted(mine)                 # a station's blocks rise
        assert int(stores[0].meta(DOWNLINK_KEY)) == block * STATIONS * EACH
    finally:
        for s in stores:
            s.close()


def test_a_game_kept_before_has_its_value_raised(tmp_path):
    path = tmp_path / "g.crgame"
    with GameStore.open(path) as store:
        store.set_meta(DOWNLINK_KEY, "70000")          # a game whose stations reserved before
        assert store.reserve_block(DOWNLINK_KEY, 10) == 70010
    with GameStore.open(path) as store:
        assert store.meta(DOWNLINK_KEY) == "70010"
