"""The link to the server and the files that hold secrets: TLS, no password anywhere, files only their user reads."""

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controlroom.paths import exposed, without_password
from controlroom.store.game import GameStore
from controlroom.store.spool import Spool

SECRET = "S3cret-Pw-9876"


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def headless(db: str, env: dict, seconds: float = 3.0) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controlroom", "headless", "--db", db, "--quit-after", str(seconds)],
                          capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def home(tmp_path):
    """A user's folders of their own (data, logs, settings), to search afterwards."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "CONTROLROOM_LANG": "en"}
    return tmp_path, env


def test_a_new_game_file_and_its_companions_are_their_users_alone(tmp_path):
    path = tmp_path / "private.crgame"
    old = os.umask(0o022)               # (a usual umask: files readable by all)
    try:
        with GameStore.open(path) as store:
            store.log.append([])
            assert mode(path) == 0o600
            for suffix in ("-wal", "-shm"):
                companion = Path(f"{path}{suffix}")
                if companion.exists():
                    assert mode(companion) == 0o600, suffix
        spool = Spool(tmp_path / "queues" / "game.queue")
        spool.close()
        assert mode(tmp_path / "queues" / "game.queue") == 0o600
    finally:
        os.umask(old)
    assert exposed(path) == []


def test_an_open_game_others_can_read_is_said_and_can_be_made_private(tmp_path, home):
    _root, env = home
    path = tmp_path / "shared.crgame"
    with GameStore.open(path):
        pass
    os.chmod(path, 0o644)
    done = headless(str(path), env)
    assert done.returncode == 0, done.stderr
    assert f"other users of this computer can read {path}" in done.stderr and f"chmod 600 {path}" in done.stderr


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_the_window_offers_to_make_it_private(qtbot, tmp_path):
    from PySide6.QtWidgets import QMessageBox, QWidget

    from controlroom.ui.dialogs.privacy import offer_privacy

    path = tmp_path / "shared.crgame"
    path.write_bytes(b"")
    os.chmod(path, 0o644)
    parent = QWidget()
    qtbot.addWidget(parent)
    info = type("Info", (), {"exposed": (str(path),)})()
    box = offer_privacy(parent, info)
    assert box is not None and "Make it private" in box.button(QMessageBox.StandardButton.Yes).text()
    box.button(QMessageBox.StandardButton.Yes).click()
    assert mode(path) == 0o600
    assert offer_privacy(parent, type("Info", (), {"exposed": ()})()) is None


def test_a_password_is_kept_nowhere(pg_url, home):
    """A station on a URL with a password, then on one the server is not at: the password is in no log, no
    output, no message, no file of the user's and nowhere in the game."""
    root, env = home
    with_password = pg_url.replace("postgres@", f"postgres:{SECRET}@", 1)
    assert SECRET in with_password
    done = headless(with_password, env)
    assert done.returncode == 0, done.stderr
    refused = headless(re.sub(r"@127\.0\.0\.1:\d+/", "@127.0.0.1:1/", with_password), env, 1.0)     # no server there
    for out in (done.stdout, done.stderr, refused.stdout, refused.stderr):
        assert SECRET not in out
    assert "cannot reach the database server" in refused.stdout + refused.stderr
    files = [p for p in root.rglob("*") if p.is_file()]
    assert any(p.suffix == ".log" for p in files)
    for p in files:
        assert SECRET.encode() not in p.read_bytes(), p
    with GameStore.open(pg_url, create=False) as store:
        with store.engine.connect() as conn:
            import sqlalchemy as sa

            values = [v for (v,) in conn.execute(sa.text("SELECT value FROM game_meta"))]
    assert not any(SECRET in v for v in values)


def test_recent_games_keep_no_password():
    assert without_password("postgresql+psycopg://ops:pw@10.0.0.2:5432/battle?sslmode=verify-full") == \
        "postgresql+psycopg://ops@10.0.0.2:5432/battle?sslmode=verify-full"
    assert without_password("/home/gm/games/battle.crgame") == "/home/gm/games/battle.crgame"


def _tls(pg_url: str, mode_: str, root_cert: Path | None = None) -> str:
    query = f"sslmode={mode_}" + (f"&sslrootcert={root_cert}" if root_cert else "")
    return f"{pg_url}{'&' if '?' in pg_url else '?'}{query}"


def test_a_server_on_tls_with_require_and_verify_full(pg_url, home):
    data = os.environ.get("CONTROLROOM_TEST_PG_DATA")
    if not data or not Path(data, "server.crt").exists():
        pytest.skip("the test server has no certificate (.ci/postgres.sh makes one)")
    cert = Path(data, "server.crt")
    for url in (_tls(pg_url, "require"), _tls(pg_url, "verify-full", cert)):
        with GameStore.open(url) as store:
            with store.engine.connect() as conn:
                import sqlalchemy as sa

                assert conn.execute(sa.text("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")).scalar()
    _root, env = home
    done = headless(_tls(pg_url, "verify-full", cert), env)
    assert done.returncode == 0 and "timers: this station (owner)" in done.stdout, done.stdout + done.stderr
    wrong = Path(_root, "other.crt")
    subprocess.run(["openssl", "req", "-new", "-x509", "-days", "1", "-nodes", "-subj", "/CN=other",
                    "-keyout", str(_root / "other.key"), "-out", str(wrong)], check=True, capture_output=True)
    refused = headless(_tls(pg_url, "verify-full", wrong), env, 1.0)
    assert refused.returncode == 1
    assert "certificate" in (refused.stdout + refused.stderr).lower()
