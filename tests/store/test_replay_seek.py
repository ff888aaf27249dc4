"""Seeking in a stored game (issue 19): the state at any moment equals ``controlroom replay --until T``."""

import json
import random
import subprocess
import sys

import pytest

from controlroom.cli import main
from controlroom.game.clock import format_time
from controlroom.game.summary import summarize
from controlroom.store.replay import open_replay
from tests.support.replay_battle import store_battle


@pytest.fixture(scope="module")
def battle(tmp_path_factory):
    return store_battle(tmp_path_factory.mktemp("replay") / "battle.crgame", players=300, n_events=4000)


def _cli_summary(capsys, game, t_ms: int) -> dict:
    assert main(["replay", "--db", str(game), "--until", format_time(t_ms), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_fifty_random_moments_equal_the_replay_command(battle, capsys, tmp_path):
    game = open_replay(battle, every=97, maps_folder=tmp_path)
    seeker = game.seeker
    assert len(seeker.checkpoints) > 40          # most moments start from a checkpoint, not the beginning
    rng = random.Random(19)
    # Whole seconds: what --until takes.  Also the very start, the end, and past it.
    moments = [rng.randint(seeker.start, seeker.end) // 1000 * 1000 for _ in range(47)]
    moments += [0, seeker.end // 1000 * 1000, seeker.end + 3_600_000]
    order = list(moments)
    rng.shuffle(order)                           # to and fro, as a slider moves
    for t in order:
        mine = summarize(seeker.state_at(t), game.name)
        assert mine == _cli_summary(capsys, battle, t), f"the replay differs from the command at {format_time(t)}"


def test_the_command_itself_as_a_program_agrees(battle, tmp_path):
    game = open_replay(battle, every=500, maps_folder=tmp_path)
    t = (game.seeker.start + game.seeker.end) // 2 // 1000 * 1000
    out = subprocess.run([sys.executable, "-m", "controlroom", "replay", "--db", str(battle), "--until",
                          format_time(t), "--json"], capture_output=True, text=True, timeout=120, check=True)
    assert summarize(game.seeker.state_at(t), game.name) == json.loads(out.stdout)


def test_retracted_events_are_left_out_and_the_fold_is_the_stored_games(battle, tmp_path):
    from controlroom.store.game import GameStore

    game = open_replay(battle, every=300, maps_folder=tmp_path)
    with GameStore.open(battle, create=False, read_only=True) as store:
        state, _last = store.load_state()
        assert len(game.seeker) == store.log.count() - len(store.retracted())
    assert summarize(game.seeker.end_state) == summarize(state)
    assert summarize(game.seeker.state_after(len(game.seeker))) == summarize(state)


def test_steps_scenarios_and_trails(battle, tmp_path):
    game = open_replay(battle, every=500, maps_folder=tmp_path)
    s = game.seeker
    deaths = s.moments("death")
    assert deaths == sorted(d[0] for d in s.end_state.deaths) and len(deaths) > 10
    mid = deaths[len(deaths) // 2]
    assert s.next_of("death", mid) > mid and s.previous_of("death", mid) < mid
    assert s.next_of("death", deaths[-1]) is None and s.previous_of("death", deaths[0]) is None
    assert s.next_of("stopp", 0) == s.moments("stopp_called")[0]
    assert [sc.name for sc in s.scenes()] == ["bench", "second"]
    assert s.scenes()[0].end == s.scenes()[1].start
    trail = s.trail("tracker:100", mid, 10 * 60_000)
    assert trail and all(mid - 10 * 60_000 < t <= mid for t, _lat, _lon in trail)
    assert [p[0] for p in trail] == sorted(p[0] for p in trail)
    assert game.devices["tracker:100"]["group"] and game.devices["tracker:200"]["engine"] == "Ram"


def test_a_seek_leaves_the_checkpoints_as_they_were(battle, tmp_path):
    """Seeking far back after folding forward gives the same state again (the working state is reset)."""
    game = open_replay(battle, every=250, maps_folder=tmp_path)
    s = game.seeker
    early, late = s.start + (s.end - s.start) // 5, s.end - 1000
    first = summarize(s.state_at(early))
    summarize(s.state_at(late))
    assert summarize(s.state_at(early)) == first


def test_a_shared_game_on_postgresql_replays_read_only(pg_url, capsys, tmp_path):
    from controlroom.store.errors import StoreError
    from controlroom.store.replay import open_read_only

    store_battle(pg_url, players=60, n_events=800)
    game = open_replay(pg_url, every=50, maps_folder=tmp_path)
    rng = random.Random(5)
    for t in sorted(rng.randint(game.seeker.start, game.seeker.end) // 1000 * 1000 for _ in range(5)):
        assert summarize(game.seeker.state_at(t), game.name) == _cli_summary(capsys, pg_url, t)
    with open_read_only(pg_url) as store:
        with pytest.raises(StoreError, match="is read-only"):
            store.set_meta("name", "changed by a replay")
        assert store.meta("name") is None


def test_an_empty_database_is_no_game_and_stays_empty(pg_url):
    from controlroom.store.errors import StoreError
    from controlroom.store.replay import open_read_only

    with pytest.raises(StoreError, match="holds no game"):
        open_replay(pg_url)
    with pytest.raises(StoreError, match="holds no game"):
        open_read_only(pg_url)


def test_the_seekers_schedule_fires_as_the_rebuilt_one(battle, tmp_path):
    """seek._rebuild (only the characters with deadlines, heaped at once) gives Schedule.rebuild's order."""
    from controlroom.game.scheduler import Schedule
    from controlroom.game.seek import _rebuild

    s = open_replay(battle, every=500, maps_folder=tmp_path).seeker
    for k in range(1, 8):
        state = s.state_after(len(s) * k // 8)
        ours, theirs = Schedule(), Schedule()
        _rebuild(ours, state)
        theirs.rebuild(state)
        assert list(ours) == list(theirs) and len(ours) > 0
        while theirs.next_due() is not None:
            assert ours.next_due() == theirs.next_due()
            assert ours.pop() == theirs.pop()
        assert ours.next_due() is None
