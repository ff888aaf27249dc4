"""Run Python code under the real MicroPython interpreter from pytest.

The interpreter is MicroPython's WebAssembly port (npm package
``@micropython/micropython-webassembly-pyscript``) driven by Node.js through
``run_mpy.mjs`` next to this file.  Install it with::

    npm ci --prefix hardware

This module depends only on the standard library and pytest.  The suite's
root ``tests/conftest.py`` loads it by file path (as module
``controlroom_tests_mpy``) and re-exports its fixtures, so it
works whatever pytest's import mode is and needs no ``tests/__init__.py``.
Tests use the fixtures rather than importing this file.

Public helpers:

* ``micropython_available() -> bool``
* ``unavailable_reason() -> str | None``
* ``run_micropython(script, modules=(), timeout=...) -> str``
* ``FIRMWARE_DIR``: ``hardware/firmware``, where the handset modules live.

and, for conftest files, the ``micropython`` fixture (the
``run_micropython`` callable), the ``mpy`` fixture (this module) and the
``pytest_runtest_setup`` hook that skips ``@pytest.mark.micropython`` tests
when the interpreter is missing.  With ``MICROPYTHON_REQUIRED=1`` or ``CI=true``
they fail instead of skipping.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
RUNNER = HERE / "run_mpy.mjs"
HARDWARE_DIR = REPO_ROOT / "hardware"
FIRMWARE_DIR = HARDWARE_DIR / "firmware"
PACKAGE = "@micropython/micropython-webassembly-pyscript"
PACKAGE_MJS = HARDWARE_DIR / "node_modules" / PACKAGE / "micropython.mjs"
INSTALL_HINT = "npm ci --prefix hardware"
DEFAULT_TIMEOUT = 60.0
REQUIRED_ENV = "MICROPYTHON_REQUIRED"


def _node() -> str | None:
    return shutil.which("node")


def _interpreter_mjs() -> Path:
    override = os.environ.get("MICROPYTHON_MJS")
    return Path(override) if override else PACKAGE_MJS


def unavailable_reason() -> str | None:
    """Why MicroPython cannot run here, or None when it can."""
    if _node() is None:
        return "Node.js (`node`) is not on PATH; MicroPython tests need Node.js >= 18"
    mjs = _interpreter_mjs()
    if not mjs.is_file():
        return f"MicroPython interpreter not installed ({mjs} missing); run `{INSTALL_HINT}`"
    return None


def micropython_available() -> bool:
    """True when node is on PATH and hardware/node_modules has the interpreter."""
    return unavailable_reason() is None


def run_micropython(
    script: str,
    modules: Iterable[Path | str] = (),
    timeout: float = DEFAULT_TIMEOUT,
) -> str:
    """Run ``script`` (Python source) under MicroPython and return its stdout.

    ``modules`` are .py files (or package directories) copied into the
    interpreter's /lib so the script can import them by name.  Raises
    AssertionError carrying the output if the script raised, exited non-zero
    or timed out, and RuntimeError if the interpreter is not installed.
    """
    reason = unavailable_reason()
    if reason is not None:
        raise RuntimeError(reason)
    paths = [str(Path(m).resolve()) for m in modules]
    for p in paths:
        if not Path(p).exists():
            raise FileNotFoundError(p)
    cmd = [_node(), str(RUNNER), "-", *paths]
    try:
        proc = subprocess.run(
            cmd,
            input=script,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            cwd=str(REPO_ROOT),
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(
            f"MicroPython run timed out after {timeout} s\n"
            f"--- stdout ---\n{_text(exc.stdout)}\n--- stderr ---\n{_text(exc.stderr)}"
        ) from None
    if proc.returncode != 0:
        raise AssertionError(
            f"MicroPython run failed (exit status {proc.returncode})\n"
            f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
        )
    if proc.stderr:
        # Output on stderr without a failure (e.g. warnings) is passed through.
        sys.stderr.write(proc.stderr)
    return proc.stdout


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return data


def _skip_or_fail(reason: str) -> None:
    # CI (CI=true) installs the interpreter through the quick-start command:
    # there a missing interpreter is a broken set-up, not a reason to skip.
    for var in (REQUIRED_ENV, "CI"):
        if os.environ.get(var, "").lower() not in ("", "0", "false"):
            pytest.fail(f"{reason} (and {var} is set)", pytrace=False)
    pytest.skip(reason)


# --- pytest glue: re-exported by tests/conftest.py --------------------------


def pytest_runtest_setup(item) -> None:
    """Skip (or, with MICROPYTHON_REQUIRED=1, fail) @pytest.mark.micropython tests."""
    if item.get_closest_marker("micropython") is not None:
        reason = unavailable_reason()
        if reason is not None:
            _skip_or_fail(reason)


@pytest.fixture(name="micropython", scope="session")
def micropython_fixture():
    """The ``run_micropython`` callable; skips the test when MicroPython is missing."""
    reason = unavailable_reason()
    if reason is not None:
        _skip_or_fail(reason)
    return run_micropython


@pytest.fixture(name="mpy", scope="session")
def mpy_fixture():
    """This helper module itself (``mpy.run_micropython``, ``mpy.FIRMWARE_DIR`` ...)."""
    return sys.modules[__name__]
