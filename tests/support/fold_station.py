"""A log and one station folding it as the engine does (game.fold.Fold), for the fold's tests: ``Station``
stores what it fires and reports, ``same_game`` compares two states as a player would;
``battle`` makes stored rows, ``plain_log`` folds them with nothing else."""

from typing import NamedTuple

from controlroom.game.devices import RadioMeta
from controlroom.game.fold import Fold, key_of
from controlroom.game.state import GameState
from tests.support.game_helpers import ROSTER, ev, fingerprint


class Rec(NamedTuple):
    seq: int
    pos: float | None
    event: object
    radio: RadioMeta | None = None


class Station:
    """A log (append-only, seqs in order) and one station folding it, as the core worker does."""

    def __init__(self, checkpoint_every=3, keep=4):
        self.log: list[Rec] = []
        self.fold = Fold(GameState(ROSTER), history=self.history, checkpoint_every=checkpoint_every, keep=keep)
        self.notes = []

    def history(self, pause=None):
        return GameState(ROSTER), sorted(self.log, key=key_of)

    def _append(self, event, pos=None, radio=None):
        rec = Rec(len(self.log) + 1, pos, event, radio)
        self.log.append(rec)
        return rec

    def tick(self, now):
        """Fire due deadlines (folded now), store them; then store and fold the reports of this tick."""
        before = set(self.fold.state.deaths)
        fired = self.fold.fire(now)
        assert fired.deaths == [d for d in self.fold.state.deaths if d not in before]
        self.notes += fired.corrections
        items = [(self._append(c.event, c.pos), c.token) for c in fired.corrections]
        items += [(self._append(e), tok) for tok, e in fired.fired]
        return self.confirm(items)

    def report(self, event, device=None, counter=None, happened=None):
        self.tick(event.t)
        radio = RadioMeta(device, counter) if device is not None else None
        place = self.fold.place(device, counter, event.t, happened)
        if place is not None:
            event = event._replace(t=place.t)
        rec = self._append(event, place.pos if place else None, radio)
        return self.confirm([(rec, None)])

    def confirm(self, items):
        first = out = self.fold.confirm(items, may_fire=True)
        while out.corrections:          # the owner stores its corrections (folded already)
            self.notes += out.corrections
            stored = [(self._append(c.event, c.pos), c.token) for c in out.corrections]
            out = self.fold.confirm(stored, may_fire=True)
            assert not out.refolded, "the corrections were folded where they belong"
        return first

    def plain_fold(self, upto=None):
        """What any station gets by folding the log (no timers; up to the fold key ``upto``): must equal the
        owner's game."""
        state = GameState(ROSTER)
        gone = {r.event.data["seq"] for r in self.log if r.event.type == "retracted"}
        for rec in sorted(self.log, key=key_of):
            if rec.seq not in gone and (upto is None or key_of(rec) <= upto):
                state.apply(rec.event)
        return state


def same_game(a, b):
    fa, fb = fingerprint(a), fingerprint(b)
    for k in ("_dirty", "_dirty_stopps", "events_applied"):
        fa.pop(k), fb.pop(k)
    return fa == fb


class Row(NamedTuple):             # what Fold.load reads of a stored event (the store's LogRow)
    seq: int
    pos: float | None
    event: object
    device: int | None = None
    counter: int | None = None


def battle(n):
    """n stored rows of strikes, downs and bindings over both sides, one a second."""
    kinds = [("strike", {}), ("down", {}), ("strike", {}), ("bound", {"by": 3}), ("strike", {})]
    badges = [1, 2, 4, 5, 6, 11, 13, 14, 15]
    rows = []
    for i in range(n):
        kind, extra = kinds[i % len(kinds)]
        rows.append(Row(i + 1, None, ev(1000 * (i + 1), kind, badge=badges[(i * 7) % len(badges)], **extra)))
    return rows


def plain_log(rows, gone=()):
    """The rows folded in fold order, but those in ``gone``: what a fold of them must equal."""
    state = GameState(ROSTER)
    for row in sorted(rows, key=lambda r: (r.pos if r.pos is not None else float(r.seq), r.seq)):
        if row.seq not in gone:
            state.apply(row.event)
    return state
