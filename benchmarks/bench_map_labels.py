"""Benchmark: the cost of the group labels (name and counts, placed so that none covers another) per repaint.

    .venv/bin/python -m benchmarks.bench_map_labels

A MapView over the demo field with 100 group markers moving every frame,
rendered offscreen: time per frame with every group labelled (labels set and
placed again each frame, as each delta does), against the same frames with
no labels, measured in the same run.  Prints readable lines, then one JSON
object as the last line.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from controlroom.geo.frame import MapFrame
from controlroom.ui.map.view import MapView

FIELD = Path(__file__).resolve().parents[1] / "resources" / "demo" / "field.png"
GROUPS = 100


def frames(app, labels: bool, n: int = 60) -> tuple[list[float], int]:
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=1000)
    view.resize(1400, 900)
    view.load_background(FIELD)
    view.show()
    view.fit_to_field()
    rng = random.Random(5)
    pts = [(rng.uniform(-700, 600), rng.uniform(-450, 450)) for _ in range(GROUPS)]
    times, shown = [], 0
    for _ in range(n):
        pts = [(x + rng.uniform(-2, 2), y + rng.uniform(-2, 2)) for x, y in pts]
        t0 = time.perf_counter()
        view.set_layer("groups", [x for x, _ in pts], [y for _, y in pts], colours="#1f77b4")
        if labels:
            view.set_labels([(x, y, f"Group {i} {20 - i % 7}\u2191 {i % 5}\u2193 {i % 3}\u2020")
                             for i, (x, y) in enumerate(pts)])
        view.flush()
        view.grab()
        times.append((time.perf_counter() - t0) * 1000)
        shown = len(view.shown_labels())
    view.close()
    view.deleteLater()
    app.processEvents()
    return times[5:], shown


def main() -> int:
    app = QApplication(sys.argv[:1])
    base, _ = frames(app, labels=False)
    full, shown = frames(app, labels=True)
    med, base_med = statistics.median(full), statistics.median(base)
    p95 = sorted(full)[int(0.95 * len(full))]
    print(f"{GROUPS} groups, {shown} labels shown: median {med:.1f} ms, p95 {p95:.1f} ms per frame; "
          f"without labels: median {base_med:.1f} ms", file=sys.stderr)
    print(json.dumps({"benchmark": "map_labels", "groups": GROUPS, "labels_shown": shown,
                      "frame_median_ms": round(med, 2), "frame_p95_ms": round(p95, 2),
                      "baseline_no_labels_median_ms": round(base_med, 2),
                      "labels_cost_median_ms": round(med - base_med, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
