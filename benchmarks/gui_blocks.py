"""A profiling aid for issue 17: what fills the GUI thread when bench_map's 10 ms probe fires late.

    .venv/bin/python -m benchmarks.gui_blocks [--rate 50] [--seconds 20] [--gaps 30]

bench_map's latency run (the real window at 1366x768, the real core, the
8,000-player game, a gateway process sending at ``--rate`` frames a second),
with every event the GUI thread handles timed at the top of its delivery
(``QApplication.notify``: wall and thread CPU time, receiver and event type;
nested events are counted in the one that sent them).  Prints the longest gaps
between two ticks of a 10 ms timer of its own with the longest events inside
each, then the time spent per receiver and event type, and one JSON object
last (the per-kind figures).  The timing itself costs the GUI thread a little:
the latency it prints is a bit worse than bench_map's.

Event types worth knowing: 43 a queued call (a signal from another thread, or
QGraphicsScene's processing of dirty items, which paints the whole window at
once), 77 an UpdateRequest (a paint of the window), 1 a timer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from benchmarks import bench_map


class TimingApp(QApplication):
    """An application that times each top-level event delivery: (start, end, CPU, receiver, event type)."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.records: list[tuple[float, float, float, str, int]] = []
        self._depth = 0
        self._gui = threading.get_ident()

    def notify(self, obj, event) -> bool:
        # notify runs in the receiver's thread: the core's and the storage's events are not the GUI thread's.
        if self._depth or threading.get_ident() != self._gui:
            return super().notify(obj, event)
        self._depth += 1
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return super().notify(obj, event)
        finally:
            self._depth -= 1
            t1 = time.perf_counter()
            if t1 - t0 > 0.0005:
                try:
                    name = f"{type(obj).__name__}:{obj.objectName()}"
                    if isinstance(obj, QTimer):     # which timer: its owner's class and its interval
                        owner = obj.parent()
                        name = f"QTimer:{type(owner).__name__ if owner is not None else '-'}@{obj.interval()}"
                except RuntimeError:            # the receiver was deleted by its own event
                    name = "(deleted)"
                self.records.append((t0, t1, time.thread_time() - c0, name, int(event.type())))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=float, default=50.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--gaps", type=int, default=30, help="how many of the longest gaps to list")
    args = ap.parse_args()
    app = TimingApp(sys.argv[:1])
    path = str(Path(tempfile.mkdtemp()) / "map.crgame")
    trackers, marshals = bench_map.make_game(path)
    ticks: list[float] = []
    probe = QTimer()
    probe.setInterval(10)
    probe.timeout.connect(lambda: ticks.append(time.perf_counter()))
    probe.start()
    lines = bench_map.radio_lines(trackers, marshals, int(args.seconds * args.rate) + 100, 2)
    quit_at: list[float] = []
    app.aboutToQuit.connect(lambda: quit_at.append(time.perf_counter()))
    run = bench_map.latency_and_memory(app, path, lines, args.rate, args.seconds)
    # The measured part only: the ``seconds`` before the run's event loop quit (the window's start comes before).
    since = quit_at[0] - args.seconds
    records = [r for r in app.records if since <= r[0] <= quit_at[0]]
    ticks = [t for t in ticks if since <= t <= quit_at[0]]
    gaps = sorted(((b - a, a, b) for a, b in zip(ticks, ticks[1:]) if b - a > 0.030), reverse=True)
    for gap, a, b in gaps[:args.gaps]:
        inside = sorted((r for r in records if r[1] > a and r[0] < b), key=lambda r: r[0] - r[1])
        print(f"gap {gap * 1000:.1f} ms: " + "; ".join(
            f"{name}/{kind} {1000 * (end - start):.1f} ms ({1000 * cpu:.1f} CPU)"
            for start, end, cpu, name, kind in inside[:5]), file=sys.stderr)
    wall, cpu, count = Counter(), Counter(), Counter()
    for start, end, c, name, kind in records:
        wall[f"{name}/{kind}"] += end - start
        cpu[f"{name}/{kind}"] += c
        count[f"{name}/{kind}"] += 1
    print("time per receiver/event type: wall s, CPU s, count", file=sys.stderr)
    for key, w in wall.most_common(15):
        print(f"  {w:.2f}  {cpu[key]:.2f}  {count[key]:5d}  {key}", file=sys.stderr)
    late = run["late"]
    kinds = {}
    for key, _w in wall.most_common(8):
        d = sorted(1000 * (e - s) for s, e, _c, n, k in records if f"{n}/{k}" == key)
        kinds[key] = {"n": len(d), "wall_p50_ms": round(d[len(d) // 2], 1),
                      "wall_p90_ms": round(d[int(len(d) * 0.9)], 1),
                      "wall_max_ms": round(d[-1], 1), "cpu_s": round(cpu[key], 2)}
    print(json.dumps({"benchmark": "gui-blocks", "rate": args.rate, "p50_ms": bench_map.pct(late, 0.5),
                      "p99_ms": bench_map.pct(late, 0.99), "kinds": kinds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
