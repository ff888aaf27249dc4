"""The radio ingest against a stored game, on SQLite and PostgreSQL: restarts, stations sharing a game."""

import threading

from controlroom.game.devices import DeviceInfo
from controlroom.radio import codec
from controlroom.radio.ingest import Ingest
from controlroom.store.game import GameStore

K_M = bytes(range(16))
DEVICES = {7: DeviceInfo(7, "marshal", "M7", key=K_M), 9: DeviceInfo(9, "marshal", "M9", key=K_M[::-1])}


def frame(counter, device=7, badge=101):
    key = DEVICES[device].key
    return codec.encode_casualty(key, device, counter, badge, "down")


def heard(ingest, store, frames, gateway=1, now=0):
    """What a station does with frames: classify, then append the accepted ones (one batch)."""
    outs = [ingest.receive(f, gateway, -90, 5.0, now) for f in frames]
    batch = [(codec_event(o), o.radio) for o in outs if o.verdict == "accepted"]
    return outs, store.log.append(batch) if batch else None


def codec_event(out):
    from controlroom.game.events import Event

    type_, fields, source = out.event
    return Event(0, type_, fields, source)


def test_a_restarted_station_knows_what_it_stored(game_db):
    with GameStore.open(game_db) as store:
        heard(Ingest(DEVICES), store, [frame(n) for n in range(1, 301)])
    with GameStore.open(game_db) as store:
        again = Ingest(DEVICES)
        highest, recent = store.log.radio_counters()
        assert highest == {7: 300} and (7, 300) in recent and (7, 45) in recent and (7, 44) not in recent
        again.remember(highest, recent, as_of_ms=0)
        assert again.receive(frame(300), 2, -80, 6.0, 1000).verdict == "duplicates"
        assert again.receive(frame(5), 2, -80, 6.0, 1000).verdict == "rejected_replay"
        assert again.receive(frame(301), 2, -80, 6.0, 1000).verdict == "accepted"


def test_a_frame_heard_at_two_stations_is_stored_once_and_known_at_both(game_db):
    a, b = GameStore.open(game_db), GameStore.open(game_db)       # two stations: two connections
    try:
        ing_a, ing_b = Ingest(DEVICES), Ingest(DEVICES)
        _, ra = heard(ing_a, a, [frame(1), frame(2)])
        outs, rb = heard(ing_b, b, [frame(2), frame(3, device=9)], gateway=5)
        assert [o.verdict for o in outs] == ["accepted", "accepted"]      # B did not know of A's copy
        assert len(ra.stored) == 2 and rb.duplicates == [0] and len(rb.stored) == 1
        assert sorted((s.radio.device, s.radio.counter) for s in a.log.read()) == [(7, 1), (7, 2), (9, 3)]
        # B reads what A stored: frame 1 is new to it, frame 2 it heard itself.
        fresh = [ing_b.note_stored(s.radio, 10) for s in b.log.fetch_after(0) if s.radio.device == 7]
        assert fresh == [True, False]
        assert ing_b.receive(frame(1), 5, -70, 8.0, 20).verdict == "duplicates"
        assert ing_b.receive(frame(4), 5, -70, 8.0, 20).verdict == "accepted"
    finally:
        a.close()
        b.close()


def test_stations_appending_at_once_get_one_gap_free_order(game_db):
    GameStore.open(game_db).close()
    stores = [GameStore.open(game_db) for _ in range(3)]
    errors = []

    def station(i, store):
        try:
            ing = Ingest(DEVICES)
            for n in range(1, 121, 4):              # every station hears frames n..n+5: copies overlap
                heard(ing, store, [frame(c, device=7 if c % 2 else 9) for c in range(n, n + 6)], gateway=i)
        except Exception as exc:                    # reported below, in the test's own thread
            errors.append(exc)

    threads = [threading.Thread(target=station, args=(i, s)) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert not errors
        rows = stores[0].log.fetch_after(0, barrier=True)
        keys = [(s.radio.device, s.radio.counter) for s in rows]
        assert len(keys) == len(set(keys)) == 122          # counters 1..122, each once
        seqs = [s.seq for s in rows]
        assert seqs == sorted(seqs)
        # Reading "after" any seq returns exactly the rest: no late commit below a seq already seen.
        mid = seqs[len(seqs) // 2]
        assert [s.seq for s in stores[1].log.fetch_after(mid)] == [s for s in seqs if s > mid]
    finally:
        for s in stores:
            s.close()
