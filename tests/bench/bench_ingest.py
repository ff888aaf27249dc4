"""Benchmark: sustained end-to-end radio ingest through a real pseudo-terminal.

    .venv/bin/python tests/bench/bench_ingest.py [--frames 40000]

Bytes go through a pty into the station exactly as from a USB gateway: the
gateway link reads and splits lines, the core decodes, authenticates,
de-duplicates and folds each frame, and the storage thread makes it durable.
1. throughput: N position frames written as fast as the pty takes them; frames
   per second from the first byte written to the last event stored;
2. latency: 50 frames a second for 20 s; per frame, from its line written to
   its event reported stored (p50, p99).
Baselines in the same run: the single-channel physical limit of LoRa at SF7
(a 24-byte frame back to back), and the `meshtastic` package's own serial
reader fed the same number of position packets by a fake device
(tests/bench/meshtastic_peer.py; skipped, and said so, when meshtastic is not
installed: `pip install meshtastic`, for the benchmark only).
Targets (issue 5): >= 5,000 frames/s; >= 1.5 x the meshtastic reader; p99 < 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QTimer  # noqa: E402

from controlroom.core.radio_link import RadioBridge  # noqa: E402
from controlroom.core.thread import CoreThread  # noqa: E402
from controlroom.game.clock import VirtualClock  # noqa: E402
from controlroom.game.roster import Member  # noqa: E402
from controlroom.radio import codec  # noqa: E402
from controlroom.radio.airtime import max_frames_per_second  # noqa: E402
from controlroom.store.devices import register_device  # noqa: E402
from controlroom.store.game import GameStore  # noqa: E402

TRACKERS = 100


def pct(values, p):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))], 2) if values else None


class FakeGateway:
    """The master side of the pty: answers ID?, then writes lines (raw mode, no echo)."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.identified = threading.Event()
        self._stop = threading.Event()
        self.reader = threading.Thread(target=self._read, name="fake-gateway", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        buf = b""
        while not self._stop.is_set():
            r, _, _ = select.select([self.master], [], [], 0.1)
            if not r:
                continue
            try:
                buf += os.read(self.master, 4096)
            except OSError:
                return
            if b"ID?" in buf and not self.identified.is_set():
                self.write((codec.format_id_line(1, "bench-1") + "\n").encode())
                self.identified.set()
            buf = buf[-64:]

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.master, view)
                view = view[n:]
            except BlockingIOError:
                time.sleep(0.0005)

    def close(self) -> None:
        self._stop.set()
        self.reader.join(2)
        os.close(self.master)
        os.close(self.slave)


def frames(keys: dict[int, bytes], count: int, start_counter: int = 1) -> list[bytes]:
    out = []
    devices = sorted(keys)
    for i in range(count):
        dev = devices[i % len(devices)]
        counter = start_counter + i // len(devices)
        lat = 583800000 + (i * 37) % 20000
        lon = 267200000 + (i * 53) % 30000
        frame = codec.encode_position(keys[dev], dev, counter, lat, lon, 80, 1, 8)
        out.append((codec.format_rx_line(1, -90 - i % 20, 7.5, frame) + "\n").encode())
    return out


def run_station(path: str, lines: list[bytes], rate: float | None) -> dict:
    """One station on one pty; returns the timings of every stored frame."""
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    gw = FakeGateway()
    core = CoreThread(path, VirtualClock(10**9))      # game time is irrelevant here; no rule timers
    radio = RadioBridge(core, [gw.path])
    written: list[float] = []
    stored_at: list[tuple[int, float]] = []
    first_seq = {}
    core.events_stored.connect(lambda seq: stored_at.append((seq, time.perf_counter())))
    core.loaded.connect(lambda _d: (radio.start(), app.quit()))
    core.start()
    app.exec()
    if not gw.identified.wait(10):
        raise SystemExit("the station did not identify the fake gateway")
    with GameStore.open(path, create=False) as store:
        first_seq["seq"] = store.log.last_seq()

    def writer():
        t0 = time.perf_counter()
        for i, line in enumerate(lines):
            if rate:
                wait = t0 + i / rate - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            written.append(time.perf_counter())
            gw.write(line)

    w = threading.Thread(target=writer, name="bench-writer")
    w.start()
    target = first_seq["seq"] + len(lines)
    deadline = time.perf_counter() + 300

    def check():
        if (stored_at and stored_at[-1][0] >= target) or time.perf_counter() > deadline:
            app.quit()

    poll = QTimer()
    poll.timeout.connect(check)
    poll.start(20)
    app.exec()
    poll.stop()
    w.join()
    radio.stop()
    core.shutdown()
    gw.close()
    # Each events_stored report covers a batch: every frame up to that seq is durable then.
    done = [0.0] * len(lines)
    j = 0
    for seq, t in stored_at:
        while j < len(lines) and first_seq["seq"] + j + 1 <= seq:
            done[j] = t
            j += 1
    return {"written": written, "stored": done, "complete": j}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=40_000)
    ap.add_argument("--latency-seconds", type=float, default=20.0)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    path = str(tmp / "ingest.crgame")
    with GameStore.open(path) as store:
        store.save_roster([Member(b, f"P{b}", "North", f"G{b % 10}") for b in range(1, 201)])
        keys = {d: register_device(store, d, "tracker", f"T{d}").key for d in range(1, TRACKERS + 1)}

    lines = frames(keys, args.frames)
    r = run_station(path, lines, None)
    span = r["stored"][-1] - r["written"][0] if r["complete"] == len(lines) else float("nan")
    throughput = len(lines) / span
    print(f"throughput: {len(lines)} frames stored in {span:.2f} s = {throughput:,.0f} frames/s", file=sys.stderr)

    n = int(50 * args.latency_seconds)
    lat_lines = frames(keys, n, start_counter=10_000)
    r2 = run_station(path, lat_lines, 50.0)
    lat = [(s - w) * 1000 for w, s in zip(r2["written"], r2["stored"]) if s]
    print(f"latency at 50 frames/s: p50 {pct(lat, 0.5)} ms, p99 {pct(lat, 0.99)} ms, max {pct(lat, 1.0)} ms",
          file=sys.stderr)

    sf7 = max_frames_per_second(24, 7, 125)
    result = {
        "benchmark": "ingest", "frames": len(lines), "frames_per_s": round(throughput),
        "sf7_single_channel_frames_per_s": round(sf7, 2), "ratio_to_sf7": round(throughput / sf7, 1),
        "latency_frames": len(lat), "latency_p50_ms": pct(lat, 0.5), "latency_p99_ms": pct(lat, 0.99),
        "latency_max_ms": pct(lat, 1.0),
    }
    try:
        sys.path.insert(0, str(Path(__file__).parent))
        from meshtastic_peer import measure_meshtastic

        peer = measure_meshtastic(packets=min(len(lines), 20_000))
        result["meshtastic"] = peer
        result["ratio_to_meshtastic"] = round(throughput / peer["packets_per_s"], 2)
        print(f"meshtastic {peer.get('version')}: {peer['packets_per_s']:,.0f} packets/s (parsing only); "
              f"ratio {result['ratio_to_meshtastic']}", file=sys.stderr)
    except (ImportError, SystemExit) as exc:
        result["meshtastic"] = {"skipped": f"meshtastic is not installed ({exc}): pip install meshtastic, for the benchmark only"}
        print(result["meshtastic"]["skipped"], file=sys.stderr)
    result["targets"] = {
        "frames_per_s_min": 5000, "throughput_ok": throughput >= 5000,
        "latency_p99_ms_max": 50, "latency_ok": (pct(lat, 0.99) or 1e9) < 50,
        "ratio_to_meshtastic_min": 1.5,
        "meshtastic_ok": result.get("ratio_to_meshtastic", 0) >= 1.5 if "ratio_to_meshtastic" in result else None,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
