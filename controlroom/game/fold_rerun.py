"""Folding again: from the last checkpoint before a late event, re-running the rule timers as it goes.

One part of ``game.fold.Fold`` (``Fold.confirm`` and ``Fold.withdraw`` call
these).  The station that may fire deadlines re-runs the rule timers while
it folds (``run``): a deadline the late report prevented is undone by a
``retracted`` correction, one it brought forward is fired at its own time,
so that folding the log (corrections included) always gives the same game.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import TYPE_CHECKING

from controlroom.game import snapshot
from controlroom.game.events import SOURCE_TIMER, Event
from controlroom.game.fold_records import (
    FIELD_TYPES,
    Correction,
    Entry,
    Key,
    LogIndex,
    _between,
    _Provisional,
    _timer_id,
    _undo,
)

if TYPE_CHECKING:
    from controlroom.game.fold import Fold
    from controlroom.game.scheduler import Schedule


def refold(fold: Fold, first: Key, may_fire: bool) -> list[Correction]:
    """Fold again from the last checkpoint before ``first``; re-run the timers if this station fires them.

    Before every checkpoint kept, the whole log is folded again; a station
    whose engine does that in the background (``Fold.defer_deep``) marks the
    fold ``behind`` instead, and folds again from its last checkpoint only,
    firing nothing: the event before them counts once the background fold
    is swapped in, and the timer owner fires no deadline meanwhile (its fold
    misses an event: ``Fold.fire``), its background fold runs every timer again.
    """
    if fold.defer_deep and fold.checkpoints[0][0] >= first:
        fold.behind = True
        cp_key, snap = fold.checkpoints[-1]
        changed = changed_since(fold, len(fold.checkpoints) - 1)
        fold.state = snapshot.restore_over(fold.state, snap)
        fold.based_on(snap)
        return run(fold, fold.entries[bisect.bisect_right(fold._keys, cp_key):], False, cp_key, snap.schedule,
                   changed)
    back = len(fold.checkpoints) - 1
    while back > 0 and fold.checkpoints[back][0] >= first:
        back -= 1
    changed = changed_since(fold, back)
    del fold.checkpoints[back + 1:]
    cp_key, snap = fold.checkpoints[-1]
    if cp_key >= first:
        return deep_refold(fold, may_fire)
    fold.state = snapshot.restore_over(fold.state, snap)
    fold.based_on(snap)
    start = bisect.bisect_right(fold._keys, cp_key)
    return run(fold, fold.entries[start:], may_fire, cp_key, snap.schedule, changed)


def changed_since(fold: Fold, back: int) -> set[int] | None:
    """The characters whose state may differ now from the checkpoint ``fold.checkpoints[back]`` (None: not
    known): those changed since the last checkpoint, and those whose rows differ from one checkpoint to the
    next after ``back`` (a row that did not change is the same object: ``Fold._checkpoint``).  A refold
    tells readers only these (and those it changes), not all 8,000 characters."""
    checkpoints = fold.checkpoints
    if fold.rows_base is None or fold.rows_base is not checkpoints[-1][1]:
        return None
    out = fold.changes.touched | fold.state._dirty
    badges = list(fold.state.characters)
    for (_k, a), (_k2, b) in zip(checkpoints[back:], checkpoints[back + 1:]):
        if len(a.characters) != len(badges) or len(b.characters) != len(badges):
            return None
        out.update(badges[i] for i, (x, y) in enumerate(zip(a.characters, b.characters)) if x is not y)
    return out


def deep_refold(fold: Fold, may_fire: bool, pause: Callable[[], None] | None = None) -> list[Correction]:
    """The late event lies before every checkpoint kept: fold the whole log again (``pause``: called every
    256 events, as the history read is)."""
    if fold.history is None:
        raise RuntimeError("a late event lies before the oldest checkpoint and the log cannot be read again")
    state, stored = fold.history(pause)
    fold.state = state
    fold.entries, fold._keys, fold.rule_t = [], [], -1      # kept by each insert (not 200,000 walked when asked)
    fold.index = LogIndex()
    stored = list(stored)
    for i, s in enumerate(stored):
        if pause is not None and not i & 255:
            pause()
        fold._insert(s)
        if s.event.type == "retracted":
            fold.retracted.add(s.event.data["seq"])
    start_key = (0.0, 0)
    fold.checkpoints = [(start_key, snapshot.take(state))]
    fold.based_on(fold.checkpoints[0][1])
    return run(fold, list(fold.entries), may_fire, start_key, pause=pause)


def run(fold: Fold, entries: list[Entry], may_fire: bool, start: Key, schedule: Schedule | None = None,
        changed: set[int] | None = None, pause: Callable[[], None] | None = None) -> list[Correction]:
    """Fold ``entries`` onto the restored state; the timer owner re-runs the deadlines as it goes.

    ``schedule``: the deadlines as they stood at the checkpoint restored (kept with it), else they are
    worked out from the state again (a third of a refold's time on 8,000 characters).  ``changed``: the
    characters that may differ from the state before (``changed_since``; None: any), for readers."""
    state = fold.state
    if schedule is not None:
        state.take_dirty()
        fold.schedule.restore(schedule)
    else:
        fold.schedule.rebuild(state)
    corrections: list[Correction] = []
    live: list[Entry] = []
    stored_timers: dict[tuple, Entry] = {}
    gone = fold.retracted
    for i, e in enumerate(entries):
        if pause is not None and not i & 1023:
            pause()
        if e.seq in gone:
            continue
        live.append(e)
        if may_fire and e.event.source == SOURCE_TIMER and e.event.type != "retracted":
            stored_timers.setdefault(_timer_id(e.event), e)
    consumed: set[int] = set()
    prev = start
    fold._since_checkpoint = 0
    for i, entry in enumerate(live):
        if pause is not None and not i & 63:
            pause()
        if may_fire and entry.event.type not in FIELD_TYPES:
            # Before a rule event (or a deadline): what fell due by its time.  Not before a field report: a
            # deadline counts at its own time wherever it stands among them (GameState.apply), so one fired
            # after positions of a later time (as ``Fold.fire`` places a late one) is where it belongs.
            prev = _fire_before(fold, entry, live, i, prev, stored_timers, consumed, corrections)
        if entry.seq in consumed:
            prev = entry.key
            continue
        if may_fire and stored_timers.get(_timer_id(entry.event)) is entry:
            # A stored deadline the rules no longer fire at this time: undone.
            corrections.append(_undo(entry))
            fold.retracted.add(entry.seq)
            continue
        warnings = state.apply(entry.event)
        if warnings and entry.seq in fold._watch:
            fold._watch[entry.seq][entry.seq] = list(warnings)
        fold.schedule.sync(state, fold.changes)
        prev = entry.key
        fold._since_checkpoint += 1
        if fold._since_checkpoint >= fold.checkpoint_every:
            fold._since_checkpoint = 0
            fold._checkpoint(entry.key)
    if entries:
        fold.last_key = max(fold.last_key, entries[-1].key)
    for p in fold.provisional:          # still to be stored: folded after everything stored
        if p.pos is not None or p.event.type == "retracted":
            continue                    # corrections, folded where they belong already
        state.apply(p.event)
        fold.schedule.sync(state, fold.changes)
    fold.changes.badges |= set(state.characters) if changed is None else changed
    fold.changes.stopps |= set(state.stopps)
    out = []
    for c in corrections:               # folded already: provisional until the log has them
        if c.kind == "retract":
            state.apply(c.event)        # the log's record of the correction
        fold._token += 1
        c = c._replace(token=fold._token)
        fold.provisional.append(_Provisional(fold._token, c.event, c.pos if c.kind == "fire" else None))
        out.append(c)
    return out


def _fire_before(fold: Fold, entry: Entry, live: list[Entry], i: int, prev: Key, stored_timers: dict,
                 consumed: set[int], corrections: list[Correction]) -> Key:
    """Fire the deadlines due by ``entry``'s time (at the same time: first), matching stored ones."""
    state = fold.state
    while True:
        due = fold.schedule.next_due()
        if due is None or due > entry.event.t:
            return prev
        event = state.deadline_event(fold.schedule.pop())
        match = stored_timers.pop(_timer_id(event), None)
        if match is not None and match.key >= entry.key:
            consumed.add(match.seq)
            # (by index: a slice of the rest of the log for every deadline fired made a refold quadratic)
            here = next((live[j] for j in range(i, len(live)) if live[j].seq not in consumed or live[j] is match),
                        None)
            if here is not match:       # stored, but later than it fires now: moved to its time
                corrections.append(_undo(match))
                fold.retracted.add(match.seq)
                prev = _placed(event, prev, entry, corrections)
        else:
            prev = _placed(event, prev, entry, corrections)
        state.apply(event)
        fold.schedule.sync(state, fold.changes)


def _placed(event: Event, prev: Key, entry: Entry, corrections: list[Correction]) -> Key:
    pos = _between(prev[0], entry.key[0])
    corrections.append(Correction("fire", event, event, pos=pos))
    return (pos, prev[1])
