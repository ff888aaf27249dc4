"""The gateway simulator on real pseudo-terminals, with a minimal station written here.

The station asks ``ID?`` and acknowledges what verifies (codec.ack_for, keys
from the game database); nothing else.  Battles are short and fast: no test
waits a fixed long time, and every thread and port is closed at the end.
"""

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from types import SimpleNamespace

import pytest
import serial

from controlroom.commands.sim import register_devices
from controlroom.radio import codec
from controlroom.sim import battle
from controlroom.sim.battle import Battle, Transmission
from controlroom.sim.ports import PtyPort, close_all, open_ptys
from controlroom.sim.simulator import Simulator
from controlroom.store.devices import devices
from controlroom.store.game import GameStore


def wait_until(predicate, timeout=5.0):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


class Station:
    """Reads every port (pyserial on the pty slaves), asks ID?, acks what verifies."""

    def __init__(self, paths, keys, ack_copy=1):
        self.sers = [serial.Serial(p, baudrate=115200, timeout=0) for p in paths]
        self.keys, self.ack_copy = keys, ack_copy
        self.lines = []                         # (real time, port index, raw line)
        self.copies = Counter()                 # (device, counter) -> verified copies
        self.acked = {}                         # (device, counter) -> real time the ack was written
        self.downlink = 0
        self.downlink_heard = 0
        self._bufs = [b""] * len(paths)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)
        self._thread.start()

    def identify(self, which=None):
        for i in range(len(self.sers)) if which is None else which:
            self.sers[i].write(b"ID?\n" if i % 2 else (codec.format_id_request() + "\n").encode())

    def kinds(self):
        out = Counter()
        for _t, _i, raw in list(self.lines):
            try:
                out[codec.parse_line(raw)["kind"]] += 1
            except codec.FrameError as exc:
                out[exc.reason] += 1
        return out

    def _run(self):
        open_ = list(self.sers)
        while open_ and not self._stop.is_set():
            ready, _, _ = select.select(open_, [], [], 0.02)
            for ser in ready:
                i = self.sers.index(ser)
                try:
                    self._bufs[i] += ser.read(ser.in_waiting or 1)
                except (OSError, serial.SerialException):      # the simulator has ended: its pty is gone
                    open_.remove(ser)
                    continue
                while b"\n" in self._bufs[i]:
                    raw, self._bufs[i] = self._bufs[i].split(b"\n", 1)
                    self.lines.append((time.monotonic(), i, raw))
                    self._heard(i, raw)

    def _heard(self, i, raw):
        try:
            line = codec.parse_line(raw)
        except codec.FrameError:
            return
        if line["kind"] != "rx":
            return
        frame = codec.decode_frame(line["frame"])
        if frame.type in ("ack", "ack_stopp"):        # an ack another gateway transmitted: downlink heard
            self.downlink_heard += 1
            return
        if not codec.verify(frame, self.keys[frame.device]):
            return
        key = (frame.device, frame.counter)
        self.copies[key] += 1
        if frame.needs_ack and self.copies[key] >= self.ack_copy:
            self.downlink += 1
            self.acked.setdefault(key, time.monotonic())
            ack = codec.ack_for(frame, self.keys[frame.device], line["gateway"], self.downlink)
            self.sers[i].write((codec.format_tx_line(ack) + "\n").encode())

    def drain(self, quiet=0.3):
        """Wait until nothing has come for ``quiet`` seconds."""
        wait_until(lambda: self.lines and time.monotonic() - self.lines[-1][0] > quiet, 10)

    def close(self):
        self._stop.set()
        self._thread.join()
        for ser in self.sers:
            ser.close()


@pytest.fixture
def game(tmp_path):
    """A game with a generated roster and the simulator's devices registered (keys in the database)."""
    members = battle.generate_roster(2, 4, 40, seed=21)
    with GameStore.open(tmp_path / "g.crgame") as store:
        store.save_roster(members)
        devs = register_devices(store, battle.plan_devices(members, seed=21))
        keys = {d.id: d.key for d in devices(store).values()}
    return SimpleNamespace(members=members, devices=devs, keys=keys, path=tmp_path / "g.crgame")


@pytest.fixture
def running():
    """Start a simulator on new ptys in a thread; everything is stopped and closed at teardown."""
    made = []

    def start(b, gateways=3, station_ack_copy=1, keys=None, **options):
        ports = open_ptys(gateways)
        sim = Simulator(b, ports, **{"speed": 300, "drain": 1.0, "seed": 1, **options})
        thread = threading.Thread(target=sim.run)
        thread.start()
        st = Station([p.name for p in ports], keys or b.keys(), station_ack_copy)
        made.append((sim, thread, st, ports))
        return sim, thread, st

    yield start
    for sim, thread, st, ports in made:
        sim.stop()
        thread.join(10)
        st.close()
        close_all(ports)


def test_the_battle_starts_only_when_every_gateway_is_identified(game, running):
    b = battle.generate(game.members, game.devices, 10, seed=21)
    sim, thread, st = running(b, gateways=3)
    st.identify([0, 2])
    wait_until(lambda: st.kinds()["id"] == 2)
    time.sleep(0.3)                             # 90 game seconds: the first frames would be out by now
    assert not sim.started.is_set() and st.kinds() == {"id": 2}
    st.identify([1])
    wait_until(lambda: st.kinds()["rx"] > 0)
    assert sim.started.is_set() and sim.identified == [True, True, True]
    ids = [codec.parse_line(raw) for _t, _i, raw in st.lines if raw.startswith(b"ID ")]
    assert sorted(i["gateway"] for i in ids) == [1, 2, 3]
    assert ids[0]["fw"] == "sim-1.0" and ids[0]["region"] == "EU868" and ids[0]["sf"] == 9
    by_port = {i: codec.parse_line(raw)["gateway"] for _t, i, raw in st.lines if raw.startswith(b"ID ")}
    assert by_port == {0: 1, 1: 2, 2: 3}        # gateway k is port k - 1
    sim.stop()
    thread.join(5)
    truth = sim.truth()
    assert not truth["complete"] and not thread.is_alive()


def test_truth_matches_what_the_station_read(game, running):
    b = battle.generate(game.members, game.devices, 15, seed=22)
    sim, thread, st = running(b, gateways=3, keys=game.keys, loss=0.1, corrupt_rate=0.05, forge_rate=0.05,
                              replay_rate=0.05)
    st.identify()
    thread.join(30)
    assert not thread.is_alive()
    st.drain()
    truth = sim.truth()
    assert truth["complete"] and truth["late_copies"] == 0 and truth["unacked"] == 0
    kinds = st.kinds()
    assert kinds["checksum"] == truth["sent_corrupt"] > 0 and kinds["line"] == 0
    assert kinds["txok"] == truth["acks"]["received"] == st.downlink
    first, forged, replayed, copies, heard_back = {}, 0, 0, 0, 0
    deaths, valhalla = Counter(), Counter()
    sides = {m.badge: m.side for m in game.members}
    for t, _i, raw in st.lines:
        try:
            line = codec.parse_line(raw)
        except codec.FrameError:
            continue
        if line["kind"] != "rx":
            continue
        frame = codec.decode_frame(line["frame"])
        if frame.type in ("ack", "ack_stopp"):                 # heard back from another gateway
            heard_back += 1
            continue
        if not codec.verify(frame, game.keys[frame.device]):
            forged += 1
            continue
        key = (frame.device, frame.counter)
        if key not in first:
            first[key] = t
            if frame.type == "valhalla":
                valhalla[sides[frame.fields["badge"]]] += 1
            elif frame.type == "casualty" and frame.fields["kind"] in codec.DEATH_KINDS:
                deaths[sides[frame.fields["badge"]]] += 1
        elif (t - first[key]) * sim.speed > 150:       # replays come 180+ game seconds after the first copy
            replayed += 1
        else:
            copies += 1
    assert len(first) == truth["sent_valid_unique"] > 100
    assert forged == truth["sent_forged"] > 0
    assert replayed == truth["sent_replayed"] > 0
    assert copies == truth["sent_duplicate_copies"] > 0
    assert set(truth["sides"]) == {"North", "South"} and sum(deaths.values()) > 0
    for side, tallies in truth["sides"].items():
        assert tallies == {"deaths_reported": deaths[side], "valhalla_checkins": valhalla[side]}
    # With three gateways each ack is heard back by the two that did not send it.
    assert heard_back == truth["acks_heard_back"] == st.downlink_heard == 2 * st.downlink > 0
    lines = sum(kinds[k] for k in ("rx", "checksum")) - heard_back
    assert lines == truth["on_air"]["lines"] == sum(truth[k] for k in (
        "sent_valid_unique", "sent_duplicate_copies", "sent_replayed", "sent_forged", "sent_corrupt"))


def test_retries_stop_once_acknowledged(game, running):
    """One gateway, nothing lost: the station acks only the third copy of each report."""
    b = battle.generate(game.members, game.devices, 4, seed=22)
    wanted = [t for t in b.transmissions if t.needs_ack]
    assert len(wanted) >= 5
    sim, thread, st = running(b, gateways=1, station_ack_copy=3, speed=80, drain=2.0)
    st.identify()
    thread.join(30)
    st.drain()
    times, sent = defaultdict(list), defaultdict(set)
    for t, _i, raw in st.lines:
        if raw.startswith(b"RX "):
            data = codec.parse_line(raw)["frame"]
            frame = codec.decode_frame(data)
            times[(frame.device, frame.counter)].append(t)
            sent[(frame.device, frame.counter)].add(data)
    for tx in wanted:
        key = (tx.device, tx.counter)
        assert st.copies[key] == 3, tx                     # three times, then never again
        assert sent[key] == {tx.frame}                     # the identical bytes
        gaps = [(b_ - a) * sim.speed for a, b_ in zip(times[key], times[key][1:])]
        assert gaps[0] > 2.5 and gaps[1] > 6               # after 4 (+0-1) and 8 (+0-1) game seconds
    assert sim.truth()["acks"]["matched"] == len(wanted) and sim.truth()["unacked"] == 0


class FakePort:
    """A port that records what the simulator writes; a station asks ID? once."""

    name = "fake"

    def __init__(self):
        self.written, self._asked = [], False

    def read(self, timeout):
        if not self._asked:
            self._asked = True
            return b"ID?\n"
        time.sleep(timeout)
        return b""

    def write(self, data, stop=None):
        self.written += data.splitlines(keepends=True)       # (a gateway's outbox writes what piled up at once)
        return True

    def close(self):
        pass


def test_unacknowledged_reports_give_up_after_eight_tries_stopps_never():
    members = battle.generate_roster(1, 1, 2)
    dev = battle.plan_devices(members)[0]
    cas = codec.encode_casualty(dev.key, dev.id, 500, 1, "down")
    stopp = codec.encode_stopp_called(dev.key, dev.id, 501, 3, "injury", None, None)
    txs = [Transmission(0, dev.id, "casualty", cas, 500, True),
           Transmission(0, dev.id, "stopp_called", stopp, 501, True)]
    b = Battle(1, members, [dev], battle.ORIGIN, 20 * 60_000, txs, [], None)
    port = FakePort()
    sim = Simulator(b, [port], speed=12_000, drain=0.5)
    truth = sim.run()
    rx = Counter(codec.decode_frame(codec.parse_line(w)["frame"]).counter for w in port.written if w.startswith(b"RX"))
    assert rx[500] == 8                                          # 1 + 7 retries, then NOT HEARD
    assert rx[501] >= 1 + 4 + (20 * 60 - 60) // 61               # 4, 8, 16, 32, then every 60 (+jitter) s
    assert truth["gave_up"] == 1 and truth["sent_valid_unique"] == 2
    assert truth["sent_duplicate_copies"] == 7 + rx[501] - 1


class UnreadPort(FakePort):
    """A gateway whose station asked ID? and then stopped reading (killed): every write waits, for ever."""

    name = "unread"

    def write(self, data, stop=None):
        self.written.append(data)
        stop.wait()
        return False


def test_a_gateway_nobody_reads_holds_up_neither_the_air_nor_the_gateway_beside_it(game, monkeypatch):
    """Gateway 1's station is gone; its mast partner, gateway 2, is read and acks: every report is acked,
    at once, and gateway 1's lines are dropped once its outbox is full, as a real gateway's would be."""
    from controlroom.sim import ports

    b = battle.generate(game.members, game.devices, 30, seed=25)
    wanted = [t for t in b.transmissions if t.needs_ack]
    unread, read = UnreadPort(), open_ptys(1)[0]
    monkeypatch.setattr(ports, "OUTBOX_LINES", 20)
    sim = Simulator(b, [unread, read], speed=200, drain=1.0, seed=3, mirror={0: 1})
    thread = threading.Thread(target=sim.run)
    thread.start()
    st = Station([read.name], game.keys)
    try:
        st.identify()
        thread.join(60)
        assert not thread.is_alive()
    finally:
        sim.stop()
        st.close()
        read.close()
    truth = sim.truth()
    assert truth["complete"] and truth["unacked"] == 0 and truth["acks"]["matched"] == len(wanted) > 20
    assert truth["gateway_dropped"] > 0 and len(unread.written) == 1
    assert max(ms for _at, ms in sim.ack_delays) < 1000        # (the stall is noticed once, in half a second)


def test_damaged_lines_fail_only_their_checksum_and_forgeries_only_their_tag(game):
    b = battle.generate(game.members, game.devices, 12, seed=24)
    port = FakePort()
    sim = Simulator(b, [port], speed=20_000, drain=0.2, corrupt_rate=0.3, forge_rate=0.3, seed=5)
    truth = sim.run()
    bad = forged = 0
    for w in port.written:
        if not w.startswith(b"RX"):
            continue
        try:
            line = codec.parse_line(w)
        except codec.FrameError as exc:
            assert exc.reason == "checksum"
            bad += 1
            continue
        frame = codec.decode_frame(line["frame"])               # a forgery decodes: only its tag is wrong
        if not codec.verify(frame, game.keys[frame.device]):
            forged += 1
    assert bad == truth["sent_corrupt"] > 10 and forged == truth["sent_forged"] > 5


def _sim_cli(*args):
    return [sys.executable, "-m", "controlroom.commands.sim", *args]


def test_cli_registers_the_game_prints_the_ptys_first_and_writes_the_truth(tmp_path):
    db, truth_path = tmp_path / "cli.crgame", tmp_path / "truth.json"
    args = ("--pty", "--gateways", "2", "--db", str(db), "--sides", "2", "--groups", "4", "--players", "24",
            "--seed", "3", "--speed", "600", "--duration", "3", "--drain", "0.5", "--truth", str(truth_path))
    proc = subprocess.Popen(_sim_cli(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    st = None
    try:
        paths = proc.stdout.readline().split()
        assert len(paths) == 2 and all(os.path.exists(p) for p in paths)
        with GameStore.open(db, create=False) as store:         # registered before the first line
            keys = {d.id: d.key for d in devices(store).values()}
            assert len(store.roster()) == 24 and len(keys) == 2 + 1 + 4 + 2
        st = Station(paths, keys)
        st.identify()
        out, err = proc.communicate(timeout=30)
    finally:
        _end(proc)
        if st is not None:
            st.close()
    assert proc.returncode == 0, err
    assert "the battle is over" in out and "truth written" in out
    truth = json.loads(truth_path.read_text())
    assert truth["complete"] and truth["sent_valid_unique"] == len(st.copies) > 0
    # A second run on the same game keeps its roster and its devices with their keys.
    proc = subprocess.Popen(_sim_cli("--pty", "--db", str(db), "--players", "99"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        notes = [proc.stdout.readline() for _ in range(3)][1:]       # communicate() would not see these
        with GameStore.open(db, create=False) as store:
            assert {d.id: d.key for d in devices(store).values()} == keys and len(store.roster()) == 24
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        _end(proc)
    assert proc.returncode == 0, err
    assert "using the roster of cli: 24 players (--roster and --sides/--groups/--players are ignored)\n" in notes
    assert "stopped before the end of the battle" in out


def _end(proc):
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_cli_on_an_existing_port_and_sigterm_writes_the_truth(tmp_path):
    port = PtyPort()                            # the "existing serial port": the test holds the other end
    truth_path = tmp_path / "t.json"
    proc = subprocess.Popen(_sim_cli("--port", port.name, "--seed", "4", "--speed", "600", "--truth", str(truth_path)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().split() == [port.name]
        assert "no --db" in proc.stdout.readline() + proc.stdout.readline()
        port.write(b"ID?\n")
        got = b""
        while got.count(b"\nRX ") < 3:
            ready, _, _ = select.select([port.master], [], [], 10)
            assert ready
            got += os.read(port.master, 4096)
        assert got.startswith(b"ID 1 fw=sim-1.0 ")
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        _end(proc)
        port.close()
    assert proc.returncode == 0
    truth = json.loads(truth_path.read_text())
    assert not truth["complete"] and truth["gateways"] == 1 and truth["on_air"]["lines"] >= 3


def test_cli_refuses_a_roster_and_a_generated_one_at_once(tmp_path):
    r = subprocess.run(_sim_cli("--pty", "--roster", "x.csv", "--players", "10"), capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 1 and "not both" in r.stderr and r.stdout == ""


def test_help_says_what_a_station_without_the_keys_does_and_no_qt_is_imported():
    code = ("import argparse, sys\n"
            "from controlroom.commands import sim\n"
            "import controlroom.sim.simulator\n"
            "p = argparse.ArgumentParser(prog='controlroom sim')\n"
            "sim.add_arguments(p)\n"
            "print(p.format_help())\n"
            "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken'))))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert "WITHOUT --db THE STATION DOES NOT\nKNOW THE DEVICES' KEYS" in r.stdout and "--corrupt-rate F" in r.stdout
    assert r.stdout.rstrip().endswith("[]")
