"""A stored game replays to the same summary as the script it was played from."""

import json
from importlib import resources
from pathlib import Path

from controlroom.cli import main
from controlroom.game.replay import replay_script
from controlroom.game.script import load_script
from controlroom.store.game import GameStore

EXAMPLE = Path(str(resources.files("controlroom.resources").joinpath("examples", "battle.jsonl")))


def _store_played_script(path):
    """Play the example as the core would: every event, the timers' too, appended in order."""
    script = load_script(EXAMPLE)
    result = replay_script(script)
    played = result.log
    with GameStore.open(path) as store:
        store.save_roster(script.members)
        store.set_meta("name", script.name)
        for i in range(0, len(played), 7):            # a few batches, as core ticks would
            store.log.append(played[i:i + 7])
    return result, played


def test_replay_db_prints_the_same_summary_as_the_script(game_db, capsys):
    path = game_db
    _result, played = _store_played_script(path)
    assert any(e.source == "timer" for e in played)
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    from_script = json.loads(capsys.readouterr().out)
    assert main(["replay", "--db", str(path), "--json"]) == 0
    from_db = json.loads(capsys.readouterr().out)
    for out in (from_script, from_db):
        for w in out["warnings"]:
            w.pop("line", None)
    assert from_db == from_script


def test_replay_db_until_shows_the_game_as_it_stood(game_db, capsys):
    path = game_db
    _store_played_script(path)
    assert main(["replay", "--db", str(path), "--json", "--until", "00:10:00"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["characters"]["102"]["state"] == "unconscious"
    assert out["characters"]["102"]["deadlines"][0]["at"] == "00:11:00"


def test_replay_db_of_a_missing_game_is_a_clear_error(tmp_path, capsys):
    assert main(["replay", "--db", str(tmp_path / "none.crgame")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_replay_needs_a_script_or_a_db(capsys):
    assert main(["replay"]) == 1
    assert "give a scenario script or --db" in capsys.readouterr().err
