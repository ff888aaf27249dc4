"""The game as a fold of its log in fold order, with checkpoints to fold again when a late report arrives.

The log is append-only: ``seq`` is the order events were stored in.  The fold
order is the order they happened in: an event stored with a ``pos`` (a late
report, or a deadline a correction placed in the past) is folded as if it sat
at that position; every other event at its own seq.  So the fold key of an
event is ``(pos if pos is not None else seq, seq)``.

``Fold`` keeps the folded state, the deadline schedule, the recent entries in
fold order and snapshots every ``checkpoint_every`` entries.  Events this
station folded before they were stored (deadlines it fired, reports it kept
locally while the server was away) are *provisional* until the log confirms
them.  When the log shows an event whose key falls before what was folded
(a late report, another station's append between ours), the fold goes back to
the last checkpoint before it and folds the entries again in key order
(``refold``).  The station that may fire deadlines then also re-runs the rule
timers (``resim``): a deadline the late report prevented is undone by a
``retracted`` correction, one it brought forward is fired at its own time, so
that folding the log (corrections included) always gives the same game.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Iterable
from itertools import islice

from controlroom.game import snapshot
from controlroom.game.events import SOURCE_TIMER, Event
from controlroom.game.fold_records import (  # noqa: F401  (re-exported: what callers of the fold use)
    END,
    UNDONE,
    Confirmed,
    Correction,
    Entry,
    Key,
    LogIndex,
    Placement,
    _between,
    _Provisional,
    _timer_id,
    _undo,
    key_of,
)
from controlroom.game.scheduler import Changes, Schedule, fire_due
from controlroom.game.state import GameState

# Field reports are superseded by the next one of the same kind; folded late, they change nothing
# of the rules, so they never make the game fold again.
FIELD_TYPES = frozenset({"position", "heartbeat", "headcount", "siege_status", "message"})
_LOAD_BATCH = 4096          # rows a load takes at a time


def _go_on() -> None:
    """No pause."""


CHECKPOINT_EVERY, KEEP = 2000, 16   # a fold's checkpoints: every so many events, so many kept


History = Callable[[], tuple[GameState, Iterable]]


class Fold:
    """Owns a GameState and its schedule; folds stored events in fold order."""

    def __init__(self, state: GameState, last_key: Key = (0.0, 0), *, history: History | None = None,
                 checkpoint_every: int = CHECKPOINT_EVERY, keep: int = KEEP, recent_frames: Iterable = ()) -> None:
        self.state = state
        self.schedule = Schedule()
        self.schedule.rebuild(state)
        self.changes = Changes()
        self.history = history
        self.checkpoint_every = checkpoint_every
        self.keep = keep
        self.entries: list[Entry] = []          # since the oldest checkpoint, in fold order
        self._keys: list[Key] = []
        self.index = LogIndex()                  # every event's key and time, in fold order
        self._checkpoints: list[tuple[Key, snapshot.Snapshot]] = [(last_key, snapshot.take(state))]
        self._due: list[Key] = []       # keys of the checkpoints load left to ``fill_checkpoints``
        self.last_key = last_key
        self.provisional: list[_Provisional] = []
        self.retracted: set[int] = set()
        self._since_checkpoint = 0
        self._token = 0
        # (key, rows up to it, snapshot): the fold of the stored log up to the tail, as ``load`` found it
        self.opened: tuple[Key, int, snapshot.Snapshot] | None = None
        self._index_pending: tuple[Callable[[], tuple], int] | None = None   # load's index_head, for complete
        self.saved_point: tuple[Key, int] | None = None     # (key, rows) of the kept snapshot it was opened from
        self.retractions_known: int | None = None           # the seq up to which its corrections were read
        # device -> sorted [(counter, key, t)] of its recent frames: where a late frame of it belongs
        self.frames: dict[int, list[tuple[int, Key, int]]] = {}
        for device, counter, key, t in recent_frames:
            bisect.insort(self.frames.setdefault(device, []), (counter, key, t))

    def load(self, rows: Iterable, retracted: Iterable[int] = (), total: int | None = None, *,
             skip: int = 0, index_head: tuple | Callable[[], tuple] | None = None) -> None:
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
        """
        state = self.state
        apply = state.apply
        self.retracted = set(retracted)
        gone = self.retracted
        index = self.index
        tail = max(0, (total or 0) - self.checkpoint_every * self.keep)
        frames: dict[int, list] = {}
        if callable(index_head):
            self._index_pending = (index_head, skip)
        elif index_head is not None:
            pos, seq, t, head_frames = index_head
            index.pos.extend(pos)
            index.seq.extend(seq)
            index.t.extend(t)
            for device, counter, k, t_ in head_frames:
                frames.setdefault(device, []).append((counter, k, t_))
            if len(index) != skip:
                raise ValueError(f"a fold of {skip} rows already was given the index of {len(index)}")
        last = self.last_key
        n = skip                                # rows taken so far (or already folded)
        it = iter(rows)
        while True:
            chunk = list(islice(it, _LOAD_BATCH))
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
                    self._checkpoints = [(k, snapshot.take(state))]
                    self.opened = (k, tail, self._checkpoints[0][1])
                self._load_tail(chunk[head:], seqs[head:], poss[head:])
            n += len(chunk)
            last = (poss[-1], seqs[-1])
        self.last_key = last
        for device, fs in frames.items():
            fs.sort()
            self.frames[device] = fs[-256:]
        self.schedule.rebuild(state)
        state.take_dirty()

    @property
    def checkpoints(self) -> list[tuple[Key, snapshot.Snapshot]]:
        """(key, snapshot of the state after the event of that key), oldest first: where a late report folds
        again from.  Those ``load`` left for later are taken at the first look (``fill_checkpoints``)."""
        if self._due:
            self.fill_checkpoints()
        return self._checkpoints

    @checkpoints.setter
    def checkpoints(self, value: list[tuple[Key, snapshot.Snapshot]]) -> None:
        self._due = []
        self._checkpoints = value

    def fill_checkpoints(self, pause: Callable[[], None] | None = None) -> None:
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
        if not self._due:
            return              # (asked at every entry that comes in: nothing else when none is due)
        due, self._due = self._due, []
        start, snap = self._checkpoints[-1]
        breathe = pause or _go_on
        state = snapshot.restore(snap, pause)
        apply = state.apply
        gone = self.retracted
        targets = iter(due)
        target = next(targets)
        for i, entry in enumerate(self.entries[bisect.bisect_right(self._keys, start):]):
            if not i & 255:
                breathe()
            if entry.seq in gone:
                continue
            apply(entry.event)
            if entry.key == target:
                breathe()
                self._checkpoint(target, state)
                target = next(targets, None)
                if target is None:
                    return
        raise ValueError(f"the checkpoint due at {target} is past the fold's entries")

    def complete(self, pause: Callable[[], None] | None = None) -> None:
        """What ``load`` left for later: the index of the log before a fold snapshot (see ``load``), then the
        tail's checkpoints (``fill_checkpoints``, given ``pause``).  Nothing may fold on before."""
        self.fill_checkpoints(pause)
        if self._index_pending is None:
            return
        read, skip = self._index_pending
        self._index_pending = None
        pos, seq, t, head_frames = read()
        if len(seq) != skip:
            raise ValueError(f"a fold of {skip} rows already was given the index of {len(seq)}")
        index = self.index
        index.pos, index.seq, index.t = pos + index.pos, seq + index.seq, t + index.t
        if head_frames:
            frames: dict[int, list] = {}
            for device, counter, k, t_ in head_frames:
                frames.setdefault(device, []).append((counter, k, t_))
            for device, fs in frames.items():
                fs += self.frames.get(device, ())
                fs.sort()
                self.frames[device] = fs[-256:]

    def _load_tail(self, rows: list, seqs: list[int], poss: list[float]) -> None:
        """Fold the last rows of a stored log, keeping each as an entry; the keys of the checkpoints due every
        so often among them are noted, for ``fill_checkpoints`` to take."""
        gone = self.retracted
        new = tuple.__new__
        kept = [new(Entry, ((pos, seq), seq, row.event, row.device, row.counter))
                for row, seq, pos in zip(rows, seqs, poss) if seq not in gone]
        if not kept:
            return
        deque(map(self.state.apply, [e[2] for e in kept]), maxlen=0)
        self.entries += kept
        self._keys += [e[0] for e in kept]
        every = self.checkpoint_every
        self._due += [kept[i][0] for i in range(every - self._since_checkpoint - 1, len(kept), every)]
        self._since_checkpoint = (self._since_checkpoint + len(kept)) % every

    def _checkpoint(self, k: Key, state: GameState | None = None) -> None:
        """A checkpoint of the state (the fold's own, or ``state``) at ``k``, after the last one.

        A character that did not change since the last checkpoint shares its
        row with it (as the seeker's checkpoints do): the rows made for the
        others die at once, so the checkpoints a fold keeps cost memory, and
        walks of the cyclic garbage collector, only for what changed.
        """
        snap = snapshot.take(self.state if state is None else state)
        rows = snap.characters
        before = self._checkpoints[-1][1].characters if self._checkpoints else ()
        if len(before) == len(rows):
            snap.characters = [old if old[0] is new[0] and old == new else new for old, new in zip(before, rows)]
        self._checkpoints.append((k, snap))

    # -- deadlines and provisional events --------------------------------------
    def fire(self, now: int) -> list[tuple[int, Event]]:
        """Fire every deadline due by ``now``; folded at once, provisional until stored: [(token, event)]."""
        fired = fire_due(self.state, self.schedule, now, changed=self.changes)
        return [(self._note(e, None), e) for e in fired]

    def prefold(self, event: Event) -> int:
        """Fold an event now that will be stored later (a report kept on this laptop); its token."""
        self.state.apply(event)
        self.schedule.sync(self.state, self.changes)
        return self._note(event, None)

    def _note(self, event: Event, pos: float | None) -> int:
        self._token += 1
        self.provisional.append(_Provisional(self._token, event, pos))
        return self._token

    def next_due(self) -> int | None:
        return self.schedule.next_due()

    # -- late events ---------------------------------------------------------------
    def place(self, device: int | None, counter: int | None, arrival_t: int, happened_t: int | None = None,
              tolerance_ms: int = 2000) -> Placement | None:
        """Where a report heard now belongs, if it happened before what is folded already (else None).

        A frame with a lower counter than one of the same device already
        folded happened before it.  A report with the time of its key press
        (protocol version 2) that is more than ``tolerance_ms`` older than the
        events folded after it goes at that time.
        """
        target: int | None = None          # index in the whole log's fold order
        if device is not None and counter is not None:
            frames = self.frames.get(device, ())
            i = bisect.bisect_right(frames, (counter, END))
            if i < len(frames):
                target = self.index.find(frames[i][1])
        if happened_t is not None and happened_t < arrival_t - tolerance_ms:
            i = self.index.first_after(happened_t)
            if i is not None and (target is None or i < target):
                target = i
        if target is None:
            return None
        target_key, target_t = self.index.key(target), self.index.t[target]
        before = self.index.pos[target - 1] if target > 0 else target_key[0] - 1.0
        t = min(arrival_t, target_t if happened_t is None else max(0, min(happened_t, target_t)))
        return Placement(_between(before, target_key[0]), t)

    # -- the log confirms --------------------------------------------------------
    def confirm(self, items: Iterable[tuple], may_fire: bool) -> Confirmed:
        """Fold stored events: ``items`` are (stored event, token of a provisional event or None), in seq order.

        When the stored order is the one already folded, the new events are
        folded on; otherwise the game is folded again from a checkpoint
        (``Confirmed.refolded``), with the corrections the timer owner must
        append (``Confirmed.corrections``, already folded, provisional).
        """
        out = Confirmed()
        items = list(items)
        if not items:
            return out
        warnings_before = len(self.state.warnings)
        deaths_before = list(self.state.deaths)
        ordered = sorted(items, key=lambda it: key_of(it[0]))
        consistent = self._consistent(ordered)
        own = {tok for _s, tok in items if tok is not None}
        self.provisional = [p for p in self.provisional if p.token not in own]
        if consistent:
            for stored, tok in ordered:
                self._insert(stored)
                if tok is None:
                    if stored.event.type == "retracted":
                        self.retracted.add(stored.event.data["seq"])
                    if stored.event.type in FIELD_TYPES and key_of(stored) < self.last_key:
                        self.state.apply_late(stored.event)     # superseded, or kept in time order
                        continue
                    self._apply(stored.event)
                    out.applied.append(stored.event)
                self.last_key = max(self.last_key, key_of(stored))
                self._maybe_checkpoint()
            out.new_warnings = len(self.state.warnings) - warnings_before
            out.deaths = self.state.deaths[len(deaths_before):]
            return out
        for stored, _tok in ordered:
            self._insert(stored)
            if stored.event.type == "retracted":
                self.retracted.add(stored.event.data["seq"])
        first = min(key_of(s) for s, _t in items)
        for s, _t in items:
            if s.event.type == "retracted":
                target = s.event.data["seq"]
                gone = next((e.key for e in self.entries if e.seq == target), (float(target), target))
                first = min(first, gone)
        out.refolded = True
        out.corrections = self._refold(first, may_fire)
        out.applied = [s.event for s, t in ordered if t is None]
        out.new_warnings = len(self.state.warnings)
        old, new = set(deaths_before), set(self.state.deaths)
        out.deaths = [d for d in self.state.deaths if d not in old]
        out.undone = [d for d in deaths_before if d not in new]
        return out

    def withdraw(self, tokens: Iterable[int]) -> Confirmed:
        """Events folded ahead that the log did not take (copies stored by another station, deadlines
        of a lost timer lock): fold the game again without them."""
        gone = set(tokens)
        if not any(p.token in gone for p in self.provisional):
            return Confirmed()
        deaths_before = list(self.state.deaths)
        self.provisional = [p for p in self.provisional if p.token not in gone]
        cp_key, snap = self.checkpoints[-1]
        self.state = snapshot.restore(snap)
        self._run(self.entries[bisect.bisect_right(self._keys, cp_key):], False, cp_key)
        old, new = set(deaths_before), set(self.state.deaths)
        return Confirmed(refolded=True, deaths=[d for d in self.state.deaths if d not in old],
                         undone=[d for d in deaths_before if d not in new], new_warnings=len(self.state.warnings))

    def _consistent(self, ordered: list[tuple]) -> bool:
        """Whether folding ``ordered`` on gives the game the log says (no event lands before one folded)."""
        tokens = [tok for _s, tok in ordered if tok is not None]
        prov = {p.token: p for p in self.provisional}
        at_end = [p.token for p in self.provisional if p.pos is None]
        confirmed_end = [t for t in tokens if t in prov and prov[t].pos is None]
        if confirmed_end != at_end[:len(confirmed_end)] or any(t not in prov for t in tokens):
            return False
        last = self.last_key
        for stored, tok in ordered:
            k = key_of(stored)
            placed = tok is not None and prov[tok].pos is not None
            if placed:
                continue            # a correction this station folded at its place already
            if k < last:
                if tok is None and stored.event.type in FIELD_TYPES:
                    continue        # a late field report changes no rule: folded in place
                return False
            last = k
            if tok is None:
                if len(at_end) > len(confirmed_end):
                    return False    # folded after events of ours that the log will put after it
                if stored.event.type == "retracted" and stored.event.data["seq"] not in self.retracted:
                    return False    # a correction of an event folded already
        return True

    def _apply(self, event: Event) -> None:
        self.state.apply(event)
        self.schedule.sync(self.state, self.changes)

    def _insert(self, stored) -> None:
        self.fill_checkpoints()         # before an entry comes in: they are taken from the entries as loaded
        k = key_of(stored)
        self.index.insert(k, stored.event.t)
        radio = getattr(stored, "radio", None)
        entry = Entry(k, stored.seq, stored.event, radio.device if radio else None, radio.counter if radio else None)
        i = bisect.bisect_left(self._keys, k)
        self._keys.insert(i, k)
        self.entries.insert(i, entry)
        if radio is not None:
            frames = self.frames.setdefault(radio.device, [])
            bisect.insort(frames, (radio.counter, k, stored.event.t))
            if len(frames) > 300:
                del frames[:len(frames) - 256]

    def _maybe_checkpoint(self) -> None:
        self._since_checkpoint += 1
        if self._since_checkpoint < self.checkpoint_every or self.provisional:
            return
        self._since_checkpoint = 0
        self._checkpoint(self.last_key)
        if len(self.checkpoints) > self.keep:
            del self.checkpoints[0]
            oldest = self.checkpoints[0][0]
            cut = bisect.bisect_right(self._keys, oldest)
            del self.entries[:cut]
            del self._keys[:cut]

    # -- folding again -------------------------------------------------------------
    def _refold(self, first: Key, may_fire: bool) -> list[Correction]:
        """Fold again from the last checkpoint before ``first``; re-run the timers if this station fires them."""
        while len(self.checkpoints) > 1 and self.checkpoints[-1][0] >= first:
            self.checkpoints.pop()
        cp_key, snap = self.checkpoints[-1]
        if cp_key >= first:
            return self._deep_refold(may_fire)
        self.state = snapshot.restore(snap)
        start = bisect.bisect_right(self._keys, cp_key)
        return self._run(self.entries[start:], may_fire, cp_key)

    def _deep_refold(self, may_fire: bool) -> list[Correction]:
        """The late event lies before every checkpoint kept: fold the whole log again."""
        if self.history is None:
            raise RuntimeError("a late event lies before the oldest checkpoint and the log cannot be read again")
        state, stored = self.history()
        self.state = state
        self.entries, self._keys = [], []
        self.index = LogIndex()
        stored = list(stored)
        for s in stored:
            self._insert(s)
            if s.event.type == "retracted":
                self.retracted.add(s.event.data["seq"])
        start_key = (0.0, 0)
        self.checkpoints = [(start_key, snapshot.take(state))]
        return self._run(list(self.entries), may_fire, start_key)

    def _run(self, entries: list[Entry], may_fire: bool, start: Key) -> list[Correction]:
        """Fold ``entries`` onto the restored state; the timer owner re-runs the deadlines as it goes."""
        state = self.state
        self.schedule.rebuild(state)
        corrections: list[Correction] = []
        live = [e for e in entries if e.seq not in self.retracted]
        stored_timers: dict[tuple, Entry] = {}
        if may_fire:
            for e in live:
                if e.event.source == SOURCE_TIMER and e.event.type != "retracted":
                    stored_timers.setdefault(_timer_id(e.event), e)
        consumed: set[int] = set()
        prev = start
        self._since_checkpoint = 0
        for i, entry in enumerate(live):
            if may_fire:
                prev = self._fire_before(entry, live, i, prev, stored_timers, consumed, corrections)
            if entry.seq in consumed:
                prev = entry.key
                continue
            if may_fire and stored_timers.get(_timer_id(entry.event)) is entry:
                # A stored deadline the rules no longer fire at this time: undone.
                corrections.append(_undo(entry))
                self.retracted.add(entry.seq)
                continue
            state.apply(entry.event)
            self.schedule.sync(state, self.changes)
            prev = entry.key
            self._since_checkpoint += 1
            if self._since_checkpoint >= self.checkpoint_every:
                self._since_checkpoint = 0
                self._checkpoint(entry.key)
        if entries:
            self.last_key = max(self.last_key, entries[-1].key)
        for p in self.provisional:          # still to be stored: folded after everything stored
            if p.pos is not None or p.event.type == "retracted":
                continue                    # corrections, folded where they belong already
            state.apply(p.event)
            self.schedule.sync(state, self.changes)
        self.changes.badges |= set(state.characters)
        self.changes.stopps |= set(state.stopps)
        out = []
        for c in corrections:               # folded already: provisional until the log has them
            if c.kind == "retract":
                state.apply(c.event)        # the log's record of the correction
            self._token += 1
            c = c._replace(token=self._token)
            self.provisional.append(_Provisional(self._token, c.event, c.pos if c.kind == "fire" else None))
            out.append(c)
        return out

    def _fire_before(self, entry: Entry, live: list[Entry], i: int, prev: Key, stored_timers: dict,
                     consumed: set[int], corrections: list[Correction]) -> Key:
        """Fire the deadlines due by ``entry``'s time (at the same time: first), matching stored ones."""
        state = self.state
        while True:
            due = self.schedule.next_due()
            if due is None or due > entry.event.t:
                return prev
            event = state.deadline_event(self.schedule.pop())
            match = stored_timers.pop(_timer_id(event), None)
            if match is not None and match.key >= entry.key:
                consumed.add(match.seq)
                here = next((e for e in live[i:] if e.seq not in consumed or e is match), None)
                if here is not match:       # stored, but later than it fires now: moved to its time
                    corrections.append(_undo(match))
                    self.retracted.add(match.seq)
                    prev = self._placed(event, prev, entry, corrections)
            else:
                prev = self._placed(event, prev, entry, corrections)
            state.apply(event)
            self.schedule.sync(state, self.changes)

    @staticmethod
    def _placed(event: Event, prev: Key, entry: Entry, corrections: list[Correction]) -> Key:
        pos = _between(prev[0], entry.key[0])
        corrections.append(Correction("fire", event, event, pos=pos))
        return (pos, prev[1])
