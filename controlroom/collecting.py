"""Python's cyclic garbage collector paused around work that makes many long-lived objects.

Folding a game, seeking a replay or building a report makes hundreds of
thousands of small objects that live on; a collection set off meanwhile would
walk them, and every other live object, again and again (0.3-1 s of opening a
200,000-event game).  :func:`no_collection` turns the interpreter's automatic
collection off inside, and gives back what the first to pause found when the
last one ends (two threads pausing at once do not turn it on under each other).
While anything is paused, :func:`paused` is true: the window's own collector
(ui/collector.py, which collects in the GUI thread on a timer) waits too.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextlib.contextmanager
def no_collection() -> Iterator[None]:
    """No cyclic garbage collection inside (in any thread), as it was found afterwards."""
    global _pauses, _was_enabled
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
        _pauses += 1
        gc.disable()
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()


def paused() -> bool:
    """Whether some work has paused the collection (see :func:`no_collection`)."""
    return _pauses > 0
