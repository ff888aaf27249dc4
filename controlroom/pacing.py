"""Long Python work in a background thread leaves the window room to run: it rests a moment now and then.

With the GIL, a thread running Python keeps the window's thread waiting each
time that thread calls into Python from Qt, and a paint calls into Python
hundreds of times (pyqtgraph's items, the tables' cells): each call waits up
to the switch interval (0.5 ms, ui/app.py).  A fold's completion after an
opening and a fold snapshot kept with the game (0.3-1 s of Python each for
the 200,000-event game of benchmarks/) held the window's heartbeat up to
80-110 ms.  :func:`breathe`, called often in such work, sleeps ``REST_S``
after every ``WORK_S`` of it, and the window's calls run meanwhile without
waiting.  Nothing rests until a window asks for it (:func:`share_with_this_thread`,
from the window's thread), and that thread itself never rests: a station
without a window does its work at full speed.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator

#: How long background work runs between two rests (s) ...
WORK_S = 0.004
#: ... and how long it rests (s).
REST_S = 0.003

#: How long a thread keeps the GIL while another waits for it (s); Python's own is 0.005.
SWITCH_INTERVAL = 0.0005

_window: int | None = None          # the window's thread, once it asked
_local = threading.local()
_clock = time.perf_counter
_sleep = time.sleep


def short_switches() -> None:
    """Let a thread waiting for the GIL have it sooner: the window's (ui/app.py) and the simulator's gateways.

    A thread that waits on a socket or a port gives the GIL up and, when its
    answer comes, waits for it again while another thread runs Python, up to
    the switch interval each time (an append beside a busy thread:
    benchmarks/bench_append_latency.py).  Not set for a station without a
    window: there it bought nothing on the game day (the calm ack p99 103 ms
    against 101), and CPU-bound threads lose 20-25 % (docs/benchmarks.md).
    """
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))


@contextlib.contextmanager
def switching_often() -> Iterator[None]:
    """Short switches (:func:`short_switches`) inside only: long background work beside a station's live work
    (a refold), whose threads then wait at most ``SWITCH_INTERVAL`` for the GIL between its rests.  A thread
    alone loses nothing to it: the interval counts only while another waits."""
    before = sys.getswitchinterval()
    short_switches()
    try:
        yield
    finally:
        if sys.getswitchinterval() == min(before, SWITCH_INTERVAL):
            sys.setswitchinterval(before)


def share_with_this_thread() -> None:
    """From now on, background work rests now and then for this thread (the window's)."""
    global _window
    _window = threading.get_ident()


def stop_sharing() -> None:
    """Background work no longer rests (no window, or a test done with its window)."""
    global _window
    _window = None


@contextlib.contextmanager
def window_waiting() -> Iterator[None]:
    """The window's thread waits inside (for the core to store everything and stop): background work has no
    window to leave room for meanwhile, and the wait would only grow by its rests."""
    global _window
    held = _window if _window == threading.get_ident() else None
    if held is not None:
        _window = None
    try:
        yield
    finally:
        if held is not None and _window is None:
            _window = held


def breathe() -> None:
    """A point where long background work may rest (cheap: call it every few hundred steps)."""
    if _window is None or threading.get_ident() == _window:
        return
    now = _clock()
    since = getattr(_local, "since", None)
    if since is None or now - since > 1.0:      # the first call of a new stretch of work: from now
        _local.since = now
    elif now - since >= WORK_S:
        _sleep(REST_S)
        _local.since = _clock()


#: Background work rests for a station's live work at most this long at a time (s) ...
LIVE_LONGEST_S = 0.05
#: ... then works at least this long before it rests for it again (s), so that it is never starved.
LIVE_LEAST_S = 0.01
#: How often a resting job looks whether the live work is done (s).
LIVE_STEP_S = 0.0005


def for_live_work(busy: Callable[[], bool]) -> Callable[[], None]:
    """A pause for long background work beside a station's live work: a refold of the whole game beside the
    acks and the rule deadlines (engine.Engine.refold_job).

    While ``busy()`` (a frame heard and not yet taken, a batch on its way to
    the store), the work rests: the core's thread, the storage writer's and
    the links' then never wait for the GIL behind it (with the GIL, each of
    their many calls into Python from Qt or a driver waits up to the switch
    interval while a thread runs Python: acks waited 170 ms at the median
    during a refold of the 200,000-event game, benchmarks/bench_refold.py).
    It rests at most ``LIVE_LONGEST_S`` at a time, then works at least
    ``LIVE_LEAST_S``: a station flooded with reports still gets its refold.
    It does not rest for a window (:func:`breathe`): the game master waits for a refold.
    """
    free_until = 0.0

    def pause() -> None:
        nonlocal free_until
        if not busy() or _clock() < free_until:
            return
        end = _clock() + LIVE_LONGEST_S
        while busy():
            if _clock() >= end:
                free_until = _clock() + LIVE_LEAST_S     # rested its longest: works a while before resting again
                return
            _sleep(LIVE_STEP_S)
    return pause
