"""Late placement: where a report heard now belongs in a fold when it happened before what is folded already.

One part of ``game.fold.Fold`` (``Fold.place`` calls it): it reads the fold's
index of the log and the recent frames of each device.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from controlroom.game.fold_records import END, Placement, _between

if TYPE_CHECKING:
    from controlroom.game.fold import Fold


def place(fold: Fold, device: int | None, counter: int | None, arrival_t: int, happened_t: int | None = None,
          tolerance_ms: int = 2000) -> Placement | None:
    """Where a report heard now belongs, if it happened before what is folded already (else None).

    A frame with a lower counter than one of the same device already
    folded happened before it.  A report with the time of its key press
    (protocol version 2) that is more than ``tolerance_ms`` older than the
    events folded after it goes at that time.
    """
    target: int | None = None          # index in the whole log's fold order
    if device is not None and counter is not None:
        frames = fold.frames.get(device, ())
        i = bisect.bisect_right(frames, (counter, END))
        if i < len(frames):
            target = fold.index.find(frames[i][1])
    if happened_t is not None and happened_t < arrival_t - tolerance_ms:
        after = fold.index.first_after(happened_t)
        if after is not None and (target is None or after < target):
            target = after
    if target is None:
        return None
    target_key, target_t = fold.index.key(target), fold.index.t[target]
    before = fold.index.pos[target - 1] if target > 0 else target_key[0] - 1.0
    t = min(arrival_t, target_t if happened_t is None else max(0, min(happened_t, target_t)))
    return Placement(_between(before, target_key[0]), t)
