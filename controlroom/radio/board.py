"""A MicroPython board on USB: found by its USB ids, written through its raw REPL with mpremote (no Qt, no store).

``find_boards`` lists the serial ports whose USB bridge is one the supported
boards carry (hardware/README.md: the T-Beam's CP2104 or CH9102, the Heltec
boards' CP2102), leaving out the ports a gateway link of this station holds.
``provision_board`` writes files to a board with mpremote's own transport
(``mpremote.transport_serial.SerialTransport``: its raw REPL and raw-paste
mode): every file under a temporary name first, checked by the board's
SHA-256 of it, then renamed, so that a cable pulled mid-copy never leaves a
half-written file under its real name; a file the board has already is not
sent again, and a file not named (the frame ``counter``) is never touched.
A board with MicroPython's ``deflate`` module (1.21 and later) is sent each
file compressed (zlib, a 1 KiB window) in base64, and unpacks it itself: a
third of the bytes on a line of 115,200 baud, where mpremote's own copy
sends a file as Python bytes literals.
The board then reads its device file back through the firmware's own
config.py (its version, the key's fingerprint, never the key) and is reset.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import hashlib
import io
import zlib
from collections.abc import Callable
from typing import NamedTuple

from controlroom.i18n import translate
from controlroom.radio.ports import _comports

# The USB-to-serial bridges of the supported boards (vendor id, product id): what they are.
USB_BOARDS = {
    (0x10C4, 0xEA60): "CP210x (T-Beam v1.1, Heltec V2/V3)",
    (0x1A86, 0x55D4): "CH9102 (T-Beam v1.1)",
    (0x1A86, 0x7523): "CH340 (T-Beam, Heltec V2)",
}
DEVICE_FILE = "device.json"
NEW = ".new"                    # the temporary name's ending
CHUNK = 1024                    # bytes of a file in one piece of code sent to the board
PACKED_CHUNK = 2048             # base64 characters of a packed file in one piece of code
WBITS = 10                      # the compression window: 1 KiB of the board's memory while it unpacks
TIMEOUT_S = 5.0                 # the most the board may stay silent in the middle of an answer

_HASHES = """import hashlib
def _h(n):
    try:
        f = open(n, 'rb')
    except OSError:
        return None
    h = hashlib.sha256()
    while True:
        b = f.read(512)
        if not b:
            break
        h.update(b)
    f.close()
    return h.digest()
print(repr([_h(n) for n in %r]))
"""
_UNPACK = """import deflate, os
s = open(%(z)r, 'rb')
d = open(%(new)r, 'wb')
g = deflate.DeflateIO(s, deflate.ZLIB)
while True:
    b = g.read(512)
    if not b:
        break
    d.write(b)
d.close()
s.close()
os.remove(%(z)r)
"""
_RENAME = """import os
try:
    os.rename(%(new)r, %(name)r)
except OSError:
    os.remove(%(name)r)
    os.rename(%(new)r, %(name)r)
"""
_CONFIRM = """import config, version, counter
c = config.load_file()
n = counter._decode(counter.FileFlash().read(counter.NAME))
print(repr((version.FIRMWARE, config.fingerprint(c['key']), c['device'], c['role'], n)))
"""


class FoundBoard(NamedTuple):
    port: str
    vid: int
    pid: int
    serial: str | None
    bridge: str                  # what USB_BOARDS says of it


class Confirmation(NamedTuple):
    """What the board itself read back from the files just written (the key's fingerprint, never the key)."""

    firmware: str
    fingerprint: str
    device: int
    role: str
    counter: int | None          # the frame counter reserved on the board (None: none yet), kept as it was
    sent: int                    # files sent (those the board had already were not)
    machine: str                 # the board's own name of itself (sys.implementation._machine)


class BoardError(Exception):
    """Provisioning stopped; the message says where and why, in words."""


def find_boards(busy: tuple[str, ...] = ()) -> list[FoundBoard]:
    """The serial ports whose USB ids are a supported board's, but for ``busy`` ones and the gateways' links."""
    from controlroom.radio.transport import ports_in_use

    taken = set(busy) | ports_in_use()
    return sorted((FoundBoard(info.device, info.vid, info.pid, info.serial_number or None,
                              USB_BOARDS[(info.vid, info.pid)])
                   for info in _comports() if (info.vid, info.pid) in USB_BOARDS and info.device not in taken),
                  key=lambda b: b.port)


def chip_of(machine: str) -> str | None:
    """"esp32" or "esp32s3" from a board's name of itself; None when it names neither."""
    text = machine.upper().replace("-", "")
    if "ESP32S3" in text:
        return "esp32s3"
    return "esp32" if "ESP32" in text else None


class _Session:
    def __init__(self, port: str, timeout: float) -> None:
        from mpremote.transport_serial import SerialTransport

        self.port = port
        self.written = False                 # device.json is written under its own name
        self.stage = translate("board", "while opening {port}").format(port=port)
        self.said = io.StringIO()            # what mpremote prints when it fails
        with contextlib.redirect_stdout(self.said):
            self.t = SerialTransport(port, baudrate=115200, timeout=timeout)

    def run(self, code: str) -> bytes:
        with contextlib.redirect_stdout(self.said):
            return self.t.exec(code)

    def value(self, code: str):
        return ast.literal_eval(self.run(code).decode("utf-8", "replace").strip())


def provision_board(port: str, files: dict[str, bytes], device_file: bytes, chip: str | None = None,
                    progress: Callable[[int, int], object] | None = None, timeout: float = TIMEOUT_S,
                    pack: bool = True) -> Confirmation:
    """Write ``files`` and then ``device_file`` (as device.json) to the board on ``port``, have the board read
    them back, and reset it.  ``chip``: the chip the device's board has ("esp32", "esp32s3"); another refuses.
    ``pack``: send the files compressed when the board can unpack them (False: mpremote's own copy always).
    BoardError says where it stopped; nothing half written is left under a file's own name."""
    from mpremote.transport import TransportError, TransportExecError

    session = None
    try:
        session = _Session(port, timeout)
        session.stage = translate("board", "while entering its REPL (is MicroPython on it? hardware/README.md, "
                                           "section 3)")
        with contextlib.redirect_stdout(session.said):
            session.t.enter_raw_repl(soft_reset=True)
        session.stage = translate("board", "while asking what it is")
        machine, packs = session.value("import sys\ntry:\n    import deflate\n    p = True\nexcept ImportError:\n"
                                       "    p = False\nprint(repr((sys.implementation._machine, p)))")
        found = chip_of(machine)
        if chip is not None and found is not None and found != chip:
            raise BoardError(translate("board", "the board on {port} is an {found} ({machine}), but the device is to "
                                                "run on an {chip} board: plug in the right board, or change the "
                                                "device's board in the list").format(
                port=port, found=found.upper(), machine=machine, chip=chip.upper()))
        wanted = {**files, DEVICE_FILE: device_file}
        names = list(wanted)
        has = dict(zip(names, session.value(_HASHES % names)))
        todo = [n for n in names if n == DEVICE_FILE or has[n] != hashlib.sha256(wanted[n]).digest()]
        total, done = sum(len(wanted[n]) for n in todo), 0
        for name in todo:                        # device.json last: the firmware that reads it is there first
            session.stage = translate("board", "while {file} was copied").format(file=name)
            data = wanted[name]
            if packs and pack:
                _write_packed(session, name, data)
            else:
                with contextlib.redirect_stdout(session.said):
                    session.t.fs_writefile(name + NEW, data, chunk_size=CHUNK)
            if session.value(_HASHES % [name + NEW])[0] != hashlib.sha256(data).digest():
                raise BoardError(translate("board", "{file} arrived damaged on the board (its checksum differs): "
                                                    "try another USB cable").format(file=name))
            session.run(_RENAME % {"new": name + NEW, "name": name})
            session.written = name == DEVICE_FILE
            done += len(data)
            if progress is not None:
                progress(done, total)
        session.stage = translate("board", "while it read its device file back")
        version, fingerprint, device, role, counter = session.value(_CONFIRM)
        session.stage = translate("board", "while it was restarted")
        with contextlib.redirect_stdout(session.said):
            session.t.exec_raw_no_follow("import machine\nmachine.reset()")
        return Confirmation(str(version), str(fingerprint), int(device), str(role), counter, len(todo), str(machine))
    except BoardError:
        raise
    except TransportExecError as exc:
        lines = (exc.error_output or "").strip().splitlines()
        if session is None:                 # (opening the port runs no code on the board)
            raise BoardError(_stopped(session, port, lines[-1] if lines else str(exc))) from None
        raise BoardError(translate("board", "the board on {port} refused {stage}: {why}").format(
            port=port, stage=session.stage, why=lines[-1] if lines else exc)) from None
    except TransportError as exc:
        detail = getattr(exc, "error_output", None) or str(exc)
        last = detail.strip().splitlines()[-1] if detail.strip() else type(exc).__name__
        raise BoardError(_stopped(session, port, last)) from None
    except (OSError, ValueError, SyntaxError, TypeError) as exc:
        # pyserial's SerialException is an OSError: the port went away (a cable pulled) or never opened.
        raise BoardError(_stopped(session, port, str(exc) or type(exc).__name__)) from None
    finally:
        if session is not None:
            with contextlib.suppress(Exception):
                session.t.close()


def _write_packed(session: _Session, name: str, data: bytes) -> None:
    """``data`` to ``name`` + NEW on the board, sent compressed in base64 and unpacked there."""
    packer = zlib.compressobj(9, zlib.DEFLATED, WBITS)
    text = base64.b64encode(packer.compress(data) + packer.flush())
    packed = name + NEW + ".z"
    session.run("from binascii import a2b_base64 as a\nf = open(%r, 'wb')\nw = f.write" % packed)
    for i in range(0, len(text), PACKED_CHUNK):
        session.run("w(a(%r))" % text[i:i + PACKED_CHUNK])
    session.run("f.close()")
    session.run(_UNPACK % {"z": packed, "new": name + NEW})


def _stopped(session: _Session | None, port: str, why: str) -> str:
    if session is None:
        return translate("board", "cannot open {port}: {why}").format(port=port, why=why)
    if session.written:
        kept = translate("board", "Its files are written; provision it again to see it confirm them.")
    else:
        kept = translate("board", "Its device file is the one it had before, or none; provision it again.")
    return translate("board", "the board on {port} stopped answering {stage}: {why} (was the cable pulled?) "
                              "{kept}").format(port=port, stage=session.stage, why=why, kept=kept)
