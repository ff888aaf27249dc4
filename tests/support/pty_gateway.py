"""A LoRa gateway on a pseudo-terminal, as a station's link sees one: it answers ``ID?`` and ``TX``, and
writes an ``RX`` line for every frame it is given to hear (``hear(frame)``)."""

from __future__ import annotations

import os
import select
import threading
import tty

from controlroom.radio import codec


class PtyGateway:
    def __init__(self, gateway: int = 7, rssi: int = -97, snr: float = 7.25) -> None:
        self.gateway, self.rssi, self.snr = gateway, rssi, snr
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.transmitted: list[bytes] = []          # the frames the station asked it to send (acks)
        self.identified = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, name="pty-gateway", daemon=True)
        self._thread.start()

    def _write(self, line: str) -> None:
        with self._lock:
            os.write(self.master, (line + "\n").encode())

    def hear(self, frame: bytes) -> None:
        """A frame came over the air: the RX line goes to the station."""
        self._write(codec.format_rx_line(self.gateway, self.rssi, self.snr, frame))

    def _read(self) -> None:
        buf = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                buf += os.read(self.master, 4096)
            except OSError:
                continue
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                text = raw.decode("ascii", "replace").strip()
                if text.startswith("ID?"):
                    self._write(codec.format_id_line(self.gateway, "test-1"))
                    self.identified.set()
                elif text.startswith("TX "):
                    frame = codec.parse_line(text)["frame"]
                    self.transmitted.append(frame)
                    self._write(codec.format_txok_line(codec.decode_frame(frame).counter))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
