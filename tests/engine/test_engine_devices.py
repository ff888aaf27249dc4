"""Devices imported while the station runs (ReloadDevices), and what the radio view says of each device."""

from controlroom.engine.commands import ReloadDevices
from controlroom.engine.engine import Engine
from controlroom.engine.opening import open_game
from controlroom.game.clock import VirtualClock
from controlroom.game.device_list import DeviceEntry
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.radio.link import FrameHeard
from controlroom.store.device_setup import import_devices
from controlroom.store.devices import devices
from controlroom.store.game import GameStore


def test_a_device_imported_while_the_station_runs_is_known_once_read_again(tmp_path):
    db = str(tmp_path / "running.crgame")
    with GameStore.open(db) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves")])
    game = open_game(db, clock=VirtualClock(60_000))
    engine = Engine(game)
    engine.opened()
    engine.complete()
    try:
        with GameStore.open(db, create=False) as other:                 # `controlroom devices import`, elsewhere
            import_devices(other, [DeviceEntry(2, 301, "tracker", "Wolves leader", group="Wolves")])
            key = devices(other)[301].key
        ping = codec.encode_position(key, 301, 0, 583776000, 267290000, 77, 1, 8)
        engine.heard([FrameHeard("gw", 7, -97, 7.25, ping)])
        counts = engine.intake.ingest.stats()["total"]
        assert counts["rejected_unknown_device"] == 1 and counts["accepted"] == 0
        out = engine.command(ReloadDevices())
        assert out.devices == {"tracker:301": {"role": "tracker", "label": "Wolves leader", "group": "Wolves",
                                               "engine": None, "tak": None}}
        assert not any("key" in str(v) for v in out.devices.values())
        engine.heard([FrameHeard("gw", 7, -97, 7.25, codec.encode_position(key, 301, 1, None, None, 76, 0, 0)),
                      FrameHeard("gw2", 8, -110, -3.5, codec.encode_position(key, 301, 1, None, None, 76, 0, 0))])
        assert engine.intake.ingest.stats()["total"]["accepted"] == 1
        view = engine.intake.radio_view()
        assert view["signal"][301] == {"7": (60_000, -97, 7.25), "8": (60_000, -110, -3.5)}
        assert view["mesh"] == {}
        # A view handed out (to the window's thread) is not changed by the frames heard after it.
        engine.heard([FrameHeard("gw", 7, -90, 9.0, codec.encode_position(key, 301, 2, None, None, 76, 0, 0))])
        assert view["signal"][301]["7"] == (60_000, -97, 7.25)
        assert engine.intake.radio_view()["signal"][301]["7"] == (60_000, -90, 9.0)
    finally:
        game.store.close()
