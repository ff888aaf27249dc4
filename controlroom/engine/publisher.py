"""The deltas every reader gets (the window, the web page, a TAK sender): what changed since the last one."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from controlroom.game.fold import Fold
from controlroom.game.views import (
    CharacterView,
    FieldSent,
    SideTally,
    StateDelta,
    StoredView,
    character_view,
    make_delta,
)


class Viewed(NamedTuple):
    """A new fold's characters viewed and its sides counted (``viewed``), before it is swapped in."""

    fold: Fold
    views: dict[int, CharacterView]
    tally: SideTally


def viewed(fold: Fold, pause: Callable[[], None] | None = None) -> Viewed:
    """Every character of a fold not shown yet, viewed, and its sides counted: in the thread that made the fold
    (a refold's), so that the first delta after the swap views again only what changed since (``fold.changes``,
    taken here).  8,000 views and a count of every side were 0.03 s of the engine's thread at each swap."""
    fold.changes.take()
    state = fold.state
    views = {}
    for i, badge in enumerate(state.characters):
        if pause is not None and not i & 255:
            pause()
        views[badge] = character_view(state, badge)
    return Viewed(fold, views, SideTally(state))


class Publisher:
    """Keeps what the last delta carried; ``delta`` makes the next one (whole after a refold)."""

    def __init__(self, fold: Fold) -> None:
        self.field_sent = FieldSent()
        self.stored: list[StoredView] = []       # the events stored since the last delta
        self.whole = False
        self.tally = SideTally(fold.state)
        self.warnings_seen = len(fold.state.warnings)
        self.views: dict[int, CharacterView] = {}   # each character as last sent (a whole delta sends them all)

    def opened(self, fold: Fold, events: list[StoredView]) -> StateDelta:
        """The delta an opening shows: the whole game and its last events (the warnings it had are old news)."""
        state = fold.state
        self.tally = SideTally(state)
        self.warnings_seen = len(state.warnings)
        self.views = {}
        return make_delta(state, (), (), events, full=True, sides=self.tally.snapshot(),
                          field=self.field_sent.changes(state, whole=True), characters=self._all(state, ()))

    def refolded(self, fold: Fold, anew: bool = False, ready: Viewed | None = None) -> None:
        """The game was folded again: the next delta carries everything, its warnings too.  Only the characters
        the fold says changed (``fold.changes``) are viewed again, unless the fold is another one (``anew``):
        a refold of 8,000 characters' game made 8,000 views and counted every side again; ``ready``: those of
        the other fold made beforehand (``viewed``)."""
        self.whole = True
        self.warnings_seen = 0
        if anew and ready is not None and ready.fold is fold:
            self.views, self.tally = ready.views, ready.tally
        elif anew:
            self.views = {}
            self.tally = SideTally(fold.state)

    def _all(self, state, badges) -> tuple[CharacterView, ...]:
        """Every character's view: anew for ``badges`` and any not viewed yet, as last sent for the rest."""
        views = self.views
        for b in badges:
            if b in state.characters:
                views[b] = character_view(state, b)
        return tuple(views[b] if b in views else views.setdefault(b, character_view(state, b))
                     for b in sorted(state.characters))

    def note(self, views: list[StoredView]) -> None:
        self.stored += views

    def delta(self, fold: Fold) -> StateDelta:
        """What changed since the last delta."""
        state = fold.state
        badges, stopps = fold.changes.take()
        full, self.whole = self.whole, False
        warnings = tuple(state.warnings[self.warnings_seen:])
        self.warnings_seen = len(state.warnings)
        events, self.stored = self.stored, []
        self.tally.update(state, badges)
        field = self.field_sent.changes(state, whole=full)
        if full:
            characters = self._all(state, badges)
        else:
            characters = tuple(character_view(state, b) for b in sorted(badges) if b in state.characters)
            self.views.update((v.badge, v) for v in characters)
        return make_delta(state, badges, stopps, events, warnings, full=full, sides=self.tally.snapshot(),
                          field=field, characters=characters)
