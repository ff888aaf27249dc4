"""Benchmark: the window's memory after 3 game hours of radio traffic at 50 frames/s (issue 17).

    .venv/bin/python tests/bench/bench_memory.py [--hours 3] [--rate 1000] [--every 30] [--types]

The game, the gateway and the window are bench_map's: 8,000 players in 400
groups (a tracker each), 100 marshals with handsets, 2,000 casualties; the
real window (1366x768) on the real core; a gateway on a pty played by a
process of its own (bench_ingest.FakeGateway) sends bench_map's radio lines
(positions of every tracker and marshal in turn, one marshal report in
twenty).  Three game hours at 50 frames/s are 540,000 frames: they are all
sent, every one stored, folded and published, but faster than real time:
``--rate`` frames a real second with the station's clock running
``rate / 50`` times real time, so that the game time at the end is the game
time 540,000 frames at 50 a second would take (the clock keeps running while
the station catches up: the game time reached is reported too).  What is
measured is the state after that traffic: the log, the fold, the window's
models (timeline, radio panel's frame ring, map layers), whatever the process
holds.

Resident memory (VmRSS of this process: window, core and storage threads) is
read every ``--every`` game minutes, so that a leak shows as a slope.  The
lines are written by a child process into a file first (the gateway process
reads them from there): this process never holds them.
Baseline in the same run: the resident memory once the game is open in the
window, before the first frame.  ``--types`` adds, at the end, the Python
objects by type (gc) and the top allocation sites (tracemalloc, started
after the opening: it slows everything down, its figures are not the
benchmark's).
Prints readable lines, then one JSON object as the last line.
Target (issue 17): resident memory < 600 MB after 3 game hours at 50 frames/s, and no growth without bound.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_ingest import FakeGateway  # noqa: E402
from bench_map import FIELD, make_game, pct, radio_lines, rss_mb  # noqa: E402

from controlroom.core.station import Station  # noqa: E402
from controlroom.geo.frame import MapFrame  # noqa: E402
from controlroom.ui.app import build_window  # noqa: E402

FRAMES_PER_S = 50           # what the target names: a busy set of 8-channel gateways
CHUNK = 20_000


def write_lines(path: str, keys_file: str, count: int) -> None:
    """(In a child process) bench_map's radio lines, ``count`` of them, into ``path``, in chunks.

    Each chunk is radio_lines with a seed of its own: its counters start at
    100,000 x seed, above the chunk before, so every frame is new to the station.
    """
    keys = json.loads(Path(keys_file).read_text(encoding="ascii"))
    trackers = {int(d): bytes.fromhex(k) for d, k in keys["trackers"].items()}
    marshals = {int(d): bytes.fromhex(k) for d, k in keys["marshals"].items()}
    with open(path, "w", encoding="ascii") as out:
        for seed, first in enumerate(range(0, count, CHUNK), start=1):
            out.write("\n".join(radio_lines(trackers, marshals, min(CHUNK, count - first), seed)) + "\n")


def radio_events(path: str) -> int:
    """Events of the game file that came from a radio frame (a read-only connection of its own, closed again)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM events WHERE device IS NOT NULL").fetchone()[0]
    finally:
        db.close()


def type_counts(top: int = 15) -> list[tuple[str, int]]:
    return Counter(type(o).__name__ for o in gc.get_objects()).most_common(top)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hours", type=float, default=3.0, help="game hours of traffic at 50 frames/s")
    ap.add_argument("--rate", type=float, default=250.0, help="frames sent a real second (the clock runs rate/50)")
    ap.add_argument("--every", type=float, default=30.0, help="game minutes between two readings")
    ap.add_argument("--types", action="store_true", help="objects by type and allocation sites at the end")
    ap.add_argument("--write-lines", nargs=3, metavar=("PATH", "KEYS", "COUNT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.write_lines:
        write_lines(args.write_lines[0], args.write_lines[1], int(args.write_lines[2]))
        return 0

    frames = int(args.hours * 3600 * FRAMES_PER_S)
    speed = args.rate / FRAMES_PER_S
    app = QApplication(sys.argv[:1])
    tmp = Path(tempfile.mkdtemp())
    path = str(tmp / "memory.crgame")
    trackers, marshals = make_game(path)
    keys_file = tmp / "keys.json"
    keys_file.write_text(json.dumps({"trackers": {d: k.hex() for d, k in trackers.items()},
                                     "marshals": {d: k.hex() for d, k in marshals.items()}}), encoding="ascii")
    del trackers, marshals
    lines_file = tmp / "memory.lines"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--write-lines", str(lines_file), str(keys_file), str(frames)],
                   check=True)
    print(f"{frames:,} radio lines written in {time.perf_counter() - t0:.0f} s by a child process", file=sys.stderr)
    gc.collect()

    gateway = FakeGateway()
    station = Station(path, [gateway.path], None, speed=speed)
    core = station.core
    window = build_window(core, MapFrame(58.38, 26.72), "memory")
    window.map.load_background(FIELD)
    window.resize(1366, 768)
    window.show()
    loaded = threading.Event()
    core.loaded.connect(lambda _d: loaded.set())
    stored = {"seq": 0}
    core.events_stored.connect(lambda seq: stored.__setitem__("seq", max(stored["seq"], seq)))
    station.start()
    while not loaded.is_set() or not gateway.identified.is_set():
        app.processEvents()
    for _ in range(50):                 # the opening's own work (first paint, layouts) done
        app.processEvents()
        time.sleep(0.01)
    start_game_ms = core.game_time()
    opened_mb = rss_mb()
    print(f"game open in the window: {opened_mb:.0f} MB resident; game time {start_game_ms / 60_000:.1f} min; "
          f"sending {frames:,} frames at {args.rate:.0f}/s, the clock at {speed:g} x real time", file=sys.stderr)
    if args.types:
        import tracemalloc
        tracemalloc.start(10)

    # How late a 10 ms timer of the GUI thread fires: whether the window keeps up with the traffic, or
    # deltas wait in its queue (memory the window would not hold at 50 frames a second).
    late: list[float] = []
    clock = {"t": time.perf_counter()}

    def tick() -> None:
        now = time.perf_counter()
        late.append(max(0.0, (now - clock["t"]) * 1000 - 10.0))
        clock["t"] = now

    probe = QTimer()
    probe.setInterval(10)
    probe.timeout.connect(tick)
    probe.start()
    readings: list[dict] = []
    every_ms = int(args.every * 60_000)
    started = time.perf_counter()
    seq0 = {"seq": None}

    def read(final: bool = False) -> None:
        game_ms = core.game_time() - start_game_ms
        done = radio_events(path) - frames0
        readings.append({"game_minutes": round(game_ms / 60_000, 1), "real_s": round(time.perf_counter() - started, 1),
                         "frames_stored": done, "events_stored": stored["seq"] - seq0["seq"],
                         "rss_mb": round(rss_mb(), 1), "gui_late_p99_ms": pct(late, 0.99),
                         "gui_late_max_ms": pct(late, 1.0)})
        late.clear()
        r = readings[-1]
        print(f"  {r['game_minutes']:6.1f} game min, {r['real_s']:6.1f} s: {done:>8,} frames stored "
              f"({done / max(1, frames):.0%} of the frames, {stored['seq'] - seq0['seq']:,} events in all), "
              f"{r['rss_mb']:.0f} MB resident; GUI timer late p99 {r['gui_late_p99_ms']} ms, "
              f"max {r['gui_late_max_ms']} ms"
              + (" (final)" if final else ""), file=sys.stderr)

    def check() -> None:
        if seq0["seq"] is None:
            seq0["seq"] = stored["seq"]
        game_ms = core.game_time() - start_game_ms
        if game_ms >= every_ms * len(readings) and len(readings) <= int(args.hours * 60 / args.every):
            read()
        if (stored["seq"] - seq0["seq"] >= frames and len(readings) > int(args.hours * 60 / args.every)
                and radio_events(path) - frames0 >= frames):
            app.quit()

    seq0["seq"] = stored["seq"]
    frames0 = radio_events(path)
    readings.append({"game_minutes": 0.0, "real_s": 0.0, "frames_stored": 0, "rss_mb": round(opened_mb, 1)})
    gateway.send(str(lines_file), args.rate, expect_acks=-1)
    poll = QTimer()
    poll.timeout.connect(check)
    poll.start(200)
    QTimer.singleShot(int(frames / args.rate * 1000 * 4 + 600_000), app.quit)     # a station far behind: stop
    app.exec()
    poll.stop()
    probe.stop()
    for _ in range(100):                # the last deltas shown
        app.processEvents()
        time.sleep(0.01)
    gc.collect()
    read(final=True)
    final = readings[-1]
    stored_frames = final["frames_stored"]
    timeline = window.panels.panels["timeline"].model
    held = {"timeline_rows": timeline.rowCount(), "timeline_names": len(timeline.names)}
    print(f"the window holds {held['timeline_rows']:,} timeline rows", file=sys.stderr)
    result_types = {}
    if args.types:
        import tracemalloc
        snap = tracemalloc.take_snapshot()
        tracemalloc.stop()
        print("objects by type:", file=sys.stderr)
        for name, n in type_counts():
            print(f"  {name:30} {n:>10,}", file=sys.stderr)
        print("allocated since the opening, by site:", file=sys.stderr)
        for stat in snap.statistics("lineno")[:15]:
            print(f"  {stat.size / 1e6:8.1f} MB {stat.count:>9,}  {stat.traceback[0]}", file=sys.stderr)
        result_types = {"objects_by_type": type_counts()}
    gateway.finish()
    station.shutdown()
    gateway.close()
    window.close()
    app.processEvents()
    shutil.rmtree(tmp, ignore_errors=True)

    # The slope over the second half (the first minutes fill bounded caches: the timeline's 20,000 rows, rings).
    half = [r for r in readings[1:-1] if r["game_minutes"] >= args.hours * 30]
    slope = None
    if len(half) >= 2:
        slope = round((half[-1]["rss_mb"] - half[0]["rss_mb"]) / ((half[-1]["game_minutes"] - half[0]["game_minutes"]) / 60), 1)
    peak = max(r["rss_mb"] for r in readings)
    game_hours = final["game_minutes"] / 60
    result = {
        "benchmark": "memory", "players": 8000, "frames": frames, "frames_stored": stored_frames,
        "rate_frames_per_s": args.rate, "clock_speed": speed, "game_hours": round(game_hours, 2),
        "real_s": final["real_s"], "rss_opened_mb": round(opened_mb, 1), "rss_end_mb": final["rss_mb"],
        "rss_peak_mb": peak, "growth_mb": round(final["rss_mb"] - opened_mb, 1),
        "slope_second_half_mb_per_game_hour": slope, "readings": readings, **held, **result_types,
        "targets": {"rss_mb_max": 600, "memory_ok": peak < 600 and stored_frames >= frames},
    }
    print(f"resident memory: {opened_mb:.0f} MB open, {final['rss_mb']:.0f} MB after {game_hours:.2f} game hours "
          f"({stored_frames:,} of {frames:,} frames stored in {final['real_s']:.0f} s), peak {peak:.0f} MB; "
          f"slope over the second half {slope} MB per game hour", file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
