"""Loading a fold from the stored log: a tail of entries with its checkpoints, the index of the whole log.

One part of ``game.fold.Fold`` (whose methods ``load``, ``fill_checkpoints``
and ``complete`` call these): it fills the fold's state, entries, index and
checkpoints from rows of the log in fold order.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Iterable
from itertools import islice
from typing import TYPE_CHECKING

from controlroom.game import fold_trim, snapshot
from controlroom.game.fold_records import Entry, Key

if TYPE_CHECKING:
    from controlroom.game.fold import Fold

_LOAD_BATCH = 4096          # rows a load takes at a time


def _go_on() -> None:
    """No pause."""


def load(fold: Fold, rows: Iterable, retracted: Iterable[int] = (), total: int | None = None, *,
         skip: int = 0, index_head: tuple | Callable[[], tuple] | None = None,
         pause: Callable[[], None] | None = None) -> None:
    """Fold a whole stored log (rows in fold order, each with seq, pos, event, device, counter).

    Snapshots are taken only over the last ``checkpoint_every * keep``
    events: a late report further back folds the whole log again.  The
    rows are taken in batches: the index, the devices' frames and the
    events before that tail are gathered a batch at a time, and only the
    tail's events are kept as entries.  The tail's first checkpoint is
    taken as it is reached; the others only when first wanted, or by
    ``complete`` (``fill_checkpoints``): an opening shows the game first.

    ``skip``: the state given to the fold is the fold of the log's first
    ``skip`` rows already (a fold snapshot kept with the game, restored;
    ``last_key`` is the key of the last of them); ``rows`` are those after
    them, and ``index_head`` the (pos, seq, t) columns of those skipped, in
    fold order, and the (device, counter, key, t) of their radio frames;
    or a function that reads them, called by ``complete`` (the opening
    may show the game first: nothing folds on before ``complete``).  ``opened`` is then set to (key, rows before
    it, snapshot) of the checkpoint at the start of the tail: the fold of
    the log up to there and nothing else, what a game keeps to open faster.
    ``pause``: called every 256 rows (a background refold rests there for the live work: pacing.py).
    """
    state = fold.state
    apply = state.apply
    fold.retracted = set(retracted)
    gone = fold.retracted
    index = fold.index
    tail = max(0, (total or 0) - fold.checkpoint_every * fold.keep)
    frames: dict[int, list] = {}
    if callable(index_head):
        fold._index_pending = (index_head, skip)
    elif index_head is not None:
        pos, seq, t, head_frames = index_head
        index.pos.extend(pos)
        index.seq.extend(seq)
        index.t.extend(t)
        for device, counter, k, t_ in head_frames:
            frames.setdefault(device, []).append((counter, k, t_))
        if len(index) != skip:
            raise ValueError(f"a fold of {skip} rows already was given the index of {len(index)}")
    fold.based_on(None)                     # the state is folded on without noting what changed
    last = fold.last_key
    n = skip                                # rows taken so far (or already folded)
    it = iter(rows)
    size = _LOAD_BATCH if pause is None else 256
    while True:
        if pause is not None:
            pause()
        chunk = list(islice(it, size))
        if not chunk:
            break
        seqs = [r.seq for r in chunk]
        poss = [p if p is not None else float(q) for p, q in zip([r.pos for r in chunk], seqs)]
        events = [r.event for r in chunk]
        index.pos.extend(poss)
        index.seq.extend(seqs)
        index.t.extend([e.t for e in events])
        for r in chunk:
            if r.device is not None:
                frames.setdefault(r.device, []).append((r.counter, (r.pos if r.pos is not None else float(r.seq),
                                                                    r.seq), r.event.t))
        head = min(len(chunk), max(0, tail - n))      # rows of this batch before the tail
        if head:
            if gone:
                deque(map(apply, [e for e, q in zip(events[:head], seqs) if q not in gone]), maxlen=0)
            else:
                deque(map(apply, events[:head] if head < len(chunk) else events), maxlen=0)
        if head < len(chunk):
            if n + head == tail and tail:           # the first row of the tail: its checkpoint
                k = (poss[head - 1], seqs[head - 1]) if head else last
                fold._checkpoints = [(k, snapshot.take(state))]
                fold.opened = (k, tail, fold._checkpoints[0][1])
            _load_tail(fold, chunk[head:], seqs[head:], poss[head:])
        n += len(chunk)
        last = (poss[-1], seqs[-1])
    fold.last_key = last
    for device, fs in frames.items():
        fs.sort()
        fold.frames[device] = fs[-256:]
    fold.schedule.rebuild(state)
    state.take_dirty()


def fill_checkpoints(fold: Fold, pause: Callable[[], None] | None = None) -> None:
    """Take the checkpoints ``load`` left for later: the tail's entries folded again, on a copy of the state
    restored from the checkpoint before them, a checkpoint at each key that was due.  ``pause`` is called
    every 256 entries and before each checkpoint (the core's completion after an opening rests there
    while the window draws: controlroom/pacing.py).

    ``load`` folds the tail as fast as the rest of the log and keeps its
    entries; a checkpoint is wanted only when a late report arrives, so
    the opening shows the game first (``complete``) and these are taken
    after.  Folding is deterministic: the copy passes through the states
    the fold itself passed through.
    """
    if not fold._due:
        return              # (asked at every entry that comes in: nothing else when none is due)
    due, fold._due = fold._due, []
    start, snap = fold._checkpoints[-1]
    breathe = pause or _go_on
    state = snapshot.restore(snap, pause)
    state.take_dirty()                      # it is ``snap``'s: each checkpoint reads what changed since the last
    base = snap
    apply = state.apply
    gone = fold.retracted
    targets = iter(due)
    target: Key | None = next(targets)
    for i, entry in enumerate(fold.entries[bisect.bisect_right(fold._keys, start):]):
        if not i & 255:
            breathe()
        if entry.seq in gone:
            continue
        apply(entry.event)
        if target is not None and entry.key == target:
            breathe()
            fold._checkpoint(target, state, base)
            base = fold._checkpoints[-1][1]
            state.take_dirty()
            target = next(targets, None)
            if target is None:
                fold_trim.trim(fold)
                return
    raise ValueError(f"the checkpoint due at {target} is past the fold's entries")


def complete(fold: Fold, pause: Callable[[], None] | None = None) -> None:
    """What ``load`` left for later: the index of the log before a fold snapshot (see ``load``), then the
    tail's checkpoints (``fill_checkpoints``, given ``pause``).  Nothing may fold on before."""
    fill_checkpoints(fold, pause)
    if fold._index_pending is None:
        return
    read, skip = fold._index_pending
    fold._index_pending = None
    pos, seq, t, head_frames = read()
    if len(seq) != skip:
        raise ValueError(f"a fold of {skip} rows already was given the index of {len(seq)}")
    index = fold.index
    index.pos, index.seq, index.t = pos + index.pos, seq + index.seq, t + index.t
    if head_frames:
        frames: dict[int, list] = {}
        for device, counter, k, t_ in head_frames:
            frames.setdefault(device, []).append((counter, k, t_))
        for device, fs in frames.items():
            fs += fold.frames.get(device, ())
            fs.sort()
            fold.frames[device] = fs[-256:]


def _load_tail(fold: Fold, rows: list, seqs: list[int], poss: list[float]) -> None:
    """Fold the last rows of a stored log, keeping each as an entry; the keys of the checkpoints due every
    so often among them are noted, for ``fill_checkpoints`` to take."""
    gone = fold.retracted
    new = tuple.__new__
    kept = [new(Entry, ((pos, seq), seq, row.event, row.device, row.counter))
            for row, seq, pos in zip(rows, seqs, poss) if seq not in gone]
    if not kept:
        return
    deque(map(fold.state.apply, [e[2] for e in kept]), maxlen=0)
    fold.entries += kept
    fold.rule_t = None          # (found again when first asked)
    fold._keys += [e[0] for e in kept]
    every = fold.checkpoint_every
    fold._due += [kept[i][0] for i in range(every - fold._since_checkpoint - 1, len(kept), every)]
    fold._since_checkpoint = (fold._since_checkpoint + len(kept)) % every
