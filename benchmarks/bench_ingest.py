"""Benchmark: sustained end-to-end radio ingest through a real pseudo-terminal.

    .venv/bin/python -m benchmarks.bench_ingest [--frames 40000]

Bytes go through a pty into the station exactly as from a USB gateway, written
by a process of its own as a gateway is a device of its own: the
gateway link reads and splits lines, the core decodes, authenticates,
de-duplicates and folds each frame, and the storage thread makes it durable.
1. throughput: N position frames written as fast as the pty takes them; frames
   per second from the first byte written to the last event stored;
2. latency: 50 marshal reports a second (casualties, acknowledged) for 20 s;
   per frame, from its line written to its event reported stored, and from its
   line written to its ack line read back from the pty (p50, p99): the ack
   leaves only after the commit holding the event returned;
3. what the disk sync costs: raw sqlite3 commits of one row in WAL mode with
   synchronous=FULL (as the game file) and with synchronous=OFF, on the same
   disk, in the same run; the difference is the sync every ack waits for.
Baselines in the same run: the single-channel physical limit of LoRa at SF7
(a 24-byte frame back to back), raw sqlite3's commits, and the `meshtastic`
package's own serial reader fed the same number of position packets by a fake
device (benchmarks/meshtastic_peer.py; skipped, and said so, when meshtastic
is not installed: `pip install meshtastic`, for the benchmark only).
4. the Meshtastic path (issue 21, ``meshtastic_path``): positions and text
   reports from phones through a fake stock node, the ``meshtastic`` package's
   reader and the station's Meshtastic link: positions stored per second (its
   ceiling is the package's reader, measured in the same run) and the answer
   latency of texts at 5 a second (report written to "OK: ..." read back).
Targets (issues 5 and 14): >= 5,000 frames/s; >= 1.5 x the meshtastic reader;
stored p99 < 50 ms; ack p99 < 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QTimer

from benchmarks.figures import below, pct
from controlroom.core.wiring import Station
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.radio.airtime import max_frames_per_second
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore

TRACKERS = 100
MARSHALS = range(501, 521)


class FakeGateway:
    """A USB gateway played by a process of its own, on the master side of a pty (raw mode, no echo).

    A real gateway is a device: its writing and its answers take none of the
    station's CPU nor its GIL.  The child (``--gateway``, below) answers ``ID?``,
    answers every ``TX`` line with ``TXOK <that frame's counter>``, times each
    ack line it reads, and on ``go`` writes the given lines (at ``rate`` a
    second, or as fast as the pty takes them), timing each.  Both processes
    read the same monotonic clock (``time.perf_counter``: CLOCK_MONOTONIC).
    """

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.identified = threading.Event()
        self.acks_done = threading.Event()
        self._result: dict = {}
        self._got_result = threading.Event()
        self.proc = subprocess.Popen([sys.executable, "-m", __spec__.name, "--gateway", str(self.master)],
                                     pass_fds=(self.master,), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._watch = threading.Thread(target=self._read_child, name="fake-gateway-watch", daemon=True)
        self._watch.start()

    def _read_child(self) -> None:
        for raw in self.proc.stdout:
            word, _, rest = raw.decode().strip().partition(" ")
            if word == "identified":
                self.identified.set()
            elif word == "acks-done":
                self.acks_done.set()
            elif word == "result":
                self._result = json.loads(rest)
                self._got_result.set()

    def _tell(self, text: str) -> None:
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()

    def send(self, lines_file: str, rate: float | None, expect_acks: int) -> None:
        """Start writing the lines in ``lines_file`` (one per line)."""
        self._tell(f"go {lines_file} {rate or 0} {expect_acks}")

    def finish(self) -> dict:
        """{"written": [t per line], "acks": {"device:counter": t}} once the child is done writing."""
        self._tell("stop")
        if not self._got_result.wait(60):
            raise SystemExit("the fake gateway process did not report")
        return self._result

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait(10)
        os.close(self.master)
        os.close(self.slave)


def gateway_main(master: int) -> int:
    """The fake gateway's process (see FakeGateway)."""
    os.set_blocking(master, False)
    out_lock = threading.Lock()
    acks: dict[str, float] = {}
    expect = {"n": -1}
    written: list[float] = []

    def say(text: str) -> None:
        with out_lock:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()

    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(master, view)
                view = view[n:]
            except BlockingIOError:
                select.select([], [master], [], 0.01)

    def read() -> None:
        buf = b""
        identified = False
        while True:
            r, _, _ = select.select([master], [], [], 0.1)
            if not r:
                continue
            try:
                chunk = os.read(master, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            now = time.perf_counter()
            buf += chunk
            if not identified and b"ID?" in buf:
                write((codec.format_id_line(1, "bench-1") + "\n").encode())
                identified = True
                say("identified")
            *lines, buf = buf.split(b"\n")
            for line in lines:
                if line.startswith(b"TX "):
                    ack = codec.decode_frame(codec.parse_line(line)["frame"])
                    acks.setdefault(f"{ack.fields['acked_device']}:{ack.fields['acked_counter']}", now)
                    write((codec.format_txok_line(ack.counter) + "\n").encode())   # the frame's own counter
                    if len(acks) == expect["n"]:
                        say("acks-done")

    threading.Thread(target=read, name="gateway-read", daemon=True).start()
    for command in sys.stdin:
        word, *args = command.split()
        if word == "go":
            lines = Path(args[0]).read_bytes().splitlines(keepends=True)
            rate = float(args[1]) or None
            expect["n"] = int(args[2])
            t0 = time.perf_counter()
            for i, line in enumerate(lines):
                if rate:
                    wait = t0 + i / rate - time.perf_counter()
                    if wait > 0:
                        time.sleep(wait)
                written.append(time.perf_counter())
                write(line)
        elif word == "stop":
            say("result " + json.dumps({"written": written, "acks": acks}))
    return 0


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


def reports(keys: dict[int, bytes], count: int, start_counter: int = 1) -> tuple[list[bytes], list[tuple]]:
    """Marshals' casualty reports (acknowledged frames): the lines, and each frame's (device, counter)."""
    out, ids = [], []
    devices = sorted(keys)
    kinds = ("knocked_out", "down", "bound", "cared_for")
    for i in range(count):
        dev = devices[i % len(devices)]
        counter = start_counter + i // len(devices)
        kind = kinds[(i // len(devices)) % len(kinds)]
        badge = 1 + (i * 7) % 200
        frame = codec.encode_casualty(keys[dev], dev, counter, badge, kind,
                                      badge % 200 + 1 if kind == "cared_for" else None)
        out.append((codec.format_rx_line(1, -90 - i % 20, 7.5, frame) + "\n").encode())
        ids.append((dev, counter))
    return out, ids


def run_station(path: str, lines: list[bytes], rate: float | None, acked: list[tuple] | None = None) -> dict:
    """One station on one pty; returns the timings of every stored (and, for ``acked`` frames, acked) frame."""
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    gw = FakeGateway()
    station = Station(path, [gw.path], VirtualClock(10**9))   # game time is irrelevant here; no rule timers
    core = station.core
    stored_at: list[tuple[int, float]] = []
    first_seq = {}
    core.events_stored.connect(lambda seq: stored_at.append((seq, time.perf_counter())))
    core.loaded.connect(lambda _d: app.quit())
    station.start()
    app.exec()
    if not gw.identified.wait(10):
        raise SystemExit("the station did not identify the fake gateway")
    with GameStore.open(path, create=False) as store:
        first_seq["seq"] = store.log.last_seq()
    lines_file = Path(path).with_suffix(".lines")
    lines_file.write_bytes(b"".join(lines))
    gw.send(str(lines_file), rate, len(acked) if acked is not None else -1)
    target = first_seq["seq"] + len(lines)
    deadline = time.perf_counter() + 300

    def check():
        done = stored_at and stored_at[-1][0] >= target
        if acked is not None:
            done = done and gw.acks_done.is_set()
        if done or time.perf_counter() > deadline:
            app.quit()

    poll = QTimer()
    poll.timeout.connect(check)
    poll.start(20)
    app.exec()
    poll.stop()
    out = gw.finish()
    station.shutdown()
    gw.close()
    written = out["written"]
    # Each events_stored report covers a batch: every frame up to that seq is durable then.
    done = [0.0] * len(lines)
    j = 0
    for seq, t in stored_at:
        while j < len(lines) and first_seq["seq"] + j + 1 <= seq:
            done[j] = t
            j += 1
    acks = [out["acks"].get(f"{d}:{c}", 0.0) for d, c in acked] if acked is not None else []
    return {"written": written, "stored": done, "complete": j, "acked": acks}


def disk_sync_cost(folder: Path, commits: int = 300) -> dict:
    """Raw sqlite3, WAL, one row a commit: synchronous=FULL (the game file's setting) against OFF, same disk."""
    import sqlite3

    out = {}
    for mode in ("FULL", "OFF"):
        db = sqlite3.connect(folder / f"sync-{mode}.db", isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {mode}")
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")
        times = []
        for _ in range(commits):
            t = time.perf_counter()
            db.execute("BEGIN")
            db.execute("INSERT INTO t (body) VALUES (?)", (os.urandom(96),))
            db.execute("COMMIT")
            times.append((time.perf_counter() - t) * 1000)
        db.close()
        out[mode] = times
    return {"commit_full_p50_ms": pct(out["FULL"], 0.5), "commit_full_p99_ms": pct(out["FULL"], 0.99),
            "commit_off_p50_ms": pct(out["OFF"], 0.5), "commit_off_p99_ms": pct(out["OFF"], 0.99)}


# -- the Meshtastic path (issue 21): a stock node's packets through the meshtastic package into the core -----------
def meshtastic_path(folder: Path, packets: int = 5000, reports: int = 100, rate: float = 5.0) -> dict:
    """Positions and text reports from phones, through a fake Meshtastic node on a pty, the ``meshtastic``
    package's SerialInterface and the station's link, into the core; stored per second and answer latency.

    1. ``packets`` POSITION_APP packets written at once: packets stored per second, from the first byte written
       to the last event stored;
    2. ``reports`` texts ("D 17") at ``rate`` a second: from the packet written to the answer ("OK: ...") read
       back by the node (the answer leaves once the event is committed).
    Raises ImportError when meshtastic is not installed.
    """
    from controlroom.radio.meshtastic_fake import FakeNode, position_packet, text_packet

    path = str(folder / "mesh.crgame")
    phones = {d: 0xC0DE0000 + d for d in range(1, 121)}
    with GameStore.open(path) as store:
        store.save_roster([Member(b, f"P{b}", "North", f"G{b % 10}") for b in range(1, 201)])
        for d, num in phones.items():
            register_device(store, d, "tracker" if d <= 100 else "marshal", f"N{d}", meshtastic=num)
    node = FakeNode(remotes=tuple((num, f"N{d}", f"N{d:03d}") for d, num in phones.items()))
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    station = Station(path, [node.url], VirtualClock(10**9))
    core = station.core
    stored_at: list[tuple[int, float]] = []
    states: list[str] = []
    core.events_stored.connect(lambda seq: stored_at.append((seq, time.perf_counter())))
    core.link_changed.connect(lambda _l, state, _d: states.append(state))
    core.loaded.connect(lambda _d: app.quit())
    station.start()
    app.exec()
    poll = QTimer()

    def run_until(done, limit_s):
        deadline = time.perf_counter() + limit_s

        def check():
            if done() or time.perf_counter() > deadline:
                app.quit()
        poll.timeout.connect(check)
        poll.start(20)
        app.exec()
        poll.stop()
        poll.timeout.disconnect(check)

    try:
        run_until(lambda: "up" in states, 30)
        if "up" not in states:
            raise SystemExit("the station did not connect to the fake Meshtastic node")
        stream = b"".join(position_packet(phones[1 + i % 100], 583_800_000 + i % 9000, 267_200_000 + i % 7000,
                                          0x6000_0000 + i) for i in range(packets))
        node.device.send(stream, load=True)
        run_until(lambda: stored_at and stored_at[-1][0] >= packets, 300)
        first = node.device.first_load_write
        done_at = next((t for seq, t in stored_at if seq >= packets), None)
        span = (done_at - first) if done_at and first else float("nan")
        written: list[float] = []

        def writer():
            t0 = time.perf_counter()
            for i in range(reports):
                wait = t0 + i / rate - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                written.append(time.perf_counter())
                node.device.send(text_packet(phones[101 + i % 20], f"D {1 + i % 200}", 0x7000_0000 + i))

        answered: list[float] = []
        real = node.device._on_to_radio

        def on_to_radio(body):      # the answer's arrival, timed in the node's thread
            before = len(node.device.sent)
            real(body)
            if len(node.device.sent) > before:
                answered.append(time.perf_counter())
        node.device._on_to_radio = on_to_radio
        w = threading.Thread(target=writer, name="bench-mesh-writer")
        w.start()
        run_until(lambda: len(answered) >= reports, 120)
        w.join()
    finally:
        station.shutdown()
        node.close()
    lat = [(a - t) * 1000 for t, a in zip(written, answered)]      # answers come back in order (one node, FIFO)
    ok = sum(1 for _to, _ch, text in node.device.sent if text.startswith("OK:"))
    return {"packets": packets, "stored_per_s": round(packets / span, 1) if span == span else None,
            "reports": reports, "rate_per_s": rate, "answered_ok": ok, "answer_p50_ms": pct(lat, 0.5),
            "answer_p99_ms": pct(lat, 0.99), "answer_max_ms": pct(lat, 1.0)}


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
        marshal_keys = {d: register_device(store, d, "marshal", f"M{d}").key for d in MARSHALS}

    lines = frames(keys, args.frames)
    r = run_station(path, lines, None)
    span = r["stored"][-1] - r["written"][0] if r["complete"] == len(lines) else float("nan")
    throughput = len(lines) / span
    print(f"throughput: {len(lines)} frames stored in {span:.2f} s = {throughput:,.0f} frames/s", file=sys.stderr)

    n = int(50 * args.latency_seconds)
    lat_lines, lat_ids = reports(marshal_keys, n)
    r2 = run_station(path, lat_lines, 50.0, acked=lat_ids)
    lat = [(s - w) * 1000 for w, s in zip(r2["written"], r2["stored"]) if s]
    ack = [(a - w) * 1000 for w, a in zip(r2["written"], r2["acked"]) if a]
    print(f"at 50 reports/s: stored p50 {pct(lat, 0.5)} ms, p99 {pct(lat, 0.99)} ms, max {pct(lat, 1.0)} ms; "
          f"acked p50 {pct(ack, 0.5)} ms, p99 {pct(ack, 0.99)} ms, max {pct(ack, 1.0)} ms "
          f"({len(ack)} of {n} acked)", file=sys.stderr)
    sync = disk_sync_cost(tmp)
    print(f"raw sqlite3 commit of one row: synchronous=FULL p50 {sync['commit_full_p50_ms']} ms, "
          f"p99 {sync['commit_full_p99_ms']} ms; OFF p50 {sync['commit_off_p50_ms']} ms", file=sys.stderr)

    sf7 = max_frames_per_second(24, 7, 125)
    result = {
        "benchmark": "ingest", "frames": len(lines), "frames_per_s": round(throughput),
        "sf7_single_channel_frames_per_s": round(sf7, 2), "ratio_to_sf7": round(throughput / sf7, 1),
        "latency_frames": len(lat), "latency_p50_ms": pct(lat, 0.5), "latency_p99_ms": pct(lat, 0.99),
        "latency_max_ms": pct(lat, 1.0),
        "ack_frames": len(ack), "ack_p50_ms": pct(ack, 0.5), "ack_p99_ms": pct(ack, 0.99), "ack_max_ms": pct(ack, 1.0),
        "disk_sync": sync,
    }
    try:
        from benchmarks.meshtastic_peer import measure_meshtastic

        peer = measure_meshtastic(packets=min(len(lines), 20_000))
        result["meshtastic"] = peer
        result["ratio_to_meshtastic"] = round(throughput / peer["packets_per_s"], 2)
        print(f"meshtastic {peer.get('version')}: {peer['packets_per_s']:,.0f} packets/s (parsing only); "
              f"ratio {result['ratio_to_meshtastic']}", file=sys.stderr)
    except (ImportError, SystemExit, RuntimeError) as exc:     # RuntimeError: meshtastic_peer.MeshtasticMissing
        result["meshtastic"] = {"skipped": f"meshtastic is not installed ({exc}): pip install meshtastic, "
                                           "for the benchmark only"}
        print(result["meshtastic"]["skipped"], file=sys.stderr)
    try:                                                        # issue 21: the Meshtastic path's own rate
        result["meshtastic_path"] = mesh = meshtastic_path(tmp)
        peer_rate = result.get("meshtastic", {}).get("packets_per_s")
        if peer_rate and mesh["stored_per_s"]:      # the package's reader alone, same run: the path's ceiling
            mesh["ratio_to_meshtastic_reader"] = round(mesh["stored_per_s"] / peer_rate, 2)
        print(f"Meshtastic path: {mesh['stored_per_s']} positions stored/s through the meshtastic package; "
              f"texts at {mesh['rate_per_s']:g}/s answered p50 {mesh['answer_p50_ms']} ms, "
              f"p99 {mesh['answer_p99_ms']} ms ({mesh['answered_ok']}/{mesh['reports']} OK)", file=sys.stderr)
    except ImportError as exc:
        result["meshtastic_path"] = {"skipped": f"meshtastic is not installed ({exc})"}
    result["targets"] = {
        "frames_per_s_min": 5000, "throughput_ok": throughput >= 5000,
        "latency_p99_ms_max": 50, "latency_ok": below(pct(lat, 0.99), 50),
        "ack_p99_ms_max": 50, "ack_ok": len(ack) == n and below(pct(ack, 0.99), 50),
        "ratio_to_meshtastic_min": 1.5,
        "meshtastic_ok": result.get("ratio_to_meshtastic", 0) >= 1.5 if "ratio_to_meshtastic" in result else None,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--gateway"]:
        sys.exit(gateway_main(int(sys.argv[2])))
    sys.exit(main())
