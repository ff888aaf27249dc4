"""Benchmark: how long one radio append takes (an ack waits for it), alone and beside a busy Python thread.

    .venv/bin/python -m benchmarks.bench_append_latency [--appends 400] [--batch 3]

A station acknowledges a report after its append is committed; on a shared game
the append is five statements to PostgreSQL (BEGIN, the append lock, INSERT,
NOTIFY, COMMIT).  After each, the station's core thread waits for the GIL while
another thread of the station runs Python (a delta built, a refold, other
stations' appends read), up to the switch interval each time.  Measured here:
the append's latency (p50, p99) on PostgreSQL and on a game file, alone (the
baseline, in the same run), and with one thread beside it that runs Python
without pause, at Python's own switch interval (5 ms) and at the stations' (0.5
ms, ``pacing.short_switches``).  The raw driver's round trip (``SELECT 1`` with
psycopg, alone) is the floor.

PostgreSQL: CONTROLROOM_TEST_PG, else a throwaway cluster (.ci/postgres.sh).
Prints readable lines, then one JSON object as the last line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from benchmarks.gameday import Cluster, commit
from controlroom.game.devices import RadioMeta
from controlroom.game.events import Event
from controlroom.pacing import SWITCH_INTERVAL
from controlroom.store.game import GameStore
from tests.support.gameday.faults import new_database


class Busy:
    """A thread running Python without pause, as a delta being built does (while in ``with``)."""

    def __enter__(self):
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        x = 0
        while not self.stop:
            for i in range(10_000):
                x += i * i

    def __exit__(self, *exc) -> None:
        self.stop = True
        self.thread.join()


def percentiles(ms: list[float]) -> dict:
    ms = sorted(ms)
    return {"p50_ms": round(ms[len(ms) // 2], 2), "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2)}


def appends(store: GameStore, n: int, batch: int, start: int) -> list[float]:
    out = []
    counter = start
    for r in range(n):
        items = []
        for k in range(batch):
            items.append((Event(r * 1000 + k, "position", {"badge": None, "device": 7, "lat": 58.1, "lon": 26.1},
                                "radio"), RadioMeta(7, counter, -80.0, 5.0, ("1",), None, "1:-80:5"), None))
            counter += 1
        t = time.perf_counter()
        store.log.append(items)
        out.append((time.perf_counter() - t) * 1000)
    return out


def round_trips(dsn: str, n: int) -> list[float]:
    import psycopg

    out = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        for _ in range(n):
            t = time.perf_counter()
            conn.execute("SELECT 1").fetchone()
            out.append((time.perf_counter() - t) * 1000)
    return out


def measure(store: GameStore, n: int, batch: int) -> dict:
    before = sys.getswitchinterval()
    cases: dict = {}
    counter = 1 + int(time.time())
    try:
        for name, interval, busy in (("alone", 0.005, False), ("busy_5ms", 0.005, True),
                                     ("busy_0.5ms", SWITCH_INTERVAL, True), ("alone_0.5ms", SWITCH_INTERVAL, False)):
            sys.setswitchinterval(interval)
            appends(store, 20, batch, counter)          # (warm)
            counter += 20 * batch
            if busy:
                with Busy():
                    ms = appends(store, n, batch, counter)
            else:
                ms = appends(store, n, batch, counter)
            counter += n * batch
            cases[name] = percentiles(ms)
    finally:
        sys.setswitchinterval(before)
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=400)
    parser.add_argument("--batch", type=int, default=3, help="radio events per append (a batch's usual size)")
    args = parser.parse_args()
    out: dict = {"benchmark": "append_latency", "commit": commit(), "appends": args.appends, "batch": args.batch}
    cluster = Cluster()
    try:
        db = new_database(cluster.url, f"bench_append_{uuid.uuid4().hex[:8]}")
        with GameStore.open(db) as store:
            out["postgresql"] = measure(store, args.appends, args.batch)
            from controlroom.store.pg import conninfo

            out["postgresql"]["raw_round_trip"] = percentiles(round_trips(conninfo(store.engine), args.appends))
    finally:
        cluster.close()
    with tempfile.TemporaryDirectory() as tmp, GameStore.open(Path(tmp) / "g.crgame") as store:
        out["sqlite"] = measure(store, args.appends, args.batch)
    for where in ("postgresql", "sqlite"):
        for name, p in out[where].items():
            print(f"{where:>10} {name:>14}: p50 {p['p50_ms']:7.2f} ms, p99 {p['p99_ms']:7.2f} ms", file=sys.stderr)
    pg = out["postgresql"]
    out["busy_p99_ratio_5ms_to_0.5ms"] = round(pg["busy_5ms"]["p99_ms"] / max(pg["busy_0.5ms"]["p99_ms"], 1e-9), 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
