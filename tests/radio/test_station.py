"""A headless station on a real pseudo-terminal: identify, frames in, acks out, counters, storage."""

import json
import os
import select
import subprocess
import sys
import time
import tty

from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore


def _read_line(fd, deadline):
    buf = b""
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            chunk = os.read(fd, 1)
            if chunk == b"\n":
                return buf.decode()
            buf += chunk
    raise AssertionError(f"no line from the station (got {buf!r})")


def _damaged(line):
    """The line with the last digit of its checksum changed (the key is random: any digit may be there)."""
    return line[:-1] + ("0" if line[-1] != "0" else "1")


def test_headless_station_on_a_pty(tmp_path):
    game = tmp_path / "station.crgame"
    with GameStore.open(game) as store:
        store.save_roster([Member(101, "Aldo", "North", "Wolves"), Member(102, "Birgit", "South", "Ravens")])
        key = register_device(store, 7, "marshal", "M7").key
    master, slave = os.openpty()
    tty.setraw(slave)
    stats = tmp_path / "stats.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "controlroom", "headless", "--db", str(game), "--port", os.ttyname(slave),
         "--quit-after", "6", "--stats-json", str(stats)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 20
        line = _read_line(master, deadline)
        while not line.startswith("ID?"):
            line = _read_line(master, deadline)
        os.write(master, (codec.format_id_line(3, "test-1") + "\n").encode())
        down = codec.encode_casualty(key, 7, 1, 101, "down")
        lines = [
            codec.format_rx_line(3, -95, 6.5, down),
            codec.format_rx_line(4, -80, 9.0, down),      # gateway 4 on gateway 3's link: rejected (section 7)
            codec.format_rx_line(3, -95, 6.5, codec.encode_casualty(bytes(16), 7, 2, 102, "died")),   # forged
            _damaged(codec.format_rx_line(3, -95, 6.5, codec.encode_valhalla(key, 7, 3, 102))),
            codec.format_rx_line(3, -90, 5.0, codec.encode_casualty(key, 7, 4, 102, "permanent_kill")),
        ]
        for text in lines:
            os.write(master, (text + "\n").encode())
        acks = []
        while len(acks) < 2:                  # the frame (its copy came within 2 s: no second ack), the kill
            line = _read_line(master, deadline)
            if line.startswith("TX "):
                acks.append(codec.decode_frame(codec.parse_line(line)["frame"]))
                os.write(master, (codec.format_txok_line(acks[-1].counter) + "\n").encode())
        assert sorted(a.fields["acked_counter"] for a in acks) == [1, 4]
        assert all(codec.verify(a, key) for a in acks)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err
    s = json.loads(stats.read_text())
    assert ((s["frames_total"], s["accepted"], s["duplicates"], s["rejected_auth"], s["rejected_corrupt"])
            == (5, 2, 0, 1, 2))
    assert "rejected_auth" in out           # the forged frame raised an alarm
    with GameStore.open(game, create=False) as store:
        stored = list(store.log.read())
    radio = [(s.event.type, s.radio.device, s.radio.counter) for s in stored if s.radio]
    assert radio == [("down", 7, 1), ("permanent_kill", 7, 4)]
    assert stored[0].radio.gateways == ("3",)       # the line naming gateway 4 was not believed
