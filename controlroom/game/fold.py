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

Its parts: loading a stored log (``fold_load``), placing a late report
(``fold_place``) and folding again (``fold_rerun``); here, confirming what
the log stored and the provisional events of this station.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable

from controlroom.game import fold_load, fold_place, fold_rerun, fold_trim, snapshot
from controlroom.game.events import SOURCE_TIMER, Event
from controlroom.game.fold_records import (  # noqa: F401  (re-exported: what callers of the fold use)
    END,
    FIELD_TYPES,
    UNDONE,
    Confirmed,
    Correction,
    Entry,
    Fired,
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

CHECKPOINT_EVERY, KEEP = 500, 64    # a fold's checkpoints: every so many events, reaching back so many (fold_trim)
END_T = 1 << 62                     # later than any game time
LOOK_BACK_MS = 600_000              # how far back (game time) a report may stand among those folded after it


History = Callable[[Callable[[], None] | None], tuple[GameState, Iterable]]    # (given a pause: see deep_refold)


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
        self.rule_t: int | None = None          # a rule report's latest time among them, or later (None: unknown)
        self._keys: list[Key] = []
        self.index = LogIndex()                  # every event's key and time, in fold order
        self._checkpoints: list[tuple[Key, snapshot.Snapshot]] = [(last_key, snapshot.take(state))]
        # The snapshot the state equals but for the characters changed since (``changes.touched``): the next
        # checkpoint reads only those (None: the state went another way; the next one reads every character).
        self.rows_base: snapshot.Snapshot | None = self._checkpoints[0][1]
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
        self.read_upto: int | None = None        # the seq up to which it read the log (its corrections too)
        self.defer_deep = False     # a late event before every checkpoint: ``behind``, not folded at once (fold_rerun)
        self.behind = False         # such an event came: the whole log is to be folded again
        self.rerun: list[Correction] = []                 # corrections of ``rerun_timers``, not sent yet
        self._watch: dict[int, dict] = {}                   # while folding again: seqs whose warnings are wanted
        # device -> sorted [(counter, key, t)] of its recent frames: where a late frame of it belongs
        self.frames: dict[int, list[tuple[int, Key, int]]] = {}
        for device, counter, key, t in recent_frames:
            bisect.insort(self.frames.setdefault(device, []), (counter, key, t))

    def load(self, rows: Iterable, retracted: Iterable[int] = (), total: int | None = None, *,
             skip: int = 0, index_head: tuple | Callable[[], tuple] | None = None,
             pause: Callable[[], None] | None = None) -> None:
        """Fold a whole stored log (rows in fold order, each with seq, pos, event, device, counter): see
        ``game.fold_load.load``."""
        fold_load.load(self, rows, retracted, total, skip=skip, index_head=index_head, pause=pause)

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
        """Take the checkpoints ``load`` left for later (``game.fold_load.fill_checkpoints``); ``pause`` is called
        now and then (the opening rests there while the window draws)."""
        fold_load.fill_checkpoints(self, pause)

    def complete(self, pause: Callable[[], None] | None = None) -> None:
        """What ``load`` left for later: the index of the log before a fold snapshot, then the tail's
        checkpoints (``game.fold_load.complete``).  Nothing may fold on before."""
        fold_load.complete(self, pause)

    def _checkpoint(self, k: Key, state: GameState | None = None, base: snapshot.Snapshot | None = None) -> None:
        """A checkpoint of the state (the fold's own, or ``state``, equal to ``base`` but for the characters
        in its ``_dirty``) at ``k``, after the last one.

        A character that did not change since the last checkpoint shares its
        row with it (as the seeker's checkpoints do), so the checkpoints a
        fold keeps cost memory, and walks of the cyclic garbage collector,
        only for what changed; from a base, only the characters changed since
        are read (``snapshot.take_since``).
        """
        st = self.state if state is None else state
        changed = st._dirty if state is not None else self.changes.touched | st._dirty
        if state is None:
            base = self.rows_base
        if base is not None and len(base.characters) == len(st.characters):
            snap = snapshot.take_since(st, base, changed)
        else:
            snap = snapshot.take(st)
            rows = snap.characters
            before = self._checkpoints[-1][1].characters if self._checkpoints else ()
            if len(before) == len(rows):
                snap.characters = [old if old[0] is new[0] and old == new else new for old, new in zip(before, rows)]
        if state is None:
            if not (st._dirty or st._dirty_stopps):
                snap.schedule = self.schedule.copy()    # in step with the state: going back needs no rebuild
            self.based_on(snap)
        self._checkpoints.append((k, snap))

    def based_on(self, snap: snapshot.Snapshot | None) -> None:
        """The fold's state is now ``snap``'s (restored from it, or just taken): what changes from here on is
        noted for the next checkpoint (None: the state is no snapshot's)."""
        self.rows_base = snap
        self.changes.touched = set()

    # -- deadlines and provisional events --------------------------------------
    def fire(self, now: int) -> Fired:
        """Fire every deadline due by ``now``; folded at once, provisional until stored.

        A deadline that fell due before a rule event folded already (fired
        late: while no station could fire, the server away, or a station
        starting again) is folded in its place, not after that event: the
        game is folded again from the checkpoint before it, re-running the
        timers (``Fired.corrections``: it, placed, and any stored deadline
        that no longer falls due as stored, taken back).  So a bind reported
        after a death that fell due is the rules' "too late", whenever the
        death was fired.
        """
        out = Fired()
        if self.behind:                 # it misses a late event: what it fired might not be the rules'
            return out
        due = self.schedule.next_due()
        before: list | None = None      # the deaths before a refold (one may take a death back)
        if due is not None and due <= now:
            first = self._first_rule_after(due)
            if first is not None:
                before = list(self.state.deaths)
                out.corrections = self._refold(first, True)
                out.refolded = True
        # (A copy of every death for each batch was 15 % of the core thread's time with 2,000 dead: without a
        # refold, firing only appends to the list.)
        n = len(self.state.deaths)
        fired = fire_due(self.state, self.schedule, now, changed=self.changes)
        out.fired = [(self._note(e, None), e) for e in fired]
        if before is None:
            out.deaths = self.state.deaths[n:]
        else:
            old = set(before)
            out.deaths = [d for d in self.state.deaths if d not in old]
        return out

    def _fire_before_event(self, k: Key, t: int) -> list[Correction]:
        """Fire the deadlines due by ``t``, placed between what is folded and the event of key ``k``."""
        fired = fire_due(self.state, self.schedule, t, changed=self.changes)
        out = []
        prev = self.last_key[0]
        for event in fired:
            pos = _between(prev, k[0])
            prev = pos
            self._token += 1
            self.provisional.append(_Provisional(self._token, event, pos))
            out.append(Correction("fire", event, event, pos=pos, token=self._token))
        return out

    def repair(self) -> Fired:
        """This station has just taken the rule timers over: fold again, firing, from the first rule event after
        the last deadline stored, so that a deadline that fell due meanwhile (while no station fired, or
        fired late by the station before) is folded where it fell due, and the rules' time holds.  A fold
        ``behind`` (a late event waits for the engine's background refold) does nothing: that refold runs every
        timer again, and nothing fires before it is swapped in."""
        if self.behind:
            return Fired()
        last = next((e.event.t for e in reversed(self.entries) if e.event.source == SOURCE_TIMER
                     and e.event.type != "retracted" and e.seq not in self.retracted), None)
        first = self._first_rule_after(last if last is not None else -1)
        out = Fired()
        if first is not None:
            out.corrections = self._refold(first, True)
            out.refolded = True
        return out

    def rerun_timers(self, pause: Callable[[], None] | None = None) -> list[Correction]:
        """Fold the whole log again, firing every deadline where the rules fire it: after late registrations,
        whose reports count only now, no station could fire their deadlines, nor those they changed of others
        (a late healer's touch saves a player the log has bled out).  The corrections are folded and
        provisional, for the timer owner to store.  ``pause`` is called now and then (a background refold rests
        there for the station's live work: controlroom/pacing.py)."""
        return fold_rerun.deep_refold(self, True, pause)

    def _first_rule_after(self, t: int) -> Key | None:
        """The fold key of the first report of a rule folded that happened at ``t`` or later (None: none did): where
        a deadline due at ``t`` belongs, as the rules fire it before any report of its time or later.

        Deadlines (each counts at its own time wherever it stands) and field
        reports are passed over.  Reports are not folded in time order (each
        station stores what it heard in its own batches; a gateway delivers
        what it kept while unplugged), so the search goes back to a report
        ``LOOK_BACK_MS`` older than ``t``; starting a refold too early costs
        time only, since the refold fires each deadline where it falls due.
        """
        # Most deadlines fire on time, after every rule report: the answer is then known without walking back
        # through ten game minutes of entries (mostly positions: 18 % of a game day station's core thread).
        if self.rule_t is None:
            self.rule_t = max((e.event.t for e in self.entries if _rule_report(e.event)), default=-1)
        if self.rule_t < t:
            return None
        first = None
        for entry in reversed(self.entries):
            event = entry.event
            if event.source == SOURCE_TIMER or event.type in FIELD_TYPES or entry.seq in self.retracted:
                continue
            if event.t >= t:
                first = entry.key
            elif event.t < t - LOOK_BACK_MS:
                break
        return first

    def _overdue(self) -> Key | None:
        """Where the fold must go again from to fire a deadline that fell due before a rule event folded
        already (None: none did).  It happens when the game was folded without its timers: a refold over a new
        roster, whose late registrations' deadlines no station could fire before; firing such a deadline
        before the next stored event (``_fire_before_event``) would put it after reports of a later time."""
        due = self.schedule.next_due()
        if due is None or due > self.state.latest:
            return None
        return self._first_rule_after(due)

    def prefold(self, event: Event, token: int | None = None) -> tuple[int, list]:
        """Fold an event now that will be stored later (a report kept on this laptop): its token (``token``, one
        of ``new_token``'s, if given), and the rule warnings it raised."""
        warnings = self.state.apply(event)
        self.schedule.sync(self.state, self.changes)
        return self._note(event, None, token), list(warnings)

    def new_token(self) -> int:
        """A token no provisional event of this fold has: what a report is folded ahead under, should it be kept
        on this laptop (the local queue keeps it, and gives it back when the report is delivered)."""
        self._token += 1
        return self._token

    def _note(self, event: Event, pos: float | None, token: int | None = None) -> int:
        token = self.new_token() if token is None else token
        self.provisional.append(_Provisional(token, event, pos))
        return token

    def next_due(self) -> int | None:
        return None if self.behind else self.schedule.next_due()     # (behind: it fires nothing, see fire)

    # -- late events ---------------------------------------------------------------
    def place(self, device: int | None, counter: int | None, arrival_t: int, happened_t: int | None = None,
              tolerance_ms: int = 2000) -> Placement | None:
        """Where a report heard now belongs, if it happened before what is folded already (else None): see
        ``game.fold_place.place``."""
        return fold_place.place(self, device, counter, arrival_t, happened_t, tolerance_ms)

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
        ordered = sorted(items, key=lambda it: key_of(it[0]))
        may_fire = may_fire and not self.behind       # (it misses a late event: see fire)
        overdue = self._overdue() if may_fire else None
        consistent = overdue is None and self._consistent(ordered)
        n_deaths = len(self.state.deaths)   # (folded on, deaths are only added: no copy of them)
        deaths_before = [] if consistent else list(self.state.deaths)
        own = {tok for _s, tok in items if tok is not None}
        placed = {p.token for p in self.provisional if p.token in own and p.pos is not None}
        self.provisional = [p for p in self.provisional if p.token not in own]
        if consistent:
            # Events of ours in the batch were folded already: no checkpoint before the last of them (one at a
            # report stored before it would hold its effect, and a refold from there would take it back).
            last_own = max((i for i, (_s, tok) in enumerate(ordered) if tok is not None), default=-1)
            for i, (stored, tok) in enumerate(ordered):
                if may_fire and tok is None and stored.event.type not in FIELD_TYPES:
                    # A deadline that fell due before this event and was not fired yet (this station's timer
                    # a little late, or it only now runs the timers): fired in its place, before the event.
                    # (Before another station's deadline, only those due before it: one due with it may be it.)
                    until = stored.event.t - (stored.event.source == SOURCE_TIMER)
                    out.corrections += self._fire_before_event(key_of(stored), until)
                self._insert(stored)
                if tok is None:
                    if stored.event.type == "retracted":
                        self.retracted.add(stored.event.data["seq"])
                    if stored.event.type in FIELD_TYPES and key_of(stored) < self.last_key:
                        self.state.apply_late(stored.event)     # superseded, or kept in time order
                        continue
                    warnings = self._apply(stored.event)
                    if warnings:
                        out.verdicts[stored.seq] = list(warnings)
                    out.applied.append(stored.event)
                self.last_key = max(self.last_key, key_of(stored))
                self._maybe_checkpoint(i >= last_own)
            out.new_warnings = len(self.state.warnings) - warnings_before
            out.deaths = self.state.deaths[n_deaths:]
            return out
        targets = {s.event.data["seq"] for s, _t in items if s.event.type == "retracted"} - self.retracted
        for stored, _tok in ordered:
            self._insert(stored)
            if stored.event.type == "retracted":
                self.retracted.add(stored.event.data["seq"])
        # From the first event the fold has not folded in its place.  Not from a correction of ours placed where
        # it fell due, nor from an event a correction of ours took back: the refold that made them folded them
        # (or left them out) there, and so did each checkpoint it took after them.  (After a roster import the
        # owner's corrections reach back hours: folding from them took 4 s in the core thread.)
        first = min((key_of(s) for s, tok in items if tok not in placed), default=None)
        if first is None:
            first = min(key_of(s) for s, _t in items)
        if overdue is not None:
            first = min(first, overdue)
        if targets:                     # (one walk of the entries for all: a rerun's corrections come in hundreds)
            found = {e.seq: e.key for e in self.entries if e.seq in targets}
            first = min(first, *(found.get(t, (float(t), t)) for t in targets))
        out.refolded = True
        self._watch = {s.seq: out.verdicts for s, tok in items if tok is None}
        try:
            out.corrections = self._refold(first, may_fire)
        finally:
            self._watch = {}
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
        changed = fold_rerun.changed_since(self, len(self.checkpoints) - 1)
        self.state = snapshot.restore_over(self.state, snap)
        self.based_on(snap)
        fold_rerun.run(self, self.entries[bisect.bisect_right(self._keys, cp_key):], False, cp_key, snap.schedule,
                       changed)
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
        # Reports of ours folded at the end, by where the log puts them: the earliest time of those after each.
        later_report = [END_T] * (len(ordered) + 1)
        for i in range(len(ordered) - 1, -1, -1):
            stored, tok = ordered[i]
            own_report = (tok is not None and prov[tok].pos is None and stored.event.source != SOURCE_TIMER
                          and stored.event.type not in FIELD_TYPES)
            later_report[i] = min(later_report[i + 1], stored.event.t) if own_report else later_report[i + 1]
        ours = 0                    # events of ours folded at the end, met so far in the log's order
        for i, (stored, tok) in enumerate(ordered):
            k = key_of(stored)
            placed = tok is not None and prov[tok].pos is not None
            if placed:
                continue            # a correction this station folded at its place already
            if k < last:
                if tok is None and stored.event.type in FIELD_TYPES:
                    continue        # a late field report changes no rule: folded in place
                return False
            last = k
            if tok is not None:
                ours += 1
                continue
            if len(at_end) > ours:
                # Another station's event that the log puts before events of ours folded already: a rule event
                # must be folded before them; a field report only matters if it is later than a report of ours
                # after it (which would count from the field report's time).
                if stored.event.type not in FIELD_TYPES or stored.event.t > later_report[i]:
                    return False
                if len(at_end) > len(confirmed_end):
                    return False    # folded after events of ours that this batch does not store
            if stored.event.type == "retracted" and stored.event.data["seq"] not in self.retracted:
                return False        # a correction of an event folded already
        return True

    def _apply(self, event: Event) -> list:
        warnings = self.state.apply(event)
        self.schedule.sync(self.state, self.changes)
        return warnings

    def _insert(self, stored) -> None:
        self.fill_checkpoints()         # before an entry comes in: they are taken from the entries as loaded
        k = key_of(stored)
        self.index.insert(k, stored.event.t)
        radio = getattr(stored, "radio", None)
        entry = Entry(k, stored.seq, stored.event, radio.device if radio else None, radio.counter if radio else None)
        i = bisect.bisect_left(self._keys, k)
        self._keys.insert(i, k)
        self.entries.insert(i, entry)
        if self.rule_t is not None and stored.event.t > self.rule_t and _rule_report(stored.event):
            self.rule_t = stored.event.t
        if radio is not None:
            frames = self.frames.setdefault(radio.device, [])
            bisect.insort(frames, (radio.counter, k, stored.event.t))
            if len(frames) > 300:
                del frames[:len(frames) - 256]

    def _maybe_checkpoint(self, may: bool = True) -> None:
        self._since_checkpoint += 1
        if self._since_checkpoint < self.checkpoint_every or self.provisional or not may:
            return
        self._since_checkpoint = 0
        self._checkpoint(self.last_key)
        fold_trim.trim(self)

    # -- folding again -------------------------------------------------------------
    # -- folding again (game.fold_rerun) -------------------------------------------------------
    def _refold(self, first: Key, may_fire: bool) -> list[Correction]:
        return fold_rerun.refold(self, first, may_fire)


def _rule_report(event: Event) -> bool:
    """A report of a rule (not a deadline, not a field report): what a deadline due before it must precede."""
    return event.source != SOURCE_TIMER and event.type not in FIELD_TYPES
