"""Benchmark: export the post-game report (PDF and CSV) of a game of 8,000 players and 200,000 events.

    .venv/bin/python -m benchmarks.bench_report [--events 200000] [--players 8000]     # about 60 s

The game is the event-log benchmark's plausible battle (marshals' reports, rule
timers, STOPPs) with looting and siege engine losses mixed in.  Each export
runs in a fresh process, as `controlroom report` does; the median of three
counts.  The time is from opening the game to the last file written (the
process's own start, imports and Qt's, are not in it).  In the same run it
measures the baselines: raw sqlite3 reading the same events table (every
payload parsed), and the bare fold of the log through the rules.  Prints a few
readable lines, then one JSON object as the last line.  Target (issue 7): the
whole export in under 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from controlroom.game.events import make_event
from controlroom.store.game import GameStore
from tests.support.played_game import played_game, roster


def with_loot_and_siege(log: list, players: int, seed: int = 3) -> list:
    """Mix in looting (some without consent, some returned) and siege engines destroyed or captured."""
    rng = random.Random(seed)
    out = []
    for i, ev in enumerate(log):
        out.append(ev)
        if i % 400 == 399:
            owner, looter = rng.randint(1, players), rng.randint(1, players)
            items = rng.sample(["sword", "shield", "helmet", "pouch", "cloak", "bow"], rng.randint(1, 2))
            out.append(make_event(ev.t, "looted", "marshal:7", badge=owner, by=looter, items=items,
                                  consent=rng.random() < 0.8, relic=False))
            if rng.random() < 0.6:
                out.append(make_event(ev.t, "returned", "gm", badge=owner, by=looter, items=items[:1]))
        if i % 9000 == 8999:
            out.append(make_event(ev.t, "siege_status", "tracker:40", engine=f"Ram {i // 9000}",
                                  status=rng.choice(["destroyed", "captured"]), lat=58.38, lon=26.72))
    return out


def raw_read(path: Path) -> float:
    """The baseline: sqlite3 itself reading every event row and parsing its payload."""
    t0 = time.perf_counter()
    conn = sqlite3.connect(path)
    n = 0
    for _seq, _t, _wall, _type, payload, _source in conn.execute(
            "SELECT seq, t, wall, type, payload, source FROM events ORDER BY seq"):
        json.loads(payload)
        n += 1
    conn.close()
    return time.perf_counter() - t0


def export_once(game: Path, out: Path) -> dict:
    """One export as `controlroom report` does it, in this (fresh) process: stage times in seconds."""
    from PySide6.QtWidgets import QApplication

    from controlroom.report.export import export_report
    from controlroom.report.gather import load_report

    app = QApplication.instance() or QApplication(sys.argv[:1])
    t0 = time.perf_counter()
    with GameStore.open(game, create=False) as store:
        report = load_report(store)
    gathered = time.perf_counter() - t0
    files = export_report(report, out, ("csv",))
    csv_done = time.perf_counter() - t0
    files += export_report(report, out, ("pdf",))
    total = time.perf_counter() - t0
    del app
    return {
        "total": total, "gather": gathered, "csv": csv_done - gathered, "pdf": total - csv_done,
        "files": {p.name.rsplit("-", 1)[-1]: p.stat().st_size for p in files},
        "casualty_rows": len(report.casualties), "valhalla_rows": len(report.valhalla),
        "stopps": len(report.stopps), "rule_warnings": len(report.warnings), "unreturned_loot": len(report.loot),
        "deaths": report.totals().deaths,
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=8000)
    ap.add_argument("--keep", metavar="DIR", help="keep the report files in this folder")
    ap.add_argument("--once", nargs=2, metavar=("GAME", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.once:
        print(json.dumps(export_once(Path(args.once[0]), Path(args.once[1]))))
        return 0

    members = roster(args.players)
    t0 = time.perf_counter()
    log = with_loot_and_siege(played_game(members, args.events - args.events // 380), args.players)[: args.events]
    print(f"generated {len(log):,} events for {len(members):,} players in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    result: dict = {"benchmark": "report", "events": len(log), "players": len(members)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        game = tmp / "big.crgame"
        with GameStore.open(game) as store:
            store.save_roster(members)
            store.set_meta("name", "Bench battle")
            for i in range(0, len(log), 5000):
                store.log.append(log[i:i + 5000])
        del log
        raw_s = min(raw_read(game) for _ in range(2))
        with GameStore.open(game, create=False) as store:
            t0 = time.perf_counter()
            store.load_state()
            fold_s = time.perf_counter() - t0
        out = Path(args.keep) if args.keep else tmp / "out"
        # Each export in a process of its own, as the command runs it; the median of three counts.
        runs = []
        for _ in range(3):
            done = subprocess.run([sys.executable, "-m", __spec__.name, "--once", str(game), str(out)],
                                  capture_output=True, text=True, check=True)
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        runs.sort(key=lambda r: r["total"])
        mid = runs[1]
    result.update({
        "export_s": round(mid["total"], 3), "export_s_runs": [round(r["total"], 3) for r in runs],
        "read_and_fold_s": round(mid["gather"], 3), "csv_s": round(mid["csv"], 3), "pdf_s": round(mid["pdf"], 3),
        "baseline_raw_sqlite3_read_s": round(raw_s, 3), "baseline_fold_only_s": round(fold_s, 3),
        **{k: mid[k] for k in ("casualty_rows", "valhalla_rows", "stopps", "rule_warnings", "unreturned_loot",
                               "deaths")},
        "file_bytes": mid["files"], "target_s": 10.0, "ok": mid["total"] < 10.0,
    })
    print(f"export of {result['events']:,} events: {mid['total']:.2f} s (read and fold {mid['gather']:.2f} s, "
          f"CSV {mid['csv']:.2f} s, PDF {mid['pdf']:.2f} s); raw sqlite3 read {raw_s:.2f} s, "
          f"bare fold {fold_s:.2f} s", file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
