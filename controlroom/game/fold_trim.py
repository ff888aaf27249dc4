"""Which checkpoints a fold keeps: the newest every ``checkpoint_every`` events, older ones further apart.

A late report lands among the last few minutes' events, nearly always: the
newest ``DENSE`` checkpoints stand every ``checkpoint_every`` events (500), so
that it is folded again from at most that many.  Older ones stand every
``SPARSE`` times as far apart: a report that late folds again from up to
2,000 events back, and the fold keeps 29 checkpoints, not 64, for the same
reach of ``checkpoint_every * keep`` events (each holds copies of the
state's positions and last heard, and its row of every character).

Which ones are kept depends only on the checkpoints and the entries between
them: two folds of the same log (a game opened from its kept snapshot, and
folded in full) keep the same ones.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controlroom.game.fold import Fold

__all__ = ["DENSE", "SPARSE", "SCHEDULES_KEPT", "most", "trim"]

DENSE, SPARSE = 16, 4       # the newest 16 every checkpoint_every events, older ones every 4 times that
SCHEDULES_KEPT = 16         # the newest checkpoints keep the deadline schedule (older ones rebuild it)


def most(keep: int) -> int:
    """How many checkpoints reach back as far as ``keep`` at the full spacing (one more for the gap between
    the newest sparse one and the oldest dense one, which may be shorter)."""
    return keep if keep <= DENSE else DENSE + -(-(keep - DENSE) // SPARSE) + 1


def trim(fold: Fold) -> None:
    """Thin the checkpoints older than the newest DENSE, cut those past the fold's reach (and the entries
    before the oldest left), and keep a schedule copy in the newest SCHEDULES_KEPT only."""
    cps = fold._checkpoints
    keys = fold._keys
    old = len(cps) - DENSE
    if old > 1:
        spacing = SPARSE * fold.checkpoint_every
        kept = [cps[0]]
        last = bisect.bisect_right(keys, cps[0][0])
        for cp in cps[1:old]:
            at = bisect.bisect_right(keys, cp[0])
            if at - last >= spacing:
                kept.append(cp)
                last = at
        if len(kept) < old:
            cps[:old] = kept
    over = len(cps) - most(fold.keep)
    if over > 0:
        del cps[:over]
        cut = bisect.bisect_right(keys, cps[0][0])
        del fold.entries[:cut]
        del keys[:cut]
    for _k, snap in cps[:-SCHEDULES_KEPT]:
        snap.schedule = None
