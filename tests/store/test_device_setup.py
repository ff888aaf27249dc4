"""Devices in bulk: a list imported in one transaction, fresh keys never shown, each device's readiness."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest

from controlroom.game.device_list import DeviceEntry, read_device_list
from controlroom.game.devices import RadioMeta, key_fingerprint
from controlroom.game.events import make_event
from controlroom.game.roster_csv import read_roster_csv
from controlroom.rules.profile import default_profile
from controlroom.store.device_setup import (
    DeviceImportError,
    device_status,
    import_devices,
    next_unprovisioned,
    record_provisioning,
)
from controlroom.store.devices import devices, register_device
from controlroom.store.game import GameStore

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture()
def store(game_db):
    with GameStore.open(game_db) as s:
        s.save_roster(read_roster_csv(EXAMPLES / "roster.csv", default_profile()))
        yield s


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "controlroom", *args], capture_output=True, text=True, timeout=120)


def test_the_sample_list_is_registered_with_fresh_keys(store):
    change = import_devices(store, read_device_list(EXAMPLES / "devices.csv"))
    assert change == (12, 0, 0)
    known = devices(store)
    assert len(known) == 12 and len({d.key for d in known.values()}) == 12
    assert all(len(d.key) == 16 for d in known.values())
    assert known[21].marshal == "Mari Maasikas" and known[21].board == "tbeam-v1.1-sx1276"
    assert known[301].group == "Wolves" and known[401].siege_engine == "Ram"
    assert known[40].meshtastic == "!a1b2c3d4" and known[40].board is None
    status = {s.id: s for s in device_status(store)}
    assert status[21].badge == 901 and status[22].board == "tbeam-v1.1-sx1262"
    assert not any(s.provisioned or s.first for s in status.values())


def test_importing_again_keeps_the_keys_and_says_what_changed(store):
    entries = read_device_list(EXAMPLES / "devices.csv")
    import_devices(store, entries)
    keys = {d.id: d.key for d in devices(store).values()}
    changed = [e._replace(label="Renamed") if e.id == 21 else e for e in entries]
    assert import_devices(store, changed) == (0, 1, 11)
    assert {d.id: d.key for d in devices(store).values()} == keys
    assert devices(store)[21].label == "Renamed"


def test_nothing_is_stored_while_a_problem_stands(store):
    register_device(store, 50, "marshal", "old phone", meshtastic="!0badbeef")
    entries = [DeviceEntry(2, 12, "marshal", "M12"),
               DeviceEntry(3, 301, "tracker", "leader", group="Wolfs"),
               DeviceEntry(4, 302, "tracker", "node", meshtastic="!0badbeef")]
    with pytest.raises(DeviceImportError) as caught:
        import_devices(store, entries)
    assert caught.value.problems == ["line 3: unknown group 'Wolfs': import the roster with it first",
                                     "line 4: Meshtastic node !0badbeef is device 50 already"]
    assert set(devices(store)) == {50}
    # The node moves when its old device is in the list too (given another, or none).
    moved = [DeviceEntry(2, 50, "marshal", "old phone"), DeviceEntry(3, 302, "tracker", "node", meshtastic="!0badbeef")]
    assert import_devices(store, moved) == (1, 1, 0)
    assert devices(store)[302].meshtastic == "!0badbeef" and devices(store)[50].meshtastic is None


def test_readiness_from_the_record(store):
    import_devices(store, read_device_list(EXAMPLES / "devices.csv"))
    key = devices(store)[301].key
    assert next_unprovisioned(store) == 1
    record_provisioning(store, 1, "provisioned", "1.1.0", key_fingerprint(devices(store)[1].key), port="/dev/ttyUSB0")
    record_provisioning(store, 21, "failed", detail="the board on /dev/ttyUSB0 stopped answering", port="x")
    record_provisioning(store, 301, "provisioned", "1.1.0", key_fingerprint(key))
    assert next_unprovisioned(store) == 2
    store.log.append([
        (make_event(1000, "position", "tracker:301", device=301, lat=58.3, lon=26.7, fix=1, sats=8, battery=91),
         RadioMeta(301, 0, -101.0, 3.5, ("7",))),
        (make_event(5000, "heartbeat", "tracker:301", device=301, uptime=1, battery=64),
         RadioMeta(301, 1, -90.0, 6.0, ("7", "8"))),
        (make_event(6000, "down", "marshal:21", badge=101), RadioMeta(21, 5, -80.0, 9.0, ("8",))),
    ], wall_ms=1_780_000_000_000)
    status = {s.id: s for s in device_status(store)}
    assert status[1].provisioned and status[301].provisioned and not status[21].provisioned
    assert status[21].provisioning.state == "failed" and "stopped answering" in status[21].provisioning.detail
    assert status[301].first.t == 1000 and status[301].last.t == 5000 and status[301].frames == 2
    assert status[301].last.gateways == ("7", "8") and status[301].battery == 64
    assert status[21].first.rssi == -80.0 and status[21].battery is None
    # A new key: the board holds the old one, so the device is no longer provisioned.
    register_device(store, 301, "tracker", "Wolves leader", group="Wolves", replace_key=True)
    again = {s.id: s for s in device_status(store)}[301]
    assert not again.provisioned and again.fingerprint != again.provisioning.fingerprint
    assert next_unprovisioned(store) == 2
    shown = json.dumps([s.to_dict() for s in device_status(store)])
    for d in devices(store).values():
        assert d.key.hex() not in shown.lower() and base64.b64encode(d.key).decode() not in shown


def test_the_command_line_imports_and_lists_without_a_key(tmp_path):
    db = str(tmp_path / "cli.crgame")
    assert _cli("roster", "import", str(EXAMPLES / "roster.csv"), "--db", db).returncode == 0
    done = _cli("devices", "import", str(EXAMPLES / "devices_et.csv"), "--db", db)
    assert done.returncode == 0, done.stderr
    assert ("12 (12 added with fresh keys, 0 updated, 0 unchanged): 5 marshal handsets, 5 trackers, 2 gateways"
            in done.stdout)
    listed = _cli("devices", "list", "--db", db)
    assert listed.returncode == 0 and "12 devices: 0 provisioned, 0 heard" in listed.stdout
    assert "Mari Maasikas" in listed.stdout and "n/a (Meshtastic node !a1b2c3d4)" in listed.stdout
    with GameStore.open(db, create=False) as s:
        keys = [d.key for d in devices(s).values()]
    said = done.stdout + done.stderr + listed.stdout + _cli("devices", "list", "--db", db, "--json").stdout
    for key in keys:
        assert key.hex() not in said.lower() and base64.b64encode(key).decode() not in said


def test_the_command_line_names_every_problem_and_stores_nothing(tmp_path):
    db = str(tmp_path / "cli.crgame")
    bad = tmp_path / "bad.csv"
    bad.write_text("id,role,group,board\n12,marshal,,heltec-v2\n12,tracker,Nobody,\n")
    done = _cli("devices", "import", str(bad), "--db", db)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"controlroom: {bad}: 2 problem(s), nothing was imported:",
        "  line 2: a heltec-v2 cannot be a marshal: it has no GPS or keypad (use a T-Beam)",
        "  line 3: device 12 is already on line 2"]          # the file's own problems first: its groups later
    done = _cli("devices", "import", str(tmp_path / "missing.xlsx"), "--db", db)
    assert done.returncode == 1 and "no such file" in done.stderr
    only_group = tmp_path / "group.csv"
    only_group.write_text("id,role,group\n13,tracker,Nobody\n")
    done = _cli("devices", "import", str(only_group), "--db", db)
    assert done.returncode == 1 and "line 2: unknown group 'Nobody'" in done.stderr
    with GameStore.open(db, create=False) as s:
        assert devices(s) == {}
