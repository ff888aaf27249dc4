"""The station keeps hardware/PROTOCOL.md on a field of gateways and under attack (issue 16), through real ptys.

Every frame and line the tests send is built by a SECOND encoder written here
from PROTOCOL.md alone (``struct``, ``hmac``, ``binascii.crc_hqx``), not with
the station's codec, so that the document itself is tested for
interoperability.  The station is ``controlroom headless`` as a process; each
gateway is a pseudo-terminal whose far end is a fake gateway in this test,
answering ``ID?`` and the station's ``TX`` lines as section 7 says.
"""

from __future__ import annotations

import binascii
import hashlib
import hmac
import json
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import tty

import pytest

from controlroom.game.roster import Member
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore

# --- the second encoder: PROTOCOL.md sections 2, 3, 4 and 7, nothing else ------------------------------

DOMAIN = b"controlroom/v1"                       # section 2, both versions
CODES = {"position": 1, "heartbeat": 2, "casualty": 3, "valhalla": 6, "stopp_called": 8, "stopp_lifted": 9,
         "ack": 16, "ack_stopp": 17}
LONG_TAG = (8, 9, 17)                            # 8-byte tags; 4 for every other type
NO_POS = 0x7FFFFFFF


def frame(type_name, device, counter, payload, key, version=1):
    code = CODES[type_name]
    signed = struct.pack(">BHI", version << 5 | code, device, counter) + payload
    return signed + hmac.new(key, DOMAIN + signed, hashlib.sha256).digest()[:8 if code in LONG_TAG else 4]


def casualty(key, device, counter, badge, kind_code=1, pressed=None):
    """kind 1 = down.  pressed (unix seconds) given: version 2 (section 4, "Version 2")."""
    if pressed is None:
        return frame("casualty", device, counter, struct.pack(">HB", badge, kind_code), key)
    return frame("casualty", device, counter, struct.pack(">HBI", badge, kind_code, pressed), key, version=2)


def stopp_called(key, device, counter, stopp, reason_code=2, caller=None, pressed=None):
    payload = struct.pack(">BBii", reason_code, stopp, NO_POS, NO_POS)
    if caller is None and pressed is None:
        return frame("stopp_called", device, counter, payload, key)
    return frame("stopp_called", device, counter, payload + struct.pack(">HI", caller or 0, pressed or 0), key, 2)


def position(key, device, counter):
    return frame("position", device, counter, struct.pack(">iiBB", 583776000, 267290000, 80, 1 << 5 | 9), key)


def line(body):
    return "%s %04X" % (body, binascii.crc_hqx(body.encode("ascii"), 0xFFFF))


def rx_line(gateway, data, rssi=-90, snr=5.0):
    return line("RX %d %d %.2f %s" % (gateway, rssi, snr, data.hex().upper()))


def parse(text):
    """A line from the station: (command, fields) after checking its CRC (section 7)."""
    body, _, crc = text.rpartition(" ")
    assert crc == "%04X" % binascii.crc_hqx(body.encode("ascii"), 0xFFFF), text
    cmd, *rest = body.split(" ")
    return cmd, rest


def read_ack(data):
    """An ack frame: (type, gateway, counter, acked device, acked counter)."""
    code = data[0] & 0x1F
    assert data[0] >> 5 == 1 and code in (16, 17), data.hex()          # acks are version 1 (section 4)
    gateway, counter, acked_device, acked_counter = struct.unpack(">HIHI", data[1:13])
    return ("ack" if code == 16 else "ack_stopp", gateway, counter, acked_device, acked_counter)


def ack_verifies(data, key):
    n = 8 if data[0] & 0x1F == 17 else 4
    return hmac.compare_digest(hmac.new(key, DOMAIN + data[:-n], hashlib.sha256).digest()[:n], data[-n:])


# --- the field: fake gateways on ptys, the station as a process -------------------------------------------


class FakeGateway:
    """The far end of one pty: answers ID? and TX lines; writes RX lines for the test."""

    def __init__(self, gateway_id):
        self.id = gateway_id
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.tx = []                       # (monotonic time, frame bytes) of every TX line
        self.answers = []                  # scripted answers to the next TX lines: "ok", "busy", "none", ...
        self.echo_to = None                # another FakeGateway that "hears" what this one transmits
        self.asked = threading.Event()
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def write(self, text):
        with self.lock:
            os.write(self.master, (text + "\n").encode("latin-1"))

    def rx(self, data, **kw):
        self.write(rx_line(self.id, data, **kw))

    def _run(self):
        buf = b""
        while not self._stop.is_set():
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            buf += chunk
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                self._line(raw.decode("ascii").rstrip("\r"))

    def _line(self, text):
        if text.startswith("ID?"):
            self.write(line("ID %d fw=test-1 region=EU868 freq=868.1 sf=9 bw=125 cr=5" % self.id))
            self.asked.set()
            return
        cmd, rest = parse(text)
        assert cmd == "TX", text
        data = bytes.fromhex(rest[0])
        self.tx.append((time.monotonic(), data))
        answer = self.answers.pop(0) if self.answers else "ok"
        if answer == "ok":
            self.write(line("TXOK %d" % struct.unpack(">I", data[3:7])[0]))
            if self.echo_to is not None:                 # the other gateway hears it on air
                self.echo_to.rx(data, rssi=-60, snr=9.0)
        elif answer != "none":
            self.write(line("TXERR " + answer))

    def acks(self):
        return [read_ack(d) for _, d in self.tx]

    def close(self):
        self._stop.set()
        self._thread.join(2)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Station:
    """``controlroom headless`` on the fake gateways' ptys."""

    def __init__(self, game, gateways, stats, *args):
        self.stats_path = stats
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "controlroom", "headless", "--db", str(game), *sum((["--port", g.path]
                                                                                        for g in gateways), []),
             "--quit-after", "90", "--stats-json", str(stats), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        for g in gateways:
            assert g.asked.wait(max(0.1, deadline - time.monotonic())), "the station never asked ID?"
        time.sleep(0.3)                     # the ID answers are read

    def finish(self, settle=1.0):
        """Let the station take in what was sent for ``settle`` s, stop it (SIGTERM), and read what it said."""
        time.sleep(settle)
        self.proc.send_signal(signal.SIGTERM)
        out, err = self.proc.communicate(timeout=60)
        assert self.proc.returncode == 0, err
        return out, json.loads(self.stats_path.read_text())


def _game(tmp_path, marshals=(7,), trackers=()):
    path = tmp_path / "field.crgame"
    keys = {}
    with GameStore.open(path) as store:
        store.save_roster([Member(b, f"P{b}", "North" if b % 2 else "South", "Wolves" if b % 2 else "Ravens")
                           for b in range(100, 130)])
        for d in marshals:
            keys[d] = register_device(store, d, "marshal", f"M{d}").key
        for d in trackers:
            keys[d] = register_device(store, d, "tracker", f"T{d}", group="Wolves").key
    return path, keys


@pytest.fixture
def gateways():
    made = []

    def make(*ids):
        out = [FakeGateway(i) for i in ids]
        made.extend(out)
        return out

    yield make
    for g in made:
        g.close()


def wait_for(cond, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def alarms(out, kind=None):
    """New alarm rows printed by headless (updates of a row say "ALARM (update)")."""
    rows = [x for x in out.splitlines() if x.startswith("ALARM ") and not x.startswith("ALARM (update)")]
    return [x for x in rows if kind is None or f" {kind}:" in x]


# --- the points of issue 16 -------------------------------------------------------------------------------


def test_role_is_checked_before_the_tag(tmp_path, gateways):
    game, keys = _game(tmp_path, marshals=(7,), trackers=(8,))
    (gw,) = gateways(3)
    st = Station(game, [gw], tmp_path / "s.json")
    gw.rx(casualty(bytes(16), 8, 1, 101))            # a tracker may not report casualties, and the tag is wrong too
    gw.rx(casualty(keys[8], 8, 2, 101))              # a tracker's own key: still not its role
    out, stats = st.finish()
    assert (stats["rejected_role"], stats["rejected_auth"]) == (2, 0)
    assert alarms(out) == [] and gw.tx == []


def test_two_gateways_hearing_each_others_acks_raise_no_alarm(tmp_path, gateways):
    game, keys = _game(tmp_path, marshals=(7, 9))
    g1, g2 = gateways(1, 2)
    g1.echo_to, g2.echo_to = g2, g1                  # every ack one transmits, the other hears
    st = Station(game, [g1, g2], tmp_path / "s.json")
    for n in range(1, 6):
        g1.rx(casualty(keys[7], 7, n, 100 + n))
        g2.rx(casualty(keys[9], 9, n, 110 + n))
    g2.rx(stopp_called(keys[7], 7, 6, 1))
    assert wait_for(lambda: len(g1.tx) + len(g2.tx) == 11)
    out, stats = st.finish()
    assert alarms(out, "rejected_auth") == [] and alarms(out, "rejected_unknown_device") == []
    assert [x for x in alarms(out) if "rejected" in x] == [], out
    assert stats["accepted"] == 11 and stats["downlink_heard"] == 11
    assert stats["rejected_auth"] == stats["rejected_unknown_device"] == stats["rejected_role"] == 0
    assert sorted(a[4] for a in g1.acks() if a[3] == 7) == [1, 2, 3, 4, 5]
    assert [a[:2] for a in g2.acks() if a[3] == 7] == [("ack_stopp", 2)]


def test_the_window_is_256_and_a_replay_is_never_acked_more_than_its_handset_could_ask(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    st = Station(game, [gw], tmp_path / "s.json")
    k = keys[7]
    gw.rx(position(k, 7, 1000))
    gw.rx(casualty(k, 7, 900, 101))                  # 100 below the highest: new
    gw.rx(casualty(k, 7, 744, 102))                  # 256 below: new
    gw.rx(casualty(k, 7, 743, 103))                  # 257 below: stale
    assert wait_for(lambda: len(gw.tx) == 2)
    # A recording of counter 900, replayed every half second for 6.5 s: its handset would have tried
    # twice in that time (at 0 and 4 s), so it gets at most one ack more.
    recorded = casualty(k, 7, 900, 101)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 6.5:
        gw.rx(recorded)
        time.sleep(0.5)
    out, stats = st.finish()
    acked = [a[4] for a in gw.acks()]
    assert sorted(set(acked)) == [744, 900] and 1 <= acked.count(900) - 1 <= 1, acked
    assert stats["accepted"] == 3 and stats["rejected_replay"] == 1
    with GameStore.open(game, create=False) as store:
        assert sorted(s.radio.counter for s in store.log.read() if s.radio) == [744, 900, 1000]


def test_a_frame_replayed_after_the_retry_window_is_never_acked(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    # 600 game seconds per real second: the 30 minutes of section 5 pass in 3 s.
    st = Station(game, [gw], tmp_path / "s.json", "--speed", "600")
    stopp = stopp_called(keys[7], 7, 1, 4)
    gw.rx(stopp)
    assert wait_for(lambda: len(gw.tx) == 1)
    time.sleep(4)
    for _ in range(3):
        gw.rx(stopp)
        time.sleep(0.3)
    out, stats = st.finish()
    assert len(gw.tx) == 1 and stats["rejected_replay"] == 3
    assert len(alarms(out, "rejected_replay")) == 1      # one row for the three, merged


def test_one_tx_outstanding_retries_on_busy_and_duty_drops_on_radio(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    gw.answers = ["busy", "duty", "ok", "none", "ok", "radio", "ok"]
    st = Station(game, [gw], tmp_path / "s.json")
    for n in (1, 2, 3, 4):
        gw.rx(casualty(keys[7], 7, n, 100 + n))
    assert wait_for(lambda: len(gw.tx) == 7, timeout=8)
    out, stats = st.finish()
    sent = [a[4] for a in gw.acks()]
    # 1: busy, duty, then sent; 2: no answer (2 s timeout), then sent; 3: radio fault, dropped; 4: sent.
    assert sent == [1, 1, 1, 2, 2, 3, 4], sent
    times = [t for t, _ in gw.tx]
    assert times[1] - times[0] >= 0.2 and times[2] - times[1] >= 0.45        # back-off 0.25 s, doubled
    assert times[4] - times[3] >= 1.9                                         # the TXOK timeout
    tx = next(iter(stats["links"].values()))["tx"]
    assert ((tx["ok"], tx["err_busy"], tx["err_duty"], tx["timeouts"], tx["err_radio"], tx["dropped"])
            == (3, 1, 1, 1, 1, 1))


def test_a_gateway_that_never_answers_a_tx_is_not_waited_for_twice(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    gw.answers = ["none"] * 10                       # a firmware without TXOK, or a terminal
    st = Station(game, [gw], tmp_path / "s.json")
    for n in (1, 2, 3, 4):
        gw.rx(casualty(keys[7], 7, n, 100 + n))
    assert wait_for(lambda: len(gw.tx) == 4, timeout=8)
    out, stats = st.finish()
    assert [a[4] for a in gw.acks()] == [1, 2, 3, 4]          # each once, none repeated
    times = [t for t, _ in gw.tx]
    assert 1.9 <= times[1] - times[0] and times[3] - times[1] < 0.5     # one TXOK timeout, then no waiting
    tx = next(iter(stats["links"].values()))["tx"]
    assert (tx["timeouts"], tx["unanswered"], tx["retries"]) == (1, 4, 0)


def test_the_downlink_counter_goes_on_after_a_restart(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    first = Station(game, [gw], tmp_path / "s.json")
    gw.rx(casualty(keys[7], 7, 1, 101))
    gw.rx(casualty(keys[7], 7, 2, 102))
    assert wait_for(lambda: len(gw.tx) == 2)
    first.finish()
    before = max(a[2] for a in gw.acks())
    gw.asked.clear()
    second = Station(game, [gw], tmp_path / "s2.json")
    gw.rx(casualty(keys[7], 7, 3, 103))
    assert wait_for(lambda: len(gw.tx) == 3)
    second.finish()
    assert gw.acks()[-1][2] > before, gw.acks()
    assert all(ack_verifies(d, keys[7]) for _, d in gw.tx)


def test_300_unknown_devices_make_one_row_and_do_not_bury_a_stopp(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    st = Station(game, [gw], tmp_path / "s.json")
    for n in range(300):
        gw.rx(casualty(os.urandom(16), 1000 + n, 1, 101))           # strangers
        if n % 8 == 0:
            gw.rx(casualty(os.urandom(16), 7, 500 + n, 101))        # forged in the marshal's name
        if n == 150:
            gw.rx(stopp_called(keys[7], 7, 2, 1, caller=115))
    out, stats = st.finish(settle=6.0)                 # the merged rows are raised again within 5 s
    assert stats["rejected_unknown_device"] == 300 and stats["rejected_auth"] == 38
    assert len(alarms(out, "rejected_unknown_device")) == 1 and len(alarms(out, "rejected_auth")) == 1, out
    assert len(alarms(out, "injury")) == 1                     # the STOPP (called for an injury) has its own row
    assert len(alarms(out, "stopp")) == 0                      # ... and only that one
    updates = [x for x in out.splitlines() if x.startswith("ALARM (update)") and "unknown" in x]
    assert updates and re.search(r"300 frames from 300 unknown device\(s\)", updates[-1]), out


def test_an_rx_line_naming_another_gateway_is_rejected(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    st = Station(game, [gw], tmp_path / "s.json")
    gw.write(rx_line(9, casualty(keys[7], 7, 1, 101)))        # gateway 3's link says gateway 9 heard it
    gw.rx(casualty(keys[7], 7, 2, 102))
    assert wait_for(lambda: len(gw.tx) == 1)
    out, stats = st.finish()
    assert [a[1:5:3] for a in gw.acks()] == [(3, 2)]             # acked under its own id, only the true line
    assert stats["accepted"] == 1 and stats["rejected_corrupt"] == 1


def test_line_rules_long_lines_and_nul_bytes(tmp_path, gateways):
    game, keys = _game(tmp_path)
    (gw,) = gateways(3)
    st = Station(game, [gw], tmp_path / "s.json")
    gw.write("RX 3 -90 5.00 " + "AB" * 600)                     # 1214 bytes: over the 1024 of section 7
    gw.write(line("TXOK 5") + "\x00")                          # a NUL: a "line" error (section 7, vectors)
    gw.rx(casualty(keys[7], 7, 1, 101))
    assert wait_for(lambda: len(gw.tx) == 1)
    out, stats = st.finish()
    link = next(iter(stats["links"].values()))
    assert link["rejections"]["overflow"] == 1 and link["rejections"]["line"] == 1
    assert "encoding" not in link["rejections"] and stats["accepted"] == 1


def test_a_v2_stopp_keeps_its_caller_and_a_late_report_goes_where_it_happened(tmp_path, gateways):
    game, keys = _game(tmp_path, marshals=(7, 9))
    (gw,) = gateways(3)
    st = Station(game, [gw], tmp_path / "s.json")
    gw.rx(stopp_called(keys[7], 7, 1, 4, caller=115, pressed=int(time.time())))
    gw.rx(casualty(keys[9], 9, 1, 101))                         # version 1: arrival time
    pressed = int(time.time())
    time.sleep(3.5)
    gw.rx(casualty(keys[7], 7, 2, 102, pressed=pressed - 1))    # pressed before the version 1 report arrived
    assert wait_for(lambda: len(gw.tx) == 3)
    out, stats = st.finish()
    with GameStore.open(game, create=False) as store:
        radio = {(s.radio.device, s.radio.counter): s for s in store.log.read() if s.radio}
    assert radio[(7, 1)].event.type == "stopp_called" and radio[(7, 1)].event.data["caller"] == 115
    v1, late = radio[(9, 1)], radio[(7, 2)]
    assert late.seq > v1.seq and late.event.t < v1.event.t        # stored later, placed where it happened


def test_sim_says_which_gateways_still_wait_for_a_station(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "controlroom", "sim", "--pty", "--gateways", "2", "--duration", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        names = proc.stdout.readline().split()
        assert len(names) == 2
        fd = os.open(names[0], os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd)
        os.write(fd, (line("ID?") + "\n").encode())
        lines, t0 = [], time.monotonic()
        while time.monotonic() - t0 < 25 and not any("still waiting" in x for x in lines):
            lines.append(proc.stdout.readline())
        os.close(fd)
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    note = next(x for x in lines if "still waiting" in x)
    assert f"gateway 2 on {names[1]}" in note and "1 of 2 gateways identified" in note
    assert names[0] not in note


def test_headless_backs_off_and_says_once_that_a_gateway_is_gone(tmp_path):
    """A TCP gateway that accepts and drops every connection: tries at 0, 1, 3, 7 s, one "lost" line."""
    game, _keys = _game(tmp_path)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    accepted = []

    def serve():
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append(time.monotonic())
            conn.close()

    done = threading.Event()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        r = subprocess.run([sys.executable, "-m", "controlroom", "headless", "--db", str(game), "--port",
                            "socket://127.0.0.1:%d" % server.getsockname()[1], "--quit-after", "9"],
                           capture_output=True, text=True, timeout=60)
    finally:
        done.set()
        thread.join(2)
        server.close()
    assert r.returncode == 0, r.stderr
    gaps = [b - a for a, b in zip(accepted, accepted[1:])]
    assert 3 <= len(accepted) <= 5, accepted
    assert all(g2 > g1 * 1.5 for g1, g2 in zip(gaps, gaps[1:])), gaps            # 1, 2, 4 s
    said = [x for x in r.stdout.splitlines() if x.startswith("gateway ")]
    assert sum(": lost" in x for x in said) == 1 and len(said) <= 4, r.stdout
