"""Benchmark: the window while the core works in the background: an opening's completion, a fold snapshot kept.

    .venv/bin/python -m benchmarks.bench_background [--events 200000] [--rounds 2]   # about 2 minutes

bench_eventlog's battle of 8,000 players (200,000 events) is stored, then
opened as stored in the real window (1366x768) on the real core, as
bench_map opens it.  A 5 ms timer in the GUI thread notes when it fires
(its gaps: how long the window could not run), while the map's and the
events' views are repainted every 30 ms as a live game repaints them.  After
the first painted map the core completes its fold (the tail's checkpoints:
``Fold.complete``), and 4 s after it keeps the game's fold snapshot with the
game (``FoldSaver``; a station does so 10 s after opening and every 5
minutes).  Both are Python work in threads of their own, which share the GIL
with the window: each of the window's many calls into Python during a paint
waits for it.

Each round opens the game twice: once as the program runs (background work
rests now and then: controlroom/pacing.py) and once with the rests off, the
baseline, in the same run.  The gaps are read in four stretches after the
first painted map: 0-2 s (the completion), 2-3.9 s (quiet), 3.9-9 s (the fold
snapshot kept), 9-19 s (quiet again).

Prints readable lines, then one JSON object as the last line.
Target (issue 17): no blocked frame longer than 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

import controlroom.core.fold_saver as fold_saver
from benchmarks.figures import below, pct
from controlroom import pacing
from controlroom.core.wiring import Station
from controlroom.geo.frame import MapFrame
from controlroom.ui.app import build_window
from tests.support.played_game import store_played_game

STRETCHES = (("completion", 0.0, 2.0), ("quiet", 2.0, 3.9), ("fold_kept", 3.9, 9.0), ("quiet_after", 9.0, 19.0))
SAVE_AFTER_MS = 4000
RUN_S = 20.0


def open_and_watch(app: QApplication, stored: str, work: str, rests: bool) -> dict:
    """Open a copy of the stored game in the window; the heartbeat's gaps in each stretch (ms)."""
    path = shutil.copy(stored, work)
    station = Station(path, [], None)
    core = station.core
    window = build_window(core, MapFrame(58.38, 26.72), "background")   # (shares the interpreter: rests on)
    if not rests:
        pacing.stop_sharing()
    window.resize(1366, 768)
    beats: list[float] = []
    loaded: list[float] = []
    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))

    def on_loaded(_delta) -> None:
        loaded.append(time.perf_counter())
        heartbeat.start()

    def repaint() -> None:
        window.map.viewport().update()
        window.panels.panels["timeline"].view.viewport().update()

    core.loaded.connect(on_loaded)
    painter = QTimer()
    painter.setInterval(30)
    painter.timeout.connect(repaint)
    painter.start()
    window.show()
    station.start()
    end = QTimer()
    end.setSingleShot(True)
    end.timeout.connect(app.quit)
    end.start(int(RUN_S * 1000) + 3000)
    app.exec()
    end.stop()
    heartbeat.stop()
    painter.stop()
    station.shutdown()
    window.close()
    app.processEvents()
    pacing.share_with_this_thread()
    os.remove(path)
    out: dict = {}
    t0 = loaded[0] if loaded else float("nan")
    for name, a, b in STRETCHES:
        gaps = [(y - x) * 1000 for x, y in zip(beats, beats[1:]) if a <= x - t0 < b]
        out[name] = {"max_ms": pct(gaps, 1.0), "p99_ms": pct(gaps, 0.99), "over_30_ms": sum(g > 30 for g in gaps),
                     "beats": len(gaps)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    fold_saver.FOLD_SAVE_DELAY_MS = SAVE_AFTER_MS           # the first fold snapshot kept 4 s after opening
    app = QApplication(sys.argv[:1])
    tmp = Path(tempfile.mkdtemp())
    stored = str(tmp / "stored.crgame")
    t = time.perf_counter()
    store_played_game(stored, args.events)
    print(f"the game: {args.events:,} events of 8,000 players stored in {time.perf_counter() - t:.0f} s",
          file=sys.stderr)
    runs: dict[str, list[dict]] = {"rests": [], "baseline_no_rests": []}
    for r in range(args.rounds):
        for rests in ((True, False) if r % 2 == 0 else (False, True)):
            key = "rests" if rests else "baseline_no_rests"
            result = open_and_watch(app, stored, str(tmp / "open.crgame"), rests)
            runs[key].append(result)
            print(f"round {r + 1}, {'with rests' if rests else 'rests off (baseline)'}: " + "; ".join(
                f"{name} max {v['max_ms']} ms, p99 {v['p99_ms']} ms, {v['over_30_ms']} over 30 ms"
                for name, v in result.items()), file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    def worst_of(rs: list[dict], name: str) -> float | None:
        maxima = [run[name]["max_ms"] for run in rs]
        return None if None in maxima else max(maxima)        # a stretch with no beat measured nothing

    worst = {key: {name: worst_of(rs, name) for name, _a, _b in STRETCHES} for key, rs in runs.items() if rs}
    print(json.dumps({"benchmark": "background", "events": args.events, "rounds": args.rounds,
                      "stretches_s": {name: [a, b] for name, a, b in STRETCHES}, "runs": runs, "worst_max_ms": worst,
                      "targets": {"blocked_max_ms": 50,
                                  "ok": all(below(v, 50) for v in worst.get("rests", {}).values())}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
