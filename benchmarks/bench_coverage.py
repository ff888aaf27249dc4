"""What the radio coverage layer costs per frame: the engine's fold and the window's sums, beside the bare ingest.

    .venv/bin/python -m benchmarks.bench_coverage [--frames 40000] [--devices 200]

In one run, on the same frames (trackers' positions and heartbeats, each heard
by two gateways, every tenth a marshal's report heard again 5 s later: a
retry):

- baseline: ``Ingest.receive`` of every copy (authenticate, de-duplicate,
  merge the gateways' signals), per frame;
- ``coverage_note_us``: the engine's coverage fold of the stored events
  (``engine.coverage.LiveCoverage.note``, batches of 50 as the storage
  commits them), per frame: what the issue bounds at 50 us;
- ``cells_add_us``: the window's sums of the rows each delta brings
  (``Cells.add``, a delta every 20 frames: 200 frames a second, 10 deltas a
  second), per frame;
- ``draw_ms``: what one drawing of the layer computes before Qt (the view, the
  raster, the colours) for the whole field, once a second at most.

No Qt, no disk: the core thread's and the GUI thread's Python only.  The last
line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

from controlroom.engine.coverage import LiveCoverage
from controlroom.engine.output import Output
from controlroom.game.devices import DeviceInfo
from controlroom.game.events import Event
from controlroom.geo.coverage import CoverageRows
from controlroom.geo.coverage_cells import Cells, margin_rgba
from controlroom.radio import codec
from controlroom.radio.ingest import ACCEPTED, Ingest
from controlroom.store.eventlog import StoredEvent


def make_frames(devices: dict[int, DeviceInfo], count: int, seed: int = 1) -> list[tuple[int, bytes]]:
    """(game ms, frame) in time order: 200 frames a second, positions walking over a 1.5 x 1 km field."""
    rng = random.Random(seed)
    ids = sorted(devices)
    where = {d: [rng.uniform(-700, 700), rng.uniform(-450, 450)] for d in ids}
    counter = dict.fromkeys(ids, 1000)
    out = []
    for i in range(count):
        dev = ids[i % len(ids)]
        x, y = where[dev]
        where[dev] = [x + rng.uniform(-8, 8), y + rng.uniform(-8, 8)]
        counter[dev] += 1 + (rng.random() < 0.02)            # now and then a frame never heard: a gap
        key, n = devices[dev].key, counter[dev]
        if devices[dev].role == "marshal" and i % 10 == 0:
            frame = codec.encode_casualty(key, dev, n, 1 + i % 50, "down")
        elif i % 5 == 0:
            frame = codec.encode_heartbeat(key, dev, n, 80, 12)
        else:
            lat, lon = 58.38 + y / 111_320, 26.72 + x / 58_440
            frame = codec.encode_position(key, dev, n, int(lat * 1e7), int(lon * 1e7), 80, 1, 9)
        out.append((i * 5, frame))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40_000)
    parser.add_argument("--devices", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(7)
    devices = {}
    for i in range(args.devices):
        role = "marshal" if i % 4 == 0 else "tracker"
        devices[1001 + i] = DeviceInfo(1001 + i, role, key=rng.randbytes(codec.KEY_LEN))
    frames = make_frames(devices, args.frames)

    # The baseline: the bare ingest of every copy (two gateways), and the retries' copies 5 s later.
    ingest = Ingest(devices)
    accepted = []
    t0 = time.perf_counter()
    for t, frame in frames:
        got = ingest.receive(frame, 1, -95.0, 3.25, t)
        ingest.receive(frame, 2, -108.0, -6.5, t)
        if got.verdict == ACCEPTED:
            accepted.append((t, got))
    ingest_s = time.perf_counter() - t0
    retries = [(t, frame) for t, frame in frames if codec.decode_frame(frame).code == codec.CASUALTY]
    t0 = time.perf_counter()
    retried = [ingest.receive(frame, 1, -95.0, 3.25, t + 5_000) for t, frame in retries]
    retry_s = time.perf_counter() - t0

    # What the engine folds: the stored events, each with its merged signals; and the retries found.
    stored = []
    for seq, (t, got) in enumerate(accepted, start=1):
        type_, fields, source = got.event
        stored.append(StoredEvent(seq, Event(t, type_, fields, source), 0, ingest.best(got.radio)))
    for (t, _frame), got in zip(retries, retried):
        if got.retry:
            dev = devices[got.device]
            stored.append(StoredEvent(len(stored) + 1, Event(t + 5_000, "radio_retried", {
                "device": got.device, "counter": got.counter, "tries": got.retry}, dev.source), 0, None))
    stored.sort(key=lambda s: s.event.t)
    live = LiveCoverage(devices=devices)
    out = Output()
    batches = [stored[i:i + 50] for i in range(0, len(stored), 50)]
    per_batch = []
    rows = []
    t0 = time.perf_counter()
    for batch in batches:
        b0 = time.perf_counter()
        live.note(batch, out)
        per_batch.append((time.perf_counter() - b0) / len(batch))
        taken = live.take()                         # (the engine takes them at each delta; here, each batch)
        if taken is not None:
            rows.append(taken)
    note_s = time.perf_counter() - t0

    # The window: the rows of a delta every 20 frames, summed; then one drawing's arithmetic.
    deltas = []
    for r in rows:                                  # batches of 50 frames -> deltas of about 20
        n = len(r)
        for i in range(0, n, max(1, n * 20 // 50)):
            deltas.append(CoverageRows(r.rows[i:i + max(1, n * 20 // 50)], r.gateways, r.anchor))
    cells = Cells()
    t0 = time.perf_counter()
    for d in deltas:
        cells.add(d)
    add_s = time.perf_counter() - t0
    draws = []
    for _ in range(5):
        d0 = time.perf_counter()
        view = cells.view(9)
        margin, _gt = cells.raster(view)
        margin_rgba(margin)
        draws.append((time.perf_counter() - d0) * 1000)
    n = len(accepted)
    result = {
        "bench": "coverage", "frames": n, "copies": 2 * len(frames), "devices": args.devices,
        "cells": len(cells), "rows": int(cells.rows), "retries_recorded": sum(1 for g in retried if g.retry),
        "ingest_receive_us": round(ingest_s / max(1, n) * 1e6, 2),          # the baseline: both copies of a frame
        "retry_copy_us": round(retry_s / max(1, len(retries)) * 1e6, 2),
        "coverage_note_us": round(note_s / max(1, len(stored)) * 1e6, 2),    # the layer's cost in the engine
        "coverage_note_p99_batch_us": round(sorted(per_batch)[int(0.99 * (len(per_batch) - 1))] * 1e6, 2),
        "cells_add_us": round(add_s / max(1, n) * 1e6, 2),                  # the window's sums, per frame
        "draw_ms": round(statistics.median(draws), 2),
        "python": sys.version.split()[0], "cpus": os.cpu_count(),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
