"""Benchmark: game-day setup at scale: 100 devices imported from a list, 20 boards provisioned in a row.

    .venv/bin/python -m benchmarks.bench_devices [--devices 100] [--boards 20] [--baud 115200]

1. import: a list of ``--devices`` devices (CSV, English headers; a roster of
   its groups imported first) through ``controlroom devices import``, a
   process of its own as the organiser runs it; and the same list read and
   stored in this process (the command's own work, without Python's start).
   Target (issue 39): under 2 s.
2. provisioning: ``--boards`` boards, each a new one (an empty flash), through
   ``controlroom devices provision --next --board PORT`` one after another:
   seconds per device, from the command's start to its end (the firmware's
   ~117 KB copied, checked, renamed; the board's read-back; its reset).  The
   board is tests/support/fake_board.py: the real MicroPython's interpreter
   behind MicroPython's raw REPL on a pty, its line kept to ``--baud`` (8N1)
   as a board's USB-UART bridge keeps it.  Target: under 15 s each.
   Baseline, in the same run: the same files copied to a new board through
   mpremote's transport alone (``fs_writefile``, no checks, no rename, no
   read-back, no reset), at the same line speed: what the copy itself costs.
The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controlroom.engine.provisioning import firmware_files
from controlroom.game.device_list import read_device_list
from controlroom.store.device_setup import device_status, import_devices
from controlroom.store.game import GameStore
from tests.support.fake_board import FakeBoard

IMPORT_TARGET_S = 2.0
PROVISION_TARGET_S = 15.0
GROUPS = ("Wolves", "Ravens", "Bears", "Lynx", "Kotkad")


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controlroom", *args], capture_output=True, text=True, timeout=600)


def _check(done: subprocess.CompletedProcess) -> None:
    if done.returncode != 0:
        raise SystemExit(done.stderr)


def write_lists(folder: Path, devices: int) -> tuple[Path, Path]:
    """A roster of the groups, and a device list: a fifth marshal handsets, the rest trackers, 6 gateways."""
    roster = folder / "roster.csv"
    roster.write_text("badge,name,side,group,class,paid,helmet,armour\n" + "".join(
        f"{b},Player {b},{'North' if b % len(GROUPS) < 3 else 'South'},{GROUPS[b % len(GROUPS)]},warrior,yes,,\n"
        for b in range(1, 101)), encoding="utf-8")
    rows = ["id,role,label,group,engine,board,marshal,badge"]
    for i in range(1, devices + 1):
        if i <= 6:
            rows.append(f"{i},gateway,Gateway {i},,,heltec-v3,,")
        elif i % 5 == 0:
            rows.append(f"{i},marshal,Marshal {i},,,tbeam-v1.1-sx1276,Marshal Name {i},{900 + i}")
        else:
            rows.append(f"{i},tracker,Tracker {i},{GROUPS[i % len(GROUPS)]},,,,")
    listed = folder / "devices.csv"
    listed.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return roster, listed


def measure_import(folder: Path, devices: int) -> dict:
    roster, listed = write_lists(folder, devices)
    db = str(folder / "import.crgame")
    _check(_cli("roster", "import", str(roster), "--db", db))
    start = time.perf_counter()
    done = _cli("devices", "import", str(listed), "--db", db)
    cli_s = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    again = str(folder / "import2.crgame")
    with GameStore.open(again) as store:
        from controlroom.game.roster_csv import read_roster_csv

        store.save_roster(read_roster_csv(roster, store.profile()))
        start = time.perf_counter()
        change = import_devices(store, read_device_list(listed))
        in_process_s = time.perf_counter() - start
    print(f"import of {devices} devices: {cli_s:.2f} s through the command, {in_process_s:.3f} s of its own work",
          file=sys.stderr)
    return {"devices": devices, "command_s": round(cli_s, 3), "in_process_s": round(in_process_s, 3),
            "added": change.added, "target_s": IMPORT_TARGET_S, "under_target": cli_s < IMPORT_TARGET_S}


def raw_copy(folder: Path, baud: int | None) -> float:
    """The firmware and a device file copied to a new board through mpremote's transport, nothing else."""
    from mpremote.transport_serial import SerialTransport

    files = {**firmware_files(slimmed=False), "device.json": b"{" + b" " * 400 + b"}"}
    with FakeBoard(folder / "raw-flash", baud=baud) as board:
        start = time.perf_counter()
        t = SerialTransport(board.port, baudrate=115200, timeout=5)
        t.enter_raw_repl(soft_reset=True)
        for name, data in files.items():
            t.fs_writefile(name, data, chunk_size=1024)
        t.exit_raw_repl()
        t.close()
        return time.perf_counter() - start


def measure_provisioning(folder: Path, boards: int, baud: int | None) -> dict:
    roster, listed = write_lists(folder, max(boards + 6, 30))
    db = str(folder / "provision.crgame")
    _check(_cli("roster", "import", str(roster), "--db", db))
    _check(_cli("devices", "import", str(listed), "--db", db))
    times, sent = [], 0
    for n in range(boards):
        with FakeBoard(folder / f"flash-{n}", baud=baud) as board:
            start = time.perf_counter()
            done = _cli("devices", "provision", "--next", "--db", db, "--board", board.port)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(done.stderr)
            sent += board.received
        print(f"board {n + 1}: {done.stdout.split(':')[0]} in {times[-1]:.2f} s", file=sys.stderr)
    with GameStore.open(db, create=False, read_only=True) as store:
        provisioned = sum(s.provisioned for s in device_status(store))
    baseline = raw_copy(folder, baud)
    per = statistics.median(times)
    print(f"provisioning: median {per:.2f} s a device (max {max(times):.2f} s); the raw copy through mpremote's "
          f"transport {baseline:.2f} s", file=sys.stderr)
    return {"boards": boards, "baud": baud, "provisioned": provisioned, "per_device_median_s": round(per, 2),
            "per_device_max_s": round(max(times), 2), "bytes_to_a_board": sent // max(boards, 1),
            "raw_copy_s": round(baseline, 2), "ratio_to_raw_copy": round(per / baseline, 2),
            "target_s": PROVISION_TARGET_S, "under_target": max(times) < PROVISION_TARGET_S}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", type=int, default=100)
    ap.add_argument("--boards", type=int, default=20)
    ap.add_argument("--baud", type=int, default=115200, help="the line's speed (0: as fast as the pty goes)")
    args = ap.parse_args()
    if shutil.which("node") is None:
        raise SystemExit("the fake board needs Node.js and the MicroPython interpreter: npm ci --prefix hardware")
    folder = Path(tempfile.mkdtemp(prefix="bench_devices_"))
    (folder / "import").mkdir()
    try:
        result = {"benchmark": "devices", "import": measure_import(folder / "import", args.devices),
                  "provisioning": measure_provisioning(folder, args.boards, args.baud or None)}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.exit(main())
