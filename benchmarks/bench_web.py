"""Benchmark: the web view under load: 50 phones on the stream while a gateway sends 200 frames/s, 8,000 players.

    .venv/bin/python -m benchmarks.bench_web [--seconds 30] [--phones 50]

The real window (1366x768) on the real core, on bench_map's game of 8,000
players in 400 groups (a tracker each), 100 marshals and 2,000 casualties; a
gateway on a pty, played by a process of its own, sends positions and one
marshal report in twenty at 200 frames a second; the game clock runs 60 times
real time (30 s: 30 game minutes).  Three runs, each on a fresh copy of the game:

1. baseline: the window alone (no web view): the GUI thread's latency (a 10 ms
   timer, how late it fires), the window's own delta latency (the core's
   ``delta_published`` to the window's slot), the station's CPU share, memory.
2. web: the same with ``--web`` and 50 phones on ``/stream`` (server-sent
   events), played by a process of its own with aiohttp's client (phones are
   devices of their own).  Update latency: from a delta reaching the window to
   the first view a phone receives that includes it (p50, p99 over every delta
   and phone); the station's CPU share; GUI latency; memory growth over the
   30 game minutes.
3. wrong tokens: as 2, while the phones' process also sends 1,000 requests
   with wrong tokens: the GUI latency.

Both processes read one monotonic clock (``time.perf_counter``).  Prints
readable lines, then one JSON object as the last line.  Targets (issue 38):
update latency p99 < 1 s; GUI latency p99 < 50 ms (each run); memory growth
< 50 MB over 30 game minutes.
"""

from __future__ import annotations

import bisect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

RATE = 200.0
SPEED = 60.0


# -- the phones (a process of their own) -------------------------------------------------------------------
def phones_main(url: str, tokens_file: str, out_file: str, seconds: float, wrong: int) -> int:
    """50 phones reading /stream; each view's delta time and when it came; then ``wrong`` requests with bad tokens."""
    import asyncio

    import aiohttp

    tokens = json.loads(Path(tokens_file).read_text())
    seen: list[list] = []           # (phone, delta_t, perf_counter)
    sizes: list[int] = []
    refused = {"n": 0, "other": 0}

    async def phone(i: int, token: str, until: float) -> None:
        jar = aiohttp.CookieJar(unsafe=True)
        jar.update_cookies({"cr_token": token}, aiohttp.client.URL(url))
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            async with session.get(f"{url}/stream", timeout=aiohttp.ClientTimeout(total=None)) as response:
                event = None
                while time.perf_counter() < until:
                    try:
                        left = max(0.1, until - time.perf_counter())
                        line = await asyncio.wait_for(response.content.readline(), left)
                    except TimeoutError:
                        break
                    if not line:
                        break
                    if line.startswith(b"event: "):
                        event = line[7:].strip()
                    elif line.startswith(b"data: ") and event == b"view":
                        now = time.perf_counter()
                        view = json.loads(line[6:])
                        seen.append([i, view["delta_t"], now])
                        sizes.append(len(line))

    async def wrong_tokens() -> None:
        await asyncio.sleep(seconds / 3)
        async with aiohttp.ClientSession() as session:
            for n in range(wrong):
                async with session.get(f"{url}/state", headers={"Cookie": f"cr_token=wrong-{n}"}) as r:
                    await r.read()
                    refused["n" if r.status == 401 else "other"] += 1

    async def run() -> None:
        until = time.perf_counter() + seconds
        jobs = [phone(i, tokens[i % len(tokens)], until) for i in range(len(tokens))]
        if wrong:
            jobs.append(wrong_tokens())
        await asyncio.gather(*jobs)

    asyncio.run(run())
    Path(out_file).write_text(json.dumps({"seen": seen, "sizes": sizes, "refused": refused}))
    return 0


# -- the station with its window (this process) ---------------------------------------------------------------
def run_window(app, path: str, lines: list[str], seconds: float, phones: int, wrong: int) -> dict:
    from PySide6.QtCore import Qt

    from benchmarks.bench_ingest import FakeGateway
    from benchmarks.bench_map import FIELD, rss_mb
    from benchmarks.gui_late import LateProbe
    from controlroom.core.web_feed import serve_web
    from controlroom.core.wiring import Station
    from controlroom.geo.frame import MapFrame
    from controlroom.store.game import GameStore
    from controlroom.ui.app import build_window
    from controlroom.web.invites import make_invite
    from controlroom.web.station import WebOptions

    tokens = []
    if phones:
        with GameStore.open(path) as store:
            roles = ("viewer", "safety", "marshal", "valhalla")
            tokens = [make_invite(store, f"phone {i}", roles[i % 4]).token for i in range(phones)]
    gateway = FakeGateway()
    station = Station(path, [gateway.path], None, speed=SPEED)
    window = build_window(station.core, MapFrame(58.38, 26.72), "bench-web")
    window.map.load_background(FIELD)
    window.resize(1366, 768)
    window.show()
    emitted: dict[int, float] = {}          # delta t -> when the core published it (its thread)
    reached: list[tuple[int, float]] = []   # (delta t, when the window's thread got it)
    station.core.worker.delta_published.connect(lambda d: emitted.setdefault(d.t, time.perf_counter()),
                                                Qt.ConnectionType.DirectConnection)
    station.core.delta_published.connect(lambda d: reached.append((d.t, time.perf_counter())))
    server = None
    if phones:
        server, _feed = serve_web(station, WebOptions("127.0.0.1:0"))
    loaded = threading.Event()
    station.core.loaded.connect(lambda _d: loaded.set())
    station.start()
    while not loaded.is_set() or not gateway.identified.is_set():
        app.processEvents()
    lines_file = Path(path).with_suffix(".lines")
    lines_file.write_text("\n".join(lines) + "\n", encoding="ascii")
    phone_proc = out_file = None
    if phones:
        tokens_file, out_file = Path(path).with_suffix(".tokens"), Path(path).with_suffix(".phones.json")
        tokens_file.write_text(json.dumps(tokens))
        phone_proc = subprocess.Popen([sys.executable, "-m", "benchmarks.bench_web", "--phones-of",
                                       f"http://127.0.0.1:{server.port}", str(tokens_file), str(out_file),
                                       str(seconds), str(wrong)], cwd=Path(__file__).resolve().parents[1])
    gateway.send(str(lines_file), RATE, expect_acks=-1)
    probe = LateProbe(app, seconds)
    for _ in range(20):
        app.processEvents()
    rss_start = rss_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    app.exec()
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    probe.stop()
    rss_end = rss_mb()
    game_minutes = station.core.game_time() / 60_000
    phones_out = None
    if phone_proc is not None:
        phone_proc.wait(seconds + 120)
        phones_out = json.loads(out_file.read_text())
    if server is not None:
        server.stop()
    gateway.finish()
    station.shutdown()
    gateway.close()
    window.close()
    app.processEvents()
    window_ms = [(when - emitted[t]) * 1000 for t, when in reached if t in emitted]
    out = {"late": probe.late[10:], "window_delta_ms": window_ms, "cpu_share": round(cpu / wall, 3),
           "rss_growth_mb": round(rss_end - rss_start, 1), "rss_mb": round(rss_end, 1),
           "game_minutes": round(game_minutes, 1)}
    if phones_out is not None:
        out.update(update_latency(reached, phones_out["seen"]))
        out["view_bytes_p50"] = sorted(phones_out["sizes"])[len(phones_out["sizes"]) // 2] if phones_out["sizes"] else 0
        out["refused"] = phones_out["refused"]
        out["dropped_views"] = 0 if server is None else sum(c.dropped for c in server.hub.clients)
    return out


def update_latency(reached: list[tuple[int, float]], seen: list[list]) -> dict:
    """Per delta that reached the window and per phone: when the first view including it came (ms)."""
    by_phone: dict[int, list[tuple[int, float]]] = {}
    for phone, delta_t, when in seen:
        by_phone.setdefault(phone, []).append((delta_t, when))
    lat: list[float] = []
    missed = 0
    for views in by_phone.values():
        views.sort(key=lambda v: v[1])
        # the highest delta time seen so far, at each arrival: a view includes every delta up to its delta_t
        running, times = [], []
        top = -1
        for delta_t, when in views:
            top = max(top, delta_t)
            running.append(top)
            times.append(when)
        for t, reached_at in reached:
            if reached_at < times[0]:
                continue                 # before this phone was on the stream: not an update it waited for
            i = bisect.bisect_left(times, reached_at)
            while i < len(times) and running[i] < t:
                i += 1
            if i < len(times):
                lat.append((times[i] - reached_at) * 1000)
            else:
                missed += 1              # the run ended before a view with it came
    from benchmarks.figures import pct

    return {"update_ms": lat, "update_p50_ms": pct(lat, 0.5), "update_p99_ms": pct(lat, 0.99),
            "update_missed_at_end": missed, "phones_heard": len(by_phone)}


def main() -> int:
    import argparse

    if len(sys.argv) > 1 and sys.argv[1] == "--phones-of":
        url, tokens_file, out_file, seconds, wrong = sys.argv[2:7]
        return phones_main(url, tokens_file, out_file, float(seconds), int(wrong))
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=30.0, help="each run's length (30 s: 30 game minutes)")
    ap.add_argument("--phones", type=int, default=50)
    ap.add_argument("--wrong", type=int, default=1000, help="requests with wrong tokens in the third run")
    args = ap.parse_args()
    from PySide6.QtWidgets import QApplication

    from benchmarks.bench_map import make_game, radio_lines
    from benchmarks.figures import below, pct
    from controlroom.ui.app import share_the_interpreter

    app = QApplication(sys.argv[:1])
    share_the_interpreter()
    tmp = Path(tempfile.mkdtemp())
    path = str(tmp / "web.crgame")
    trackers, marshals = make_game(path)
    runs = {}
    for seed, (name, phones, wrong) in enumerate((("baseline", 0, 0), ("web", args.phones, 0),
                                                  ("wrong_tokens", args.phones, args.wrong))):
        game = tmp / f"web-{name}.crgame"
        shutil.copy(path, game)
        lines = radio_lines(trackers, marshals, int(args.seconds * RATE) + 200, seed + 1)
        runs[name] = r = run_window(app, str(game), lines, args.seconds, phones, wrong)
        print(f"{name}: GUI latency p50 {pct(r['late'], 0.5)} ms, p99 {pct(r['late'], 0.99)} ms; window delta "
              f"p50 {pct(r['window_delta_ms'], 0.5)} ms, p99 {pct(r['window_delta_ms'], 0.99)} ms; CPU share "
              f"{r['cpu_share']}; memory +{r['rss_growth_mb']} MB over {r['game_minutes']} game minutes"
              + (f"; phones: update p50 {r['update_p50_ms']} ms, p99 {r['update_p99_ms']} ms "
                 f"({r['phones_heard']} heard, view {r['view_bytes_p50']} bytes)" if phones else ""), file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    web, base, wrong = runs["web"], runs["baseline"], runs["wrong_tokens"]
    result = {
        "benchmark": "web", "players": 8000, "frames_per_s": RATE, "phones": args.phones, "seconds": args.seconds,
        "update_p50_ms": web["update_p50_ms"], "update_p99_ms": web["update_p99_ms"],
        "phones_heard": web["phones_heard"], "view_bytes_p50": web["view_bytes_p50"],
        "station_cpu_share": web["cpu_share"], "baseline_station_cpu_share": base["cpu_share"],
        "gui_latency_p50_ms": pct(web["late"], 0.5), "gui_latency_p99_ms": pct(web["late"], 0.99),
        "baseline_gui_latency_p99_ms": pct(base["late"], 0.99),
        "baseline_window_delta_p50_ms": pct(base["window_delta_ms"], 0.5),
        "baseline_window_delta_p99_ms": pct(base["window_delta_ms"], 0.99),
        "wrong_tokens_gui_latency_p99_ms": pct(wrong["late"], 0.99), "wrong_tokens_refused": wrong.get("refused"),
        "memory_growth_mb": web["rss_growth_mb"], "baseline_memory_growth_mb": base["rss_growth_mb"],
        "game_minutes": web["game_minutes"],
        "targets": {"update_p99_ms_max": 1000, "update_ok": below(web["update_p99_ms"], 1000),
                    "gui_latency_p99_ms_max": 50, "gui_ok": below(pct(web["late"], 0.99), 50)
                    and below(pct(wrong["late"], 0.99), 50),
                    "memory_growth_mb_max": 50, "memory_ok": below(web["rss_growth_mb"], 50)},
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
