"""A station and a real TAK server (taky): groups and STOPPs reach another client; an outage; a phone heard back.

taky runs as its own program on 127.0.0.1; a second client connected to it
records what it passes on.  The station is the one the window and headless
run (``core.wiring.Station``), with a gateway on a real pseudo-terminal whose
acknowledgements the test times while taky is away.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import tty

import pytest
from tak_captures import ATAK_PLI_XML
from tak_helpers import CotClient, Taky, callsign, wait_until

from controlroom.core.wiring import Station
from controlroom.engine.commands import CallStopp, LiftStopp
from controlroom.game.devices import VIA_TAK
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.tak_settings import SETTINGS_KEY, TakSettings
from controlroom.geo.places import Place
from controlroom.radio import codec
from controlroom.radio.tak_objects import uid_prefix
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from controlroom.store.maps import save_places

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(11, "Gerd", "South", "Ravens")]
PREFIX = uid_prefix("tak")


class Gateway:
    """A LoRa gateway on the master side of a pseudo-terminal: identifies itself, passes frames, times acks."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.buf = b""
        self.identified = False
        self.sent: dict[int, float] = {}        # counter -> when its frame was passed to the station
        self.acked: dict[int, float] = {}       # acked counter -> when its ack came back

    def poll(self) -> bool:
        while select.select([self.master], [], [], 0)[0]:
            self.buf += os.read(self.master, 4096)
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            if line.startswith(b"ID?"):
                self._write(codec.format_id_line(3, "test-1"))
                self.identified = True
            elif line.startswith(b"TX "):
                frame = codec.decode_frame(codec.parse_line(line)["frame"])
                self.acked.setdefault(frame.fields["acked_counter"], time.monotonic())
                self._write(codec.format_txok_line(frame.counter))
        return True

    def _write(self, text: str) -> None:
        data = (text + "\n").encode()
        while data:
            data = data[os.write(self.master, data):]

    def frame(self, frame: bytes) -> None:
        self.sent.setdefault(codec.decode_frame(frame).counter, time.monotonic())
        self._write(codec.format_rx_line(3, -90, 7.0, frame))

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "tak.crgame"
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        keys = {d: register_device(store, d, role, f"D{d}", group=group).key
                for d, role, group in ((7, "marshal", None), (31, "tracker", "Wolves"), (32, "tracker", "Ravens"))}
        register_device(store, 5, "marshal", "Marshal West", tak_uid="ANDROID-deadbeef")
        save_places(store, [Place("HQ", 58.3790, 26.7200), Place("Valhalla", 58.3761, 26.7318)])
        store.set_meta(SETTINGS_KEY, TakSettings({"North": "f", "South": "h"}, every_s=0.5).to_json())
    return str(path), keys


def test_the_station_feeds_taky_hears_a_phone_and_finds_taky_again_after_an_outage(qtbot, tmp_path, game):
    db, keys = game
    taky = Taky(tmp_path / "taky")
    taky.start()
    clients, gw, station = [], Gateway(), None
    try:
        watcher = CotClient(taky.port)
        clients.append(watcher)
        station = Station(db, [gw.path], tak=[taky.url], publish_interval_ms=50, queue_path=str(tmp_path / "q"),
                          tak_options={"tick_s": 0.05})
        station.start()
        qtbot.waitUntil(lambda: gw.poll() and gw.identified and station.core.info is not None, timeout=20_000)
        counter = iter(range(1, 100_000))

        def positions(step=0):
            for device, lat in ((31, 58.3800), (32, 58.3820)):
                gw.frame(codec.encode_position(keys[device], device, next(counter), int((lat + step * 1e-5) * 1e7),
                                               267200000, 90, 1, 7))

        positions()
        wolves, ravens = f"{PREFIX}group.Wolves", f"{PREFIX}group.Ravens"
        qtbot.waitUntil(lambda: gw.poll() and bool(watcher.got(wolves) and watcher.got(ravens)), timeout=10_000)
        (w, *_), (r, *_) = watcher.got(wolves), watcher.got(ravens)
        assert (w.get("type"), callsign(w)) == ("a-f-G-U-C", "Wolves")
        assert (r.get("type"), callsign(r)) == ("a-h-G-U-C", "Ravens")
        assert w.find("detail/remarks").text == "North: 2 up, 0 down, 0 dead"

        # A STOPP: the emergency, then its cancel, each under the STOPP's uid and callsign.
        station.core.send(CallStopp("injury"))
        stopp = f"{PREFIX}stopp.GM1"
        qtbot.waitUntil(lambda: bool(watcher.got(stopp, "b-a-o-tbl")), timeout=10_000)
        assert callsign(watcher.got(stopp, "b-a-o-tbl")[0]) == "STOPP GM1"
        qtbot.waitUntil(lambda: bool(watcher.got(f"{stopp}.casevac", "b-r-f-h-c")), timeout=10_000)   # an injury
        station.core.send(LiftStopp("GM1", False))
        qtbot.waitUntil(lambda: bool(watcher.got(stopp, "b-a-o-can")), timeout=10_000)
        assert callsign(watcher.got(stopp, "b-a-o-can")[0]) == "STOPP GM1"

        # A registered marshal's phone, through taky: stored as the marshal's position, come by TAK.
        phone = CotClient(taky.port)
        clients.append(phone)
        phone.send(ATAK_PLI_XML)
        worker = station.core.worker
        qtbot.waitUntil(lambda: "marshal:5" in worker.state.positions, timeout=10_000)
        assert worker.state.positions["marshal:5"][1:3] == (1.234567, -3.141592)

        # taky goes away mid-game: acks go on, the queue keeps one event per object.
        link = station.tak.connections[0]
        taky.stop()
        qtbot.waitUntil(lambda: link.state in ("lost", "retrying", "connecting"), timeout=10_000)
        down_at, longest_queue, casualties = time.monotonic(), 0, []
        while time.monotonic() - down_at < 3.0:
            n = next(counter)
            casualties.append(n)
            gw.frame(codec.encode_casualty(keys[7], 7, n, 1 + n % 2, "down"))
            for _ in range(5):
                positions(n)
            qtbot.wait(100)
            gw.poll()
            longest_queue = max(longest_queue, len(link.queue))
        # Every report acknowledged while taky is still away: acks never wait for the TAK server (how fast they
        # are meanwhile, p99 against the 50 ms, is benchmarks/bench_tak.py --mode outage's figure).
        qtbot.waitUntil(lambda: gw.poll() and all(n in gw.acked for n in casualties), timeout=10_000)
        assert link.state != "connected" and link.connects == 1
        assert longest_queue <= len(station.tak.feed.entries) and link.queue.dropped == 0

        back_at = taky.start()
        late = CotClient(taky.port)
        clients.append(late)
        qtbot.waitUntil(lambda: link.connects == 2, timeout=15_000)
        assert time.monotonic() - back_at < 10.0
        qtbot.waitUntil(lambda: bool(late.got(wolves) and late.got(ravens)), timeout=10_000)   # everything again
        assert time.monotonic() - back_at < 10.0
    finally:
        if station is not None:
            assert station.shutdown()
        for client in clients:
            client.close()
        taky.stop()
        gw.close()
    with GameStore.open(db, create=False) as store:
        vias = {(s.event.source, s.radio.via) for s in store.log.read() if s.radio is not None}
    assert ("marshal:5", VIA_TAK) in vias and ("marshal:7", None) in vias


def test_headless_with_tak_sends_what_its_game_has(tmp_path, game):
    """The command line's --tak reaches the station: a headless run sends the game's STOPP, and says so."""
    db, _keys = game
    with GameStore.open(db, create=False) as store:
        store.log.append([make_event(1000, "stopp_called", "gm", stopp="GM1", reason="danger", lat=58.38, lon=26.72)])
    taky = Taky(tmp_path / "taky")
    taky.start()
    watcher = CotClient(taky.port)
    stats = tmp_path / "stats.json"
    try:
        done = subprocess.run([sys.executable, "-m", "controlroom", "headless", "--db", db, "--tak", taky.url,
                               "--quit-after", "4", "--stats-json", str(stats)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        assert f"TAK {taky.url}: connected" in done.stdout
        assert wait_until(lambda: bool(watcher.got(f"{PREFIX}stopp.GM1", "b-a-o-tbl")), 10)
    finally:
        watcher.close()
        taky.stop()
    tak = json.loads(stats.read_text())["links"]["tak"]
    assert tak["connections"][taky.url]["sent"] >= 1 and tak["connections"][taky.url]["connects"] == 1
