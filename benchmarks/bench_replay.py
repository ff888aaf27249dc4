"""Benchmark: seeking in a stored 200,000-event game (issue 19), against folding from the start.

    .venv/bin/python -m benchmarks.bench_replay [--events 200000] [--seeks 300] [--every 2000]

The game is bench_eventlog's battle (8,000 players), stored in a game file and
opened read-only.  The seeker loads it once (folding it once, keeping a
snapshot every ``--every`` events), then answers "the state at T" for random
moments T; the baseline, measured in the same run, folds from the start for a
few of the same moments (what ``controlroom replay --until T`` does).

Prints a few readable lines, then one JSON object as the last line.
Target: a seek anywhere in the game < 100 ms at p99.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from controlroom.game.scheduler import Schedule, fire_due
from controlroom.game.seek import Seeker
from controlroom.game.state import GameState
from controlroom.store.game import GameStore
from tests.support.played_game import played_game, roster


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def fold_from_start(members, profile, events, t: int) -> GameState:
    """The baseline: a new state, every event up to T folded, the timers run on to T (replay_log's way)."""
    state = GameState(members, profile)
    apply = state.apply
    for e in events:
        if e.t > t:
            break
        apply(e)
    schedule = Schedule()
    schedule.rebuild(state)
    fire_due(state, schedule, t)
    state.t = max(state.t, t)
    return state


def measure_window(seeker, moments: list[int]) -> dict:
    """The replay window on the same game: the worker's time per moment (the fold and the views of 8,000
    characters) and the window's own (the map and the panels), which is all the GUI thread does."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from controlroom.store.replay import ReplayGame
    from controlroom.ui.app import application
    from controlroom.ui.replay.window import ReplayWindow

    app = application()
    game = ReplayGame(seeker, seeker.name, "the benchmark's game")
    window = ReplayWindow(lambda: game, "bench", freeze_loaded=True)     # as `controlroom --replay` runs it
    window.show()
    shown: list = []
    window.moment_shown.connect(shown.append)
    deadline = time.monotonic() + 120
    while not shown and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.005)
    window.apply_ms.clear()
    worker_ms = []
    for t in moments:
        shown.clear()
        window.seek(t)
        while not shown and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.001)
        worker_ms.append(window.moment.seek_ms + window.moment.build_ms)
    window.close()
    gui = window.apply_ms
    out = {"moments": len(gui), "worker_ms_p50": round(percentile(worker_ms, 50), 1),
           "worker_ms_max": round(max(worker_ms), 1), "gui_thread_ms_p50": round(percentile(gui, 50), 1),
           "gui_thread_ms_max": round(max(gui), 1)}
    print(f"window: per moment {out['worker_ms_p50']} ms in the worker's thread (max {out['worker_ms_max']}), "
          f"{out['gui_thread_ms_p50']} ms in the window's (max {out['gui_thread_ms_max']})", file=sys.stderr)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=8000)
    ap.add_argument("--seeks", type=int, default=300, help="random moments sought")
    ap.add_argument("--baseline", type=int, default=5, help="moments folded from the start (the baseline)")
    ap.add_argument("--every", type=int, default=2000, help="events between checkpoints")
    ap.add_argument("--window", type=int, default=20, help="moments shown in the replay window (0: none)")
    args = ap.parse_args()

    members = roster(args.players)
    t0 = time.perf_counter()
    log = played_game(members, args.events)
    print(f"generated {len(log)} events for {len(members)} players in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    result: dict = {"benchmark": "replay", "events": len(log), "players": len(members), "every": args.every}
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "battle.crgame"
        with GameStore.open(game) as store:
            store.save_roster(members)
            for i in range(0, len(log), 5000):
                store.log.append(log[i:i + 5000])
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        with GameStore.open(game, create=False, read_only=True) as store:
            profile = store.profile()
            seeker = Seeker(GameState(store.roster(), profile), store.log.rows(), store.retracted(),
                            every=args.every, name=store.name)
        load_s = time.perf_counter() - t0
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"loaded and folded once with {len(seeker.checkpoints)} checkpoints in {load_s:.2f} s "
              f"(peak memory +{(rss1 - rss0) / 1024:.0f} MB)", file=sys.stderr)

        rng = random.Random(19)
        lo, hi = seeker.start, seeker.end
        moments = [rng.randint(lo, hi) for _ in range(args.seeks)]
        seek_ms = []
        for t in moments:
            s0 = time.perf_counter()
            seeker.state_at(t)
            seek_ms.append((time.perf_counter() - s0) * 1000)
        events = seeker.events
        base_ms = []
        for t in moments[: args.baseline]:
            s0 = time.perf_counter()
            state = fold_from_start(members, profile, events, t)
            base_ms.append((time.perf_counter() - s0) * 1000)
            mine = seeker.state_at(t)
            if (state.events_applied, state.t, len(state.deaths)) != (mine.events_applied, mine.t, len(mine.deaths)):
                raise SystemExit(f"the seeker and the fold from the start differ at t={t}")
        if args.window:         # last: the window's objects would make the collector slower for the rest
            result["window"] = measure_window(seeker, moments[: args.window])
    p50, p99, worst = percentile(seek_ms, 50), percentile(seek_ms, 99), max(seek_ms)
    b50 = percentile(base_ms, 50)
    print(f"seek: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms over {len(seek_ms)} moments; "
          f"folding from the start: median {b50:.0f} ms ({b50 / p50:.0f}x slower)", file=sys.stderr)
    result.update({
        "load_s": round(load_s, 2), "checkpoints": len(seeker.checkpoints),
        "peak_memory_added_mb": round((rss1 - rss0) / 1024),
        "seeks": len(seek_ms), "seek_p50_ms": round(p50, 1), "seek_p99_ms": round(p99, 1),
        "seek_max_ms": round(worst, 1),
        "baseline_fold_from_start_median_ms": round(b50, 1), "baseline_runs": len(base_ms),
        "speedup_median": round(b50 / p50, 1),
        "targets": {"seek_p99_ms_max": 100, "seek_ok": p99 < 100},
    })
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
