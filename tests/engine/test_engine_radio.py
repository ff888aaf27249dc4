"""What the links hear, through the engine: acknowledged once stored, answered from the record, placed in order."""

import pytest

from controlroom.game.clock import VirtualClock
from controlroom.game.devices import VIA_MESH_CHANNEL
from controlroom.radio import codec
from controlroom.radio.link import FrameAck, FrameHeard, LineRejected, LinkState, MeshReply
from controlroom.radio.mesh_ingest import BROADCAST, TEXT_PORT, MeshHeard
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from tests.support.engine_pump import ROSTER, Pump, new_game

PHONE, GW = 0xC0FFEE01, 0x0A1B2C3D
NOW = 14 * 3_600_000 + 2 * 60_000


@pytest.fixture
def radio_game(tmp_path):
    path = new_game(tmp_path / "radio.crgame")
    with GameStore.open(path) as store:
        key = register_device(store, 7, "marshal", "M7").key
        register_device(store, 21, "marshal", "Phone 21", meshtastic="!c0ffee01")
    return path, key


def text(words: str, pid: int, channel: int = 1) -> MeshHeard:
    return MeshHeard("meshtastic:/dev/x", "!0a1b2c3d", PHONE, BROADCAST, pid, channel, TEXT_PORT, words, None, False,
                     -80.0, 5.5)


def test_a_frame_is_acknowledged_only_once_stored_and_a_copy_after_that_again(radio_game):
    path, key = radio_game
    pump = Pump(path)
    frame = codec.encode_casualty(key, 7, 1, 1, "down")
    engine = pump.engine
    out = engine.heard([FrameHeard("gw", 1, -90, 7.5, frame)])
    assert not out.acks                                     # heard, not stored: nothing to acknowledge yet
    copy = engine.heard([FrameHeard("gw2", 2, -70, 9.0, frame)])
    assert not copy.acks                     # a copy within 2 s of the frame's ack needs none of its own
    done = pump.settle(out)
    assert [(type(a), a.gateway) for a in done.acks] == [(FrameAck, 1)]
    (stored,) = GameStore.open(path, create=False).log.read()
    assert stored.radio.gateways == ("1", "2") and stored.radio.rssi == -70       # the copies merged
    later = pump.clock.now_ms() + 5000
    pump.clock.advance_to(later)
    again = pump.hear(FrameHeard("gw", 1, -90, 7.5, frame))
    assert [a.gateway for a in again.acks] == [1]          # stored before: acknowledged again at once
    pump.close()


def test_a_retried_down_heard_after_the_bind_folds_where_the_counter_puts_it(radio_game):
    """Counter 2 ("down") lost on the air, counter 3 ("bound") heard, then the retry of 2: the fold puts the
    down before the bind (the marshal's counter says it happened first): Aldo ends bound and healing, as on
    the field, with no rule warning, and the stored log folds to the same game."""
    path, key = radio_game
    clock = VirtualClock(0)
    pump = Pump(path, clock)
    for at, counter, kind in ((60_000, 1, "knocked_out"), (120_000, 3, "bound"), (125_000, 2, "down")):
        clock.advance_to(at)
        pump.frame(codec.encode_casualty(key, 7, counter, 1, kind))
    pump.at(130_000)
    aldo = pump.state.characters[1]
    assert aldo.condition != "dead" and not any(d.kind == "dies" for d in pump.state.deadlines_of(1))
    assert pump.state.warnings == []
    pump.close()
    with GameStore.open(path, create=False) as store:
        order = [(e.type, e.data.get("badge")) for _, e in store.log.events()]
    assert order[:3] == [("knocked_out", 1), ("down", 1), ("bound", 1)], order


def test_forged_frames_are_one_security_alarm_and_are_not_stored(radio_game):
    path, _key = radio_game
    pump = Pump(path)
    wrong = bytes(16)
    out = pump.hear(*[FrameHeard("gw", 1, -90, 7.5, codec.encode_casualty(wrong, 7, n, 1, "down"))
                      for n in range(1, 6)])
    assert [a.kind for a in out.alarms] == ["rejected_auth"]       # the rest merged into it, counted later
    assert pump.events() == [] and not out.acks
    pump.close()


def test_lines_and_links_go_to_the_radio_panel_and_a_lost_link_is_an_alarm(radio_game):
    path, _key = radio_game
    pump = Pump(path)
    out = pump.hear(LineRejected("3", "checksum", "bad line"), LinkState("/dev/ttyUSB0", "lost", "unplugged"))
    assert [(a.kind, a.message) for a in out.alarms] == [("gateway_lost", "unplugged")]
    assert [(s.link, s.state) for s in out.links] == [("/dev/ttyUSB0", "lost")]
    view = pump.delta().radio
    assert view["links"] == {"/dev/ttyUSB0": ("lost", "unplugged")} and view["counts"]["3"]["rejected_corrupt"] == 1
    pump.close()


def test_a_typed_report_is_answered_from_the_record(radio_game):
    """The marshal reads OK only for a report that counted; a check-in the rules refuse is answered with why."""
    path, _key = radio_game
    pump = Pump(path, VirtualClock(NOW))
    (refused,) = pump.hear(text("V 1", 0x1001)).acks
    assert isinstance(refused, MeshReply) and refused.to == BROADCAST and refused.channel == 1
    assert refused.text.startswith("? ") and "1" in refused.text and "not dead" in refused.text
    # Stored and acknowledged as received all the same, with the rule's warning in the record.
    assert [(e.type, e.data) for e in pump.events()] == [("valhalla_checkin", {"badge": 1})]
    assert [w.code for w in pump.state.warnings] == ["not_dead"]
    (dead,) = pump.hear(text("K 2", 0x1002)).acks
    assert dead.text == "OK: 2 dead 14:02"
    (checked_in,) = pump.hear(text("V 2", 0x1003)).acks
    assert checked_in.text == "OK: 2 in Valhalla 14:02"
    assert [e.data.get("badge") for e in pump.events()] == [1, 2, 2]
    assert {s.radio.via for s in GameStore.open(path, create=False).log.read()} == {VIA_MESH_CHANNEL}
    pump.close()


def test_a_report_of_an_unknown_badge_is_answered_at_once_and_not_stored(radio_game):
    path, _key = radio_game
    pump = Pump(path, VirtualClock(NOW))
    (answer,) = pump.hear(text("D 999", 0x2001)).acks
    assert answer.text == "? badge 999 unknown" and pump.events() == []
    pump.close()


def test_reports_heard_while_stopping_are_not_acknowledged(radio_game):
    path, key = radio_game
    pump = Pump(path)
    pump.engine.stop()
    assert not pump.hear(FrameHeard("gw", 1, -90, 7.5, codec.encode_casualty(key, 7, 1, 1, "down")))
    assert pump.events() == []
    pump.close()


def test_roster_of_the_fixture():
    assert [m.badge for m in ROSTER] == [1, 2, 3, 11]
