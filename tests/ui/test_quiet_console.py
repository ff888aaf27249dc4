"""A quiet console (issue 37): the demo without a display or a sound server prints none of Qt's or PulseAudio's noise.

``quickstart.py run`` on a machine without a display printed "This plugin
does not support propagateSizeHints()" for every window and dock, and
"Connection failure: Connection refused / pa_context_connect() failed" for
every alarm sound.  A real Qt warning must still reach the console and the log.
"""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QtMsgType
from PySide6.QtGui import QFont

from controlroom.ui import qt_messages
from controlroom.ui.panels import sound

HERE = Path(__file__).resolve().parent
NOISE = ("propagateSizeHints", "This plugin does not support", "Connection failure", "pa_context_connect")
REAL = "QFont::setPointSize: Point size <= 0 (-1)"


def quiet_env(tmp_path: Path) -> dict:
    """No display, no sound server, and the user's folders (games, settings, logs) in ``tmp_path``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER", "PULSE_RUNTIME_PATH", "PULSE_SINK")}
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    env.update(QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(run), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               CONTROLROOM_LOG_DIR=str(tmp_path / "log"), PIPEWIRE_RUNTIME_DIR=str(run))
    return env


def test_the_demo_without_display_or_sound_server_leaves_the_console_quiet(tmp_path):
    env = quiet_env(tmp_path)
    done = subprocess.run([sys.executable, str(HERE.parent / "support" / "quiet_demo.py"), "5"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "poked" in done.stdout                       # the alarm was raised and the warning said
    noise = [line for line in done.stderr.splitlines() if any(n in line for n in NOISE)]
    assert not noise, noise
    assert REAL in done.stderr                          # a real warning still reaches the console ...
    logged = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "log").glob("window-*.log"))
    assert REAL in logged                               # ... and the log
    assert not any(n in logged for n in NOISE[:2])
    if sound.find_player() is not None:                 # the alarm's sound had no server: said once, in the log
        assert logged.count("no sound server runs") == 1, logged


def test_only_the_screenless_platforms_expected_messages_are_dropped():
    assert qt_messages.expected("This plugin does not support propagateSizeHints()", "offscreen")
    assert qt_messages.expected("This plugin does not support raise()", "minimal")
    assert not qt_messages.expected("This plugin does not support propagateSizeHints()", "xcb")
    assert not qt_messages.expected(REAL, "offscreen")


def test_a_real_warning_goes_to_the_log_and_on_and_an_expected_one_nowhere(qapp, monkeypatch, caplog):
    passed = []
    monkeypatch.setattr(qt_messages, "_previous", lambda mode, context, message: passed.append(message))
    with caplog.at_level(logging.DEBUG, logger="qt"):
        qt_messages.handle(QtMsgType.QtWarningMsg, None, "This plugin does not support propagateSizeHints()")
        qt_messages.handle(QtMsgType.QtWarningMsg, None, REAL)
    assert passed == [REAL]
    warned = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert (logging.WARNING, REAL) in warned
    assert (logging.DEBUG, "This plugin does not support propagateSizeHints()") in warned


@pytest.mark.qt_log_ignore("QFont::setPointSize")
def test_the_handler_installed_by_the_application_lets_real_warnings_through(qapp, capfd, monkeypatch):
    from controlroom.ui.app import application

    monkeypatch.setattr(qt_messages, "_installed", False)
    monkeypatch.setattr(qt_messages, "_previous", None)
    old = qt_messages.qInstallMessageHandler(None)       # (pytest-qt's, while this test runs)
    try:
        application()
        QFont().setPointSize(-1)
    finally:
        qt_messages.qInstallMessageHandler(old)
    assert REAL in capfd.readouterr().err


def test_no_sound_server_is_said_once_and_nothing_played(monkeypatch, tmp_path, caplog):
    run = tmp_path / "run"
    run.mkdir()
    for key in ("PULSE_SERVER", "PULSE_RUNTIME_PATH"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    (run / "pulse").mkdir()
    (run / "pulse" / "native").write_text("")             # a socket's name left by a server gone
    assert sound.sound_server("/usr/bin/paplay") is None
    monkeypatch.setenv("PULSE_SERVER", f"unix:{run / 'nowhere'}")
    assert sound.sound_server("/usr/bin/paplay") is None
    watch = sound.ServerWatch()
    with caplog.at_level(logging.INFO, logger=sound.__name__):
        assert not watch("/usr/bin/paplay") and not watch("/usr/bin/paplay")
    assert sum("no sound server runs" in r.getMessage() for r in caplog.records) == 1
    started = []
    monkeypatch.setattr(sound, "server_runs", watch)
    monkeypatch.setattr(sound.QProcess, "startDetached", lambda *a: started.append(a) or (True, 1))
    sounds = sound.AlarmSounds(player="/usr/bin/paplay")
    sounds.play("safety")
    assert sounds.played == ["safety"] and started == []
