"""GatewayLink / GatewaySet on real pseudo-terminals, loop:// and socket://.

The test plays the gateway on the pty master (or the TCP server side); it only
writes after it has seen the link's ``ID?``.  Nothing sleeps for a fixed time:
the tests wait on conditions with timeouts.
"""

import os
import select
import socket
import threading
import time
from types import SimpleNamespace

import pytest

from controlroom.radio import codec, transport
from controlroom.radio import ports as serial_ports
from controlroom.radio.link import FrameAck, FrameHeard, HeardQueue, LinkState, send_through
from controlroom.radio.ports import UsbIds
from controlroom.radio.transport import GatewayLink, open_gateway

KEY = bytes.fromhex("3C9E5D1AB8427F06E1C4A93D5B70F28E")
FAST = {"backoff_initial": 0.05, "backoff_max": 0.2, "identify_timeout": 2.0}


def rx_line(counter, gateway=7):
    kind = counter % 3
    if kind == 0:
        frame = codec.encode_position(KEY, 0x0201, counter, 583776000, 267290000, 87, 1, 11)
    elif kind == 1:
        frame = codec.encode_casualty(KEY, 0x0102, counter, 1234, "healer_touch", 57)
    else:
        frame = codec.encode_stopp_called(KEY, 0x0102, counter, 2, "injury", None, None)
    return (codec.format_rx_line(gateway, -97, -7.25, frame) + "\n").encode()


def wait_until(predicate, timeout=5.0):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.002)


class Recorder:
    """The callbacks: records everything, lets the test wait for conditions."""

    def __init__(self):
        self.cond = threading.Condition()
        self.items, self.states = [], []

    def on_line(self, name, item):
        with self.cond:
            self.items.append((name, item))
            self.cond.notify_all()

    def on_state(self, name, state, detail):
        with self.cond:
            self.states.append((name, state, detail))
            self.cond.notify_all()

    def wait(self, predicate, timeout=5.0):
        with self.cond:
            assert self.cond.wait_for(predicate, timeout), "timed out; states: %r" % self.states

    def counters(self, name=None):
        return [codec.decode_frame(i.fields["frame"]).counter for n, i in list(self.items)
                if i.kind == "rx" and (name is None or n == name)]

    def state_list(self, name=None):
        return [s for n, s, d in list(self.states) if name is None or n == name]

    def has_state(self, state, name=None):
        return lambda: state in self.state_list(name)

    def detail(self, state):
        return [d for n, s, d in list(self.states) if s == state][-1]


class PtyGateway:
    """A fake gateway on the master side of a pseudo-terminal."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.buf = b""

    def read_line(self, timeout=5.0):
        end = time.monotonic() + timeout
        while b"\n" not in self.buf:
            ready, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            assert ready, "no line from the link"
            self.buf += os.read(self.master, 4096)
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def expect(self, prefix, timeout=5.0):
        while True:
            line = self.read_line(timeout)
            if line.startswith(prefix):
                return line

    def answer_id(self, gateway=7):
        line = self.expect(b"ID?")
        assert codec.parse_line(line) == {"kind": "id_request"} and line == b"ID? 4914"
        self.write((codec.format_id_line(gateway, "1.0.0") + "\n").encode())

    def write(self, data):
        while data:
            data = data[os.write(self.master, data):]

    def unplug(self):
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None


@pytest.fixture
def rec():
    return Recorder()


@pytest.fixture
def stoppers():
    """Things to stop / close at teardown (before the dangling-thread check)."""
    items = []
    yield items
    for thing in reversed(items):
        if isinstance(thing, PtyGateway):
            thing.unplug()
        elif isinstance(thing, socket.socket):
            thing.close()
        else:
            assert thing.stop(1.0)


@pytest.fixture
def pty(stoppers):
    def make():
        gw = PtyGateway()
        stoppers.append(gw)
        return gw
    return make


@pytest.fixture
def link(rec, stoppers):
    def make(url, on_line=None, **options):
        lk = GatewayLink(url, on_line or rec.on_line, rec.on_state, **{**FAST, **options})
        stoppers.append(lk)
        lk.start()
        return lk
    return make


def test_identify_exchange(rec, pty, link):
    gw = pty()
    lk = link(gw.path)
    gw.answer_id(7)
    rec.wait(rec.has_state("identified"))
    assert rec.state_list()[:3] == ["connecting", "identifying", "identified"]
    ident = rec.detail("identified")
    assert ident["gateway"] == 7 and ident["fw"] == "1.0.0" and ident["sf"] == 9 and ident["freq"] == 868.1
    assert lk.gateway_id == 7 and lk.stats()["state"] == "identified" and lk.is_up
    assert [i.kind for n, i in rec.items] == ["id"] and rec.items[0][0] == gw.path
    start = time.monotonic()
    assert lk.stop(1.0) and time.monotonic() - start < 1.0              # stop() joins quickly
    assert rec.state_list()[-1] == "stopped" and not lk.is_up and lk.write_line("ID?") is False


def test_silent_gateway_is_read_unidentified(rec, pty, link):
    gw = pty()
    lk = link(gw.path, identify_timeout=0.5, identify_interval=0.1)
    gw.expect(b"ID?")
    gw.expect(b"ID?")                                  # asked again within the window
    gw.write(rx_line(1))
    rec.wait(lambda: rec.counters() == [1])
    rec.wait(rec.has_state("unidentified"))
    assert "did not answer" in rec.detail("unidentified") and lk.gateway_id is None
    gw.write(b"boot noise \x00\xff\n" + (codec.format_id_line(9, "2.0") + "\n").encode())
    rec.wait(rec.has_state("identified"))
    assert lk.gateway_id == 9 and lk.stats()["rejections"]["line"] == 1


def test_frames_split_at_every_byte_boundary_arrive_whole(rec, pty, link):
    gw = pty()
    lk = link(gw.path)
    gw.answer_id()
    rec.wait(rec.has_state("identified"))
    sent = []
    for cut in range(1, max(len(rx_line(n)) for n in range(3))):
        for _ in range(3):                             # position, casualty, stopp_called
            data = rx_line(len(sent) + 1)
            if cut >= len(data):
                continue
            before = lk.stats()["bytes"]
            gw.write(data[:cut])
            # The reader saw the cut.
            wait_until(lambda: lk.stats()["bytes"] >= before + cut)  # noqa: B023 - waited on in this iteration
            gw.write(data[cut:])
            sent.append(len(sent) + 1)
    rec.wait(lambda: len(rec.counters()) == len(sent))
    assert rec.counters() == sent
    stats = lk.stats()
    assert stats["frames"] == len(sent) and sum(stats["rejections"].values()) == 0


def test_two_gateways_at_once(rec, pty):
    """Two links of a station: each reads its own gateway; an ack goes out through the gateway that heard the
    frame (``send_through``), else through any other."""
    gw1, gw2 = pty(), pty()
    links = [GatewayLink(gw1.path, rec.on_line, rec.on_state, **FAST),
             GatewayLink(gw2.path, rec.on_line, rec.on_state, **FAST)]
    for lk in links:
        lk.start()
    try:
        gw1.answer_id(7)
        gw2.answer_id(8)
        rec.wait(lambda: rec.state_list().count("identified") == 2)
        for n in range(1, 21):
            gw1.write(rx_line(n, 7))
            gw2.write(rx_line(100 + n, 8))
        rec.wait(lambda: len(rec.counters()) == 40)
        assert rec.counters(gw1.path) == list(range(1, 21))
        assert rec.counters(gw2.path) == list(range(101, 121))
        ack7, ack8 = codec.encode_ack(KEY, 7, 1, 0x0102, 106), codec.encode_ack(KEY, 8, 1, 0x0102, 107)
        assert send_through(links, FrameAck(7, ack7)) and send_through(links, FrameAck(8, ack8))
        assert gw1.expect(b"TX").decode() == codec.format_tx_line(ack7)
        assert gw2.expect(b"TX").decode() == codec.format_tx_line(ack8)
        assert send_through(links, FrameAck(99, ack8))              # nobody's gateway 99: the first that takes it
        stats = [lk.stats() for lk in links]
        assert {s["gateway"]: s["frames"] for s in stats} == {7: 20, 8: 20}
        assert stats[1]["state"] == "identified"
    finally:
        for lk in links:
            lk.stop()
    assert rec.state_list().count("stopped") == 2
    assert not send_through(links, FrameAck(7, ack7))               # stopped: nothing takes it


def test_a_stations_link_puts_what_it_hears_into_the_queue(pty):
    """``open_gateway``: RX lines of its own gateway as FrameHeard, another gateway's id refused, states."""
    gw = pty()
    queue = HeardQueue()
    lk = open_gateway(gw.path, queue, **FAST)
    lk.start()
    try:
        gw.answer_id(7)
        wait_until(lambda: lk.state == "identified")
        gw.write(rx_line(1, 7))
        gw.write(rx_line(2, 9))                      # a line claiming another gateway on this link
        items: list = []

        def both_said() -> bool:                     # the frame heard, and the other gateway's line refused
            items.extend(queue.take())
            return (any(isinstance(i, FrameHeard) for i in items)
                    and any(getattr(i, "reason", "") == "gateway_id" for i in items))
        wait_until(both_said)
    finally:
        lk.stop()
    items += queue.take()
    heard = [i for i in items if isinstance(i, FrameHeard)]
    assert [(h.gateway, int.from_bytes(h.frame[3:7], "big")) for h in heard] == [(7, 1)]
    assert any(getattr(i, "reason", "") == "gateway_id" for i in items)
    assert [i.state for i in items if isinstance(i, LinkState)][:3] == ["connecting", "identifying", "identified"]
    assert lk.owns(FrameAck(7, b"")) and not lk.owns(FrameAck(8, b""))


def test_unplug_and_replug_no_frame_lost_or_doubled(rec, pty, link):
    gw = pty()
    new = {}
    lk = link(gw.path, locate=lambda lk: new.get("path"))
    old_path = gw.path
    gw.answer_id()
    for n in range(1, 6):
        gw.write(rx_line(n))
    rec.wait(lambda: rec.counters() == [1, 2, 3, 4, 5])
    before = lk.stats()["bytes"]
    gw.write(rx_line(6)[:30])                         # half a line, then the cable goes
    wait_until(lambda: lk.stats()["bytes"] >= before + 30)
    gw2 = pty()                                        # where it will come back (a new name)
    gw.unplug()
    new["path"] = gw2.path
    rec.wait(rec.has_state("lost"))
    assert f"the gateway on {old_path} was unplugged" in rec.detail("lost") and not lk.is_up
    assert lk.write_line("ID?") is False
    rec.wait(rec.has_state("retrying"))
    assert isinstance(rec.detail("retrying"), float)
    gw2.answer_id()
    rec.wait(lambda: rec.state_list().count("identified") == 2)
    assert [d for n, s, d in rec.states if s == "connecting"][-1] == f"found again on {gw2.path} (was {old_path})"
    for n in range(6, 11):
        gw2.write(rx_line(n))
    rec.wait(lambda: len(rec.counters()) >= 10)
    assert rec.counters() == list(range(1, 11))
    stats = lk.stats()
    assert stats["reconnects"] == 1 and stats["port"] == gw2.path and sum(stats["rejections"].values()) == 0
    assert lk.write_line(codec.format_txok_line(1)) is True and gw2.expect(b"TXOK")


def fake_ports(*entries):
    return [SimpleNamespace(device=d, vid=v, pid=p, serial_number=s) for d, v, p, s in entries]


def test_usb_search(monkeypatch):
    ports = fake_ports(("/dev/ttyS0", None, None, None), ("/dev/ttyUSB1", 0x303A, 0x1001, "AA"),
                       ("/dev/ttyUSB3", 0x303A, 0x1001, "BB"), ("/dev/ttyACM0", 0x1A86, 0x7523, None))
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: ports)
    assert serial_ports.parse_usb_url("usb:303a:1001:BB") == UsbIds(0x303A, 0x1001, "BB")
    assert serial_ports.parse_usb_url("USB:1A86:7523") == UsbIds(0x1A86, 0x7523, None)
    assert serial_ports.parse_usb_url("/dev/ttyUSB0") is None and serial_ports.parse_usb_url("COM5") is None
    with pytest.raises(ValueError):
        serial_ports.parse_usb_url("usb:xyz")
    assert serial_ports.find_usb_port(UsbIds(0x303A, 0x1001, "BB")) == "/dev/ttyUSB3"
    assert serial_ports.find_usb_port(UsbIds(0x303A, 0x1001, None)) == "/dev/ttyUSB1"
    assert serial_ports.find_usb_port(UsbIds(0x303A, 0x1001, None), "/dev/ttyUSB3") == "/dev/ttyUSB3"
    assert serial_ports.find_usb_port(UsbIds(0x303A, 0x1001, "CC")) is None
    assert serial_ports.find_usb_port(UsbIds(0x303A, 0x1001, None), busy={"/dev/ttyUSB1"}) == "/dev/ttyUSB3"
    two = SimpleNamespace(usb_ids=UsbIds(0x303A, 0x1001, None), port="/dev/ttyUSB0")
    monkeypatch.setattr(transport, "_in_use", {"/dev/ttyUSB1"})
    assert transport.locate_usb(two) == "/dev/ttyUSB3"          # the other board is taken
    assert transport.locate_usb(SimpleNamespace(usb_ids=None, port="x")) is None
    assert serial_ports.usb_ids_of("/dev/ttyACM0") == UsbIds(0x1A86, 0x7523, None)
    assert serial_ports.usb_ids_of("/dev/ttyS0") is None


def test_usb_ids_remembered_and_found_again(rec, pty, link, monkeypatch):
    gw = pty()
    ports = fake_ports((gw.path, 0x303A, 0x1001, "F412FA"), ("/dev/ttyUSB9", 0x303A, 0x1001, "OTHER"))
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: list(ports))
    lk = link(gw.path)                                 # default locate: the USB search
    gw.answer_id()
    rec.wait(rec.has_state("identified"))
    assert lk.usb_ids == UsbIds(0x303A, 0x1001, "F412FA") and lk.stats()["usb"] == "303A:1001:F412FA"
    gw2 = pty()
    gw.unplug()                                        # it comes back as another device
    ports[0] = SimpleNamespace(device=gw2.path, vid=0x303A, pid=0x1001, serial_number="F412FA")
    rec.wait(rec.has_state("retrying"))
    gw2.answer_id()
    gw2.write(rx_line(42))
    rec.wait(lambda: rec.counters() == [42])
    assert f"found again on {gw2.path} (was {gw.path})" in [d for n, s, d in rec.states]


def test_usb_url(rec, pty, link, monkeypatch):
    ports = []
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: list(ports))
    lk = link("usb:303A:1001:F412FA")
    rec.wait(rec.has_state("retrying"))
    assert rec.detail("lost") == "no USB device 303A:1001:F412FA is plugged in"
    gw = pty()
    ports.extend(fake_ports((gw.path, 0x303A, 0x1001, "F412FA")))
    gw.answer_id(5)
    rec.wait(rec.has_state("identified"))
    assert lk.port == gw.path and lk.gateway_id == 5 and lk.stats()["reconnects"] == 0


def test_open_failure_backs_off_and_stop_is_prompt(rec, link):
    lk = link("/dev/does-not-exist-gateway", backoff_max=5.0)
    rec.wait(lambda: rec.state_list().count("retrying") >= 4)
    assert rec.state_list()[:4] == ["connecting", "lost", "retrying", "connecting"]
    assert rec.state_list().count("lost") == 1 and "cannot open" in rec.detail("lost")
    assert [d for n, s, d in rec.states if s == "retrying"][:4] == [0.05, 0.1, 0.2, 0.4]
    start = time.monotonic()
    assert lk.stop(1.0) and time.monotonic() - start < 1.0
    assert rec.state_list()[-1] == "stopped"


def test_loop_url(rec, link):
    lk = link("loop://", identify_timeout=0.3, identify_interval=1.0)
    rec.wait(lambda: any(i.kind == "id_request" for n, i in rec.items))   # its own ID? came back
    assert lk.write_line(rx_line(3).decode()) is True
    rec.wait(lambda: rec.counters() == [3])
    rec.wait(rec.has_state("unidentified"))
    with pytest.raises(ValueError):
        lk.write_line("two\nlines")


def test_broken_callback_does_not_stop_the_reader(pty, link):
    got = []

    def on_line(name, item):
        got.append(item)
        raise RuntimeError("boom")

    gw = pty()
    lk = link(gw.path, on_line=on_line)
    gw.answer_id()
    gw.write(rx_line(1) + rx_line(2))
    wait_until(lambda: len(got) == 3)
    assert lk.stats()["callback_errors"] == 3


def test_socket_url_and_reconnect(rec, link, stoppers):
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(5.0)
    stoppers.append(server)
    lk = link("socket://127.0.0.1:%d" % server.getsockname()[1])

    def serve(first):
        conn, _ = server.accept()
        conn.settimeout(5.0)
        buf = b""
        while b"ID?" not in buf:
            chunk = conn.recv(100)
            assert chunk
            buf += chunk
        conn.sendall((codec.format_id_line(3, "1.1") + "\n").encode())
        conn.sendall(b"".join(rx_line(n, 3) for n in range(first, first + 3)))
        return conn

    conn = serve(1)
    rec.wait(lambda: rec.counters() == [1, 2, 3])
    conn.close()
    rec.wait(rec.has_state("lost"))
    conn = serve(4)
    try:
        rec.wait(lambda: len(rec.counters()) >= 6)
        assert rec.counters() == [1, 2, 3, 4, 5, 6] and lk.stats()["reconnects"] == 1
        assert rec.state_list().count("identified") == 2
    finally:
        conn.close()
