"""End to end: the simulator's battle through two gateways into a headless station, against its truth."""

import json
import signal
import subprocess
import sys
from collections import Counter

from controlroom.store.game import GameStore


def _cli(*args):
    return [sys.executable, "-m", "controlroom", *args]


def test_simulated_battle_matches_the_truth(tmp_path):
    game = tmp_path / "battle.crgame"
    truth_file = tmp_path / "truth.json"
    stats_file = tmp_path / "stats.json"
    sim = subprocess.Popen(
        _cli("sim", "--pty", "--db", str(game), "--gateways", "2", "--sides", "2", "--groups", "6",
             "--players", "120", "--seed", "7", "--speed", "120", "--duration", "30",
             "--loss", "0.05", "--corrupt-rate", "0.03", "--forge-rate", "0.03", "--replay-rate", "0.03",
             "--truth", str(truth_file), "--quiet"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    station = None
    try:
        ports = sim.stdout.readline().split()
        assert len(ports) == 2, sim.stderr.read()
        station = subprocess.Popen(
            _cli("headless", "--db", str(game), "--speed", "120", "--quiet", "--stats-json", str(stats_file),
                 *[a for p in ports for a in ("--port", p)]),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        sim_out, sim_err = sim.communicate(timeout=180)
        assert sim.returncode == 0, sim_err
        station.send_signal(signal.SIGTERM)
        st_out, st_err = station.communicate(timeout=60)
        assert station.returncode == 0, st_err
    finally:
        for proc in (sim, station):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    truth = json.loads(truth_file.read_text())
    stats = json.loads(stats_file.read_text())
    assert truth["sent_valid_unique"] > 50 and truth["sent_forged"] > 0 and truth["sent_corrupt"] > 0
    assert truth["sent_replayed"] > 0 and truth["sent_duplicate_copies"] > 0
    assert stats["accepted"] == truth["sent_valid_unique"]
    assert stats["rejected_auth"] + stats["rejected_corrupt"] == truth["sent_forged"] + truth["sent_corrupt"]
    assert stats["duplicates"] + stats["rejected_replay"] == truth["sent_duplicate_copies"] + truth["sent_replayed"]
    assert stats["rejected_unknown_device"] == 0 and stats["rejected_role"] == 0
    # Each gateway heard the acks the other transmitted: counted, and no forgery among them (issue 16).
    assert stats["downlink_heard"] == truth["acks_heard_back"] > 0

    with GameStore.open(game, create=False) as store:
        side_of = {m.badge: m.side for m in store.roster()}
        deaths, checkins = Counter(), Counter()
        radio_keys = set()
        for s in store.log.read():
            if s.radio is None:
                continue
            key = (s.radio.device, s.radio.counter)
            assert key not in radio_keys, f"frame {key} stored twice"
            radio_keys.add(key)
            if s.event.type in ("died", "permanent_kill"):
                deaths[side_of[s.event.data["badge"]]] += 1
            elif s.event.type == "valhalla_checkin":
                checkins[side_of[s.event.data["badge"]]] += 1
    for side, numbers in truth["sides"].items():
        assert deaths[side] == numbers["deaths_reported"], side
        assert checkins[side] == numbers["valhalla_checkins"], side
