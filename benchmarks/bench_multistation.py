"""Benchmark: two stations ingesting into one PostgreSQL game, against one station on a SQLite file.

    CONTROLROOM_TEST_PG=postgresql+psycopg://USER@HOST:PORT/postgres \\
        .venv/bin/python -m benchmarks.bench_multistation [--frames 20000] [--rate 200] [--seconds 10]

Each station is a process of its own (a core thread, its storage thread, its
listener), fed authenticated position frames from 50 trackers of its own, and
a tenth of the other station's frames too (overlapping gateways: copies that
must be stored once).  A third station in this process stands for a window
without gateways: it sees the others' events through LISTEN/NOTIFY.
1. throughput: every station fed as fast as its core takes frames; frames
   stored per second, from the first frame fed to the last stored;
2. latency: each station fed ``--rate`` frames a second for ``--seconds``;
   per frame, from its feeding at a gateway station to its event in the
   window station's delta (the window repaints from these, at most ten a
   second).
The same in the same run on SQLite (the baseline): one station fed both
stations' frames, its latency to its own window's delta.

A station stops only once everything it heard is stored (its core's health:
nothing waiting, nothing queued on the laptop).  Then the rows of the game
are counted: every frame sent must be stored exactly once, across the
stations; otherwise the benchmark says which run failed and exits with 1.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication

from benchmarks.figures import pct as pct_of
from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.radio.link import FrameHeard
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore

pct = partial(pct_of, digits=1)

TRACKERS = 100
KEY = bytes(range(16))


def frame(device: int, counter: int) -> bytes:
    lat, lon = 583800000 + (counter * 37) % 20000, 267200000 + (device * 53) % 30000
    return codec.encode_position(KEY, device, counter, lat, lon, 80, 1, 8)


def plan(station: int, count: int, first: int, stations: int) -> list[tuple[int, int]]:
    """The (device, counter) frames a station's gateways hear: its own trackers', and copies of a tenth of the
    others'."""
    per = TRACKERS // stations
    own = [(d, c) for c in range(first, first + count // per)
           for d in range(station * per + 1, (station + 1) * per + 1)]
    if stations == 1:
        return own
    other = [(d, c) for c in range(first, first + count // per, 10)
             for d in range(1, TRACKERS + 1) if not station * per < d <= (station + 1) * per]
    return sorted(own + other, key=lambda k: (k[1], k[0]))


def wait_until(app, cond, timeout=300.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise SystemExit("the benchmark timed out")
        app.processEvents()
        time.sleep(0.002)


def station_main(args) -> int:
    """A gateway station (a child process): feed the planned frames, report when each was fed and stored."""
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    core = CoreThread(args.db, VirtualClock(10**9), queue_path=args.queue)
    seen: dict[int, float] = {}
    core.delta_published.connect(lambda d: seen.update((s.seq, time.time()) for s in d.events if s.seq not in seen))
    loaded = []
    core.loaded.connect(loaded.append)
    core.start()
    wait_until(app, lambda: loaded)
    keys = plan(args.station, args.count, args.first, args.stations)
    print("ready", flush=True)
    sys.stdin.readline()                        # "go": every station starts at once
    sent: list[float] = []
    t0 = time.time()
    rate = args.feed_rate
    chunk = 1 if rate else 100
    for i in range(0, len(keys), chunk):
        if rate:
            delay = t0 + i / rate - time.time()
            while delay > 0:
                app.processEvents()
                time.sleep(min(delay, 0.002))
                delay = t0 + i / rate - time.time()
        sent += [time.time()] * len(keys[i:i + chunk])
        for d, c in keys[i:i + chunk]:
            core.heard.put(FrameHeard("bench", args.station + 1, -90, 7.5, frame(d, c)))
    w = core.worker

    def handled():
        """Every frame heard, and every event of them stored (or found stored by the other station): nothing
        in the inbox or in flight to the store, nothing kept on this laptop for a server that was away."""
        total = w.engine.intake.ingest.stats().get("total", {}) if w.engine else {}
        health = w.stats()["health"]
        return (total.get("frames_total", 0) == len(keys) and health["waiting"] == 0 and health["queued"] == 0
                and health["unstored"] == 0)

    wait_until(app, handled)
    stored_at = time.time()
    # Once more a little later: the last frame is counted as heard a moment before it is counted as waiting.
    time.sleep(0.05)
    wait_until(app, handled)
    core.shutdown()
    app.processEvents()                         # the last delta, published as the core stopped
    out = {"sent": {f"{d},{c}": t for (d, c), t in zip(keys, sent)}, "first": t0, "stored": stored_at,
           "window": seen}
    Path(args.out).write_text(json.dumps(out))
    return 0


def run(db: str, stations: int, count: int, first: int, rate: float | None, tmp: Path, window: bool) -> dict:
    """Feed ``stations`` station processes at once; with ``window``, a window station here watches."""
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    watch, arrived = None, {}
    if window:
        watch = CoreThread(db, VirtualClock(10**9), queue_path=str(tmp / "w.queue"))
        watch.delta_published.connect(lambda d: arrived.update((s.seq, time.time()) for s in d.events))
        loaded = []
        watch.loaded.connect(loaded.append)
        watch.start()
        wait_until(app, lambda: loaded)
    procs = []
    for i in range(stations):
        out = tmp / f"s{i}-{first}.json"
        argv = [sys.executable, "-m", __spec__.name, "--station", str(i), "--stations", str(stations), "--db", db,
                "--count", str(count), "--first", str(first), "--out", str(out), "--queue", str(tmp / f"s{i}.queue")]
        if rate:
            argv += ["--feed-rate", str(rate)]
        procs.append((subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True), out))
    for p, _ in procs:
        assert p.stdout.readline().strip() == "ready"
    for p, _ in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    for p, _ in procs:
        while p.poll() is None:
            app.processEvents()
            time.sleep(0.005)
        p.stdin.close()
        p.stdout.close()
    time.sleep(1.0)
    app.processEvents()
    if watch is not None:
        watch.shutdown()
    results = [json.loads(out.read_text()) for _, out in procs]
    planned = {k for i in range(stations) for k in plan(i, count, first, stations)}
    with GameStore.open(db, create=False) as store:
        rows = [(s.seq, s.radio.device, s.radio.counter) for s in store.log.read()
                if s.radio is not None and (s.radio.device, s.radio.counter) in planned]
    copies = collections.Counter((d, c) for _, d, c in rows)
    missing, doubled = len(planned - set(copies)), sum(1 for n in copies.values() if n > 1)
    sent: dict[str, float] = {}
    for r in results:                     # a copy fed at both stations: the first feeding counts
        for k, t in r["sent"].items():
            sent[k] = min(t, sent.get(k, t))
    seen = arrived if window else {int(k): v for k, v in results[0]["window"].items()}
    lat = [(seen[seq] - sent[f"{d},{c}"]) * 1000 for seq, d, c in rows if seq in seen and f"{d},{c}" in sent]
    unique = len(copies)
    span = max(r["stored"] for r in results) - min(r["first"] for r in results)
    return {"stored": unique, "fed": sum(len(r["sent"]) for r in results), "rows": len(rows),
            "planned": len(planned), "missing": missing, "doubled": doubled,
            "frames_per_s": round(unique / span), "latency": lat}


def new_game(db: str) -> None:
    with GameStore.open(db) as store:
        store.save_roster([Member(b, f"P{b}", "North", f"G{b % 10}") for b in range(1, 201)])
        for d in range(1, TRACKERS + 1):
            register_device(store, d, "tracker", f"T{d}", key=KEY)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=20_000, help="frames per station in the throughput run")
    ap.add_argument("--rate", type=float, default=200.0, help="frames a second per station in the latency run")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--feed-rate", type=float, default=0.0, help=argparse.SUPPRESS)
    for name in ("station", "stations", "count", "first"):
        ap.add_argument(f"--{name}", type=int, help=argparse.SUPPRESS)
    for name in ("db", "out", "queue"):
        ap.add_argument(f"--{name}", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.station is not None:
        return station_main(args)
    admin_url = os.environ.get("CONTROLROOM_TEST_PG")
    if not admin_url:
        raise SystemExit("set CONTROLROOM_TEST_PG=postgresql+psycopg://USER@HOST:PORT/postgres "
                         "(.ci/postgres.sh start DIR)")
    import psycopg
    from sqlalchemy.engine import make_url

    tmp = Path(tempfile.mkdtemp())
    name = f"bench_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(make_url(admin_url).set(drivername="postgresql").render_as_string(hide_password=False),
                            autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    pg_db = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    sqlite_db = str(tmp / "one.crgame")
    try:
        new_game(pg_db)
        new_game(sqlite_db)
        paced = int(args.rate * args.seconds)
        figures, problems = {}, []
        for label, db, stations in (("postgresql_2_stations", pg_db, 2), ("sqlite_1_station", sqlite_db, 1)):
            per = args.frames * 2 // stations
            thr = run(db, stations, per, 1, None, tmp, window=False)
            lat = run(db, stations, paced * 2 // stations, 10_000, args.rate * 2 / stations, tmp, window=stations > 1)
            for run_name, r in (("throughput", thr), ("latency", lat)):
                if r["missing"] or r["doubled"] or r["rows"] != r["planned"]:
                    problems.append(f"{label}, {run_name} run: {r['planned']} frames sent, {r['rows']} rows stored, "
                                    f"{r['missing']} missing, {r['doubled']} stored more than once")
            figures[label] = {
                "frames_stored": thr["stored"], "frames_fed": thr["fed"], "rows": thr["rows"],
                "stored_exactly_once": not (thr["missing"] or thr["doubled"] or lat["missing"] or lat["doubled"]),
                "frames_per_s": thr["frames_per_s"], "latency_rate_per_s": args.rate * 2,
                "latency_frames": len(lat["latency"]), "latency_p50_ms": pct(lat["latency"], 0.5),
                "latency_p99_ms": pct(lat["latency"], 0.99), "latency_max_ms": pct(lat["latency"], 1.0),
            }
            f = figures[label]
            print(f"{label}: {f['frames_stored']} frames stored once of {f['frames_fed']} fed, {f['frames_per_s']:,} "
                  f"frames/s; latency to the window at {f['latency_rate_per_s']:.0f} frames/s: p50 "
                  f"{f['latency_p50_ms']} ms, p99 {f['latency_p99_ms']} ms, max {f['latency_max_ms']} ms",
                  file=sys.stderr)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    base, pg = figures["sqlite_1_station"], figures["postgresql_2_stations"]
    for line in problems:
        print(f"NOT STORED EXACTLY ONCE: {line}", file=sys.stderr)
    print(json.dumps({"benchmark": "multistation", **figures, "baseline": "sqlite_1_station",
                      "throughput_vs_baseline": round(pg["frames_per_s"] / base["frames_per_s"], 2),
                      "stored_exactly_once": not problems}))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
