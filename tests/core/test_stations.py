"""Stations sharing one game on PostgreSQL, in one process: live updates, the timer owner, takeover, outages."""

import os
import time
from collections import Counter

import pytest

from controlroom.core.thread import CoreThread
from controlroom.engine.commands import AddPlayers
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.radio.link import FrameHeard
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from controlroom.store.spool import Spool

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(11, "Gerd", "South", "Ravens")]
# The issue asks for a 60 s outage: CI (.ci/run) cuts the server off for the full minute;
# the test command alone, for 3 s (CONTROLROOM_TEST_OUTAGE_S sets it).
OUTAGE_S = float(os.environ.get("CONTROLROOM_TEST_OUTAGE_S", "3"))
KEY = bytes(range(16))


@pytest.fixture
def shared(pg_url):
    with GameStore.open(pg_url) as store:
        store.save_roster(ROSTER)
        register_device(store, 7, "marshal", "M7", key=KEY)
    return pg_url


@pytest.fixture
def stations(qtbot, tmp_path):
    """Start stations on a game; each records the timer states it went through."""
    made = []

    def start(db, clock, name, lock_interval_s=0.2):
        ct = CoreThread(db, clock, publish_interval_ms=20, lock_interval_s=lock_interval_s,
                        queue_path=str(tmp_path / f"{name}.queue"))
        ct.timer_states = []
        ct.timers_changed.connect(ct.timer_states.append)
        with qtbot.waitSignal(ct.loaded, timeout=10_000):
            ct.start()
        made.append(ct)
        return ct

    yield start
    for ct in made:
        assert ct.shutdown(), "a core thread did not stop"


def logged(db):
    with GameStore.open(db, create=False) as store:
        return [e for _, e in store.log.events()]


def test_a_game_file_has_one_station_that_runs_the_timers(qtbot, stations, tmp_path):
    path = tmp_path / "one.crgame"
    GameStore.open(path).close()
    ct = stations(str(path), VirtualClock(0), "one")
    qtbot.waitUntil(lambda: ct.timer_states == ["alone"], timeout=5000)


def test_an_event_at_one_station_shows_at_the_other_within_a_second(qtbot, stations, shared):
    clock = VirtualClock(0)
    a, b = stations(shared, clock, "a"), stations(shared, clock, "b")
    seen = []
    b.delta_published.connect(lambda d: seen.extend((time.monotonic(), s.event.type) for s in d.events))
    qtbot.wait(300)
    sent = time.monotonic()
    a.submit("down", {"badge": 1}, "marshal:7")
    qtbot.waitUntil(lambda: any(kind == "down" for _, kind in seen), timeout=5000)
    arrived = next(t for t, kind in seen if kind == "down")
    assert arrived - sent < 1.0
    # ...and B's own game state has it: Aldo is unconscious there too, with his countdown.
    with qtbot.waitSignal(b.delta_published, timeout=5000,
                          check_params_cb=lambda d: any(c.badge == 2 for c in d.characters)):
        b.submit("strike", {"badge": 2, "count": 1}, "marshal:8")
    assert [e.type for e in logged(shared)] == ["down", "strike"]
    assert b.worker.state.characters[1].condition == "unconscious"


def test_one_owner_fires_each_deadline_once_and_a_standby_takes_over(qtbot, stations, shared):
    clock = VirtualClock(0)
    a = stations(shared, clock, "a")
    qtbot.waitUntil(lambda: a.timer_states[-1:] == ["owner"], timeout=5000)
    b = stations(shared, clock, "b")
    qtbot.wait(500)
    assert b.timer_states == ["standby"]
    b.submit("down", {"badge": 2}, "marshal:8")           # reported at the standby station
    qtbot.waitUntil(lambda: a.worker.state is not None and a.worker.state.characters[2].condition == "unconscious",
                    timeout=5000)
    a.submit("down", {"badge": 1}, "marshal:7")
    qtbot.waitUntil(lambda: len(logged(shared)) == 2, timeout=5000)
    clock.advance_to(600_000)                       # Birgit bleeds out: the owner fires it, the standby must not
    a.poll()
    b.poll()
    qtbot.waitUntil(lambda: b.worker.state.characters[2].condition == "dead", timeout=5000)
    # The owner goes away; the standby takes the timers over and fires what is still due, once.
    assert a.shutdown()
    qtbot.waitUntil(lambda: b.timer_states[-1:] == ["owner"], timeout=10_000)
    clock.advance_to(700_000)
    b.poll()
    qtbot.waitUntil(lambda: Counter(e.type for e in logged(shared))["died"] == 2, timeout=5000)
    qtbot.wait(300)
    died = [(e.data["badge"], e.t) for e in logged(shared) if e.type == "died"]
    assert sorted(died) == [(1, 600_000), (2, 600_000)]


def test_an_owner_that_lost_its_lock_unawares_stores_no_deadline(qtbot, stations, shared):
    """A's session is ended behind its back (an administrator, a network blip) before A looks again:
    B takes the timers over, and the deadline A still fires is not stored; B's is, once."""
    import psycopg
    from sqlalchemy.engine import make_url

    clock = VirtualClock(0)
    a = stations(shared, clock, "a", lock_interval_s=60)
    qtbot.waitUntil(lambda: a.timer_states[-1:] == ["owner"], timeout=5000)
    b = stations(shared, clock, "b")
    a.submit("down", {"badge": 1}, "marshal:7")
    qtbot.waitUntil(lambda: b.worker.state.characters[1].condition == "unconscious", timeout=5000)
    dsn = make_url(shared).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (a.worker._watch.lock.pid,))
    qtbot.waitUntil(lambda: b.timer_states[-1:] == ["owner"], timeout=5000)
    assert a.timer_states[-1] == "owner"            # A has not noticed yet (it looks once a minute)
    clock.advance_to(600_000)
    a.poll()                         # A fires Aldo's death: not stored, and A stands by
    qtbot.waitUntil(lambda: a.worker.stats()["health"]["dropped_deadlines"] == 1, timeout=5000)
    qtbot.waitUntil(lambda: a.timer_states[-1:] == ["standby"], timeout=5000)
    qtbot.wait(300)
    assert a.worker.stats()["health"]["dropped_deadlines"] == 1           # fired once, not again and again
    # (B may have fired it already: it runs every timer again as it takes them over, in the background.)
    assert [e.type for e in logged(shared)] in (["down"], ["down", "died"])
    b.poll()                         # B fires it: stored, once
    qtbot.waitUntil(lambda: [e.type for e in logged(shared)] == ["down", "died"], timeout=5000)
    qtbot.waitUntil(lambda: a.worker.state.characters[1].condition == "dead", timeout=5000)
    qtbot.wait(300)
    assert [e.type for e in logged(shared)] == ["down", "died"] and a.worker.stats()["health"]["unstored"] == 0


def test_a_station_cut_off_from_the_server_loses_nothing(qtbot, stations, shared, pg_control, tmp_path):
    clock = VirtualClock(0)
    a = stations(shared, clock, "a")
    qtbot.waitUntil(lambda: a.timer_states[-1:] == ["owner"], timeout=5000)
    a.submit("down", {"badge": 1}, "marshal:7")
    qtbot.waitUntil(lambda: len(logged(shared)) == 1, timeout=5000)
    pg_control("stop")
    sent, counter, began = set(), 0, time.monotonic()
    while time.monotonic() - began < OUTAGE_S:          # the radio goes on: frames, and a copy of each
        counter += 1
        frame = codec.encode_heartbeat(KEY, 7, counter, 80, counter)
        a.heard.put(FrameHeard("test", 1, -90, 5.0, frame))
        a.heard.put(FrameHeard("test", 2, -95, 3.0, frame))
        sent.add((7, counter))
        qtbot.wait(100)
    qtbot.waitUntil(lambda: a.timer_states[-1:] == ["offline"], timeout=5000)
    qtbot.waitUntil(lambda: len(Spool(tmp_path / "a.queue")) == len(sent), timeout=5000)   # on disk, not in memory
    clock.advance_to(600_000)       # Aldo's deadline falls due while nobody can own the timers
    a.poll()
    pg_control("start")
    qtbot.waitUntil(lambda: a.timer_states[-1:] == ["owner"], timeout=20_000)
    a.poll()
    qtbot.waitUntil(lambda: len(logged(shared)) == 2 + len(sent), timeout=20_000)
    qtbot.wait(500)
    with GameStore.open(shared, create=False) as store:
        rows = list(store.log.read())
    frames = [(s.radio.device, s.radio.counter) for s in rows if s.radio is not None]
    assert sorted(frames) == sorted(sent) and len(frames) == len(set(frames))
    assert [(e.event.type, e.event.t) for e in rows if e.event.source == "timer"] == [("died", 600_000)]
    assert a.worker.stats()["health"]["queued"] == 0 and a.worker.stats()["health"]["unstored"] == 0


def test_a_station_closed_while_cut_off_delivers_its_queue_when_opened_again(qtbot, stations, shared, pg_control,
                                                                             tmp_path):
    a = stations(shared, VirtualClock(0), "a")
    qtbot.waitUntil(lambda: a.timer_states[-1:] == ["owner"], timeout=5000)
    pg_control("stop")
    frames = [codec.encode_casualty(KEY, 7, 1, 11, "down"), codec.encode_casualty(KEY, 7, 2, 2, "down")]
    for f in frames:
        a.heard.put(FrameHeard("test", 1, -90, 5.0, f))
    qtbot.waitUntil(lambda: len(Spool(tmp_path / "a.queue")) == 2, timeout=5000)
    assert a.shutdown()                 # the laptop is closed before the server is back
    pg_control("start")
    assert logged(shared) == []
    stations(shared, VirtualClock(0), "a")       # opened again: the queue is stored first
    with GameStore.open(shared, create=False) as store:
        assert [(s.event.type, s.radio.counter) for s in store.log.read()] == [("down", 1), ("down", 2)]
        assert [s.event.data["badge"] for s in store.log.read()] == [11, 2]
    assert len(Spool(tmp_path / "a.queue")) == 0


def test_players_added_at_one_station_are_in_the_game_at_the_other(qtbot, stations, shared):
    """The window's roster import at station A: station B folds the game again over the new roster when the
    roster_added event reaches it, and a report on a new badge counts at both."""
    from controlroom.game.roster_csv import read_roster_entries
    from controlroom.rules.profile import default_profile

    clock = VirtualClock(0)
    a, b = stations(shared, clock, "a"), stations(shared, clock, "b")
    entries = read_roster_entries("badge,name,side,group,class,paid,helmet,armour\r\n"
                                  "40,Õie,South,Ravens,warrior,yes,,\r\n", default_profile())
    with qtbot.waitSignal(b.delta_published, timeout=10_000,
                          check_params_cb=lambda d: d.full and any(c.badge == 40 for c in d.characters)), \
            qtbot.waitSignal(a.roster_answered, timeout=10_000) as answer:
        a.send(AddPlayers(1, tuple(entries), True))
    assert answer.args[0].stored
    with qtbot.waitSignal(b.delta_published, timeout=10_000, check_params_cb=lambda d: any(
            c.badge == 40 and c.condition == "unconscious" for c in d.characters)):
        b.submit("down", {"badge": 40}, "marshal:8")
    assert [e.type for e in logged(shared)] == ["roster_added", "down"]
