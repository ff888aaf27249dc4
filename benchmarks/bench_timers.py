"""Benchmark: the core worker firing 10,000 rule deadlines while 200 reports a second arrive.

    .venv/bin/python -m benchmarks.bench_timers [--deadlines 10000] [--rate 200]

Phases, on the real clock, against a real game file:
1. idle: 10,000 characters are bleeding out (deadlines pending, the first due
   20 s later) and nothing arrives: the process's CPU use is measured for 10 s;
2. load: the deadlines fall due, about 333 a second, while 200 reports a
   second arrive (strikes, stored durably); each fired deadline's lateness is
   the real time between its due time and its firing.
The baseline, measured in the same run, is a bare Qt precise timer in its own
thread doing nothing else, at the same due times: the floor a core can reach.
Prints readable lines, then one JSON object as the last line.
Targets (issue 4): p99 lateness < 20 ms; idle CPU < 1 % of a core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from functools import partial

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, QTimer, Signal, Slot

from benchmarks.figures import below
from benchmarks.figures import pct as pct_of
from controlroom.core.thread import CoreThread
from controlroom.game.clock import WallClock
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.game import GameStore

pct = partial(pct_of, digits=3)

DYING_MS = 600_000


class BareTimers(QObject):
    """The baseline: precise single-shot timers at given due times, in a thread doing nothing else."""

    done = Signal(object)

    def __init__(self, offsets_ms):
        super().__init__()
        self.offsets = sorted(offsets_ms)
        self.late = []

    @Slot()
    def run(self):
        self.t0 = time.monotonic()
        self.i = 0
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._fire)
        self._arm()

    def _arm(self):
        if self.i >= len(self.offsets):
            self.done.emit(self.late)
            return
        wait = self.t0 * 1000 + self.offsets[self.i] - time.monotonic() * 1000
        self.timer.start(int(max(0, wait + 0.999)))

    def _fire(self):
        now = time.monotonic() * 1000 - self.t0 * 1000
        while self.i < len(self.offsets) and self.offsets[self.i] <= now:
            self.late.append(now - self.offsets[self.i])
            self.i += 1
        self._arm()


def baseline(app, offsets_ms):
    thread = QThread()
    bare = BareTimers(offsets_ms)
    bare.moveToThread(thread)
    result = {}
    bare.done.connect(lambda late: (result.setdefault("late", late), app.quit()), Qt.ConnectionType.QueuedConnection)
    thread.started.connect(bare.run)
    thread.start()
    app.exec()
    thread.quit()
    thread.wait()
    return result["late"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deadlines", type=int, default=10_000)
    ap.add_argument("--rate", type=int, default=200, help="reports per second during the load phase")
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of the idle measurement")
    ap.add_argument("--spread", type=float, default=30.0, help="seconds over which the deadlines fall due")
    args = ap.parse_args()
    app = QCoreApplication(sys.argv[:1])
    rng = random.Random(11)

    lead_ms = int((args.idle + 8) * 1000)        # the first deadline falls due after the idle phase
    offsets = sorted(lead_ms + rng.random() * args.spread * 1000 for _ in range(args.deadlines))
    base = baseline(app, [500 + rng.random() * 6000 for _ in range(2000)])

    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "timers.crgame")
    extra = 2000                                     # characters the reports are about
    members = [Member(b, f"P{b}", "North" if b % 2 else "South", f"G{b % 50}")
               for b in range(1, args.deadlines + extra + 1)]
    start_t = DYING_MS + 60_000
    with GameStore.open(path) as store:
        store.save_roster(members)
        downs = [make_event(start_t - DYING_MS + int(o), "down", "marshal:1", badge=i + 1)
                 for i, o in enumerate(offsets)]
        downs.sort(key=lambda e: e.t)
        for i in range(0, len(downs), 5000):
            store.log.append(downs[i:i + 5000])

    clock = WallClock(start_ms=start_t)
    core = CoreThread(path, clock)
    loaded = {}
    core.loaded.connect(lambda d: (loaded.setdefault("t", time.monotonic()), app.quit()))
    core.start()
    app.exec()
    pending = len(core.worker.fold.schedule)        # read once, while the core waits for its first deadline

    # Phase 1: idle.
    QTimer.singleShot(1000, app.quit)
    app.exec()
    cpu0, wall0 = time.process_time(), time.monotonic()
    QTimer.singleShot(int(args.idle * 1000), app.quit)
    app.exec()
    idle_cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0) * 100

    # Phase 2: the deadlines fall due while reports arrive.
    sent = {"n": 0}
    targets = list(range(args.deadlines + 1, args.deadlines + extra + 1))
    feeder = QTimer()
    feeder.setTimerType(Qt.TimerType.PreciseTimer)
    every = 1000 / args.rate
    t_feed = time.monotonic()

    def feed():
        due = int((time.monotonic() - t_feed) * args.rate) - sent["n"]
        for _ in range(max(0, due)):
            core.submit("strike", {"badge": rng.choice(targets)}, "marshal:2")
            sent["n"] += 1

    feeder.timeout.connect(feed)
    feeder.start(max(1, int(every)))
    end = lead_ms - (time.monotonic() - loaded["t"]) * 1000 + args.spread * 1000 + 3000
    QTimer.singleShot(int(max(1000, end)), app.quit)
    app.exec()
    feeder.stop()
    load_s = time.monotonic() - t_feed
    core.shutdown()
    health = core.stats["health"]                    # the core's own counters, reported as it stopped
    late = list(core.worker.engine.batcher.lateness_ms)
    with GameStore.open(path, create=False) as store:
        stored = store.log.count()
        died = sum(1 for _, e in store.log.events() if e.type == "died")

    result = {
        "benchmark": "timers",
        "deadlines_pending_at_start": pending,
        "deadlines_fired": health["fired"],
        "died_events_stored": died,
        "reports_sent": sent["n"],
        "reports_per_s": round(sent["n"] / load_s, 1),
        "events_stored": stored,
        "late_p50_ms": pct(late, 0.5),
        "late_p99_ms": pct(late, 0.99),
        "late_max_ms": pct(late, 1.0),
        "baseline_bare_qtimer_p50_ms": pct(base, 0.5),
        "baseline_bare_qtimer_p99_ms": pct(base, 0.99),
        "idle_cpu_percent": round(idle_cpu, 3),
        "targets": {"late_p99_ms_max": 20, "late_ok": below(pct(late, 0.99), 20),
                    "idle_cpu_percent_max": 1.0, "idle_ok": idle_cpu < 1.0},
    }
    print(f"{pending} deadlines pending; idle CPU {idle_cpu:.3f} % of a core", file=sys.stderr)
    print(f"fired {health['fired']} deadlines while {sent['n']} reports arrived ({result['reports_per_s']}/s): "
          f"lateness p50 {result['late_p50_ms']} ms, p99 {result['late_p99_ms']} ms, max {result['late_max_ms']} ms",
          file=sys.stderr)
    print(f"baseline, a bare precise QTimer: p50 {result['baseline_bare_qtimer_p50_ms']} ms, "
          f"p99 {result['baseline_bare_qtimer_p99_ms']} ms", file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
