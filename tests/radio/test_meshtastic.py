"""Stock Meshtastic nodes as gateways and phones as marshal handsets (issue 21).

The pure part (packets to events, trust, copies, answers) runs without the
``meshtastic`` package; the end-to-end test runs a station against the fake
node on a real pty, through the package's unmodified SerialInterface.
"""

import sqlite3
import threading

import pytest

from controlroom.game.devices import VIA_MESH_CHANNEL, VIA_MESH_PKI, DeviceInfo
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.radio import mesh_ingest as mi
from controlroom.radio.mesh_ingest import BROADCAST, MeshHeard, MeshIngest, MeshReply, from_packet
from controlroom.radio.meshtastic_link import is_meshtastic_url, parse_url
from controlroom.radio.registry import check_url

PHONE, TRACKER, STRANGER, GW = 0xC0FFEE01, 0xC0FFEE02, 0xBADBAD01, 0x0A1B2C3D
MEMBERS = [Member(1, "Aino", "North", "Hundid"), Member(2, "Jaan", "North", "Hundid"),
           Member(3, "Mari", "South", "Põhja Karud")]
DEVICES = {21: DeviceInfo(21, "marshal", "Phone 21", meshtastic="!c0ffee01"),
           22: DeviceInfo(22, "tracker", "", group="Hundid", meshtastic="!c0ffee02"),
           23: DeviceInfo(23, "marshal", "LoRa handset")}
NOW = 14 * 3_600_000 + 2 * 60_000
NO_MESHTASTIC = "the meshtastic extra is not installed: pip install 'controlroom[meshtastic]'"


def heard(text=None, sender=PHONE, to=BROADCAST, pid=0x1234A001, pki=False, channel=0, position=None, port=None):
    port = port or (mi.POSITION_PORT if position is not None else mi.TEXT_PORT)
    return MeshHeard("meshtastic:/dev/x", "!0a1b2c3d", sender, to, pid, channel, port, text, position, pki, -80.0, 5.5)


@pytest.fixture
def state():
    return GameState(MEMBERS)


def test_a_casualty_on_the_channel_becomes_an_event_with_channel_trust_and_an_answer_on_the_channel(state):
    ingest = MeshIngest(DEVICES)
    out = ingest.receive(heard("d 1", channel=2), NOW, state)
    assert out.verdict == mi.ACCEPTED and out.event == ("down", {"badge": 1}, "marshal:21")
    assert out.radio.device == 21 and out.radio.counter == 0x1234A001 and out.radio.via == VIA_MESH_CHANNEL
    assert out.radio.gateways == ("mesh:!0a1b2c3d",)
    assert out.reply == MeshReply("meshtastic:/dev/x", BROADCAST, 2, "OK: 1 down 14:02")


def test_a_pki_direct_message_is_the_stronger_trust_and_is_answered_directly(state):
    out = MeshIngest(DEVICES).receive(heard("K 2", to=GW, pki=True), NOW, state)
    assert out.event == ("died", {"badge": 2}, "marshal:21") and out.radio.via == VIA_MESH_PKI
    assert out.reply.to == PHONE and out.reply.text == "OK: 2 dead 14:02"
    # A direct message the node decrypted with the channel's key only is channel trust.
    out = MeshIngest(DEVICES).receive(heard("K 2", to=GW, pki=False), NOW, state)
    assert out.radio.via == VIA_MESH_CHANNEL and out.reply.to == PHONE


def test_copies_are_dropped_by_packet_id_for_30_minutes(state):
    ingest = MeshIngest(DEVICES)
    assert ingest.receive(heard("D 1"), NOW, state).verdict == mi.ACCEPTED
    assert ingest.receive(heard("D 1"), NOW + 29 * 60_000, state).verdict == mi.DUPLICATE
    assert ingest.receive(heard("D 1", pid=0x1234A002), NOW, state).verdict == mi.ACCEPTED
    # After 30 minutes the station's memory forgets; the event log's unique (device, packet id) still refuses it.
    assert ingest.receive(heard("D 1"), NOW + 31 * 60_000, state).verdict == mi.ACCEPTED
    assert ingest.stats()["total"]["duplicates"] == 1


def test_bad_messages_are_answered_at_once_and_make_no_event(state):
    ingest = MeshIngest(DEVICES)
    out = ingest.receive(heard("D 999"), NOW, state)
    assert out.verdict == mi.BAD_TEXT and out.event is None and out.reply.text == "? badge 999 unknown"
    out = ingest.receive(heard("STOPP oht Ilvesed", pid=2), NOW, state)
    assert out.reply.text == "? group 'Ilvesed' unknown"
    out = ingest.receive(heard("what now?", to=GW, pid=3), NOW, state)       # a direct message: always answered
    assert out.verdict == mi.BAD_TEXT and out.reply.text.startswith("? unknown command 'what'")
    out = ingest.receive(heard("?", pid=4), NOW, state)
    assert out.verdict == mi.HELP and out.reply.text.startswith("D/K/B/V 123")


def test_chat_on_a_channel_is_left_alone_and_strangers_are_told(state):
    ingest = MeshIngest(DEVICES)
    out = ingest.receive(heard("Tere, kus te olete?"), NOW, state)
    assert out.verdict == mi.CHAT and out.reply is None
    out = ingest.receive(heard("D 1", sender=STRANGER), NOW, state)
    assert out.verdict == mi.UNKNOWN_NODE and out.reply.text == "? node !badbad01 is not registered"
    out = ingest.receive(heard("hello", sender=STRANGER), NOW, state)
    assert out.verdict == mi.UNKNOWN_NODE and out.reply is None               # chat of a stranger: no answer


def test_a_game_that_requires_pki_refuses_channel_reports_but_takes_positions(state):
    ingest = MeshIngest(DEVICES, require_pki=True)
    out = ingest.receive(heard("D 1"), NOW, state)
    assert out.verdict == mi.REFUSED_TRUST and out.event is None and "direct messages (PKI)" in out.reply.text
    assert ingest.receive(heard("D 1", to=GW, pki=True, pid=9), NOW, state).verdict == mi.ACCEPTED
    out = ingest.receive(heard(sender=TRACKER, position=(58.38, 26.72, 6), pid=10), NOW, state)
    assert out.verdict == mi.ACCEPTED and out.radio.via == VIA_MESH_CHANNEL


def test_positions_of_trackers_and_phones(state):
    ingest = MeshIngest(DEVICES)
    out = ingest.receive(heard(sender=TRACKER, position=(58.38, 26.72, 6)), NOW, state)
    assert out.event == ("position", {"device": 22, "lat": 58.38, "lon": 26.72, "fix": 1, "sats": 6}, "tracker:22")
    assert out.reply is None
    assert ingest.receive(heard(sender=TRACKER, port=mi.POSITION_PORT, pid=5), NOW, state).verdict == mi.IGNORED


def test_a_tracker_sends_no_casualties_but_headcounts_for_its_group(state):
    ingest = MeshIngest(DEVICES)
    out = ingest.receive(heard("D 1", sender=TRACKER), NOW, state)
    assert out.verdict == mi.REFUSED_ROLE and "tracker" in out.reply.text
    out = ingest.receive(heard("H 12 1", sender=TRACKER, pid=6), NOW, state)
    assert out.event == ("headcount", {"group": "Hundid", "up": 12, "down": 1, "dead": 0}, "tracker:22")


def test_stopp_and_lift_by_the_phone_that_called_it(state):
    from controlroom.game.events import make_event

    ingest = MeshIngest(DEVICES)
    out = ingest.receive(heard("STOPP vigastus", pid=0xAB12CD34), NOW, state)
    assert out.event == ("stopp_called", {"stopp": "21-cd34", "reason": "injury"}, "marshal:21")
    state.apply(make_event(NOW, "stopp_called", "marshal:21", **out.event[1]))
    out = ingest.receive(heard("lõpp", pid=7), NOW, state)
    assert out.event == ("stopp_lifted", {"stopp": "21-cd34"}, "marshal:21")
    assert out.reply.text == "OK: STOPP 21-cd34 lifted 14:02"


def test_packet_dicts_of_the_meshtastic_package_are_read():
    packet = {"from": PHONE, "to": GW, "id": 77, "channel": 1, "rxRssi": -91, "rxSnr": 4.25, "pkiEncrypted": True,
              "decoded": {"portnum": "TEXT_MESSAGE_APP", "payload": b"D 1", "text": "D 1"}}
    h = from_packet(packet, "meshtastic:/dev/x", "!0a1b2c3d")
    assert (h.sender, h.to, h.packet_id, h.channel, h.text, h.pki, h.rssi, h.snr) == (PHONE, GW, 77, 1, "D 1",
                                                                                       True, -91.0, 4.25)
    assert h.direct
    packet = {"from": TRACKER, "to": BROADCAST, "id": 78,
              "decoded": {"portnum": "POSITION_APP", "position": {"latitudeI": 583800000, "longitudeI": 267200000,
                                                                  "satsInView": 9}}}
    assert from_packet(packet, "l").position == (58.38, 26.72, 9)
    assert from_packet({"from": PHONE, "id": 1, "encrypted": b"xx"}, "l") is None      # not our channel
    assert from_packet({"from": PHONE, "id": 2, "decoded": {"portnum": "TEXT_MESSAGE_APP", "payload": b"V 3"}},
                       "l").text == "V 3"


def test_meshtastic_ports_are_known_urls():
    assert parse_url("meshtastic:/dev/ttyACM0") == ("serial", "/dev/ttyACM0", None)
    assert parse_url("meshtastic:COM5") == ("serial", "COM5", None)
    assert parse_url("meshtastic-tcp:192.168.1.50") == ("tcp", "192.168.1.50", 4403)
    assert parse_url("meshtastic-tcp:node.local:4404") == ("tcp", "node.local", 4404)
    assert is_meshtastic_url("MESHTASTIC:/dev/ttyACM0") and not is_meshtastic_url("/dev/ttyACM0")
    check_url("meshtastic:/dev/ttyACM0")
    check_url("meshtastic-tcp:10.0.0.2")
    for bad, why in (("meshtastic:", "serial port"), ("meshtastic-tcp:", "address"),
                     ("meshtastic-tcp:host:99999", "not a TCP port")):
        with pytest.raises(ValueError, match=why):
            check_url(bad)
    with pytest.raises(ValueError, match="meshtastic:DEVICE"):
        check_url("bogus://x")


def test_a_missing_meshtastic_package_is_named_with_the_extra(monkeypatch):
    import builtins

    from controlroom.radio import meshtastic_link

    real = builtins.__import__

    def no_meshtastic(name, *args, **kw):
        if name.startswith("meshtastic"):
            raise ImportError("No module named 'meshtastic'")
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_meshtastic)
    states = []
    link = meshtastic_link.MeshtasticLink("meshtastic:/dev/null", lambda *a: None, lambda *a: states.append(a))
    link.start()
    assert link.join(5)
    assert states == [("meshtastic:/dev/null", "lost", meshtastic_link.INSTALL_HINT)]
    assert "controlroom[meshtastic]" in meshtastic_link.INSTALL_HINT


# -- end to end: a station, the meshtastic package, a fake node on a real pty -----------------------------------
def test_station_through_a_fake_node_on_a_pty(qtbot, tmp_path):
    pytest.importorskip("meshtastic", reason=NO_MESHTASTIC)
    from controlroom.core.wiring import Station
    from controlroom.game.clock import VirtualClock
    from controlroom.radio.meshtastic_fake import FakeNode
    from controlroom.store.devices import register_device
    from controlroom.store.game import GameStore

    db = tmp_path / "mesh.crgame"
    with GameStore.open(db) as store:
        store.save_roster(MEMBERS)
        register_device(store, 21, "marshal", "Phone 21", meshtastic="!c0ffee01")
        register_device(store, 22, "tracker", group="Hundid", meshtastic="!c0ffee02")
    node = FakeNode(GW, ((PHONE, "Marshal 21", "M21"), (TRACKER, "Tracker 22", "T22")))
    # At the moment each answer reaches the node, what is in the log (read in the node's thread).
    stored_when_answered = []
    real_on_to_radio = node.device._on_to_radio

    def on_to_radio(body):
        before = len(node.device.sent)
        real_on_to_radio(body)
        if len(node.device.sent) > before:
            con = sqlite3.connect(db)
            stored_when_answered.append([(r[0], r[1]) for r in con.execute("SELECT type, payload FROM events")])
            con.close()

    node.device._on_to_radio = on_to_radio
    station = Station(str(db), [node.url], VirtualClock(NOW))
    alarms, states = [], []
    station.core.alarm_raised.connect(lambda a: alarms.append(a.kind))
    station.core.link_changed.connect(lambda *a: states.append(a))
    try:
        with qtbot.waitSignal(station.core.loaded, timeout=10_000):
            station.start()
        qtbot.waitUntil(lambda: any(s[1] == "up" for s in states), timeout=20_000)
        assert "Meshtastic node !0a1b2c3d" in [s for s in states if s[1] == "up"][0][2]
        node.position(TRACKER, 58.38, 26.72, sats=8)
        down = node.text(PHONE, "d 1", channel=1)
        node.text(PHONE, "K 2", to=GW, pki=True)
        node.text(PHONE, "d 1", channel=1, packet_id=down)          # a copy through another path: dropped
        node.text(PHONE, "D 999")
        node.text(PHONE, "STOPP oht")
        node.text(STRANGER, "D 3")
        node.text(PHONE, "Tere kõigile")                             # chat: no answer
        node.text(PHONE, "V 3")                    # Mari is alive: stored, but refused by the rules, and told so
        sent = node.device.wait_sent(6, timeout=15)
        refused = next(t for _to, _c, t in sent if "Valhalla" in t)
        assert refused.startswith("? ") and "badge 3" in refused and "only the dead report to Valhalla" in refused
        assert sorted(sent) == sorted([
            (BROADCAST, 1, "OK: 1 down 14:02"),
            (PHONE, 0, "OK: 2 dead 14:02"),
            (BROADCAST, 0, "? badge 999 unknown"),
            (BROADCAST, 0, next(t for _to, _c, t in sent if t.startswith("OK: STOPP 21-"))),
            (BROADCAST, 0, "? node !badbad01 is not registered"),
            (BROADCAST, 0, refused),
        ]), sent
        qtbot.waitUntil(lambda: "stopp" in alarms, timeout=5000)
        qtbot.wait(300)
        assert len(node.device.sent) == 6                            # the copy and the chat got nothing
    finally:
        station.shutdown()
        node.close()
    # Every confirmation went out after its report was in the log.
    for (_to, _ch, text), log in zip(node.device.sent, stored_when_answered):
        if text.startswith("OK: 1 down"):
            assert ("down", '{"badge":1}') in log
        if text.startswith("OK: 2 dead"):
            assert any(t == "died" for t, _p in log)
        if text.startswith("OK: STOPP"):
            assert any(t == "stopp_called" for t, _p in log)
        if "Valhalla" in text:
            assert ("valhalla_checkin", '{"badge":3}') in log
    with GameStore.open(db, create=False) as store:
        events = [(s.event.type, s.event.source, s.radio.via if s.radio else None) for s in store.log.read()]
    assert ("position", "tracker:22", VIA_MESH_CHANNEL) in events
    assert ("down", "marshal:21", VIA_MESH_CHANNEL) in events
    assert ("died", "marshal:21", VIA_MESH_PKI) in events
    assert ("stopp_called", "marshal:21", VIA_MESH_CHANNEL) in events
    assert sum(1 for e in events if e[0] == "down") == 1
    assert not [t for t in threading.enumerate() if t.name.startswith("meshtastic /dev")]


def test_sim_meshtastic_and_a_headless_station_end_to_end(tmp_path):
    """``sim --pty --meshtastic`` plays a battle through a fake node; a headless station stores and answers it."""
    pytest.importorskip("meshtastic", reason=NO_MESHTASTIC)
    import json
    import signal
    import subprocess
    import sys
    from collections import Counter

    from controlroom.store.devices import devices
    from controlroom.store.game import GameStore

    def cli(*args):
        return [sys.executable, "-m", "controlroom", *args]

    game, truth_file, stats_file = tmp_path / "mesh.crgame", tmp_path / "truth.json", tmp_path / "stats.json"
    sim = subprocess.Popen(cli("sim", "--pty", "--meshtastic", "--db", str(game), "--sides", "2", "--groups", "4",
                               "--players", "40", "--seed", "5", "--speed", "200", "--duration", "20",
                               "--loss", "0.05", "--drain", "2", "--truth", str(truth_file), "--quiet"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    station = None
    try:
        port = sim.stdout.readline().strip()
        assert port.startswith("meshtastic:/dev/"), sim.stderr.read()
        station = subprocess.Popen(cli("headless", "--db", str(game), "--speed", "200", "--quiet",
                                       "--stats-json", str(stats_file), "--port", port),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _out, sim_err = sim.communicate(timeout=240)
        assert sim.returncode == 0, sim_err
        station.send_signal(signal.SIGTERM)
        _out, st_err = station.communicate(timeout=60)
        assert station.returncode == 0, st_err
    finally:
        for proc in (sim, station):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    truth = json.loads(truth_file.read_text())
    stats = json.loads(stats_file.read_text())
    assert truth["complete"] and truth["sent_texts"] > 20 and truth["sent_positions"] > 20
    assert truth["sent_pki"] > 0 and truth["sent_channel"] > 0 and truth["sent_copies"] > 0
    mesh = stats["meshtastic"]["total"]
    assert mesh["duplicates"] == truth["sent_copies"]
    assert mesh["unknown_node"] == 0 and mesh["refused_role"] == 0
    errors = truth["answers_error"]
    # Refused before it was stored: only a LIFT whose STOPP was lost on air.
    not_stored = [e for e in errors if e == "? no STOPP of yours is on: LIFT <id>"]
    # Stored, but refused by the rules when folded, and answered with the rule (not "OK"): a Valhalla check-in
    # of a player whose death report was lost on the air, say.
    verdicts = [e for e in errors if e not in not_stored]
    assert mesh["accepted"] == truth["sent_positions"] + truth["sent_texts"] - len(not_stored)
    assert truth["answers_ok"] + len(verdicts) == truth["sent_texts"] - len(not_stored)   # every one answered
    with GameStore.open(game, create=False) as store:
        assert all(d.meshtastic for d in devices(store).values() if d.role in ("marshal", "tracker"))
        stored = list(store.log.read())
        state, _last = store.load_state()
    # Each answer that was not OK is a rule warning of the record, in the same words.
    warned = Counter(f"? {w.message}" for w in state.warnings if w.type in {"valhalla_checkin", "down", "died",
                                                                              "bound", "headcount"})
    assert Counter(verdicts) == warned or not verdicts and not warned, (verdicts, warned)
    vias = Counter(s.radio.via for s in stored if s.radio is not None)
    assert vias["meshtastic/pki"] > 0 and vias["meshtastic/channel"] > 0 and set(vias) <= {
        "meshtastic/pki", "meshtastic/channel"}
    assert sum(vias.values()) == mesh["accepted"]


def test_a_game_that_requires_pki_refuses_channel_reports_at_the_station(qtbot, tmp_path):
    """The organiser's setting (keys meshtastic --require-pki) is read when the station opens the game."""
    pytest.importorskip("meshtastic", reason=NO_MESHTASTIC)
    from controlroom.cli import main
    from controlroom.core.wiring import Station
    from controlroom.game.clock import VirtualClock
    from controlroom.radio.meshtastic_fake import FakeNode
    from controlroom.store.devices import register_device
    from controlroom.store.game import GameStore

    db = tmp_path / "pki.crgame"
    with GameStore.open(db) as store:
        store.save_roster(MEMBERS)
        register_device(store, 21, "marshal", "Phone 21", meshtastic="!c0ffee01")
    assert main(["keys", "meshtastic", "--db", str(db), "--require-pki"]) == 0
    node = FakeNode(GW, ((PHONE, "Marshal 21", "M21"),))
    station = Station(str(db), [node.url], VirtualClock(NOW))
    states = []
    station.core.link_changed.connect(lambda *a: states.append(a[1]))
    try:
        with qtbot.waitSignal(station.core.loaded, timeout=10_000):
            station.start()
        qtbot.waitUntil(lambda: "up" in states, timeout=20_000)
        node.text(PHONE, "D 1", channel=0)
        node.text(PHONE, "D 2", to=GW, pki=True)
        sent = node.device.wait_sent(2, timeout=15)
    finally:
        station.shutdown()
        node.close()
    assert sorted(sent) == sorted([(BROADCAST, 0, "? this game takes reports only as direct messages (PKI): "
                                                  "send to the station's node"),
                                   (PHONE, 0, "OK: 2 down 14:02")])
    with GameStore.open(db, create=False) as store:
        assert [(s.event.type, s.event.data, s.radio.via) for s in store.log.read()] == [
            ("down", {"badge": 2}, VIA_MESH_PKI)]
