"""Benchmark: the live map's repaint time, the GUI thread's latency under radio load, and memory.

    .venv/bin/python tests/bench/bench_map.py

1. repaint: a MapView over the demo field with 400 groups, 100 marshals, 50
   siege engines and 2,000 casualty markers; every frame all layers move and
   the widget is rendered (offscreen); time per frame, median and p95.
   Baseline in the same run: the same render with no markers at all (the
   background image alone).
2. latency: the real window on the real core with a gateway on a pty fed 200
   position frames a second; a 10 ms timer in the GUI thread records how late
   it fires (p50, p99).
3. memory: the process's resident memory after 30 simulated minutes of that
   game (the game clock runs 60 times real time, for 30 s).
Prints readable lines, then one JSON object as the last line.
Targets (issue 6): median repaint < 15 ms; GUI latency p99 < 50 ms; RSS < 500 MB.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_ingest import TRACKERS, FakeGateway, frames  # noqa: E402

from controlroom.core.radio_link import RadioBridge  # noqa: E402
from controlroom.core.thread import CoreThread  # noqa: E402
from controlroom.game.roster import Member  # noqa: E402
from controlroom.store.devices import register_device  # noqa: E402
from controlroom.store.game import GameStore  # noqa: E402
from controlroom.geo.frame import MapFrame  # noqa: E402
from controlroom.ui.app import build_window  # noqa: E402
from controlroom.ui.map.view import MapView  # noqa: E402

FIELD = Path(__file__).resolve().parents[2] / "resources" / "demo" / "field.png"
COUNTS = {"groups": 400, "marshals": 100, "siege": 50, "casualties": 2000}


def pct(values, p):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))], 2) if values else None


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def repaint(app, markers: bool, frames_n: int = 60) -> list[float]:
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=1000)
    view.resize(1400, 900)
    view.load_background(FIELD)
    view.show()
    view.fit_to_field()
    rng = random.Random(3)
    pts = {name: [(rng.uniform(-700, 600), rng.uniform(-450, 450)) for _ in range(n)] for name, n in COUNTS.items()}
    colours = ["#1f77b4", "#d62728", "#2ca02c"]
    times = []
    for i in range(frames_n):
        if markers:
            for name, p in pts.items():
                p[:] = [(x + rng.uniform(-2, 2), y + rng.uniform(-2, 2)) for x, y in p]
                view.set_layer(name, [x for x, _ in p], [y for _, y in p],
                               colours=[colours[j % 3] for j in range(len(p))])
            view.flush()
        t0 = time.perf_counter()
        view.grab()                  # renders the whole widget, scene and all
        times.append((time.perf_counter() - t0) * 1000)
    view.close()
    view.deleteLater()
    app.processEvents()
    return times[5:]


def latency_and_memory(app, seconds: float = 30.0, rate: float = 200.0) -> dict:
    tmp = Path(tempfile.mkdtemp())
    path = str(tmp / "map.crgame")
    with GameStore.open(path) as store:
        store.save_roster([Member(b, f"P{b}", ("North", "South")[b % 2], f"G{b % 40}") for b in range(1, 801)])
        keys = {d: register_device(store, d, "tracker", f"T{d}", group=f"G{d % 40}").key for d in range(1, TRACKERS + 1)}
    gw = FakeGateway()
    core = CoreThread(path, None, speed=60.0)
    radio = RadioBridge(core, [gw.path])
    window = build_window(core, MapFrame(58.38, 26.72), "bench")
    window.map.load_background(FIELD)
    window.show()
    loaded = threading.Event()
    core.loaded.connect(lambda _d: (radio.start(), loaded.set()))
    core.start()
    while not loaded.is_set():
        app.processEvents()
    gw.identified.wait(10)
    lines = frames(keys, int(seconds * rate) + 100)
    stop = threading.Event()

    def writer():
        t0 = time.perf_counter()
        for i, line in enumerate(lines):
            if stop.is_set():
                return
            wait = t0 + i / rate - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            gw.write(line)

    w = threading.Thread(target=writer, name="bench-map-writer")
    w.start()
    late: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = {"t": clock.nsecsElapsed()}

    def tick():
        now = clock.nsecsElapsed()
        late.append(max(0.0, (now - last["t"]) / 1e6 - 10.0))
        last["t"] = now

    probe = QTimer()
    probe.setInterval(10)
    probe.timeout.connect(tick)
    probe.start()
    QTimer.singleShot(int(seconds * 1000), app.quit)
    app.exec()
    probe.stop()
    stop.set()
    w.join()
    memory = rss_mb()
    game_minutes = core.worker.clock.now_ms() / 60_000 if core.worker.clock else 0
    radio.stop()
    core.shutdown()
    window.close()
    gw.close()
    return {"late": late[10:], "rss_mb": memory, "game_minutes": game_minutes}


def main() -> int:
    app = QApplication(sys.argv[:1])
    base = repaint(app, markers=False)
    full = repaint(app, markers=True)
    print(f"repaint, {sum(COUNTS.values())} markers: median {statistics.median(full):.1f} ms, p95 {pct(full, 0.95)} ms; "
          f"background alone: median {statistics.median(base):.1f} ms", file=sys.stderr)
    run = latency_and_memory(app)
    late = run["late"]
    print(f"GUI thread latency at 200 frames/s: p50 {pct(late, 0.5)} ms, p99 {pct(late, 0.99)} ms; "
          f"memory after {run['game_minutes']:.0f} game minutes: {run['rss_mb']:.0f} MB", file=sys.stderr)
    result = {
        "benchmark": "map", "markers": COUNTS,
        "repaint_median_ms": round(statistics.median(full), 2), "repaint_p95_ms": pct(full, 0.95),
        "baseline_background_only_median_ms": round(statistics.median(base), 2),
        "gui_latency_p50_ms": pct(late, 0.5), "gui_latency_p99_ms": pct(late, 0.99),
        "rss_mb": round(run["rss_mb"], 1), "game_minutes": round(run["game_minutes"], 1),
        "targets": {"repaint_median_ms_max": 15, "repaint_ok": statistics.median(full) < 15,
                    "gui_latency_p99_ms_max": 50, "latency_ok": (pct(late, 0.99) or 1e9) < 50,
                    "rss_mb_max": 500, "memory_ok": run["rss_mb"] < 500},
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
