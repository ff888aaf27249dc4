"""A whole game day under faults: three stations, 8,000 players, three game hours, and the record still true.

    .venv/bin/python -m benchmarks.gameday [--minutes 180] [--speed 10] [--seed 2026] [--players 8000]

The simulator's battle (400 groups, 100 field marshals, 6 gateways, each frame heard by two stations) goes to
three ``controlroom headless`` stations on one PostgreSQL game, while on a schedule drawn from the seed the
timer owner is killed every 20 game minutes (and started again 30 s later), a gateway is unplugged for 2
minutes every 30, the server stops for 60 s once, one station's disk fills, and 200 late registrations are
imported into the running game (tests/support/gameday).  Then the stored game is checked against the rules:
every acknowledged frame stored once, every deadline once and at its time, the players' states and the
report's figures the rules' own.  It prints the figures, then one JSON object as its last line; the baseline
measured in the same run is the same battle's first half hour with no fault (``--no-faults`` plays only that).

A PostgreSQL server: the one in CONTROLROOM_TEST_PG (with its data folder in CONTROLROOM_TEST_PG_DATA, as the
test command has it), else a throwaway cluster made with .ci/postgres.sh (Debian's postgresql-15).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, replace
from pathlib import Path

from tests.support.gameday.run import Plan, play

ROOT = Path(__file__).resolve().parents[1]
KEYS = ("frames_sent", "acked", "lost", "doubled", "deadlines_fired", "deadline_late_p99_ms", "deadlines_doubled",
        "deadlines_missing", "deadlines_not_the_rules", "owner_changes", "longest_without_owner_s",
        "without_owner_s", "ack_p50_ms", "ack_p99_ms", "ack_max_ms", "state_differences", "report_differences")


class Cluster:
    """The PostgreSQL server to play on, and pg_ctl for it."""

    def __init__(self) -> None:
        self.made = None
        self.url = os.environ.get("CONTROLROOM_TEST_PG")
        self.data = os.environ.get("CONTROLROOM_TEST_PG_DATA")
        if not (self.url and self.data):
            self.made = tempfile.mkdtemp(prefix="gameday-pg.")
            self.url = subprocess.run([str(ROOT / ".ci" / "postgres.sh"), "start", self.made], check=True,
                                      capture_output=True, text=True).stdout.strip()
            self.data = os.path.join(self.made, "data")

    def ctl(self, action: str) -> None:
        cmd = [os.path.join(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"), "pg_ctl"), "-D", self.data, "-w"]
        cmd += ["-m", "fast", "stop"] if action == "stop" else ["-l", os.path.join(os.path.dirname(self.data),
                                                                                     "server.log"), "start"]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def close(self) -> None:
        if self.made:
            subprocess.run([str(ROOT / ".ci" / "postgres.sh"), "stop", self.made], capture_output=True)


def commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    return done.stdout.strip() or "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=180)
    parser.add_argument("--speed", type=float, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=8000)
    parser.add_argument("--groups", type=int, default=400)
    parser.add_argument("--no-faults", action="store_true", help="play the baseline only: the same day, no fault")
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()
    plan = Plan(players=args.players, groups=args.groups, minutes=args.minutes, speed=args.speed, seed=args.seed)
    calm = replace(plan, kill_every=1e9, unplug_every=0, server_stop=False, disk_full=False, roster_import=False,
                   late=0)
    cluster = Cluster()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="gameday."))
    try:
        faults = None
        if not args.no_faults:
            faults = play(plan, cluster.url, cluster.ctl, work / "faults")
        # The baseline, in the same run: the same battle without a fault, its first half hour at most.
        base = play(replace(calm, minutes=min(plan.minutes, 30)), cluster.url, cluster.ctl, work / "calm")
    finally:
        cluster.close()
    out = {"benchmark": "gameday", "commit": commit(), "plan": asdict(plan)}
    for name, day in (("faults", faults), ("calm", base)):
        if day is None:
            continue
        print(f"-- {name}: " + ", ".join(f"{k} {day.get(k)}" for k in KEYS), file=sys.stderr)
        out[name] = {k: day.get(k) for k in (*KEYS, "faults", "kills", "wall_s", "gave_up", "unacked_at_end",
                                              "ack_p99_by_minute", "ack_p99_outside_kills_ms",
                                              "missing_examples", "not_the_rules_examples",
                                              "state_examples", "report_examples")}
    if faults is not None:
        out["targets_met"] = {
            "acked_lost_0": faults["lost"] == 0, "doubled_0": faults["doubled"] == 0 and
            faults["deadlines_doubled"] == 0, "every_deadline_once": faults["deadlines_missing"] == 0 and
            faults["deadlines_not_the_rules"] == 0, "report_differences_0": faults["report_differences"] == 0,
            "owner_gap_under_lock_takeover_plus_5s": faults["longest_without_owner_s"] < 2.0 + 5.0,
            "ack_p99_under_50ms": faults["ack_p99_ms"] < 50.0}
    print(json.dumps(out, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
