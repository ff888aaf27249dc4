"""A MicroPython board on a pseudo-terminal, for provisioning tests: its REPL in Python, its interpreter real.

``FakeBoard(flash_dir)`` opens a pty whose other end (``board.port``, e.g. /dev/pts/5) a host opens like
a board's USB serial port.  The board speaks MicroPython's REPL protocol as pyexec.c does: the friendly
prompt, the raw REPL (Ctrl-A; Ctrl-D runs what was sent: ``OK``, its output, ``\\x04``, its error,
``\\x04``, ``>``; Ctrl-D on nothing is a soft reset) and raw-paste mode (``\\x05A\\x01`` answered ``R\\x01``
and the window, a ``\\x01`` for every window taken, ``\\x04`` at the end).  What it runs, it runs in the
real MicroPython (tests/support/board.mjs: the WebAssembly port under Node.js), whose files live in
``flash_dir`` (written back after each piece of code, as a board's flash keeps what was written).

``machine.reset()`` restarts the board: a fresh interpreter runs the provisioned main.py with the
board's hardware replaced by the firmware's own fakes (tests/support/board_lib): every frame its radio
sends is printed as ``AIR <hex>`` and handed to ``air(frame)``; after ``frames`` frames the firmware is
stopped as mpremote's Ctrl-C stops it.  ``pull_cable(code)``, given each piece of code the host sent
before it runs, returns True to pull the cable there: the code never runs, the board stops and the pty
closes (a cable pulled while that code was on its way).  ``baud`` keeps the line to a serial port's
speed both ways (115200 for the boards of hardware/README.md), for figures a real board would give.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import struct
import subprocess
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
BRIDGE = HERE / "board.mjs"
LIB = HERE / "board_lib"
BANNER = b"MicroPython v1.27.0 on 2025-12-10; fake board (WebAssembly) with ESP32\r\n"
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
WINDOW = 128            # the raw-paste window (bytes), as a board with a small buffer would say


class FakeBoard:
    """One board, from ``start()`` until its cable is pulled or ``stop()``."""

    def __init__(self, flash_dir: str | os.PathLike, *, air: Callable[[bytes], None] | None = None,
                 pull_cable: Callable[[bytes], bool] | None = None, frames: int = 1, battery: int = 87,
                 keys: tuple[str, ...] = (), position: tuple[int, int] = (583776000, 267290000),
                 baud: int | None = None) -> None:
        self.flash = Path(flash_dir)
        self.flash.mkdir(parents=True, exist_ok=True)
        self.air = air
        self.pull_cable = pull_cable
        self.baud = baud                 # a serial line's speed to keep to (8N1), as a USB-UART bridge does; None: none
        self.settings = (f"FRAMES = {frames}\nBATTERY = {battery}\nKEYS = {tuple(keys)!r}\n"
                         f"LAT = {position[0]}\nLON = {position[1]}\n")
        self.received = 0                # bytes the host wrote
        self.frames: list[bytes] = []    # what the firmware put on the air
        self.resets = 0
        self.execs = 0
        self.pastes = 0                  # pieces of code that came in raw-paste mode
        self.pulled = False
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._mode = "friendly"
        self._line = bytearray()
        self._paste: bytearray | None = None
        self._paste_taken = 0
        self._escape = b""

    # -- life --------------------------------------------------------------------------------------
    def start(self) -> FakeBoard:
        self._lib = Path(self.flash.parent / f".{self.flash.name}.lib")
        self._lib.mkdir(exist_ok=True)
        for f in LIB.glob("*.py"):
            shutil.copy(f, self._lib / f.name)
        (self._lib / "board_settings.py").write_text(self.settings)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self._node = subprocess.Popen(["node", str(BRIDGE), str(self.flash), str(self._lib)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._answer()                    # {"ready": true}
        self._write(b"\r\n" + BANNER + b">>> ")
        self._thread = threading.Thread(target=self._pump, name="fake-board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if getattr(self, "_thread", None) is not None:
            self._thread.join(10)
        self._close()

    def __enter__(self) -> FakeBoard:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _close(self) -> None:
        for fd in ("master", "slave"):
            if getattr(self, fd, None) is not None:
                try:
                    os.close(getattr(self, fd))
                except OSError:
                    pass
                setattr(self, fd, None)
        if getattr(self, "_node", None) is not None and self._node.poll() is None:
            self._node.kill()
            self._node.wait()
            self._node.stdin.close()
            self._node.stdout.close()

    def files(self) -> dict[str, bytes]:
        """The board's flash now (its files by name)."""
        return {p.name: p.read_bytes() for p in self.flash.iterdir() if p.is_file() and not p.name.startswith(".")}

    # -- the interpreter ---------------------------------------------------------------------------------
    def _answer(self) -> dict:
        line = self._node.stdout.readline()
        if not line:
            raise RuntimeError("the fake board's interpreter ended")
        return json.loads(line)

    def _request(self, **request) -> dict:
        self._node.stdin.write(json.dumps(request) + "\n")
        self._node.stdin.flush()
        return self._answer()

    def _run(self, code: bytes) -> tuple[bytes, bytes]:
        self.execs += 1
        got = self._request(op="exec", code=base64.b64encode(code).decode())
        out, err = base64.b64decode(got["out"]), base64.b64decode(got["err"])
        if got["reset"]:
            self._hard_reset()
            return b"", b""
        return out.replace(b"\n", b"\r\n"), err.replace(b"\n", b"\r\n")

    def _soft_reset(self) -> None:
        self._request(op="restart")

    def _hard_reset(self) -> None:
        """machine.reset(): the board starts again and runs main.py (its hardware the firmware's fakes)."""
        self.resets += 1
        self._request(op="restart")
        self._mode, self._line, self._paste = "friendly", bytearray(), None
        if not (self.flash / "main.py").exists():
            self._write(BANNER + b">>> ")
            return
        boot = (b"import sys, board_hw, board_time\nsys.modules['hw'] = board_hw\nsys.modules['time'] = board_time\n"
                b"exec(open('main.py').read(), {'__name__': '__main__'})\n")
        got = self._request(op="exec", code=base64.b64encode(boot).decode())
        out = base64.b64decode(got["out"]) + base64.b64decode(got["err"])
        for line in out.decode("utf-8", "replace").splitlines():
            if line.startswith("AIR "):
                frame = bytes.fromhex(line[4:].strip())
                self.frames.append(frame)
                if self.air is not None:
                    self.air(frame)
        self._write(out.replace(b"\n", b"\r\n") + BANNER + b">>> ")

    # -- the serial line -----------------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if self.master is None:
            return
        if self.baud:
            time.sleep(len(data) * 10 / self.baud)
        try:
            os.write(self.master, data)
        except (BlockingIOError, OSError):
            pass                 # nobody reads the port: a board's USB serial drops what no host takes

    def _pump(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.master], [], [], 0.05)
                if not ready:
                    continue
                data = os.read(self.master, 4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                continue            # no host has the port open (EIO): wait for one
            self.received += len(data)
            if self.baud:
                time.sleep(len(data) * 10 / self.baud)       # the bytes' time on the wire
            for c in data:
                try:
                    self._byte(c)
                except Exception as exc:          # the test reads it: the board itself never stops on it
                    self.errors.append(f"{type(exc).__name__}: {exc}")
                if self.pulled:
                    self._close()
                    return

    def _byte(self, c: int) -> None:
        if self._paste is not None:
            self._paste_byte(c)
        elif self._mode == "raw":
            self._raw_byte(c)
        else:
            self._friendly_byte(c)

    def _friendly_byte(self, c: int) -> None:
        if c == 0x01:
            self._mode, self._line = "raw", bytearray()
            self._write(b"\r\n" + RAW_BANNER + b">")
        elif c == 0x03:
            self._line = bytearray()
            self._write(b"\r\n>>> ")
        elif c == 0x04:
            self._write(b"\r\nMPY: soft reboot\r\n")
            self._soft_reset()
            self._write(BANNER + b">>> ")
        elif c == 0x0D:
            self._line = bytearray()
            self._write(b"\r\n>>> ")
        elif c >= 0x20:
            self._line.append(c)
            self._write(bytes([c]))

    def _raw_byte(self, c: int) -> None:
        if self._escape or (c == 0x05 and not self._line):
            self._escape += bytes([c])
            if self._escape == b"\x05A\x01":
                self._escape = b""
                self._paste, self._paste_taken = bytearray(), 0
                self.pastes += 1
                self._write(b"R\x01" + struct.pack("<H", WINDOW))
            elif not b"\x05A\x01".startswith(self._escape):
                self._line += self._escape
                self._escape = b""
            return
        if c == 0x01:
            self._line = bytearray()
            self._write(b"\r\n" + RAW_BANNER + b">")
        elif c == 0x02:
            self._mode, self._line = "friendly", bytearray()
            self._write(b"\r\n" + BANNER + b">>> ")
        elif c == 0x03:
            self._line = bytearray()
        elif c == 0x04:
            if not self._line:
                self._write(b"OK\r\nMPY: soft reboot\r\n")
                self._soft_reset()
                self._write(RAW_BANNER + b">")
                return
            code, self._line = bytes(self._line), bytearray()
            self._write(b"OK")
            self._answer_code(code)
        else:
            self._line.append(c)

    def _paste_byte(self, c: int) -> None:
        if c == 0x04:
            code, self._paste = bytes(self._paste), None
            self._write(b"\x04")
            self._answer_code(code)
            return
        self._paste.append(c)
        self._paste_taken += 1
        if self._paste_taken % WINDOW == 0:
            self._write(b"\x01")              # room for another window

    def _answer_code(self, code: bytes) -> None:
        if self.pull_cable is not None and self.pull_cable(code):
            self.pulled = True
            return
        out, err = self._run(code)
        if self._mode == "friendly":          # machine.reset(): the board started again
            return
        self._write(out + b"\x04" + err + b"\x04>")
