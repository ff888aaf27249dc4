"""``controlroom headless`` as a process: opens a game, runs the core, stops cleanly."""

import json
import re
import signal
import subprocess
import sys
import time

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.game import GameStore


def _game(path):
    with GameStore.open(path) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "South", "Ravens")])
        store.log.append([make_event(0, "down", "marshal:1", badge=1)])


def _headless(*args):
    return [sys.executable, "-m", "controlroom", "headless", *args]


def test_headless_runs_the_timers_and_quits_after(tmp_path):
    path = tmp_path / "h.crgame"
    _game(path)
    stats = tmp_path / "stats.json"
    # Ten game-minutes of dying at 600 game seconds per real second: one real second.
    r = subprocess.run(_headless("--db", str(path), "--speed", "600", "--quit-after", "3", "--stats-json", str(stats)),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    # The game's clock runs 600 times faster than real time while the game opens.
    assert re.search(r"^game h open at 00:0\d:\d\d", r.stdout, re.M), r.stdout
    assert "dead: Aldo (badge 1, North/Wolves), death 1" in r.stdout
    assert json.loads(stats.read_text())["health"]["fired"] == 1
    with GameStore.open(path, create=False) as store:
        assert [e.type for _, e in store.log.events()] == ["down", "died"]


def test_headless_stops_cleanly_on_sigterm(tmp_path):
    path = tmp_path / "h.crgame"
    _game(path)
    proc = subprocess.Popen(_headless("--db", str(path)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert "open at" in proc.stdout.readline()
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    with GameStore.open(path, create=False) as store:
        assert store.integrity_ok()


def test_headless_on_a_file_that_is_not_a_game_says_so(tmp_path):
    path = tmp_path / "notes.crgame"
    path.write_text("not a game\n" * 100)
    r = subprocess.run(_headless("--db", str(path), "--quit-after", "5"), capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert "is not a controlroom game file" in r.stdout
