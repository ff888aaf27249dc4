"""Benchmark: the window's memory after 3 game hours of radio traffic at 50 frames/s (issue 17).

    .venv/bin/python -m benchmarks.bench_memory [--hours 3] [--rate 500] [--every 30] [--types] [--sites]

The game, the gateway and the window are bench_map's: 8,000 players in 400
groups (a tracker each), 100 marshals with handsets, 2,000 casualties; the
real window (1366x768) on the real core; a gateway on a pty played by a
process of its own (bench_ingest.FakeGateway) sends bench_map's radio lines
(positions of every tracker and marshal in turn, one marshal report in
twenty).  Three game hours at 50 frames/s are 540,000 frames: every one is
sent, stored, folded and published, faster than real time.  The game clock
(a VirtualClock, moved by this benchmark) runs with the frames: 20 ms of game
time for each frame written, so that the game time at the end is the game
time 540,000 frames at 50 a second take, and the rule timers (bleeding out,
respawns) fire in game time as they would.  The frames go 5,000 at a time
(100 game seconds), written at ``--rate`` a second; the next 5,000 go once
these are stored and the window has been given every delta the core
published: the window may fall behind within a chunk, but never more (deltas
queued for a window that cannot keep up with 10 times real time would be
memory it does not hold at 50 frames a second).  What is measured is the state
after that traffic: the log, the fold, the window's models (timeline, radio
panel's frame ring, map layers), whatever the process holds.

Resident memory (VmRSS of this process: window, core and storage threads,
after a gc.collect) is read every ``--every`` game minutes, so that a leak
shows as a slope; that collection is timed (a full collection walks every
object the process holds, and stops every thread meanwhile), and so is every
collection of the window's collector (ui/collector.py: a full one at most
every 10 minutes, in the GUI thread).  The lines are written by a child process into files first
(the gateway process reads them from there): this process never holds them.
Baseline in the same run: the resident memory once the game is open in the
window, before the first frame.  ``--types`` counts the Python objects by
type (gc) at each reading and shows, at the end, the types that grew from the
first reading to the last (what a slope is made of); ``--sites`` the top
allocation sites since the opening (tracemalloc: it slows everything down
and takes memory of its own: such a run's figures are not the benchmark's).
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
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import QApplication

from benchmarks.bench_map import make_game, pct, radio_lines, rss_mb, window_on_gateway
from controlroom.game.clock import VirtualClock

FRAMES_PER_S = 50           # what the target names: a busy set of 8-channel gateways
CHUNK = 5_000               # frames sent at a time (100 game seconds)
START_MS = 60_000           # the game clock at the first frame (bench_map's game ends at 21 s)


def write_lines(path: str, keys_file: str, count: int) -> None:
    """(In a child process) bench_map's radio lines, ``count`` of them, into ``path``, in chunks.

    Each chunk is radio_lines with a seed of its own: its counters start at
    100,000 x seed, above the chunk before, so every frame is new to the station.
    """
    keys = json.loads(Path(keys_file).read_text(encoding="ascii"))
    trackers = {int(d): bytes.fromhex(k) for d, k in keys["trackers"].items()}
    marshals = {int(d): bytes.fromhex(k) for d, k in keys["marshals"].items()}
    for seed, first in enumerate(range(0, count, CHUNK), start=1):
        Path(f"{path}.{seed - 1:04d}").write_text(
            "\n".join(radio_lines(trackers, marshals, min(CHUNK, count - first), seed)) + "\n", encoding="ascii")


class Counts(QObject):
    """Deltas the core published (counted in its thread) and deltas the window was given (in the GUI thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.n_emitted = 0
        self.n_applied = 0

    @Slot(object)
    def emitted(self, _delta) -> None:
        self.n_emitted += 1

    @Slot(object)
    def applied(self, _delta) -> None:
        self.n_applied += 1

    def caught_up(self) -> bool:
        return self.n_applied >= self.n_emitted


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
    ap.add_argument("--rate", type=float, default=500.0, help="frames written a real second within a chunk")
    ap.add_argument("--every", type=float, default=30.0, help="game minutes between two readings")
    ap.add_argument("--types", action="store_true", help="objects by type at each reading; what grew")
    ap.add_argument("--sites", action="store_true", help="allocation sites since the opening (tracemalloc)")
    ap.add_argument("--write-lines", nargs=3, metavar=("PATH", "KEYS", "COUNT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.write_lines:
        write_lines(args.write_lines[0], args.write_lines[1], int(args.write_lines[2]))
        return 0

    frames = int(args.hours * 3600 * FRAMES_PER_S)
    chunks = -(-frames // CHUNK)
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
    subprocess.run([sys.executable, "-m", __spec__.name, "--write-lines", str(lines_file), str(keys_file), str(frames)],
                   check=True)
    print(f"{frames:,} radio lines written in {time.perf_counter() - t0:.0f} s by a child process "
          f"({chunks} files of {CHUNK:,})", file=sys.stderr)
    gc.collect()

    clock = VirtualClock(START_MS)
    counts = Counts()

    def count_deltas(core) -> None:
        core.delta_published.connect(counts.emitted, Qt.ConnectionType.DirectConnection)   # in the core's thread
        core.delta_published.connect(counts.applied)       # queued: after the window's own slot, in its thread

    gateway, station, window = window_on_gateway(app, path, "memory", clock, before_start=count_deltas)
    for _ in range(50):                 # the opening's own work (first paint, layouts) done
        app.processEvents()
        time.sleep(0.01)
    opened_mb = rss_mb()
    frames0 = radio_events(path)
    print(f"game open in the window: {opened_mb:.0f} MB resident; sending {frames:,} frames, {CHUNK:,} at a time "
          f"at {args.rate:.0f}/s, the game clock 20 ms on per frame", file=sys.stderr)
    if args.sites:
        import tracemalloc
        tracemalloc.start(10)
    by_type: list[Counter] = []

    # How late a 10 ms timer of the GUI thread fires while a chunk comes in (the window may fall behind
    # within a chunk; it catches up before the next one).  Not counted: this benchmark's own work in the
    # GUI thread (step), which until 2026-12-05 made the late readings grow with the log (a count of its
    # radio events every 0.25 s, a full collection and the readings every 30 game minutes).
    late: list[float] = []
    last_tick = {"t": time.perf_counter()}

    def tick() -> None:
        now = time.perf_counter()
        late.append(max(0.0, (now - last_tick["t"]) * 1000 - 10.0))
        last_tick["t"] = now

    # Every collection timed (gc.callbacks): the window's collector runs them in the GUI thread, a full one
    # at most every 10 minutes (ui/collector.py), and a full collection stops every thread while it walks
    # every object the game holds.  This benchmark's own full collection before each reading is timed apart:
    # what such a walk costs by then.
    collected = {"t0": 0.0, "own": False, "own_ms": None, "full_ms": [], "young_max_ms": 0.0}

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            collected["t0"] = time.perf_counter()
            return
        ms = round((time.perf_counter() - collected["t0"]) * 1000, 1)
        if collected["own"]:
            collected["own_ms"] = ms
        elif info["generation"] == 2:
            collected["full_ms"].append(ms)
        else:
            collected["young_max_ms"] = max(collected["young_max_ms"], ms)

    gc.callbacks.append(timed)

    def own_collection() -> None:
        collected["own"] = True
        try:
            gc.collect()
        finally:
            collected["own"] = False

    probe = QTimer()
    probe.setInterval(10)
    probe.timeout.connect(tick)
    probe.start()
    readings: list[dict] = [{"game_minutes": 0.0, "real_s": 0.0, "frames_stored": 0, "rss_mb": round(opened_mb, 1)}]
    per_reading = max(1, round(args.every * 60 * FRAMES_PER_S / CHUNK))      # chunks between two readings
    started = time.perf_counter()
    run = {"chunk": -1, "sent_at": 0.0, "stored": 0, "checked": 0.0, "waits": []}

    def read(final: bool = False) -> None:
        done = radio_events(path) - frames0
        readings.append({"game_minutes": round((clock.now_ms() - START_MS) / 60_000, 1),
                         "real_s": round(time.perf_counter() - started, 1), "frames_stored": done,
                         "rss_mb": round(rss_mb(), 1), "gui_late_p99_ms": pct(late, 0.99),
                         "gui_late_max_ms": pct(late, 1.0), "full_collection_ms": collected["own_ms"]})
        late.clear()
        if args.types:
            by_type.append(Counter(type(o).__name__ for o in gc.get_objects()))
        r = readings[-1]
        print(f"  {r['game_minutes']:6.1f} game min, {r['real_s']:6.1f} s: {done:>8,} frames stored "
              f"({done / max(1, frames):.0%}), {r['rss_mb']:.0f} MB resident; GUI timer late while sending: "
              f"p99 {r['gui_late_p99_ms']} ms, max {r['gui_late_max_ms']} ms; a full collection "
              f"{r['full_collection_ms']} ms" + (" (final)" if final else ""),
              file=sys.stderr)

    def send_next() -> None:
        run["chunk"] += 1
        k = run["chunk"]
        run["n"] = min(CHUNK, frames - k * CHUNK)
        run["base"] = START_MS + k * CHUNK * 1000 // FRAMES_PER_S
        run["sent_at"] = time.perf_counter()
        gateway.send(f"{lines_file}.{k:04d}", args.rate, expect_acks=-1)

    def step() -> None:
        """``_step``, whose own time in the GUI thread (counting the stored frames, the collection and the
        readings) is not the window's: the probe's gap is shortened by it."""
        t0 = time.perf_counter()
        _step()
        last_tick["t"] += time.perf_counter() - t0

    def _step() -> None:
        """The clock follows the frames written (20 ms of game a frame); a chunk stored and shown: the next."""
        k = run["chunk"]
        written = min(run["n"], int((time.perf_counter() - run["sent_at"]) * args.rate))
        clock.advance_to(max(clock.now_ms(), run["base"] + written * 1000 // FRAMES_PER_S))
        if written < run["n"] or time.perf_counter() - run["checked"] < 0.25:
            return
        run["checked"] = time.perf_counter()
        if radio_events(path) - frames0 < k * CHUNK + run["n"] or not counts.caught_up():
            return
        run["waits"].append(time.perf_counter() - run["sent_at"] - run["n"] / args.rate)
        if (k + 1) % per_reading == 0 or k + 1 == chunks:
            own_collection()
            read()
        if k + 1 == chunks:
            app.quit()
        else:
            send_next()

    send_next()
    pump = QTimer()
    pump.timeout.connect(step)
    pump.start(20)
    QTimer.singleShot(int(frames / args.rate * 1000 * 10 + 600_000), app.quit)     # a station far behind: stop
    app.exec()
    pump.stop()
    probe.stop()
    for _ in range(100):                # the last deltas shown
        app.processEvents()
        time.sleep(0.01)
    gc.collect()
    final = readings[-1]
    stored_frames = final["frames_stored"]
    timeline = window.panels.panels["timeline"].model
    held = {"timeline_rows": timeline.rowCount(), "timeline_names": len(timeline.names),
            "deltas": counts.n_applied, "catch_up_wait_s_max": round(max(run["waits"], default=0.0), 1)}
    print(f"the window holds {held['timeline_rows']:,} timeline rows; {counts.n_applied:,} deltas shown",
          file=sys.stderr)
    result_types = {}
    if args.types and len(by_type) >= 2:
        grew = (by_type[-1] - by_type[0]).most_common(15)
        print("objects by type, grown from the first reading to the last:", file=sys.stderr)
        for name, _n in grew:
            print(f"  {name:30} {by_type[0][name]:>10,} -> {by_type[-1][name]:>10,}", file=sys.stderr)
        result_types = {"objects_grown_by_type": grew, "objects_by_type": type_counts()}
    if args.sites:
        import tracemalloc
        snap = tracemalloc.take_snapshot()
        tracemalloc.stop()
        print("allocated since the opening, by site:", file=sys.stderr)
        for stat in snap.statistics("lineno")[:15]:
            print(f"  {stat.size / 1e6:8.1f} MB {stat.count:>9,}  {stat.traceback[0]}", file=sys.stderr)
    gateway.finish()
    station.shutdown()
    gateway.close()
    window.close()
    app.processEvents()
    shutil.rmtree(tmp, ignore_errors=True)
    gc.callbacks.remove(timed)
    print(f"the window's collector: full collections {collected['full_ms']} ms, the longest younger one "
          f"{collected['young_max_ms']} ms", file=sys.stderr)

    # The slope over the second half (the first minutes fill bounded caches: the timeline's 20,000 rows, rings).
    half = [r for r in readings[1:-1] if r["game_minutes"] >= args.hours * 30]
    slope = None
    if len(half) >= 2:
        hours = (half[-1]["game_minutes"] - half[0]["game_minutes"]) / 60
        slope = round((half[-1]["rss_mb"] - half[0]["rss_mb"]) / hours, 1)
    peak = max(r["rss_mb"] for r in readings)
    game_hours = final["game_minutes"] / 60
    result = {
        "benchmark": "memory", "players": 8000, "frames": frames, "frames_stored": stored_frames,
        "rate_frames_per_s": args.rate, "chunk_frames": CHUNK, "game_hours": round(game_hours, 2),
        "real_s": final["real_s"], "rss_opened_mb": round(opened_mb, 1), "rss_end_mb": final["rss_mb"],
        "rss_peak_mb": peak, "growth_mb": round(final["rss_mb"] - opened_mb, 1),
        "slope_second_half_mb_per_game_hour": slope, "readings": readings, **held, **result_types,
        "collector_full_ms": collected["full_ms"], "collector_young_max_ms": collected["young_max_ms"],
        "targets": {"rss_mb_max": 600, "memory_ok": peak < 600 and stored_frames >= frames},
    }
    print(f"resident memory: {opened_mb:.0f} MB open, {final['rss_mb']:.0f} MB after {game_hours:.2f} game hours "
          f"({stored_frames:,} of {frames:,} frames stored in {final['real_s']:.0f} s), peak {peak:.0f} MB; "
          f"slope over the second half {slope} MB per game hour", file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
