"""The simulator's serial ports: pseudo-terminals it creates, or existing ports opened with pyserial.

A port has ``name`` (what a station opens: the pty's slave path, or the URL),
``write(data) -> bool`` and ``close()``.  ``Readers`` runs one reader thread per
port and puts every complete line, as ``(port index, bytes)``, on a queue.
"""

from __future__ import annotations

import errno
import os
import queue
import select
import threading
import time

from controlroom.radio.lines import LineSplitter

POLL = 0.05          # seconds a reader or a blocked write waits before it looks at the stop flag


class PtyPort:
    """A pseudo-terminal: the simulator keeps the master, a station opens ``name`` (the slave).

    The slave is in raw mode (no echo, no CR/LF translation) and stays open here
    too, so the pty lives while a station closes and reopens it.
    """

    def __init__(self) -> None:
        import tty  # POSIX only: Windows uses SocketPort

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.name = os.ttyname(self.slave)
        self._closed = False

    def read(self, timeout: float) -> bytes:
        if self._closed:
            time.sleep(timeout)
            return b""
        try:
            ready, _, _ = select.select([self.master], [], [], timeout)
            return os.read(self.master, 4096) if ready else b""
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise
            time.sleep(timeout)
            return b""

    def write(self, data: bytes, stop: threading.Event | None = None) -> bool:
        """Write everything (waiting while the station does not read), unless closed or stopped."""
        view = memoryview(data)
        while view:
            if self._closed or (stop is not None and stop.is_set()):
                return False
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                select.select([], [self.master], [], POLL)
            except OSError:
                return False
        return True

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            for fd in (self.master, self.slave):
                try:
                    os.close(fd)
                except OSError:
                    pass


class PluggablePty:
    """A pseudo-terminal behind a fixed path, a symbolic link as udev's /dev/serial/by-id names are.

    ``unplug()`` closes it (a station's open port fails, and opening the path
    fails until it is back); ``plug()`` makes a new pseudo-terminal behind the
    same path, as a gateway plugged in again is found under its by-id name.
    """

    def __init__(self, path: str) -> None:
        self.path = self.name = str(path)
        self._pty: PtyPort | None = None
        self._lock = threading.Lock()
        self.plug()

    @property
    def plugged(self) -> bool:
        return self._pty is not None

    def plug(self) -> None:
        with self._lock:
            if self._pty is not None:
                return
            pty = PtyPort()
            tmp = f"{self.path}.{os.getpid()}.new"
            os.symlink(pty.name, tmp)
            os.replace(tmp, self.path)          # the path names the new device at once, never nothing between
            self._pty = pty

    def unplug(self) -> None:
        with self._lock:
            pty, self._pty = self._pty, None
            if pty is None:
                return
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            pty.close()

    def read(self, timeout: float) -> bytes:
        pty = self._pty
        if pty is None:
            time.sleep(timeout)
            return b""
        return pty.read(timeout)

    def write(self, data: bytes, stop: threading.Event | None = None) -> bool:
        pty = self._pty
        return pty is not None and pty.write(data, stop)

    def close(self) -> None:
        self.unplug()


class SocketPort:
    """A gateway on a TCP port of this computer (for systems without pseudo-terminals, e.g. Windows).

    The station opens ``socket://127.0.0.1:PORT`` with pyserial; a station that
    reconnects simply takes over the connection.
    """

    def __init__(self) -> None:
        import socket

        self._socket = socket
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.server.setblocking(False)
        self.name = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.conn = None
        self._lock = threading.Lock()
        self._closed = False

    def _accept(self, timeout: float) -> None:
        ready, _, _ = select.select([self.server], [], [], timeout)
        if ready:
            conn, _addr = self.server.accept()
            conn.setblocking(True)
            conn.settimeout(POLL)
            with self._lock:
                old, self.conn = self.conn, conn
            if old is not None:
                old.close()

    def read(self, timeout: float) -> bytes:
        if self._closed:
            time.sleep(timeout)
            return b""
        try:
            self._accept(0 if self.conn is not None else timeout)
            conn = self.conn
            if conn is None:
                return b""
            try:
                data = conn.recv(4096)
            except self._socket.timeout:
                return b""
            if not data:                      # the station went away; wait for the next one
                with self._lock:
                    if self.conn is conn:
                        self.conn = None
                conn.close()
            return data
        except OSError:
            time.sleep(timeout)
            return b""

    def write(self, data: bytes, stop: threading.Event | None = None) -> bool:
        with self._lock:
            conn = self.conn
        if conn is None or self._closed:
            return False
        try:
            conn.sendall(data)
            return True
        except OSError:
            return False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            for s in (self.conn, self.server):
                if s is not None:
                    try:
                        s.close()
                    except OSError:
                        pass


def open_sockets(n: int) -> list[SocketPort]:
    """``n`` simulated gateways on local TCP ports."""
    return [SocketPort() for _ in range(n)]


class SerialPort:
    """An existing port (``/dev/ttyUSB0``, ``COM5``, ``socket://host:port`` ...) opened with pyserial."""

    def __init__(self, url: str) -> None:
        import serial

        self.name = url
        self._errors = (serial.SerialException, OSError, ValueError)
        self.ser = serial.serial_for_url(url, baudrate=115200, timeout=POLL, write_timeout=2.0)
        self._lock = threading.Lock()

    def read(self, timeout: float) -> bytes:
        try:
            waiting = self.ser.in_waiting
            return self.ser.read(waiting if waiting > 0 else 1)
        except self._errors:
            time.sleep(timeout)
            return b""

    def write(self, data: bytes, stop: threading.Event | None = None) -> bool:
        with self._lock:
            try:
                return self.ser.write(data) == len(data)
            except self._errors:
                return False

    def close(self) -> None:
        try:
            self.ser.close()
        except self._errors:
            pass


def open_ptys(n: int) -> list[PtyPort]:
    ports: list[PtyPort] = []
    try:
        for _ in range(n):
            ports.append(PtyPort())
    except OSError:
        close_all(ports)
        raise
    return ports


def open_ports(urls: list[str]) -> list[SerialPort]:
    """Open every URL; on a failure the ones opened are closed and the error raised."""
    ports: list[SerialPort] = []
    try:
        for url in urls:
            ports.append(SerialPort(url))
    except Exception:
        close_all(ports)
        raise
    return ports


def close_all(ports) -> None:
    for p in ports:
        p.close()


class Readers:
    """One thread per port, splitting what it reads into lines on ``self.lines`` (index, bytes, when read:
    ``time.monotonic()`` as the reader had it, before the line waits for whoever takes it)."""

    def __init__(self, ports, max_line: int = 1024) -> None:
        self.ports = list(ports)
        self.lines: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._read, args=(i, max_line), name=f"sim gateway {i + 1}")
                         for i in range(len(self.ports))]

    def start(self) -> None:
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            if t.is_alive():
                t.join(5.0)

    def _read(self, i: int, max_line: int) -> None:
        port, splitter = self.ports[i], LineSplitter(max_line)
        while not self._stop.is_set():
            data = port.read(POLL)
            at = time.monotonic()
            for line in splitter.feed(data) if data else ():
                self.lines.put((i, line, at))


OUTBOX_LINES = 1000     # lines a gateway holds for its serial line while its station does not read
STALL_S = 0.5           # a full outbox not taken from for so long: its station has stopped reading


class Writers:
    """One thread per port writing its lines in order, each port with its own bounded outbox.

    A gateway hears the air whatever its station does.  Its lines wait in its
    own outbox while the station reads slowly (a full outbox holds the writer
    back, as a USB serial line holds a gateway back), but once nothing has
    been taken from a full outbox for ``STALL_S`` seconds (a station killed, a
    port nobody reads) its lines are dropped at once, as a gateway's USB serial
    drops what no host takes.  So a port nobody reads holds up neither the air
    (the handsets, their retries, the acks the simulator matches) nor the
    other gateways.  ``put`` says False for a line dropped, or for a port
    unplugged or closed; ``dropped`` counts the lines a stalled outbox refused.
    """

    def __init__(self, ports, size: int | None = None) -> None:
        self.ports = list(ports)
        self.outboxes: list[queue.Queue] = [queue.Queue(size or OUTBOX_LINES) for _ in self.ports]
        self.dropped = [0] * len(self.ports)
        self.failed = [0] * len(self.ports)
        self._taken = [time.monotonic()] * len(self.ports)     # when each writer last took from its outbox
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._write, args=(i,), name=f"sim gateway {i + 1} out")
                         for i in range(len(self.ports))]

    def put(self, i: int, data: bytes) -> bool:
        port, box = self.ports[i], self.outboxes[i]
        if getattr(port, "plugged", True) is False or getattr(port, "_closed", False):
            return False
        while True:
            wait = STALL_S - (time.monotonic() - self._taken[i])
            if wait <= 0 and box.full():
                self.dropped[i] += 1
                return False
            try:
                box.put(data, timeout=max(wait, 0.001))
                return True
            except queue.Full:
                continue

    def start(self) -> None:
        for t in self._threads:
            t.start()

    def stop(self, flush: float = 2.0) -> None:
        """Stop, once every outbox is written (for at most ``flush`` seconds)."""
        end = time.monotonic() + flush
        while any(q.unfinished_tasks for q in self.outboxes) and time.monotonic() < end and \
                any(t.is_alive() for t in self._threads):
            time.sleep(0.01)
        self._stop.set()
        for t in self._threads:
            if t.is_alive():
                t.join(5.0)

    def _write(self, i: int) -> None:
        port, box = self.ports[i], self.outboxes[i]
        while not self._stop.is_set():
            try:
                lines = [box.get(timeout=POLL)]
            except queue.Empty:
                self._taken[i] = time.monotonic()          # (nothing waits: not stalled)
                continue
            while len(lines) < 64:          # what has piled up goes in one write
                try:
                    lines.append(box.get_nowait())
                except queue.Empty:
                    break
            self._taken[i] = time.monotonic()
            if not port.write(b"".join(lines), self._stop):
                self.failed[i] += len(lines)
            for _ in lines:
                box.task_done()
