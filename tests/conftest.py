"""Shared test settings: offscreen Qt, no dangling threads."""

import os
import threading

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


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
