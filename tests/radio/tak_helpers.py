"""A real TAK server for the tests (taky, in a subprocess, on 127.0.0.1), and a TAK client that records what it gets."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controlroom.radio.cot_in import StreamSplitter

# taky runs from a virtual environment of its own (installer/quickstart.py's ensure_taky): it brings a
# top-level "tests" package and wants setuptools' pkg_resources.
TAKY_PYTHON = Path(__file__).resolve().parents[2] / ".venv-taky" / "bin" / "python"


def taky_python() -> str:
    """The Python that runs taky; the test fails under CI without it, and is skipped elsewhere."""
    if TAKY_PYTHON.exists():
        return str(TAKY_PYTHON)
    why = "taky is not installed in .venv-taky: run python3 installer/quickstart.py test (it makes it)"
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)

TAKY_CONF = """\
[taky]
hostname = localhost
node_id = controlroom-test
bind_ip = 127.0.0.1
root_dir = {root}

[cot_server]
port = {port}

[ssl]
enabled = false
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


class Taky:
    """taky (PyPI ``taky``, MIT) run as its own program, without root, on 127.0.0.1:``port``."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.conf = self.folder / "taky.conf"
        self.conf.write_text(TAKY_CONF.format(root=self.folder, port=self.port), encoding="utf-8")
        self.proc: subprocess.Popen | None = None
        self.log = self.folder / "taky.log"

    def start(self, timeout: float = 20.0) -> float:
        """Start it; the time.monotonic() at which it listens."""
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([taky_python(), "-m", "taky.cot", "-c", str(self.conf)], stdout=log,
                                         stderr=subprocess.STDOUT, cwd=self.folder)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"taky ended: {self.log.read_text(errors='replace')}")
            if listening(self.port):
                return time.monotonic()
            time.sleep(0.05)
        raise AssertionError(f"taky did not listen on {self.port}: {self.log.read_text(errors='replace')}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    @property
    def url(self) -> str:
        return f"tcp://127.0.0.1:{self.port}"


class CotClient:
    """A TAK client connected to a server: what it receives, as parsed XML events (and it can send)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.settimeout(0.2)
        self.events: list[ET.Element] = []
        self.raw: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True, name="test-cot-client")
        self._thread.start()

    def _read(self) -> None:
        splitter = StreamSplitter()
        while not self._stop.is_set():
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            for message in splitter.feed(data):
                self.raw.append(message)
                self.events.append(ET.fromstring(message))

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def got(self, uid: str | None = None, type_: str | None = None) -> list[ET.Element]:
        return [e for e in list(self.events) if (uid is None or e.get("uid") == uid)
                and (type_ is None or e.get("type") == type_)]

    def close(self) -> None:
        self._stop.set()
        self.sock.close()
        self._thread.join(5)


def callsign(event: ET.Element) -> str:
    contact = event.find("detail/contact")
    return contact.get("callsign", "") if contact is not None else ""


def wait_until(predicate, timeout: float, step: float = 0.05) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` s pass (bounded; no Qt event loop needed)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def env_without_display() -> dict:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
