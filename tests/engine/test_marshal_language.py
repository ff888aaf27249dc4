"""The marshals' answers in the marshals' language (the game setting ``marshal_language``), not the station's.

A text "V 3" for a living player is stored and folded; its answer is the
rule warning the fold raised, said in the game's marshal language, as is an
"OK" and a refusal at once.  Through the engine, through a station and the
fake Meshtastic node on a pty, and the setting through the command line.
"""

import os
import subprocess
import sys

import pytest

from controlroom import i18n
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.radio.mesh_ingest import BROADCAST, MARSHAL_LANGUAGE_KEY, TEXT_PORT, MeshHeard, marshal_language
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, new_game

PHONE, GW = 0xC0FFEE01, 0x0A1B2C3D
NOW = 14 * 3_600_000 + 2 * 60_000
MEMBERS = [Member(1, "Aino", "North", "Hundid"), Member(2, "Jaan", "North", "Hundid"),
           Member(3, "Mari", "South", "Karud")]
REFUSED = {"en": "? Mari (badge 3) is not dead: only the dead report to Valhalla",
           "et": "? Mari (märk 3) ei ole surnud: Valhallasse ilmuvad ainult surnud"}
DEAD = {"en": "OK: 2 dead 14:02", "et": "OK: 2 surnud 14:02"}
UNKNOWN = {"en": "? badge 999 unknown", "et": "? märk 999 tundmatu"}


@pytest.fixture
def speaking():
    """The station's own language for one test (``i18n.choose``), English again afterwards."""
    yield i18n.choose
    i18n.choose(None)


def game(tmp_path, language: str | None) -> str:
    path = new_game(tmp_path / "mesh.crgame", MEMBERS)
    with GameStore.open(path) as store:
        register_device(store, 21, "marshal", "Phone 21", meshtastic="!c0ffee01")
        if language is not None:
            store.set_meta(MARSHAL_LANGUAGE_KEY, language)
    return path


def text(words: str, pid: int) -> MeshHeard:
    return MeshHeard("meshtastic:/dev/x", "!0a1b2c3d", PHONE, BROADCAST, pid, 0, TEXT_PORT, words, None, False,
                     -80.0, 5.5)


@pytest.mark.parametrize("station, marshals", [("en", "et"), ("et", "en"), ("et", None), ("en", None)])
def test_the_engine_answers_in_the_marshals_language(tmp_path, speaking, station, marshals):
    speaking(station)
    pump = Pump(game(tmp_path, marshals), VirtualClock(NOW))
    said = marshals or station                                  # no setting: the station's own language
    try:
        (refused,) = pump.hear(text("V 3", 0x1001)).acks
        assert refused.text == REFUSED[said]
        assert [w.code for w in pump.state.warnings] == ["not_dead"]          # stored and folded all the same
        assert pump.state.warnings[0].message == REFUSED[station][2:]         # the station's record: its language
        assert pump.hear(text("K 2", 0x1002)).acks[0].text == DEAD[said]
        assert pump.hear(text("D 999", 0x1003)).acks[0].text == UNKNOWN[said]
    finally:
        pump.close()


def test_the_setting_means_a_language_or_the_stations():
    assert [marshal_language(v) for v in ("et", " ET ", "en", "", None, "fr")] == ["et", "et", "en", None, None,
                                                                                    None]


@pytest.mark.parametrize("marshals", ["et", "en"])
def test_a_station_answers_v3_through_the_fake_node_in_the_marshals_language(qtbot, tmp_path, speaking, marshals):
    pytest.importorskip("meshtastic", reason="the meshtastic extra is not installed")
    from controlroom.core.wiring import Station
    from controlroom.radio.meshtastic_fake import FakeNode

    speaking("et" if marshals == "en" else "en")                 # the station speaks the other language
    db = game(tmp_path, marshals)
    node = FakeNode(GW, ((PHONE, "Marshal 21", "M21"),))
    station = Station(db, [node.url], VirtualClock(NOW))
    states = []
    station.core.link_changed.connect(lambda *a: states.append(a))
    try:
        with qtbot.waitSignal(station.core.loaded, timeout=10_000):
            station.start()
        qtbot.waitUntil(lambda: any(s[1] == "up" for s in states), timeout=20_000)
        node.text(PHONE, "V 3")
        node.text(PHONE, "K 2")
        sent = node.device.wait_sent(2, timeout=15)
        assert sorted(t for _to, _c, t in sent) == sorted([REFUSED[marshals], DEAD[marshals]])
    finally:
        station.shutdown()
        node.close()


def test_the_command_line_sets_the_marshals_language(tmp_path):
    db = game(tmp_path, None)

    def keys(*args):
        env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "CONTROLROOM_LANG": "en"}
        return subprocess.run([sys.executable, "-m", "controlroom", "keys", "meshtastic", "--db", db, *args],
                              capture_output=True, text=True, timeout=120, env=env)

    shown = keys()
    assert shown.returncode == 0 and shown.stdout.splitlines()[-1] == (
        "Answers to the marshals: in the language of the station that answers")
    done = keys("--marshal-language", "et")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == (
        "Answers to the marshals: in eesti keel (et); a running station reads this when the game is opened")
    with GameStore.open(db, create=False) as store:
        assert store.meta(MARSHAL_LANGUAGE_KEY) == "et"
    assert keys("--marshal-language", "station").returncode == 0
    with GameStore.open(db, create=False) as store:
        assert marshal_language(store.meta(MARSHAL_LANGUAGE_KEY)) is None
    wrong = keys("--marshal-language", "fr")
    assert wrong.returncode == 2 and "invalid choice: 'fr'" in wrong.stderr
