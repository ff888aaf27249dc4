"""Nothing acknowledged is ever lost: a station killed at the worst instant, on both backends.

A handset stops retrying a report once it hears its ack, so an ack is a promise
that the report is in the record.  These tests keep that promise at the moments
that break it:

- SIGKILL the moment an ack line reaches the gateway's pseudo-terminal, 20
  times, on a game file and on PostgreSQL.  The handsets (this test) retry
  every report not acked yet, and now and then one that was acked (its ack was
  lost on the air).  Every acked frame must be in the log exactly once.
- The disk fills up (a small tmpfs): reports that cannot be stored are not
  acked; then SIGKILL; after space is freed and the station restarted, the
  retries are stored and acked, and no acked frame is missing.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore

pytestmark = pytest.mark.skipif(sys.platform.startswith("win"), reason="SIGKILL and ptys are POSIX")

MARSHALS = (11, 12, 13)
BADGES = range(101, 141)


class Gateway:
    """The gateway's end of a real pty: answers ID?, confirms each TX, and calls ``on_ack`` per ack line read."""

    def __init__(self, on_ack) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.on_ack = on_ack
        self.identified = threading.Event()
        self.problems: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, name="test-gateway", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buf = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                buf += os.read(self.master, 4096)
            except OSError:             # the station's end closed (killed): nothing more to read
                return
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                self._line(raw.strip())

    def _line(self, raw: bytes) -> None:
        if not raw:
            return
        try:
            line = codec.parse_line(raw)
        except codec.FrameError as exc:
            self.problems.append(f"{raw!r}: {exc}")
            return
        if line["kind"] == "id_request":
            self.write(codec.format_id_line(1, "test-gw"))
            self.identified.set()
        elif line["kind"] == "tx":
            ack = codec.decode_frame(line["frame"])
            self.on_ack((ack.fields["acked_device"], ack.fields["acked_counter"]))
            self.write(codec.format_txok_line(ack.counter))     # sent: the gateway names the frame's own counter

    def write(self, text: str) -> None:
        with self._lock:
            try:
                os.write(self.master, (text + "\n").encode())
            except OSError:
                pass                    # nobody reads any more (the station is dead): like a radio into the void

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self.master)
        os.close(self.slave)


class Handsets:
    """Marshals' handsets: each report keeps its counter and is sent again until its ack is heard."""

    def __init__(self, keys: dict[int, bytes], rng: random.Random) -> None:
        self.keys, self.rng = keys, rng
        self.counters = dict.fromkeys(keys, 0)
        self.frames: dict[tuple[int, int], bytes] = {}
        self.acked: set[tuple[int, int]] = set()
        self.stopp_open: dict[int, int] = {}
        self._stopp_ids = iter(range(1, 256))

    def new_report(self) -> tuple[int, int]:
        device = self.rng.choice(sorted(self.keys))
        self.counters[device] += 1
        counter, key = self.counters[device], self.keys[device]
        roll = self.rng.random()
        if roll < 0.1 and device not in self.stopp_open:
            stopp = next(self._stopp_ids)
            self.stopp_open[device] = stopp
            frame = codec.encode_stopp_called(key, device, counter, stopp, "danger", None, None)
        elif roll < 0.2 and device in self.stopp_open:
            frame = codec.encode_stopp_lifted(key, device, counter, self.stopp_open.pop(device))
        else:
            kind = self.rng.choice(("down", "knocked_out", "bound", "cared_for"))
            badge = self.rng.choice(BADGES)
            by = self.rng.choice(BADGES) if kind == "cared_for" else None
            frame = codec.encode_casualty(key, device, counter, badge, kind, by)
        self.frames[(device, counter)] = frame
        return device, counter

    def to_send(self, new: int) -> list[tuple[int, int]]:
        """Retries of every report not acked yet, a copy of one that was (its ack was lost), then new ones."""
        keys = sorted(k for k in self.frames if k not in self.acked)
        if self.acked and self.rng.random() < 0.5:
            keys.insert(self.rng.randrange(len(keys) + 1), self.rng.choice(sorted(self.acked)))
        return keys + [self.new_report() for _ in range(new)]

    def line(self, key: tuple[int, int]) -> str:
        return codec.format_rx_line(1, -90, 7.5, self.frames[key])


def _make_game(db: str) -> dict[int, bytes]:
    with GameStore.open(db) as store:
        store.save_roster([Member(b, f"Player {b}", "North" if b % 2 else "South", f"G{b % 4}") for b in BADGES])
        return {d: register_device(store, d, "marshal", f"M{d}").key for d in MARSHALS}


def _station(db: str, port: str, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "controlroom", "headless", "--db", db, "--port", port,
                             "--quiet", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stored_frames(db: str) -> list[tuple[int, int]]:
    with GameStore.open(db, create=False) as store:
        return [(s.radio.device, s.radio.counter) for s in store.log.read() if s.radio is not None]


def _run_round(db: str, handsets: Handsets, new: int, kill_at_ack: int | None, timeout: float = 30.0,
               extra: tuple[str, ...] = ()) -> dict:
    """One station life: retries and new reports go in; SIGKILL at the kill_at_ack-th ack line (None: run until
    everything is acked, then SIGTERM).  Returns what happened."""
    acks: list[tuple[int, int]] = []
    killed = threading.Event()
    proc: subprocess.Popen | None = None

    def on_ack(key):
        acks.append(key)
        handsets.acked.add(key)
        if kill_at_ack is not None and len(acks) >= kill_at_ack and not killed.is_set():
            proc.send_signal(signal.SIGKILL)             # the instant the ack reached the line
            killed.set()

    gw = Gateway(on_ack)
    try:
        proc = _station(db, gw.path, *extra)
        if not gw.identified.wait(30):
            proc.kill()
            raise AssertionError("the station never asked the gateway who it is: " + proc.communicate()[1][-3000:])
        keys = handsets.to_send(new)
        deadline = time.monotonic() + timeout
        for key in keys:
            if killed.is_set():
                break
            gw.write(handsets.line(key))
            time.sleep(handsets.rng.uniform(0.0, 0.02))
        if kill_at_ack is None:
            while time.monotonic() < deadline and not set(handsets.frames) <= handsets.acked:
                time.sleep(0.05)
                for key in sorted(set(handsets.frames) - handsets.acked):    # the handsets' retries
                    gw.write(handsets.line(key))
            proc.send_signal(signal.SIGTERM)
        else:
            killed.wait(max(0.0, deadline - time.monotonic()))
            if not killed.is_set():
                proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        gw.close()
    assert not gw.problems, gw.problems
    return {"acks": acks, "killed": killed.is_set(), "returncode": proc.returncode, "stderr": err}


def _check_every_acked_frame_is_stored_once(db: str, acked: set) -> list[tuple[int, int]]:
    stored = _stored_frames(db)
    twice = sorted({k for k in stored if stored.count(k) > 1})
    assert not twice, f"frames stored twice: {twice}"
    lost = sorted(acked - set(stored))
    assert not lost, f"acknowledged but not in the log: {lost}"
    return stored


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_at_the_instant_of_the_ack_loses_nothing(backend, request, tmp_path):
    db = str(tmp_path / "kill.crgame") if backend == "sqlite" else request.getfixturevalue("pg_url")
    handsets = Handsets(_make_game(db), random.Random(f"ack-kill-{backend}"))
    kills = 0
    for _ in range(20):
        result = _run_round(db, handsets, new=6, kill_at_ack=handsets.rng.randint(1, 4))
        kills += result["killed"]
        # Checked after every kill, not only at the end: a later round must not mend an earlier loss.
        _check_every_acked_frame_is_stored_once(db, handsets.acked)
    assert kills >= 18, f"only {kills} of 20 rounds were killed at an ack"
    # Then a station that lives: every report the handsets still retry is stored and acked.
    final = _run_round(db, handsets, new=3, kill_at_ack=None)
    assert final["returncode"] == 0, final["stderr"][-3000:]
    assert set(handsets.frames) <= handsets.acked, sorted(set(handsets.frames) - handsets.acked)
    stored = _check_every_acked_frame_is_stored_once(db, handsets.acked)
    assert set(stored) == set(handsets.frames)


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MB tmpfs, mounted for the test (root only: mount needs it)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a small tmpfs needs root (mount -t tmpfs); CI runs as root")
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(where: Path) -> Path:
    """Take every free byte of the disk with one file."""
    filler = where / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 1):           # the big blocks, then the last few bytes
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError:
                pass
    finally:
        os.close(fd)
    assert shutil.disk_usage(where).free < 4096
    return filler


def test_a_full_disk_then_sigkill_loses_no_acknowledged_frame(small_disk):
    db = str(small_disk / "full.crgame")
    handsets = Handsets(_make_game(db), random.Random("disk-full"))
    # A healthy start: some reports stored and acked.
    first = _run_round(db, handsets, new=8, kill_at_ack=None)
    assert first["returncode"] == 0, first["stderr"][-3000:]
    acked_before = set(handsets.acked)
    assert acked_before == set(handsets.frames)

    # The disk fills up while the station runs; reports keep coming; then the station is killed.
    acks: list = []
    gw = Gateway(lambda key: (acks.append(key), handsets.acked.add(key)))
    proc = _station(db, gw.path)
    try:
        assert gw.identified.wait(30), "the station never asked the gateway who it is"
        filler = _fill(small_disk)
        new = [handsets.new_report() for _ in range(12)]
        for _ in range(3):                       # sent, then retried twice, as handsets do
            for key in new:
                gw.write(handsets.line(key))
            time.sleep(0.7)
        proc.send_signal(signal.SIGKILL)
        out, _err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        gw.close()
    _check_every_acked_frame_is_stored_once(db, handsets.acked)
    unacked = [k for k in new if k not in handsets.acked]
    assert unacked, "with the disk full, some reports must have gone unacknowledged (else the test proves nothing)"
    assert "ALARM" in out and "storage: the disk holding the game file" in out, out

    # Space again: the retries are stored and acknowledged, and nothing acked is missing.
    filler.unlink()
    final = _run_round(db, handsets, new=2, kill_at_ack=None)
    assert final["returncode"] == 0, final["stderr"][-3000:]
    assert set(handsets.frames) <= handsets.acked
    stored = _check_every_acked_frame_is_stored_once(db, handsets.acked)
    assert set(stored) == set(handsets.frames)


def test_server_down_acks_come_from_the_local_queue_and_survive_a_sigkill(pg_url, pg_control, tmp_path):
    """PostgreSQL gone: a report is acked once the station's local queue holds it durably.  SIGKILL at that ack,
    the server back, the station restarted on the same queue: the report is in the log exactly once."""
    db = pg_url
    queue = str(tmp_path / "station.queue")
    handsets = Handsets(_make_game(db), random.Random("server-down"))
    first = _run_round(db, handsets, new=4, kill_at_ack=None)          # a healthy start
    assert first["returncode"] == 0, first["stderr"][-3000:]

    killed = threading.Event()
    acks: list = []
    proc = None

    def on_ack(key):
        acks.append(key)
        handsets.acked.add(key)
        if len(acks) >= 3 and not killed.is_set():
            proc.send_signal(signal.SIGKILL)
            killed.set()

    gw = Gateway(on_ack)
    try:
        proc = _station(db, gw.path, "--queue", queue)
        assert gw.identified.wait(30), "the station never asked the gateway who it is"
        time.sleep(0.5)
        pg_control("stop")
        new = [handsets.new_report() for _ in range(8)]
        deadline = time.monotonic() + 40
        while not killed.is_set() and time.monotonic() < deadline:
            for key in new:
                if key not in handsets.acked:
                    gw.write(handsets.line(key))
            killed.wait(1.0)
        assert killed.is_set(), "no report was acked from the local queue while the server was down: " + \
            (proc.kill() or proc.communicate()[1][-3000:])
        proc.communicate(timeout=30)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        gw.close()
        pg_control("start")
    assert set(acks) <= set(new)

    # The station again, on the same queue: what the queue held goes to the server, once.
    final = _run_round(db, handsets, new=1, kill_at_ack=None, extra=("--queue", queue))
    assert final["returncode"] == 0, final["stderr"][-3000:]
    stored = _check_every_acked_frame_is_stored_once(db, handsets.acked)
    assert set(stored) == set(handsets.frames)
