"""``controlroom keys``: devices registered with secret keys, provisioning files checked by the airtime plan."""

import json
import stat

from controlroom.cli import main
from controlroom.game.roster import Member
from controlroom.store.devices import devices
from controlroom.store.game import GameStore


def test_new_list_and_export(tmp_path, capsys):
    db = str(tmp_path / "k.crgame")
    with GameStore.open(db) as store:
        store.save_roster([Member(1, "A", "North", "Wolves")])
    assert main(["keys", "new", "7", "--role", "marshal", "--db", db, "--label", "Marshal 7"]) == 0
    assert main(["keys", "new", "8", "--role", "tracker", "--db", db, "--group", "Wolves"]) == 0
    with GameStore.open(db) as store:
        first = devices(store)[7].key
    assert main(["keys", "new", "7", "--role", "marshal", "--db", db, "--label", "Marshal 7"]) == 0
    with GameStore.open(db) as store:
        assert devices(store)[7].key == first            # re-registering keeps the key
    capsys.readouterr()
    assert main(["keys", "list", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert "Marshal 7" in listing and "Wolves" in listing and first.hex() not in listing
    out = tmp_path / "m7.json"
    assert main(["keys", "export", "7", "--db", db, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["key"] == first.hex() and data["radio"]["sf"] == 9 and data["role"] == "marshal"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_new_key_replaces_a_lost_devices_key(tmp_path):
    db = str(tmp_path / "k.crgame")
    assert main(["keys", "new", "7", "--role", "marshal", "--db", db]) == 0
    with GameStore.open(db) as store:
        first = devices(store)[7].key
    assert main(["keys", "new", "7", "--role", "marshal", "--db", db, "--new-key"]) == 0
    with GameStore.open(db) as store:
        assert devices(store)[7].key != first


def test_export_refuses_a_plan_that_breaks_the_duty_cycle(tmp_path, capsys):
    db = str(tmp_path / "k.crgame")
    main(["keys", "new", "7", "--role", "marshal", "--db", db])
    out = tmp_path / "m7.json"
    assert main(["keys", "export", "7", "--db", db, "--out", str(out), "--sf", "12", "--interval", "10"]) == 1
    assert "over the 1 % duty cycle" in capsys.readouterr().err and not out.exists()


def test_bad_device_numbers_and_groups_are_clear_errors(tmp_path, capsys):
    db = str(tmp_path / "k.crgame")
    assert main(["keys", "new", "0", "--role", "marshal", "--db", db]) == 1
    assert "a device id is a number from 1 to 65534" in capsys.readouterr().err
    assert main(["keys", "new", "5", "--role", "tracker", "--db", db, "--group", "Nobody"]) == 1
    assert "no group 'Nobody' in the roster" in capsys.readouterr().err
    assert main(["keys", "export", "99", "--db", db, "--out", str(tmp_path / "x.json")]) == 1
    assert "no device 99" in capsys.readouterr().err


def test_keys_never_appear_in_a_devices_repr(tmp_path):
    db = str(tmp_path / "k.crgame")
    main(["keys", "new", "7", "--role", "marshal", "--db", db])
    with GameStore.open(db) as store:
        dev = devices(store)[7]
    assert dev.key.hex() not in repr(dev) and dev.key.hex() not in str(dev)


def test_a_meshtastic_node_is_registered_with_the_device(tmp_path, capsys):
    db = str(tmp_path / "k.crgame")
    with GameStore.open(db) as store:
        store.save_roster([Member(1, "A", "North", "Wolves")])
    assert main(["keys", "new", "21", "--role", "marshal", "--db", db, "--meshtastic", "!A1B2C3D4"]) == 0
    assert "Meshtastic node !a1b2c3d4" in capsys.readouterr().out
    assert main(["keys", "new", "22", "--role", "tracker", "--db", db, "--group", "Wolves",
                 "--meshtastic", "0a0b0c0d"]) == 0
    assert main(["keys", "new", "21", "--role", "marshal", "--db", db, "--label", "Phone 21"]) == 0
    with GameStore.open(db) as store:
        found = devices(store)
    assert found[21].meshtastic == "!a1b2c3d4" and found[21].node_num == 0xA1B2C3D4     # kept when re-registered
    assert found[22].meshtastic == "!0a0b0c0d" and found[22].group == "Wolves"
    capsys.readouterr()
    assert main(["keys", "list", "--db", db]) == 0
    assert "meshtastic !a1b2c3d4" in capsys.readouterr().out


def test_bad_or_taken_meshtastic_node_ids_are_refused(tmp_path, capsys):
    db = str(tmp_path / "k.crgame")
    assert main(["keys", "new", "21", "--role", "marshal", "--db", db, "--meshtastic", "!a1b2"]) == 1
    assert "'!' and 8 hex digits" in capsys.readouterr().err
    assert main(["keys", "new", "21", "--role", "marshal", "--db", db, "--meshtastic", "!a1b2c3d4"]) == 0
    assert main(["keys", "new", "22", "--role", "marshal", "--db", db, "--meshtastic", "!a1b2c3d4"]) == 1
    assert "Meshtastic node !a1b2c3d4 is device 21 already" in capsys.readouterr().err
    assert main(["keys", "new", "3", "--role", "gateway", "--db", db, "--meshtastic", "!01020304"]) == 1
    assert "--port meshtastic:PORT" in capsys.readouterr().err
    with GameStore.open(db) as store:
        assert sorted(devices(store)) == [21]


def test_the_organiser_can_require_pki_direct_messages(tmp_path, capsys):
    from controlroom.radio.mesh_ingest import REQUIRE_PKI_KEY

    db = str(tmp_path / "k.crgame")
    GameStore.open(db).close()
    assert main(["keys", "meshtastic", "--db", db]) == 0
    assert "channel messages and direct messages" in capsys.readouterr().out
    assert main(["keys", "meshtastic", "--db", db, "--require-pki"]) == 0
    assert "PKI direct messages only" in capsys.readouterr().out
    with GameStore.open(db) as store:
        assert store.meta(REQUIRE_PKI_KEY) == "1"
    assert main(["keys", "meshtastic", "--db", db, "--allow-channel"]) == 0
    with GameStore.open(db) as store:
        assert store.meta(REQUIRE_PKI_KEY) == "0"
