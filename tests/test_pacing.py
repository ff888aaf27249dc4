"""controlroom.pacing: long background work rests now and then while a window shares the interpreter.

What the rests buy the window (its heartbeat while a big game's fold completes and is kept) is measured by
benchmarks/bench_background.py; these tests check where and when the work rests.
"""

import sys
import threading

import pytest

from controlroom import pacing
from controlroom.game import snapshot, snapshot_json
from controlroom.game.events import make_event
from controlroom.game.fold import Fold
from controlroom.game.roster import Member
from controlroom.game.state import GameState


@pytest.fixture
def rests(monkeypatch):
    """The rests taken (their lengths), with a clock that moves 1 ms a look; no window until a test says so."""
    taken: list[float] = []
    now = {"t": 0.0}

    def clock() -> float:
        now["t"] += 0.001
        return now["t"]

    monkeypatch.setattr(pacing, "_clock", clock)
    monkeypatch.setattr(pacing, "_sleep", taken.append)
    monkeypatch.setattr(pacing, "_window", None)
    monkeypatch.setattr(pacing, "_local", threading.local())
    return taken


def test_the_windows_wait_for_the_core_stops_the_rests_meanwhile(rests):
    pacing.share_with_this_thread()
    with pacing.window_waiting():                    # CoreThread.shutdown: the window's thread waits
        in_a_thread(lambda: [pacing.breathe() for _ in range(100)])
        assert rests == []
    in_a_thread(lambda: [pacing.breathe() for _ in range(100)])
    assert rests                                     # and after it, they rest again


def test_a_snapshot_restored_pauses_where_it_is_told(rests):
    members = [Member(b, f"P{b}", "North", "G1") for b in range(1, 1201)]
    paused = []
    state = snapshot.restore(snapshot.take(GameState(members)), lambda: paused.append(1))
    assert len(state.characters) == 1200 and len(paused) == 3       # every 512 characters


def in_a_thread(work) -> None:
    t = threading.Thread(target=work)
    t.start()
    t.join()


def test_no_rest_without_a_window(rests):
    in_a_thread(lambda: [pacing.breathe() for _ in range(100)])
    assert rests == []


def test_background_work_rests_after_each_stretch_and_the_window_never(rests):
    pacing.share_with_this_thread()                  # this thread is the window's
    for _ in range(100):
        pacing.breathe()
    assert rests == []                               # the window's own thread never rests
    in_a_thread(lambda: [pacing.breathe() for _ in range(100)])
    # 1 ms a look: a rest after every WORK_S of work (the look after a rest starts the next stretch).
    assert rests and set(rests) == {pacing.REST_S}
    stretch = round(pacing.WORK_S / 0.001)
    assert 100 / (stretch + 2) <= len(rests) <= 100 / stretch
    pacing.stop_sharing()
    rests.clear()
    in_a_thread(lambda: [pacing.breathe() for _ in range(100)])
    assert rests == []


def test_the_folds_completion_and_its_snapshot_kept_rest_in_a_background_thread(rests):
    from collections import namedtuple

    Row = namedtuple("Row", "seq pos event device counter")
    members = [Member(b, f"P{b}", "North", "G1") for b in range(1, 2001)]
    events = [make_event(1000 * i, "strike", "marshal:1", badge=1 + i % 2000) for i in range(3000)]
    fold = Fold(GameState(members), checkpoint_every=200, keep=8)
    fold.load([Row(i + 1, None, e, None, None) for i, e in enumerate(events)], (), len(events))
    pacing.share_with_this_thread()
    done: dict = {}

    def work() -> None:
        fold.complete(pacing.breathe)            # the tail's checkpoints, after the window painted the game
        done["checkpoints"] = len(fold.checkpoints)
        done["rests_completing"] = len(rests)
        done["text"] = snapshot_json.dumps(snapshot.take(fold.state), fold.state.roster)

    in_a_thread(work)
    assert done["checkpoints"] > 1 and done["rests_completing"] > 0
    # A fold completed without being told to pause (a refold the game master waits for) never rests.
    again = Fold(GameState(members), checkpoint_every=200, keep=8)
    again.load([Row(i + 1, None, e, None, None) for i, e in enumerate(events)], (), len(events))
    before = len(rests)
    in_a_thread(again.complete)
    assert len(rests) == before and len(again.checkpoints) == done["checkpoints"]
    assert len(rests) > done["rests_completing"]             # the snapshot's JSON rested too
    # Resting changes nothing in what is made: the same text as the window's own thread makes (no rests).
    before = len(rests)
    assert snapshot_json.dumps(snapshot.take(fold.state), fold.state.roster) == done["text"]
    assert len(rests) == before


def test_a_refold_rests_while_live_work_waits_and_goes_on_when_it_is_done(rests):
    busy = iter([True, True, True, True, True, False, False])
    pause = pacing.for_live_work(lambda: next(busy))
    pause()                                          # a frame heard, its batch on its way: rests meanwhile
    assert rests == [pacing.LIVE_STEP_S] * 4
    pause()                                          # nothing waits: no rest
    assert len(rests) == 4


def test_a_refold_beside_live_work_that_never_ends_is_not_starved(rests):
    pause = pacing.for_live_work(lambda: True)
    pause()
    longest = len(rests)
    assert 0 < longest * pacing.LIVE_STEP_S <= pacing.LIVE_LONGEST_S     # at most its longest rest ...
    for _ in range(5):
        pause()
    assert len(rests) == longest                     # ... then it works on a while (the clock: 1 ms a look) ...
    for _ in range(int(pacing.LIVE_LEAST_S / 0.001)):
        pacing._clock()
    pause()
    assert len(rests) > longest                      # ... and rests again


def test_switches_are_short_only_while_a_refold_runs():
    before = sys.getswitchinterval()
    with pacing.switching_often():
        assert sys.getswitchinterval() == min(before, pacing.SWITCH_INTERVAL)
    assert sys.getswitchinterval() == before
