"""The gateway: LoRa in, serial lines out, and the station's TX lines back (portable).

PROTOCOL.md section 7.  ``Gateway(cfg, radio, write, now_ms)``; ``write(str)``
puts one line (the newline is added here) on the USB serial port.  The main
loop hands it what the port received with ``feed(bytes)`` and calls
``step(now_ms)``:

- every packet the radio hears (good LoRa CRC) becomes an ``RX`` line with
  RSSI and SNR, whether or not it is a valid frame;
- ``ID?`` is answered with the ``ID`` line the app's GatewayLink waits for
  (gateway id, firmware version, region, frequency, SF, bandwidth, CR);
- ``TX <hex>`` is transmitted and answered ``TXOK <counter>``, or
  ``TXERR`` with busy / duty / frame / checksum / line / radio;
- an ``ST`` status line goes out once a minute.

The duty cycle is kept per rolling hour from the time on air of what the
gateway sent: 1 % in EU868 g1, 0.1 % g2, 10 % g3, none in US915.
"""

import codec
from radio_if import RadioError, time_on_air_ms
from version import FIRMWARE as FW_VERSION

STATUS_EVERY_MS = 60000
MAX_LINE = codec.MAX_LINE      # PROTOCOL.md section 7: a longer line is dropped, answered TXERR line
DUTY = {"g1": 0.01, "g2": 0.001, "g3": 0.10}
HOUR_MS = 3600000


class Gateway:
    def __init__(self, cfg, radio, write, now_ms):
        self.cfg, self.radio, self.write = cfg, radio, write
        r = self.settings = cfg["radio"]
        radio.configure(r["freq"], r["sf"], r["bw"], r["cr"], r["power"])
        self.gateway = cfg["device"]
        self.duty = DUTY.get(r.get("sub_band") or "g1") if r["region"] == "EU868" else None
        self.sent_air = []              # (time ms, time on air ms) within the last hour
        self.started_ms = now_ms
        self.next_status_ms = now_ms + STATUS_EVERY_MS
        self.rx = self.tx = self.txerr = 0
        self._buf = b""
        self._overflow = False
        self._pending = []

    def line(self, text):
        self.write(text + "\n")

    def id_line(self):
        r = self.settings
        return codec.format_id_line(self.gateway, FW_VERSION, r["region"], r["freq"], r["sf"], r["bw"], r["cr"])

    # -- serial in ------------------------------------------------------------------

    def feed(self, data):
        """Bytes from the station; complete lines are handled at the next step()."""
        buf = self._buf + bytes(data)
        while True:
            i = buf.find(b"\n")
            if i < 0:
                break
            if self._overflow or i > MAX_LINE + 1:
                self._overflow = False
                self._pending.append(None)         # answered TXERR line at the next step
            else:
                self._pending.append(buf[:i])
            buf = buf[i + 1:]
        if len(buf) > MAX_LINE + 1:               # + 1: a CR may still come
            buf, self._overflow = b"", True
        self._buf = buf

    def _command(self, raw, now_ms):
        try:
            parsed = codec.parse_line(raw)
        except codec.FrameError as exc:
            self._txerr(exc.reason)
            return
        kind = parsed["kind"]
        if kind == "id_request":
            self.line(self.id_line())
        elif kind == "tx":
            self._transmit(parsed["frame"], now_ms)
        else:
            self._txerr("line")

    def _txerr(self, reason):
        self.txerr += 1
        self.line(codec.format_txerr_line(reason))

    def _transmit(self, frame, now_ms):
        try:
            counter = codec.decode_frame(frame).counter
        except codec.FrameError:
            self._txerr("frame")
            return
        r = self.settings
        air = time_on_air_ms(len(frame), r["sf"], r["bw"], r["cr"])
        if self.duty is not None:
            self.sent_air = [(t, a) for t, a in self.sent_air if now_ms - t < HOUR_MS]
            used = 0.0
            for _, a in self.sent_air:
                used += a
            if used + air > self.duty * HOUR_MS:
                self._txerr("duty")
                return
        try:
            self.radio.send(frame)
        except RadioError:
            self._txerr("radio")
            return
        self.sent_air.append((now_ms, air))
        self.tx += 1
        self.line(codec.format_txok_line(counter))

    # -- the loop -------------------------------------------------------------------

    def step(self, now_ms):
        pending, self._pending = self._pending, []
        for raw in pending:
            if raw is None:
                self._txerr("line")
            elif raw.rstrip(b"\r"):
                self._command(raw, now_ms)
        packet = self.radio.receive()
        while packet is not None:
            self._forward(packet)
            packet = self.radio.receive()
        if now_ms >= self.next_status_ms:
            self.next_status_ms = now_ms + STATUS_EVERY_MS
            self.line(self.status_line(now_ms))

    def _forward(self, packet):
        if not 1 <= len(packet.data) <= codec.MAX_LINE_FRAME:
            return
        rssi = min(max(packet.rssi, -200), 50)
        snr = min(max(packet.snr, -64.0), 64.0)
        self.rx += 1
        self.line(codec.format_rx_line(self.gateway, rssi, snr, packet.data))

    def status_line(self, now_ms):
        up = (now_ms - self.started_ms) // 60000
        return codec.format_status_line(self.gateway, up, self.rx, self.radio.crc_errors, self.tx, self.txerr)
