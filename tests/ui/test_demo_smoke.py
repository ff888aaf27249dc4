"""The whole program on the simulator: `controlroom demo` shows a battle and takes a screenshot."""

import os
import shutil
import subprocess
import sys
import time

import pytest
from PySide6.QtGui import QImage


def _run_demo(tmp_path, env_extra, seconds=20, extra=()):
    shot = tmp_path / "shot.png"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               **env_extra)
    r = subprocess.run([sys.executable, "-m", "controlroom", "demo", "--quit-after", str(seconds), "--speed", "30",
                        "--screenshot", str(shot), *extra], capture_output=True, text=True, timeout=180, env=env)
    assert r.returncode == 0, r.stderr
    return shot


def _markers(path):
    """Pixels of the side colours the map draws its groups in."""
    img = QImage(str(path))
    assert not img.isNull() and img.width() >= 800
    colours = {(0x1F, 0x77, 0xB4), (0xD6, 0x27, 0x28), (0x2C, 0xA0, 0x2C)}
    hits = 0
    for y in range(0, img.height(), 2):
        for x in range(0, img.width(), 2):
            c = img.pixelColor(x, y)
            if (c.red(), c.green(), c.blue()) in colours:
                hits += 1
    return hits


def test_demo_offscreen_shows_the_map_with_markers(tmp_path):
    shot = _run_demo(tmp_path, {"QT_QPA_PLATFORM": "offscreen"})
    assert _markers(shot) > 20


def test_demo_over_local_tcp_ports_as_on_windows(tmp_path):
    shot = _run_demo(tmp_path, {"QT_QPA_PLATFORM": "offscreen"}, extra=("--tcp",))
    assert _markers(shot) > 20


@pytest.mark.skipif(shutil.which("Xvfb") is None,
                    reason="Xvfb is not installed (the quick-start test command installs it)")
def test_demo_in_a_real_window_under_xvfb(tmp_path):
    display = ":%d" % (90 + os.getpid() % 50)
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)
        assert xvfb.poll() is None, "Xvfb did not start"
        env = {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        shot = _run_demo(tmp_path, env)
        assert _markers(shot) > 20
    finally:
        xvfb.terminate()
        xvfb.wait(10)
