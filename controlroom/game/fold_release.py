"""A fold no longer wanted (the one a refold replaced), let go of a piece at a time in another thread.

Dropping the fold of a 200,000-event game at once frees about a million
objects in one call that keeps the GIL throughout: 66 ms of the core's
thread at a refold's swap (benchmarks/bench_refold.py).  ``let_go`` empties
its largest containers a few hundred items at a time, calling ``pause``
between (a background job rests there for the live work: pacing.py); what is
left is small.  Only for a fold nothing else reads any more: the engine
hands it over when it swaps another in, and only containers of the fold's
own are emptied (events and their data may live on in the new fold).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controlroom.game.fold import Fold

STEP = 512


def let_go(fold: Fold, pause: Callable[[], None] | None = None) -> None:
    """Empty the fold's entries, keys, checkpoints, characters and warnings, ``STEP`` items at a time."""
    state = fold.state
    for container in (fold.entries, fold._keys, fold._checkpoints, state.characters, state.warnings):
        while container:
            if isinstance(container, dict):
                for _ in range(min(STEP, len(container))):
                    container.popitem()
            else:
                del container[-STEP:]
            if pause is not None:
                pause()
