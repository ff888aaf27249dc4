"""The deltas every reader gets (the window, the web page, a TAK sender): what changed since the last one."""

from __future__ import annotations

from controlroom.game.fold import Fold
from controlroom.game.views import FieldSent, SideTally, StateDelta, StoredView, make_delta


class Publisher:
    """Keeps what the last delta carried; ``delta`` makes the next one (whole after a refold)."""

    def __init__(self, fold: Fold) -> None:
        self.field_sent = FieldSent()
        self.stored: list[StoredView] = []       # the events stored since the last delta
        self.whole = False
        self.tally = SideTally(fold.state)
        self.warnings_seen = len(fold.state.warnings)

    def opened(self, fold: Fold, events: list[StoredView]) -> StateDelta:
        """The delta an opening shows: the whole game and its last events (the warnings it had are old news)."""
        state = fold.state
        self.tally = SideTally(state)
        self.warnings_seen = len(state.warnings)
        return make_delta(state, (), (), events, full=True, sides=self.tally.snapshot(),
                          field=self.field_sent.changes(state, whole=True))

    def refolded(self, fold: Fold) -> None:
        """The game was folded again: the next delta carries everything, its warnings too."""
        self.whole = True
        self.tally = SideTally(fold.state)
        self.warnings_seen = 0

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
        return make_delta(state, badges, stopps, events, warnings, full=full, sides=self.tally.snapshot(),
                          field=field)
