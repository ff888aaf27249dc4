"""TAK phones through the engine: a registered marshal's position stored as come by TAK; unknown uids only listed."""

import pytest

from controlroom.game.devices import VIA_TAK
from controlroom.radio.cot_in import CotHeard
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, new_game


@pytest.fixture
def tak_game(tmp_path):
    path = new_game(tmp_path / "tak.crgame")
    with GameStore.open(path) as store:
        register_device(store, 5, "marshal", "Marshal West", tak_uid="ANDROID-deadbeef")
        register_device(store, 6, "marshal", "Marshal East", tak_callsign="JENNY")
    return path


def pli(uid="ANDROID-deadbeef", callsign="JENNY", time_ms=1_614_457_944_771, lat=58.38, lon=26.72, **extra):
    return CotHeard("tcp://127.0.0.1:8087", uid, "a-f-G-U-C", callsign, "m-g", lat, lon, 9.9, 78, time_ms, 0, **extra)


def test_a_registered_marshals_phone_is_stored_as_that_marshals_position_come_by_tak(tak_game):
    pump = Pump(tak_game)
    out = pump.hear(pli())
    assert not out.acks and not out.rejected
    (stored,) = GameStore.open(tak_game, create=False).log.read()
    assert (stored.event.type, stored.event.source) == ("position", "marshal:5")
    assert stored.event.data == {"device": 5, "lat": 58.38, "lon": 26.72, "fix": 1, "battery": 78, "sats": 0}
    assert (stored.radio.device, stored.radio.counter, stored.radio.via) == (5, 1_614_457_944_771, VIA_TAK)
    assert pump.state.positions["marshal:5"][1:3] == (58.38, 26.72)
    delta = pump.delta()
    assert delta.events[-1].via == VIA_TAK                 # the window says how it came
    assert delta.radio["tak"]["known"]["ANDROID-deadbeef"]["source"] == "marshal:5"
    pump.hear(pli())                                       # the same report through another path: stored once
    pump.hear(pli(uid="ANDROID-other", time_ms=2))         # by its callsign: the marshal registered by it
    events = pump.events()
    assert [(e.type, e.source) for e in events] == [("position", "marshal:5"), ("position", "marshal:6")]
    pump.close()


def test_an_unknown_phone_is_listed_for_the_radio_panel_and_nothing_is_stored(tak_game):
    pump = Pump(tak_game)
    before = {b: (c.condition, c.hp) for b, c in pump.state.characters.items()}
    out = pump.hear(pli(uid="ANDROID-stranger", callsign="STRANGER"))
    assert not out.rejected and pump.events() == []
    assert set(pump.delta().radio["tak"]["unknown"]) == {"ANDROID-stranger"}
    assert pump.engine.stats()["tak"]["unknown_uid"] == 1
    # Nothing a phone says changes a character: positions are for the map only.
    pump.hear(pli())
    assert {b: (c.condition, c.hp) for b, c in pump.state.characters.items()} == before
    pump.close()
