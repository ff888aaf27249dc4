"""Benchmark: what feeding TAK costs a station, and that acknowledgements do not wait for a TAK server.

    .venv/bin/python -m benchmarks.bench_tak [--mode cpu|outage|all] [--seconds 30]

The station is the one the window and headless run (``core.wiring.Station``),
its gateway a pseudo-terminal written by a process of its own (a gateway is a
device: its writing takes none of the station's CPU).  The TAK server is taky
(PyPI ``taky``), run as its own program on 127.0.0.1, so that its CPU is not
the station's either.

- ``cpu`` (issue 41's figure): 400 groups, each with its tracker, report 200
  position frames a second in all (each tracker every 2 s).  The station's
  CPU (user + system, the whole process) over ``--seconds`` of steady load,
  without ``--tak`` (the baseline, in the same run, on the same frames) and
  with ``--tak tcp://`` to taky; the difference is what the TAK sender costs,
  and the TAK link's own thread is measured apart (Linux: /proc/self/task).
- ``outage``: 50 acknowledged marshal reports and 200 positions a second;
  taky is stopped for ``--seconds`` / 2 and started again: the ack latency
  (line written to ack read back) before and during the outage, p50 and p99
  (issue 41: p99 < 50 ms), the longest the TAK queue grew, and how long after
  taky's return the station was connected again (issue 41: < 10 s).

The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer

from controlroom.core.wiring import Station
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore

GROUPS = 400                 # --groups
RATE = 200.0                 # position frames a second, in all (--rate)
MARSHALS = range(901, 911)


def pct(values, p):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2) if values else None


# -- the gateway: a process of its own on the master side of a pty ------------------------------------------------
def gateway_main(master: int, lines_file: str, rate: float) -> int:
    """Answer ID?, answer each TX with TXOK and time it; write the lines at ``rate`` a second; report when told."""
    os.set_blocking(master, False)
    acks: dict[str, float] = {}
    written: dict[str, float] = {}
    lock = threading.Lock()

    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(master, view):]
            except BlockingIOError:
                select.select([], [master], [], 0.01)

    def read() -> None:
        buf, identified = b"", False
        while True:
            if not select.select([master], [], [], 0.1)[0]:
                continue
            try:
                buf += os.read(master, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            now = time.perf_counter()
            if not identified and b"ID?" in buf:
                with lock:
                    write((codec.format_id_line(1, "bench-tak") + "\n").encode())
                identified = True
                print("identified", flush=True)
            *done, buf = buf.split(b"\n")
            for line in done:
                if line.startswith(b"TX "):
                    ack = codec.decode_frame(codec.parse_line(line)["frame"])
                    acks.setdefault(f"{ack.fields['acked_device']}:{ack.fields['acked_counter']}", now)
                    with lock:
                        write((codec.format_txok_line(ack.counter) + "\n").encode())

    threading.Thread(target=read, daemon=True).start()
    lines = Path(lines_file).read_text().splitlines()
    sys.stdin.readline()                                  # "go"
    t0 = time.perf_counter()
    for i, line in enumerate(lines):
        wait = t0 + i / rate - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        key, text = line.split(" ", 1)
        written[key] = time.perf_counter()
        with lock:
            write((text + "\n").encode())
    time.sleep(2.0)                                        # the last acks
    print("result " + json.dumps({"written": written, "acks": acks}), flush=True)
    return 0


class Gateway:
    def __init__(self, folder: Path, lines: list[str], rate: float) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        lines_file = folder / f"lines-{time.monotonic_ns()}.txt"
        lines_file.write_text("\n".join(lines))
        self.proc = subprocess.Popen([sys.executable, "-m", "benchmarks.bench_tak", "--gateway", str(self.master),
                                      str(lines_file), str(rate)], pass_fds=(self.master,), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1])
        self.identified = threading.Event()
        self.result: dict = {}
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        for raw in self.proc.stdout:
            word, _, rest = raw.strip().partition(" ")
            if word == "identified":
                self.identified.set()
            elif word == "result":
                self.result = json.loads(rest)

    def go(self) -> None:
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def close(self) -> dict:
        self.proc.wait(600)
        os.close(self.master)
        os.close(self.slave)
        return self.result


# -- the game and its frames -----------------------------------------------------------------------------------------
def make_game(path: Path) -> dict[int, bytes]:
    keys = {}
    with GameStore.open(path) as store:
        store.save_roster([Member(g * 5 + i + 1, f"P{g}-{i}", ("North", "South")[g % 2], f"G{g:03d}")
                           for g in range(GROUPS) for i in range(5)])
        for g in range(GROUPS):
            keys[1 + g] = register_device(store, 1 + g, "tracker", f"T{g}", group=f"G{g:03d}").key
        for d in MARSHALS:
            keys[d] = register_device(store, d, "marshal", f"M{d}").key
    return keys


def lines_for(keys: dict[int, bytes], seconds: float, rate: float, reports: float = 0.0) -> list[str]:
    """``rate`` positions a second (the trackers in turn) and ``reports`` acknowledged casualties a second among
    them: "device:counter line" each."""
    out, counters = [], dict.fromkeys(keys, 0)
    every = int(rate // reports) if reports else 0
    for i in range(int(seconds * rate)):
        if every and i % every == 0:
            dev = MARSHALS[i // every % len(MARSHALS)]
            counters[dev] += 1
            frame = codec.encode_casualty(keys[dev], dev, counters[dev], 1 + i % (GROUPS * 5), "down")
        else:
            dev = 1 + i % GROUPS
            counters[dev] += 1
            frame = codec.encode_position(keys[dev], dev, counters[dev], 583800000 + (i * 37) % 20000,
                                          267200000 + (i * 53) % 30000, 80, 1, 8)
        out.append(f"{dev}:{counters[dev]} {codec.format_rx_line(1, -90, 7.5, frame)}")
    return out


def wait(app, seconds: float, until=None) -> None:
    """Run the event loop for ``seconds`` (or until ``until()``), idle while nothing happens."""
    loop = QEventLoop()
    end = time.monotonic() + seconds

    def check() -> None:
        if time.monotonic() >= end or (until is not None and until()):
            loop.quit()

    timer = QTimer()
    timer.timeout.connect(check)
    timer.start(50)
    loop.exec()
    timer.stop()


def thread_cpu(native_id: int) -> float:
    """CPU seconds (user + system) of one thread of this process (Linux)."""
    fields = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- taky -------------------------------------------------------------------------------------------------------------
class Taky:
    def __init__(self, folder: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "taky.conf").write_text(f"[taky]\nbind_ip = 127.0.0.1\nroot_dir = {folder}\n[cot_server]\n"
                                          f"port = {self.port}\n[ssl]\nenabled = false\n")
        self.proc = None

    def start(self) -> float:
        taky = Path(__file__).resolve().parents[1] / ".venv-taky" / "bin" / "python"      # (quickstart makes it)
        self.proc = subprocess.Popen([str(taky), "-m", "taky.cot", "-c", str(self.folder / "taky.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.folder)
        for _ in range(400):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return time.monotonic()
            except OSError:
                time.sleep(0.05)
        raise SystemExit("taky did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)
            self.proc = None


# -- the modes --------------------------------------------------------------------------------------------------------
def run(folder: Path, name: str, keys_game: Path, lines: list[str], tak: list[str], measure_s: float,
        during=None) -> dict:
    """One station on ``lines``; CPU over the middle ``measure_s`` seconds; ``during(station, app)`` meanwhile."""
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    path = folder / f"{name}.crgame"
    path.write_bytes(keys_game.read_bytes())
    gw = Gateway(folder, lines, RATE)
    station = Station(str(path), [gw.path], tak=tak, remember_ports=False)
    station.start()
    wait(app, 60, lambda: gw.identified.is_set() and station.core.info is not None)
    wait(app, 2.0)
    gw.go()
    wait(app, 5.0)                                        # the load settles (every tracker heard twice)
    cpu0, wall0 = time.process_time(), time.monotonic()
    tak_tid = station.tak._thread.native_id if station.tak is not None else None
    tak0 = thread_cpu(tak_tid) if tak_tid and sys.platform == "linux" else None
    extra = during(station, app) if during is not None else None
    if during is None:
        wait(app, measure_s)
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    tak_cpu = thread_cpu(tak_tid) - tak0 if tak0 is not None else None
    stats = station.stats()
    wait(app, 60, lambda: gw.proc.poll() is not None)
    station.shutdown()
    result = gw.close()
    out = {"cpu_s_per_s": round(cpu / wall, 4), "wall_s": round(wall, 1)}
    if tak_cpu is not None:
        out["tak_thread_cpu_s_per_s"] = round(tak_cpu / wall, 4)
    if "tak" in stats:
        conn = next(iter(stats["tak"]["connections"].values()))
        out.update(tak_events=stats["tak"]["events"], tak_sent=conn["sent"], tak_objects=stats["tak"]["objects"])
    return {**out, "extra": extra, "result": result}


def mode_cpu(folder: Path, seconds: float) -> dict:
    game = folder / "game.crgame"
    keys = make_game(game)
    lines = lines_for(keys, seconds + 12, RATE)
    base = run(folder, "baseline", game, lines, [], seconds)
    taky = Taky(folder / "taky-cpu")
    taky.start()
    try:
        tak = run(folder, "tak", game, lines, [f"tcp://127.0.0.1:{taky.port}"], seconds)
    finally:
        taky.stop()
    return {"frames_per_s": RATE, "groups": GROUPS, "baseline_cpu_s_per_s": base["cpu_s_per_s"],
            "tak_cpu_s_per_s": tak["cpu_s_per_s"],
            "tak_cost_cpu_s_per_s": round(tak["cpu_s_per_s"] - base["cpu_s_per_s"], 4),
            "tak_thread_cpu_s_per_s": tak.get("tak_thread_cpu_s_per_s"),
            "tak_events_per_s": round(tak.get("tak_sent", 0) / max(1.0, seconds + 12), 1),
            "tak_objects": tak.get("tak_objects"), "measured_s": seconds}


def mode_outage(folder: Path, seconds: float) -> dict:
    game = folder / "outage.crgame"
    keys = make_game(game)
    lines = lines_for(keys, seconds * 2 + 12, RATE, reports=min(50.0, RATE / 4))
    taky = Taky(folder / "taky-outage")
    taky.start()
    marks = {}

    def during(station, app):
        conn = station.tak.connections[0]
        longest = 0
        marks["before"] = time.perf_counter()
        wait(app, seconds / 2)
        taky.stop()
        marks["down"] = time.perf_counter()
        end = time.monotonic() + seconds / 2
        while time.monotonic() < end:
            wait(app, 0.2)
            longest = max(longest, len(conn.queue))
        marks["back"] = time.perf_counter()
        back = taky.start()
        wait(app, 30, lambda: conn.connects >= 2)
        return {"reconnect_s": round(time.monotonic() - back, 2), "queue_longest": longest,
                "objects": len(station.tak.feed.entries), "dropped": conn.queue.dropped}

    try:
        out = run(folder, "outage", game, lines, [f"tcp://127.0.0.1:{taky.port}"], seconds, during)
    finally:
        taky.stop()
    res = out["result"]
    before, during_ = [], []
    for key, t in res["written"].items():
        if int(key.split(":")[0]) in MARSHALS and key in res["acks"]:
            latency = res["acks"][key] - t
            if marks["before"] <= t < marks["down"]:
                before.append(latency)
            elif marks["down"] <= t < marks["back"]:
                during_.append(latency)
    return {"ack_before_p50_ms": pct(before, 0.5), "ack_before_p99_ms": pct(before, 0.99),
            "ack_outage_p50_ms": pct(during_, 0.5), "ack_outage_p99_ms": pct(during_, 0.99),
            "acks_outage": len(during_), **out["extra"]}


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--gateway":
        return gateway_main(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("cpu", "outage", "all"), default="all")
    parser.add_argument("--seconds", type=float, default=30.0, help="the steady load measured (default 30)")
    parser.add_argument("--groups", type=int, default=GROUPS, help=f"groups, each with a tracker (default {GROUPS})")
    parser.add_argument("--rate", type=float, default=RATE, help=f"position frames a second (default {RATE:g})")
    args = parser.parse_args()
    globals().update(GROUPS=args.groups, RATE=args.rate)
    figures: dict = {"benchmark": "bench_tak"}
    with tempfile.TemporaryDirectory(prefix="bench-tak-") as tmp:
        folder = Path(tmp)
        if args.mode in ("cpu", "all"):
            figures["cpu"] = mode_cpu(folder, args.seconds)
            print("cpu:", figures["cpu"], flush=True)
        if args.mode in ("outage", "all"):
            figures["outage"] = mode_outage(folder, args.seconds)
            print("outage:", figures["outage"], flush=True)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
