"""``controlroom keys export`` -> the device file the firmware boots from.

The export checks region, frequency, spreading factor, bandwidth, coding
rate and interval (the airtime planner and the band edges) and writes
nothing for a plan that will not work; what it does write, the firmware's
config.py reads back unchanged.
"""

import json

import pytest

from controlroom.cli import main as cli
from controlroom.commands import keys as keys_command
from tests.support.firmware_import import load

config, boards = load("config", "boards")


@pytest.fixture()
def game(tmp_path):
    db = str(tmp_path / "p.crgame")
    assert cli(["keys", "new", "12", "--role", "marshal", "--db", db]) == 0
    assert cli(["keys", "new", "7", "--role", "gateway", "--db", db]) == 0
    return db


def _export(db, tmp_path, *options, device="12"):
    out = tmp_path / "device.json"
    if out.exists():
        out.unlink()
    code = cli(["keys", "export", device, "--db", db, "--out", str(out), *options])
    return code, (out.read_text() if out.exists() else None)


def test_default_export_boots_the_firmware(game, tmp_path):
    code, text = _export(game, tmp_path)
    assert code == 0
    cfg = config.load(text)
    assert cfg["device"] == 12 and cfg["role"] == "marshal" and len(cfg["key"]) == 16
    assert cfg["board"] == "tbeam-v1.1-sx1276"
    assert cfg["radio"] == {"region": "EU868", "sub_band": "g1", "freq": 868.1, "sf": 9, "bw": 125, "cr": 5,
                            "interval": 120, "power": 14}
    assert json.loads(text)["radio"]["bw"] == 125


@pytest.mark.parametrize("options, radio", [
    (["--freq", "869.525", "--sub-band", "g3", "--sf", "10", "--interval", "300"],
     {"freq": 869.525, "sub_band": "g3", "sf": 10}),
    (["--bw", "62.5", "--freq", "868.3", "--cr", "4", "--interval", "300"], {"bw": 62.5, "cr": 8}),
    (["--region", "us915", "--freq", "903.9", "--sf", "7", "--bw", "500"],
     {"region": "US915", "sub_band": None, "freq": 903.9, "bw": 500, "power": 20}),
])
def test_other_good_plans_reach_the_firmware(game, tmp_path, options, radio):
    code, text = _export(game, tmp_path, *options)
    assert code == 0, options
    got = config.load(text)["radio"]
    assert {k: got[k] for k in radio} == radio


@pytest.mark.parametrize("options, words", [
    (["--sf", "12", "--interval", "10"], "over the 1 % duty cycle"),
    (["--freq", "869.0"], "does not fit in EU868 sub-band g1"),
    (["--freq", "868.0"], "use 868.062 to 868.538 MHz"),
    (["--freq", "868.55"], "does not fit"),
    (["--region", "US915", "--freq", "868.1", "--sf", "7"], "does not fit in the US915 band"),
    (["--region", "US915", "--freq", "903.9", "--sf", "12"], "dwell time"),
    (["--region", "AS923"], "region 'AS923' is unknown"),
    (["--sf", "13"], "spreading factor 13"),
    (["--sf", "6"], "spreading factor 6"),
    (["--bw", "100"], "not a LoRa bandwidth"),
    (["--cr", "5"], "coding rate 5"),
    (["--interval", "0"], "interval 0"),
    (["--devices", "400", "--interval", "30"], "frames are expected to survive"),
    (["--sub-band", "g9"], "sub-band 'g9' is unknown"),
])
def test_bad_plans_are_refused_and_nothing_is_written(game, tmp_path, capsys, options, words):
    code, text = _export(game, tmp_path, *options)
    assert code == 1 and text is None, options
    assert words in capsys.readouterr().err


def test_board_choice_is_exported_and_known_to_the_firmware(game, tmp_path, capsys):
    assert tuple(sorted(keys_command.BOARDS)) == tuple(sorted(boards.BOARDS))
    code, text = _export(game, tmp_path, "--board", "heltec-v3", device="7")
    assert code == 0
    cfg = config.load(text)
    assert cfg["board"] == "heltec-v3" and cfg["role"] == "gateway"
    assert boards.check_role(cfg["board"], cfg["role"])["radio"] == "sx1262"
    with pytest.raises(SystemExit):
        cli(["keys", "export", "7", "--db", game, "--out", str(tmp_path / "x.json"), "--board", "arduino"])
    assert "invalid choice" in capsys.readouterr().err
