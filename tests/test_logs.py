"""Log files: one rotating file per process in the platform's log folder; old ones pruned."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controlroom import logs
from controlroom.game.roster import Member
from controlroom.store.game import GameStore


@pytest.mark.parametrize(("platform", "env", "expected"), [
    ("linux", {"XDG_STATE_HOME": "/x/state"}, "/x/state/controlroom/log"),
    ("linux", {}, "~/.local/state/controlroom/log"),
    ("win32", {"LOCALAPPDATA": "C:/Users/ann/AppData/Local"}, "C:/Users/ann/AppData/Local/controlroom/Logs"),
    ("darwin", {}, "~/Library/Logs/controlroom"),
])
def test_the_platforms_log_folder(monkeypatch, platform, env, expected):
    for name in ("XDG_STATE_HOME", "LOCALAPPDATA", "CONTROLROOM_LOG_DIR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "platform", platform)
    assert logs.log_dir() == Path(os.path.expanduser(expected))


WRITER = """
import logging, sys, time
import controlroom.logs as L
L.MAX_BYTES = 20_000
path = L.setup_logging(sys.argv[1])
assert L.setup_logging(sys.argv[1]) == path          # once per process
for i in range(int(sys.argv[2])):
    logging.getLogger("controlroom.test").info("line %d %s", i, "x" * 100)
print(path)
"""


def _writer(folder, role, lines):
    env = dict(os.environ, CONTROLROOM_LOG_DIR=str(folder))
    return subprocess.Popen([sys.executable, "-c", WRITER, role, str(lines)], env=env, stdout=subprocess.PIPE,
                            text=True)


def test_each_process_writes_and_rotates_a_file_of_its_own(tmp_path):
    folder = tmp_path / "log"
    procs = [_writer(folder, "window", 1000), _writer(folder, "window", 10), _writer(folder, "headless", 10)]
    paths = []
    for p in procs:
        out, _ = p.communicate(timeout=60)
        assert p.returncode == 0
        paths.append(Path(out.strip()))
    assert len(set(paths)) == 3 and all(p.parent == folder for p in paths)
    for p, proc in zip(paths, procs):
        assert p.name.endswith(f"-{proc.pid}.log")
    assert paths[2].name.startswith("headless-") and paths[0].name.startswith("window-")
    busy = sorted(x.name for x in folder.glob(paths[0].name + "*"))
    assert busy == [paths[0].name] + [f"{paths[0].name}.{i}" for i in (1, 2, 3)]    # three rotated, no more
    assert all(x.stat().st_size <= 21_000 for x in folder.glob(paths[0].name + "*"))
    assert "line 999 " in paths[0].read_text(encoding="utf-8")
    quiet = paths[1].read_text(encoding="utf-8")
    assert f" {procs[1].pid} " in quiet and "controlroom window started" in quiet and "line 9 " in quiet


def test_old_log_files_are_pruned_but_not_todays(tmp_path):
    now = time.time()
    ages = {"old-1.log": 40, "old-1.log.1": 40, "recent.log": 0.1, "week.log": 7}
    ages |= {f"many-{i}.log": 2 + i / 100 for i in range(10)}
    for name, days in ages.items():
        path = tmp_path / name
        path.write_text("x")
        os.utime(path, (now - days * 86_400, now - days * 86_400))
    (tmp_path / "notes.txt").write_text("not a log")
    gone = {p.name for p in logs.prune(tmp_path, keep_days=30, keep_files=5, now=now)}
    left = {p.name for p in tmp_path.iterdir()}
    assert {"old-1.log", "old-1.log.1"} <= gone
    assert "recent.log" in left and "notes.txt" in left
    assert len([n for n in left if ".log" in n]) == 5           # the newest five


def test_a_headless_station_logs_to_its_own_file(tmp_path):
    game = tmp_path / "h.crgame"
    with GameStore.open(game) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves")])
    folder = tmp_path / "log"
    r = subprocess.run([sys.executable, "-m", "controlroom", "headless", "--db", str(game), "--quit-after", "1",
                        "--quiet"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, CONTROLROOM_LOG_DIR=str(folder)))
    assert r.returncode == 0, r.stderr
    (log,) = folder.glob("headless-*.log")
    assert "controlroom headless started" in log.read_text(encoding="utf-8")


def test_help_open_log_folder_opens_the_platforms_log_folder(monkeypatch, tmp_path, qtbot):
    from controlroom.ui import main_window

    opened = []
    monkeypatch.setenv("CONTROLROOM_LOG_DIR", str(tmp_path / "log"))
    monkeypatch.setattr(main_window.QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()))
    main_window.open_log_folder()
    assert opened == [str(tmp_path / "log")] and (tmp_path / "log").is_dir()
