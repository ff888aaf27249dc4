"""Shared test settings: offscreen Qt, no dangling threads."""

import os
import threading

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _no_window_left_sharing():
    """A window a test built asked background work to rest for it (controlroom/pacing.py): not for the next."""
    yield
    from controlroom import pacing

    pacing.stop_sharing()


@pytest.fixture(autouse=True)
def no_dangling_threads():
    """Fail a test that leaves a Python thread running (napari's dangling-thread guard)."""
    before = set(threading.enumerate())
    yield
    leftover = [
        t for t in threading.enumerate()
        if t not in before and t.is_alive() and not t.daemon
    ]
    for t in leftover:
        t.join(timeout=2.0)
    leftover = [t for t in leftover if t.is_alive()]
    assert not leftover, f"test left threads running: {leftover}"


# The MicroPython harness (tests/micropython/mpy.py), loaded by file path so that
# no tests/__init__.py is needed: its ``micropython`` and ``mpy`` fixtures, and
# the hook that skips @pytest.mark.micropython tests (fails them under CI)
# when the interpreter is not installed.
def _load_mpy():
    import importlib.util
    import sys
    from pathlib import Path

    name = "controlroom_tests_mpy"
    if name not in sys.modules:
        path = Path(__file__).resolve().parent / "micropython" / "mpy.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_mpy = _load_mpy()
micropython_fixture = _mpy.micropython_fixture  # fixture "micropython"
mpy_fixture = _mpy.mpy_fixture  # fixture "mpy"
pytest_runtest_setup = _mpy.pytest_runtest_setup


# -- both storage backends ---------------------------------------------------------
# SQLite always; PostgreSQL when CONTROLROOM_TEST_PG names a server (postgresql+psycopg://
# user@host:port/postgres; .ci/run starts a throwaway one with .ci/postgres.sh).  Each
# PostgreSQL test gets a database of its own, dropped afterwards.
PG_ENV = "CONTROLROOM_TEST_PG"
PG_DATA_ENV = "CONTROLROOM_TEST_PG_DATA"


def _pg_admin():
    """A psycopg connection to the test server (autocommit), or a pytest skip saying why there is none."""
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"PostgreSQL tests need a server: set {PG_ENV}=postgresql+psycopg://USER@HOST:PORT/postgres "
                    "(.ci/run starts a throwaway one with .ci/postgres.sh)")
    import psycopg
    from sqlalchemy.engine import make_url

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        return url, psycopg.connect(dsn, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL tests skipped: the server in {PG_ENV} cannot be reached ({exc})")


def _pg_database(tag: str):
    import uuid

    from sqlalchemy.engine import make_url

    url, admin = _pg_admin()
    name = f"crtest_{tag}_{uuid.uuid4().hex[:10]}".lower()
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with _pg_admin()[1] as admin:       # a new connection: a test may have restarted the server
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_url():
    """A fresh, empty PostgreSQL database for one test (skipped without a server)."""
    yield from _pg_database("t")


@pytest.fixture(params=["sqlite", "postgresql"])
def game_db(request, tmp_path):
    """A new game's ``--db``: a SQLite file path, then a fresh PostgreSQL database URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "game.crgame")
    else:
        yield from _pg_database("g")


def pg_ctl(action: str) -> None:
    """Stop or start the test server (``pg_ctl``, on the data folder in CONTROLROOM_TEST_PG_DATA)."""
    import subprocess

    data = os.environ.get(PG_DATA_ENV)
    if not data:
        pytest.skip(f"stopping the server needs its data folder in {PG_DATA_ENV} (.ci/run sets it)")
    cmd = [os.path.join(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"), "pg_ctl"), "-D", data, "-w"]
    if action == "stop":
        cmd += ["-m", "fast", "stop"]
    else:
        cmd += ["-l", os.path.join(os.path.dirname(data), "server.log"), "start"]
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", "postgres", "--", *cmd]
    subprocess.run(cmd, check=True, capture_output=True, timeout=60)


@pytest.fixture
def pg_control():
    """``pg_ctl`` for the test server ("stop", "start"); the server runs again after the test."""
    if not os.environ.get(PG_DATA_ENV):
        pytest.skip(f"stopping the server needs its data folder in {PG_DATA_ENV} (.ci/run sets it)")
    yield pg_ctl
    try:
        pg_ctl("start")
    except Exception:              # already running: pg_ctl start refuses a second postmaster
        pass


@pytest.fixture(autouse=True)
def english_unless_told(monkeypatch):
    """Tests speak English whatever the developer's locale (tests of Estonian set the language themselves)."""
    monkeypatch.setenv("CONTROLROOM_LANG", "en")
    import controlroom.i18n

    controlroom.i18n.choose(None)
    yield
    controlroom.i18n.choose(None)
