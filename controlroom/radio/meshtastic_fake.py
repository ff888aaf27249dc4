"""A fake stock Meshtastic node on a pseudo-terminal, speaking the real serial framing and protobufs.

Moved here from benchmarks/meshtastic_peer.py (which uses it still) so that
``controlroom sim --meshtastic`` and the tests can play a node without
hardware.  The ``meshtastic`` package (the optional extra) supplies the
protobufs; the station opens the pty's slave side as ``meshtastic:/dev/pts/N``,
exactly as it would /dev/ttyACM0.

1. handshake: the host writes 32 wake bytes (0xC3) and a framed ``ToRadio``
   with ``want_config_id``; the node answers with framed ``FromRadio``s:
   ``my_info`` (my_node_num), a ``node_info`` for itself and each remote node,
   then ``config_complete_id`` equal to the requested id.  That is all
   meshtastic 2.7 waits for.
2. packets: ``FromRadio{packet: MeshPacket}`` as a node forwards what it heard:
   text messages (on a channel, or direct messages, PKI-decrypted or not) and
   positions, made by ``text_packet`` / ``position_packet``.
3. what the host sends (``ToRadio{packet}``, e.g. the station's answers) is
   kept in ``sent`` as (to, channel, text).

Frame format (meshtastic/stream_interface.py): START1=0x94, START2=0xC3,
2-byte big-endian length, protobuf.
"""

from __future__ import annotations

import errno
import os
import select
import threading
import time

START1 = 0x94
START2 = 0xC3
MAX_FRAME = 512                     # MAX_TO_FROM_RADIO_SIZE in meshtastic.stream_interface
BROADCAST_NUM = 0xFFFFFFFF
LOCAL_NUM = 0x0A1B2C3D              # the node the "USB device" is
REMOTE_NUM = 0x11223344             # a remote node (the benchmark's)


def protobufs():
    """(mesh_pb2, portnums_pb2) of the meshtastic package; ImportError with the install hint if missing."""
    try:
        from meshtastic.protobuf import mesh_pb2, portnums_pb2
    except ImportError as exc:
        from controlroom.radio.meshtastic_link import INSTALL_HINT

        raise ImportError(INSTALL_HINT) from exc
    return mesh_pb2, portnums_pb2


def frame(message) -> bytes:
    body = message.SerializeToString()
    if len(body) > MAX_FRAME:
        raise ValueError(f"frame of {len(body)} bytes exceeds meshtastic's {MAX_FRAME}")
    return bytes((START1, START2, len(body) >> 8, len(body) & 0xFF)) + body


def handshake_frames(mesh_pb2, config_id: int, local: int = LOCAL_NUM,
                     remotes: tuple[tuple[int, str, str], ...] = ((REMOTE_NUM, "Field marshal 7", "FM07"),)) -> bytes:
    out = []
    from_id = 1
    m = mesh_pb2.FromRadio(id=from_id)
    m.my_info.my_node_num = local
    m.my_info.nodedb_count = 1 + len(remotes)
    out.append(frame(m))
    for num, long_name, short in ((local, "Control room gateway", "CRGW"), *remotes):
        from_id += 1
        m = mesh_pb2.FromRadio(id=from_id)
        m.node_info.num = num
        m.node_info.user.id = f"!{num:08x}"
        m.node_info.user.long_name = long_name
        m.node_info.user.short_name = short
        m.node_info.last_heard = int(time.time())
        out.append(frame(m))
    from_id += 1
    out.append(frame(mesh_pb2.FromRadio(id=from_id, config_complete_id=config_id)))
    return b"".join(out)


def _packet(mesh_pb2, sender: int, to: int, packet_id: int, channel: int, rssi: int, snr: float, pki: bool):
    pkt = mesh_pb2.MeshPacket(**{"from": sender}, to=to, id=packet_id, channel=channel, rx_time=int(time.time()),
                              rx_snr=snr, rx_rssi=rssi, hop_limit=3, hop_start=3)
    if pki:
        pkt.pki_encrypted = True
        pkt.public_key = bytes(range(32))          # the sender's key, as the node reports it
    return pkt


def text_packet(sender: int, text: str, packet_id: int, to: int = BROADCAST_NUM, channel: int = 0,
                pki: bool = False, rssi: int = -80, snr: float = 5.5, from_id: int = 0) -> bytes:
    """A framed FromRadio: a text message ``sender`` sent (``to`` a node: a direct message)."""
    mesh_pb2, portnums_pb2 = protobufs()
    pkt = _packet(mesh_pb2, sender, to, packet_id, channel, rssi, snr, pki)
    pkt.decoded.portnum = portnums_pb2.PortNum.TEXT_MESSAGE_APP
    pkt.decoded.payload = text.encode("utf-8")
    return frame(mesh_pb2.FromRadio(id=from_id or packet_id & 0x7FFFFFFF, packet=pkt))


def position_packet(sender: int, lat_e7: int, lon_e7: int, packet_id: int, sats: int = 7, channel: int = 0,
                    rssi: int = -80, snr: float = 5.5, from_id: int = 0) -> bytes:
    """A framed FromRadio: a POSITION_APP broadcast from ``sender``."""
    mesh_pb2, portnums_pb2 = protobufs()
    pos = mesh_pb2.Position(latitude_i=lat_e7, longitude_i=lon_e7, time=int(time.time()), sats_in_view=sats)
    pkt = _packet(mesh_pb2, sender, BROADCAST_NUM, packet_id, channel, rssi, snr, False)
    pkt.decoded.portnum = portnums_pb2.PortNum.POSITION_APP
    pkt.decoded.payload = pos.SerializeToString()
    return frame(mesh_pb2.FromRadio(id=from_id or packet_id & 0x7FFFFFFF, packet=pkt))


def position_stream(mesh_pb2, portnums_pb2, packets: int, first_from_id: int = 100) -> bytes:
    """N framed FromRadio position packets from REMOTE_NUM, all distinct (ids, coordinates, times)."""
    out = []
    t0 = int(time.time())
    lat0, lon0 = 523_702_000, 48_952_000       # ~52.37 N, 4.90 E, in 1e-7 degrees
    for i in range(packets):
        pos = mesh_pb2.Position(latitude_i=lat0 + (i * 37) % 20_000,
                                longitude_i=lon0 + (i * 53) % 20_000,
                                time=t0 + i)
        pkt = mesh_pb2.MeshPacket(**{"from": REMOTE_NUM}, to=BROADCAST_NUM, id=0x10000 + i,
                                  rx_time=t0 + i, rx_snr=6.25, rx_rssi=-71,
                                  hop_limit=3, hop_start=3)
        pkt.decoded.portnum = portnums_pb2.PortNum.POSITION_APP
        pkt.decoded.payload = pos.SerializeToString()
        out.append(frame(mesh_pb2.FromRadio(id=first_from_id + i, packet=pkt)))
    return b"".join(out)


class FakeDevice(threading.Thread):
    """Plays the radio on the pty master: parses ToRadio frames, answers the config
    request, keeps the texts the host sends, and streams queued bytes out as fast as the pty takes them."""

    def __init__(self, master: int, mesh_pb2, local: int = LOCAL_NUM,
                 remotes: tuple[tuple[int, str, str], ...] = ((REMOTE_NUM, "Field marshal 7", "FM07"),)):
        super().__init__(name="fake-meshtastic-device", daemon=True)
        self.master = master
        self.mesh_pb2 = mesh_pb2
        self.local = local
        self.remotes = tuple(remotes)
        self.stop = threading.Event()
        self.handshake_sent = threading.Event()
        self.load_done = threading.Event()
        self._lock = threading.Lock()
        self._pending: list[tuple[bytes, bool]] = []   # (data, is_load)
        self._rx = bytearray()
        self.to_radio: list[str] = []                  # kinds of ToRadio received, in order
        self.sent: list[tuple[int, int, str]] = []     # texts the host sent: (to, channel, text)
        self.sent_changed = threading.Condition()
        self.config_id: int | None = None
        self.first_load_write: float | None = None
        self.load_written_at: float | None = None
        self.error: BaseException | None = None

    def send(self, data: bytes, load: bool = False) -> None:
        with self._lock:
            self._pending.append((data, load))

    def wait_sent(self, count: int, timeout: float = 10.0) -> list[tuple[int, int, str]]:
        """The texts the host sent, once there are ``count`` of them (or the timeout passed)."""
        deadline = time.monotonic() + timeout
        with self.sent_changed:
            while len(self.sent) < count and time.monotonic() < deadline:
                self.sent_changed.wait(max(0.0, deadline - time.monotonic()))
            return list(self.sent)

    # -- ToRadio side (host -> device)
    def _on_to_radio(self, body: bytes) -> None:
        msg = self.mesh_pb2.ToRadio()
        msg.ParseFromString(body)
        kind = msg.WhichOneof("payload_variant") or "empty"
        self.to_radio.append(kind)
        if kind == "want_config_id":
            self.config_id = msg.want_config_id
            self.send(handshake_frames(self.mesh_pb2, msg.want_config_id, self.local, self.remotes))
            self.handshake_sent.set()
        elif kind == "packet" and msg.packet.HasField("decoded"):
            text = msg.packet.decoded.payload.decode("utf-8", "replace")
            with self.sent_changed:
                self.sent.append((msg.packet.to, msg.packet.channel, text))
                self.sent_changed.notify_all()

    def _parse_rx(self) -> None:
        buf = self._rx
        while True:
            start = buf.find(bytes((START1, START2)))
            if start < 0:
                # keep a trailing START1 that may be followed by START2 in the next read
                del buf[:max(0, len(buf) - 1)]
                return
            del buf[:start]
            if len(buf) < 4:
                return
            length = (buf[2] << 8) | buf[3]
            if length > MAX_FRAME:
                del buf[:2]
                continue
            if len(buf) < 4 + length:
                return
            body = bytes(buf[4:4 + length])
            del buf[:4 + length]
            self._on_to_radio(body)

    # -- main loop
    def run(self) -> None:
        try:
            self._loop()
        except BaseException as exc:       # reported by the caller, never swallowed
            self.error = exc

    def _loop(self) -> None:
        poller = select.poll()
        out = memoryview(b"")
        out_is_load = False
        while not self.stop.is_set():
            if not out:
                with self._lock:
                    if self._pending:
                        data, out_is_load = self._pending.pop(0)
                        out = memoryview(data)
            poller.register(self.master, select.POLLIN | (select.POLLOUT if out else 0))
            events = poller.poll(50)
            for _fd, ev in events:
                if ev & select.POLLIN:
                    try:
                        chunk = os.read(self.master, 65536)
                    except BlockingIOError:
                        chunk = b""
                    except OSError as exc:      # EIO: every slave fd closed
                        if exc.errno == errno.EIO:
                            return
                        raise
                    if chunk:
                        self._rx += chunk
                        self._parse_rx()
                if ev & select.POLLOUT and out:
                    try:
                        n = os.write(self.master, out)
                    except BlockingIOError:     # EAGAIN: the pty is full, poll again
                        n = 0
                    if n:
                        if out_is_load and self.first_load_write is None:
                            self.first_load_write = time.perf_counter()
                        out = out[n:]
                        if not out and out_is_load:
                            self.load_written_at = time.perf_counter()
                            self.load_done.set()
                if ev & (select.POLLHUP | select.POLLERR) and not ev & select.POLLIN:
                    time.sleep(0.01)            # slave not (yet / any more) open
            poller.unregister(self.master)


class FakeNode:
    """A FakeDevice on a new pseudo-terminal: ``url`` is what a station is given (meshtastic:/dev/pts/N)."""

    def __init__(self, local: int = LOCAL_NUM, remotes: tuple[tuple[int, str, str], ...] = ()) -> None:
        import tty  # POSIX only

        mesh_pb2, _ports = protobufs()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.url = f"meshtastic:{self.path}"
        self.device = FakeDevice(self.master, mesh_pb2, local, remotes)
        self.device.start()
        self._next_id = 0x5000_0000 | int.from_bytes(os.urandom(2), "big") << 10

    def next_id(self) -> int:
        """A packet id as firmware makes them (a rolling counter under random upper bits)."""
        self._next_id = (self._next_id + 1) & 0xFFFFFFFF
        return self._next_id

    def text(self, sender: int, text: str, to: int = BROADCAST_NUM, channel: int = 0, pki: bool = False,
             packet_id: int | None = None) -> int:
        pid = self.next_id() if packet_id is None else packet_id
        self.device.send(text_packet(sender, text, pid, to, channel, pki))
        return pid

    def position(self, sender: int, lat: float, lon: float, sats: int = 7, packet_id: int | None = None) -> int:
        pid = self.next_id() if packet_id is None else packet_id
        self.device.send(position_packet(sender, round(lat * 1e7), round(lon * 1e7), pid, sats))
        return pid

    def close(self) -> None:
        self.device.stop.set()
        self.device.join(5)
        for fd in (self.slave, self.master):
            try:
                os.close(fd)
            except OSError:
                pass
