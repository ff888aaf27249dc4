"""The firmware against the real station: a handset and a gateway running the
firmware code (fake radios on a fake Air) with the gateway's serial line on a
pseudo-terminal, read by a ``controlroom headless`` process.

The handset is provisioned from the file ``controlroom keys export`` wrote.
Its report is accepted and stored, and the station's ack comes back through
the gateway to the handset's screen ("sent").  A handset claiming the same
device id with a wrong key is rejected (bad tag, alarm) and never acked.
"""

import json
import queue
import subprocess
import sys
import threading
import time

import pytest

from controlroom.cli import main as cli
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.store.game import GameStore
from tests.support.firmware_import import load

config, counter, fakes, gateway, handset = load("config", "counter", "fakes", "gateway", "handset")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")

MARSHAL, GATEWAY = 258, 7


class Rig:
    """Firmware gateway on a pty + firmware handsets on one Air, stepped by a thread."""

    def __init__(self, gw_cfg):
        from controlroom.sim.ports import PtyPort
        self.pty = PtyPort()
        self.air = fakes.Air()
        radio = fakes.FakeRadio("gateway", -91, 6.75)
        self.air.join(radio)
        self.gateway = gateway.Gateway(gw_cfg, radio, lambda text: self.pty.write(text.encode()), self.now())
        self.handsets = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="firmware rig")

    @staticmethod
    def now():
        return int(time.monotonic() * 1000)

    def add_handset(self, cfg):
        radio = fakes.FakeRadio("handset %d" % len(self.handsets))
        self.air.join(radio)
        keys, display = fakes.FakeKeys(), fakes.FakeDisplay()
        m = handset.Marshal(cfg, radio, display, keys, counter.CounterStore(fakes.FakeFlash()),
                            fakes.FakeGps(583776000, 267290000, 1, 9), fakes.FakeBattery(90),
                            lambda n: 0, self.now())
        m.beacon.next_ms = 10 ** 15           # no position pings in this test
        self.handsets.append((m, keys, display))
        return m, keys, display

    def _loop(self):
        while not self.stop.is_set():
            data = self.pty.read(0.02)
            with self.lock:
                if data:
                    self.gateway.feed(data)
                now = self.now()
                for m, _, _ in self.handsets:
                    m.step(now)
                self.gateway.step(now)

    def press(self, keys, *pressed):
        with self.lock:
            keys.press(*pressed)

    def wait_for(self, predicate, timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if predicate():
                    return True
            time.sleep(0.05)
        return False


def _reader(stream, lines):
    for line in stream:
        lines.put(line.rstrip("\n"))


def _wait_line(lines, text, seen, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            continue
        seen.append(line)
        if text in line:
            return line
    raise AssertionError("no %r from the station; it said:\n%s" % (text, "\n".join(seen)))


def test_firmware_report_through_a_pty_into_headless(tmp_path):
    game = tmp_path / "field.crgame"
    with GameStore.open(game) as store:
        store.save_roster([Member(1234, "Aldo", "North", "Wolves")])
    assert cli(["keys", "new", str(MARSHAL), "--role", "marshal", "--db", str(game)]) == 0
    assert cli(["keys", "new", str(GATEWAY), "--role", "gateway", "--db", str(game)]) == 0
    files = {}
    for device in (MARSHAL, GATEWAY):
        out = tmp_path / ("%d.json" % device)
        assert cli(["keys", "export", str(device), "--db", str(game), "--out", str(out)]) == 0
        files[device] = config.load(out.read_text())
    marshal_cfg, gw_cfg = files[MARSHAL], files[GATEWAY]
    forger_cfg = dict(marshal_cfg, key=bytes(16))

    rig = Rig(gw_cfg)
    stats = tmp_path / "stats.json"
    station = subprocess.Popen(
        [sys.executable, "-m", "controlroom", "headless", "--db", str(game), "--port", rig.pty.name,
         "--stats-json", str(stats)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines, seen = queue.Queue(), []
    reader = threading.Thread(target=_reader, args=(station.stdout, lines), daemon=True)
    reader.start()
    rig.thread.start()
    try:
        identified = _wait_line(lines, "identified", seen)
        assert "gateway 7 (1.1.0, SF9)" in identified                # the app recognised the firmware's ID line

        m, keys, display = rig.add_handset(marshal_cfg)
        rig.press(keys, "1", "2", "3", "4", "A", "#")
        assert rig.wait_for(lambda: "1234 DOWN\n  sent" in display.text()), display.text()

        forger, fkeys, fdisplay = rig.add_handset(forger_cfg)
        forger.counter.value = forger.counter.reserved = 10 ** 6      # a fresh counter: not a replay
        rig.press(fkeys, "9", "9", "A", "A", "#")
        _wait_line(lines, "rejected_auth", seen)
        assert "waiting" in fdisplay.text()
    finally:
        rig.stop.set()
        if rig.thread.is_alive():
            rig.thread.join(5)
        station.terminate()
        try:
            station.wait(timeout=30)
        finally:
            if station.poll() is None:
                station.kill()
                station.wait()
            reader.join(10)                   # the station's stdout is at its end
            err = station.stderr.read()
            station.stderr.close()
            station.stdout.close()
            rig.pty.close()
    assert station.returncode == 0, err
    s = json.loads(stats.read_text())
    assert s["accepted"] == 1 and s["rejected_auth"] >= 1 and s["rejected_corrupt"] == 0
    assert s["links"][rig.pty.name]["identity"]["gateway"] == GATEWAY
    with GameStore.open(game, create=False) as store:
        stored = [(x.event.type, x.event.data.get("badge"), x.radio.device) for x in store.log.read() if x.radio]
    assert stored == [("down", 1234, MARSHAL)]
    on_air = [codec.decode_frame(data) for _, data in rig.air.log]
    assert [f.type for f in on_air][:2] == ["casualty", "ack"]
    assert codec.verify(on_air[1], marshal_cfg["key"]) and on_air[1].device == GATEWAY
    assert not any(f.type == "ack" and f.fields["acked_counter"] == 10 ** 6 for f in on_air)
