"""``controlroom headless`` ends cleanly in every bad state: one message and an exit code, or SIGTERM obeyed in 5 s.

States tried: still opening (a server that accepts the connection and never
answers), storage failing (the disk is full), the gateway gone (its pty
closed), and a read-only game file.  An unknown gateway URL scheme is refused at
start with exit 2 (a usage error) before anything is opened.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
import tty

import pytest

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.store.game import GameStore

pytestmark = pytest.mark.skipif(sys.platform.startswith("win"), reason="SIGTERM and ptys are POSIX")
LIMIT_S = 5.0


_STARTED: list[subprocess.Popen] = []


def _headless(*args: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "controlroom", "headless", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _STARTED.append(proc)
    return proc


@pytest.fixture(autouse=True)
def _no_station_left():
    """A failed check must not leave a station running (it would hold its disk and its cores)."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _game(path) -> str:
    with GameStore.open(path) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves")])
    return str(path)


def _terminate(proc: subprocess.Popen) -> tuple[float, str, str]:
    """SIGTERM; the seconds until the process ended, and what it printed."""
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return time.monotonic() - start, out, err


def _wait_for(stream, text: str, timeout: float = 30.0) -> str:
    """What a running process printed, read until ``text`` shows."""
    fd, buf = stream.fileno(), b""
    deadline = time.monotonic() + timeout
    while text.encode() not in buf and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
    assert text.encode() in buf, f"{text!r} never printed; got {buf!r}"
    return buf.decode()


def test_sigterm_while_the_game_is_still_opening():
    """A server that takes the connection and never answers: the station is stuck opening, and SIGTERM ends it."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    try:
        proc = _headless("--db", f"postgresql+psycopg://nobody@127.0.0.1:{port}/game")
        time.sleep(2.0)                        # well into the connection attempt
        assert proc.poll() is None, proc.communicate()
        took, out, err = _terminate(proc)
    finally:
        silent.close()
    assert took < LIMIT_S, f"SIGTERM took {took:.1f} s while opening; {out} {err[-2000:]}"
    assert "Traceback" not in err, err


def test_sigterm_while_storage_fails(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a small tmpfs (mount needs root); CI runs as root")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        db = _game(disk / "g.crgame")
        with GameStore.open(db, create=False) as store:          # Aldo dies 10 game minutes later: a write
            store.log.append([make_event(0, "down", "marshal:1", badge=1)])
        proc = _headless("--db", db, "--speed", "60")
        _wait_for(proc.stdout, "timers:")
        filler = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            for size in (65536, 1):
                try:
                    while os.write(filler, b"\0" * size):
                        pass
                except OSError:
                    pass
        finally:
            os.close(filler)
        # Aldo's death (10 real seconds in) cannot be stored: storage fails and says so; the station keeps going.
        said = _wait_for(proc.stdout, "storage:", timeout=30)
        time.sleep(0.5)
        took, out, err = _terminate(proc)
        out = said + out
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
    assert took < LIMIT_S, f"SIGTERM took {took:.1f} s with storage failing; {out} {err[-2000:]}"
    assert "Traceback" not in err, err


def test_sigterm_after_the_gateway_is_gone(tmp_path):
    db = _game(tmp_path / "g.crgame")
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    proc = _headless("--db", db, "--port", path)
    # The station asks who the gateway is; it answers, then is unplugged.
    deadline = time.monotonic() + 30
    buf = b""
    while b"ID?" not in buf and time.monotonic() < deadline:
        if select.select([master], [], [], 0.1)[0]:
            buf += os.read(master, 256)
    assert b"ID?" in buf, proc.communicate(timeout=5)
    os.write(master, (codec.format_id_line(1, "gw") + "\n").encode())
    time.sleep(0.5)
    os.close(master)
    os.close(slave)
    time.sleep(1.5)                            # the station notices and starts reconnecting
    took, out, err = _terminate(proc)
    assert took < LIMIT_S, f"SIGTERM took {took:.1f} s with the gateway gone; {out} {err[-2000:]}"
    assert proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err, err


def test_a_read_only_game_file_gives_one_message_and_exit_1(tmp_path):
    if os.geteuid() == 0:
        # Root writes through file permissions: a read-only file system is what refuses it.
        disk = tmp_path / "ro"
        disk.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)]).returncode != 0:
            pytest.skip("cannot mount a tmpfs here")
        db = _game(disk / "g.crgame")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    else:
        disk = None
        db = _game(tmp_path / "g.crgame")
        os.chmod(db, 0o444)
        os.chmod(tmp_path, 0o555)
    try:
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "controlroom", "headless", "--db", db, "--quit-after", "20"],
                              capture_output=True, text=True, timeout=60)
        took = time.monotonic() - start
    finally:
        if disk is not None:
            subprocess.run(["umount", "-l", str(disk)], check=False)
        else:
            os.chmod(tmp_path, 0o755)
    assert done.returncode == 1, (done.stdout, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and "is read-only" in lines[0], lines
    assert took < 15, f"it should stop at once, not wait for --quit-after ({took:.1f} s)"


@pytest.mark.parametrize("url", ["ftp://gateway:4000", "tcp:localhost:4000", "gateway:1"])
def test_an_unknown_gateway_url_is_refused_at_start_with_exit_2(tmp_path, url):
    db = tmp_path / "never.crgame"
    done = subprocess.run([sys.executable, "-m", "controlroom", "headless", "--db", str(db), "--port", url],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert url in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not db.exists(), "nothing is opened or created for a refused command line"
