"""Benchmark: durable append throughput against raw sqlite3, and replay speed of a 200,000-event game.

    .venv/bin/python -m benchmarks.bench_eventlog [--events 200000] [--append 20000]

Prints a few readable lines, then one JSON object as the last line.
Targets (issue 3): append >= 1/4 of raw sqlite3 (WAL, synchronous=FULL, same
batches); replay >= 100,000 events/s; opening a 200,000-event game < 3 s.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from controlroom.store.game import GameStore
from tests.support.played_game import played_game, roster, store_played_game  # noqa: F401  (re-exported)


def bench_append(path: Path, events: list, batch: int) -> float:
    with GameStore.open(path) as store:
        start = time.perf_counter()
        for i in range(0, len(events), batch):
            store.log.append(events[i:i + batch])
        return len(events) / (time.perf_counter() - start)


def bench_raw(path: Path, events: list, batch: int) -> float:
    """The baseline: sqlite3 itself, WAL + synchronous=FULL, the same rows and batches."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute(
        "CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, t BIGINT NOT NULL, wall BIGINT NOT NULL,"
        " source VARCHAR(64) NOT NULL, type VARCHAR(32) NOT NULL, payload TEXT NOT NULL, device INTEGER,"
        " counter BIGINT, rssi FLOAT, snr FLOAT, gateways VARCHAR(200), UNIQUE (device, counter))"
    )
    sql = "INSERT INTO events (t, wall, source, type, payload) VALUES (?, ?, ?, ?, ?)"
    start = time.perf_counter()
    for i in range(0, len(events), batch):
        wall = int(time.time() * 1000)
        rows = [(e.t, wall, e.source, e.type, json.dumps(dict(e.data), separators=(",", ":")))
                for e in events[i:i + batch]]
        conn.execute("BEGIN")
        conn.executemany(sql, rows)
        conn.execute("COMMIT")
    rate = len(events) / (time.perf_counter() - start)
    conn.close()
    return rate


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200_000, help="events in the replayed game")
    ap.add_argument("--append", type=int, default=20_000, help="events appended per append measurement")
    ap.add_argument("--players", type=int, default=8000)
    args = ap.parse_args()

    members = roster(args.players)
    t0 = time.perf_counter()
    log = played_game(members, args.events)
    gen_s = time.perf_counter() - t0
    print(f"generated {len(log)} events for {len(members)} players in {gen_s:.1f} s", file=sys.stderr)

    result: dict = {"benchmark": "eventlog", "events": len(log), "players": len(members), "append": {}}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        sample = log[: args.append]
        for batch in (1, 10, 50, 200):
            n = sample if batch > 1 else sample[: max(500, args.append // 20)]
            ours = bench_append(tmp / f"ours{batch}.crgame", n, batch)
            raw = bench_raw(tmp / f"raw{batch}.sqlite", n, batch)
            result["append"][str(batch)] = {
                "controlroom_events_per_s": round(ours), "raw_sqlite3_events_per_s": round(raw),
                "ratio": round(ours / raw, 3),
            }
            print(f"append, batches of {batch:>3}: {ours:>9,.0f} events/s; raw sqlite3 {raw:>9,.0f}/s; "
                  f"ratio {ours / raw:.2f}", file=sys.stderr)

        game = tmp / "big.crgame"
        with GameStore.open(game) as store:
            store.save_roster(members)
            for i in range(0, len(log), 5000):
                store.log.append(log[i:i + 5000])
        # Three opens of the same game; the median counts (this machine shares its cores).
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            with GameStore.open(game, create=False) as store:
                opened = time.perf_counter() - t0
                state, last = store.load_state()
            total = time.perf_counter() - t0
            runs.append((total, total - opened))
        runs.sort()
        open_s, fold_s = runs[1]
        result["open_game_s_runs"] = [round(r[0], 3) for r in runs]
        dead = sum(1 for c in state.characters.values() if c.condition == "dead")
        result["rule_warnings"] = len(state.warnings)
        result.update({
            "replay_events_per_s": round(last / fold_s),
            "open_game_s": round(open_s, 3),
            "replay_events": last,
            "dead_at_end": dead,
            "pending_deadlines": len(state.pending_deadlines()),
        })
        print(f"open + replay of {last:,} events: {open_s:.2f} s ({last / fold_s:,.0f} events/s); "
              f"{dead} dead, {result['pending_deadlines']} deadlines pending", file=sys.stderr)
    ratio50 = result["append"]["50"]["ratio"]
    result["targets"] = {
        "append_ratio_min": 0.25, "append_ratio_at_batch_50": ratio50, "append_ok": ratio50 >= 0.25,
        "replay_events_per_s_min": 100_000, "replay_ok": result["replay_events_per_s"] >= 100_000,
        "open_game_s_max": 3.0, "open_ok": open_s < 3.0,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
