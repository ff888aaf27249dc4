"""One-click provisioning against a board on a pty whose interpreter is the real MicroPython (issue 39).

The board (tests/support/fake_board.py) speaks MicroPython's raw REPL and
raw-paste mode; ``controlroom devices provision`` writes the firmware, codec.py
and the device's file to its flash through mpremote's transport; the board
reads its file back, restarts, and runs the provisioned main.py in the real
MicroPython; its first frame goes through a gateway on a pty into a real
``controlroom headless``, which authenticates and stores it.  A cable pulled
while device.json is copied leaves the old file (or none), never half of one.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controlroom.game.device_list import DeviceEntry
from controlroom.game.devices import key_fingerprint
from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.store.device_setup import device_status, import_devices
from controlroom.store.devices import devices, register_device
from controlroom.store.game import GameStore
from tests.support.fake_board import FakeBoard
from tests.support.pty_gateway import PtyGateway

pytestmark = pytest.mark.micropython


def _cli(*args, cwd=None, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "controlroom", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)


def _wait(condition, seconds=60.0, what="the condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture()
def game(tmp_path):
    db = str(tmp_path / "setup.crgame")
    with GameStore.open(db) as store:
        store.save_roster([Member(101, "Aldo", "North", "Wolves"), Member(102, "Birgit", "South", "Ravens")])
        import_devices(store, [DeviceEntry(2, 12, "marshal", "Marshal North", marshal="Mari Maasikas", badge=901),
                               DeviceEntry(3, 301, "tracker", "Wolves leader", group="Wolves"),
                               DeviceEntry(4, 7, "gateway", "Gateway hill", board="heltec-v3")])
    return db


def _key(db, device):
    with GameStore.open(db, create=False) as store:
        return devices(store)[device].key


def _status(db, device):
    with GameStore.open(db, create=False, read_only=True) as store:
        return {s.id: s for s in device_status(store)}[device]


def _files_with(root: Path, needles: list[bytes], skip: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and skip not in path.parents:
            data = path.read_bytes()
            if any(n in data for n in needles):
                found.append(path)
    return found


def test_provisioned_board_is_heard_by_the_station_end_to_end(game, tmp_path):
    gateway = PtyGateway()
    flash = tmp_path / "board" / "flash"
    board = FakeBoard(flash, air=gateway.hear).start()
    station = subprocess.Popen([sys.executable, "-m", "controlroom", "headless", "--db", game, "--port",
                                gateway.port, "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    work, tmp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    tmp.mkdir()
    try:
        _wait(gateway.identified.is_set, what="the station to identify its gateway")
        env = dict(os.environ, TMPDIR=str(tmp), HOME=str(tmp_path / "home"))
        done = _cli("devices", "provision", "301", "--db", game, "--board", board.port, cwd=work, env=env)
        assert done.returncode == 0, done.stderr
        key = _key(game, 301)
        assert f"key {key_fingerprint(key)}" in done.stdout and "firmware 1.1.0" in done.stdout
        assert key.hex() not in done.stdout + done.stderr and key.hex().upper() not in done.stdout + done.stderr
        # What the board has: every firmware file, codec.py, and its device file read back by its own config.py.
        files = board.files()
        firmware = {p.name for p in (Path(__file__).resolve().parents[2] / "hardware" / "firmware").glob("*.py")}
        assert firmware | {"codec.py", "device.json"} <= set(files)
        kept = json.loads(files["device.json"])
        assert kept["key"] == key.hex() and kept["device"] == 301 and kept["role"] == "tracker"
        assert not [n for n in files if n.endswith(".new")]
        assert board.pastes > 10 and board.resets == 1 and not board.errors
        # The board restarted, ran main.py as tracker 301, and its first frame went to the station.
        _wait(lambda: board.frames, what="the board's first frame")
        frame = codec.decode_frame(board.frames[0])
        assert (frame.type, frame.device, frame.counter) == ("position", 301, 0) and codec.verify(frame, key)
        _wait(lambda: _status(game, 301).first is not None, what="the station to store the frame")
        status = _status(game, 301)
        assert status.provisioned and status.provisioning.firmware == "1.1.0"
        assert status.provisioning.fingerprint == key_fingerprint(key)
        assert status.battery == 87 and status.first.gateways == ("7",) and status.first.rssi == -97
        listed = _cli("devices", "list", "--db", game, "--json")
        row = next(d for d in json.loads(listed.stdout) if d["id"] == 301)
        assert row["provisioned"] and row["first_heard"] is not None and row["battery"] == 87
        assert key.hex() not in listed.stdout
        # No key file was left on this computer: the key is on the board only (and in the game).
        needles = [key.hex().encode(), key.hex().upper().encode(), key]
        assert _files_with(work, needles, flash) == [] and _files_with(tmp, needles, flash) == []
    finally:
        station.send_signal(signal.SIGTERM)
        out, err = station.communicate(timeout=60)
        board.stop()
        gateway.close()
    assert station.returncode == 0, err
    assert "rejected" not in out


def test_reprovisioning_keeps_the_frame_counter(game, tmp_path):
    flash = tmp_path / "flash"
    with FakeBoard(flash) as board:
        assert _cli("devices", "provision", "12", "--db", game, "--board", board.port).returncode == 0
        _wait(lambda: board.frames, what="the first boot's frame")
        counter = board.files()["counter"]
        assert counter.startswith(b"256 ")
        sent_before = board.execs
        again = _cli("devices", "provision", "12", "--db", game, "--board", board.port)
        assert again.returncode == 0, again.stderr
        assert "frame counter kept at 256" in again.stdout and "1 file(s) sent" in again.stdout
        assert board.execs - sent_before < 20          # only device.json went again
        _wait(lambda: len(board.frames) == 2, what="the second boot's frame")
    first, second = (codec.decode_frame(f) for f in board.frames)
    assert first.counter == 0 and second.counter == 256     # never a counter used twice
    assert codec.verify(second, _key(game, 12))


def _cut_in(file: str, after_chunks: int):
    """A cable pulled while ``file`` is copied: after ``after_chunks`` pieces of it went to the board."""
    state = {"writing": False, "chunks": 0}

    def pull(code: bytes) -> bool:
        # The temporary file opened: mpremote's own copy (FILE.new), or the packed one (FILE.new.z).
        if b"open(" in code and f"'{file}.new".encode() in code and b"'wb')" in code:
            state["writing"] = True
        elif state["writing"] and code.startswith(b"w("):
            if state["chunks"] >= after_chunks:
                return True
            state["chunks"] += 1
        return False

    return pull


def test_a_cable_pulled_mid_copy_leaves_no_half_device_file_and_a_retry_succeeds(game, tmp_path):
    flash = tmp_path / "flash"
    # A new board, pulled while its device.json is copied: none is left, only the temporary file, in part.
    with FakeBoard(flash, pull_cable=_cut_in("device.json", 0)) as board:
        failed = _cli("devices", "provision", "12", "--db", game, "--board", board.port)
        assert board.pulled
    assert failed.returncode == 1
    assert "stopped answering while device.json was copied" in failed.stderr, failed.stderr
    files = {p.name: p.read_bytes() for p in flash.iterdir() if not p.name.startswith(".")}
    assert "device.json" not in files and "main.py" in files
    assert len(files["device.json.new.z"]) < 100       # begun, not finished (packed, the file is about 300 bytes)
    status = _status(game, 12)
    assert not status.provisioned and status.provisioning.state == "failed"
    assert "device.json" in status.provisioning.detail
    # Plugged in again: the retry succeeds.
    with FakeBoard(flash) as board:
        retry = _cli("devices", "provision", "12", "--db", game, "--board", board.port)
        assert retry.returncode == 0, retry.stderr
        _wait(lambda: board.frames, what="the frame after the retry")
    old = (flash / "device.json").read_bytes()
    assert json.loads(old)["key"] == _key(game, 12).hex() and _status(game, 12).provisioned
    # A new key, and the cable pulled again while the new file is copied: the old file stays, whole.
    with GameStore.open(game, create=False) as store:
        register_device(store, 12, "marshal", "Marshal North", marshal="Mari Maasikas", replace_key=True)
    assert not _status(game, 12).provisioned                 # provisioned with a key it no longer has
    with FakeBoard(flash, pull_cable=_cut_in("device.json", 0)) as board:
        assert _cli("devices", "provision", "12", "--db", game, "--board", board.port).returncode == 1
    assert (flash / "device.json").read_bytes() == old
    with FakeBoard(flash) as board:
        assert _cli("devices", "provision", "12", "--db", game, "--board", board.port).returncode == 0
    assert json.loads((flash / "device.json").read_bytes())["key"] == _key(game, 12).hex()
    assert _status(game, 12).provisioned


def test_a_board_is_written_the_same_packed_or_by_mpremotes_own_copy(game, tmp_path):
    """The packed copy (compressed, base64, unpacked by the board's deflate) and mpremote's own copy (for a
    board without deflate) leave the same files; the packed one sends about a third of the bytes."""
    from controlroom.engine.provisioning import DEFAULT_BOARD, device_file, firmware_files
    from controlroom.radio.board import provision_board

    files = firmware_files()
    with GameStore.open(game, create=False) as store:
        dev = devices(store)[12]
    device = json.dumps(device_file(dev, dev.board or DEFAULT_BOARD)).encode()
    sent = {}
    for pack in (True, False):
        with FakeBoard(tmp_path / f"flash-{pack}", frames=0) as board:
            got = provision_board(board.port, files, device, pack=pack)
            sent[pack] = board.received
        assert got.sent == len(files) + 1 and got.device == 12
        flash = {p.name: p.read_bytes() for p in (tmp_path / f"flash-{pack}").iterdir()}
        assert all(flash[name] == data for name, data in files.items()) and flash["device.json"] == device
        assert not [name for name in flash if name.endswith((".new", ".z"))]
    assert sent[True] < 0.6 * sent[False], sent


def test_next_provisions_in_order_and_says_when_all_are_done(game, tmp_path):
    ids = []
    for n in range(3):
        with FakeBoard(tmp_path / f"flash{n}") as board:
            done = _cli("devices", "provision", "--next", "--db", game, "--board", board.port)
            assert done.returncode == 0, done.stderr
            ids.append(int(done.stdout.split()[1]))
    assert ids == [7, 12, 301]
    with FakeBoard(tmp_path / "flash9") as board:
        last = _cli("devices", "provision", "--next", "--db", game, "--board", board.port)
    assert last.returncode == 1 and "every device with a board is provisioned already" in last.stderr


def test_no_board_there_is_a_failure_in_words(game, tmp_path):
    done = _cli("devices", "provision", "12", "--db", game, "--board", str(tmp_path / "ttyUSB9"))
    assert done.returncode == 1 and "cannot open" in done.stderr and "Traceback" not in done.stderr
    assert _status(game, 12).provisioning.state == "failed"
