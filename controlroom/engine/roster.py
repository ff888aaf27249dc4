"""Players added to an open game: checked against the stored roster, stored, announced, folded in.

The roster is kept in the store beside the event log, and the game is the
fold of the log over it.  New players are stored in one transaction (after
the batch in flight, if any); a ``roster_added`` event then goes the way of
every event.  Once that event is stored and folded, here or at another
station of a shared game, the whole log is folded again over the new roster
(what a restart or a replay does: events that named their badges before now
count).  That refold reads the whole log: it runs in the background on a
fold of its own, and only the swap to it happens in the engine's thread
(``Engine.refolded``).  Nothing is stored while a problem stands; the answer
lists them by line.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from controlroom.collecting import no_collection
from controlroom.engine.commands import AddPlayers
from controlroom.engine.output import RosterAnswer
from controlroom.engine.reports import Report, report
from controlroom.game.events import Event
from controlroom.game.fold import Fold
from controlroom.game.roster_addition import plan_addition
from controlroom.i18n import translate
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore

log = logging.getLogger(__name__)


def not_storing(error: str | None) -> str:
    return translate("roster", "the game cannot be stored now ({error}); add the players once it is stored "
                               "again").format(error=error)


@dataclass(slots=True)
class Additions:
    """Offers of players waiting for the batch in flight, and whether the game must be folded over its roster."""

    waiting: list[AddPlayers] = field(default_factory=list)
    stale: bool = False              # a roster_added was folded: fold the game again over the stored roster
    added: set[int] = field(default_factory=set)   # the badges those added: their timers run again then

    def offer(self, cmd: AddPlayers, *, fold: Fold, store: GameStore, storage_error: str | None,
              busy: bool) -> tuple[RosterAnswer | None, Report | None]:
        """The answer to an offer (None: it waits for the batch in flight), and the ``roster_added`` report to
        store when players were added."""
        def answer(problems=(), plan=None, stored=False) -> RosterAnswer:
            return RosterAnswer(cmd.request, stored, tuple(plan.new) if plan else (),
                                len(plan.unchanged) if plan else 0, tuple(problems))

        if cmd.store and storage_error is not None:
            return answer([not_storing(storage_error)]), None
        if cmd.store and busy:
            self.waiting.append(cmd)            # added once the batch in flight is stored
            return None, None
        try:
            plan = plan_addition(list(cmd.entries), store.roster(), fold.state.profile)
        except StoreError as exc:
            return answer([str(exc)]), None
        if plan.problems or not cmd.store:
            return answer(plan.problems, plan), None
        if not plan.new:
            return answer((), plan, True), None
        if fold.provisional:
            return answer([translate("roster", "the game's events kept on this laptop are not stored on the server "
                                               "yet; add the players when the server is back")]), None
        try:
            store.save_roster(plan.new, remove_missing=False)
        except StoreError as exc:
            return answer([str(exc)]), None
        # Stored: the players are in the game file.  The event says when, to the log and to every station.
        return answer((), plan, True), report("roster_added", {"added": [m.badge for m in plan.new]})

    def note(self, events: Iterable[Event], behind: bool = False) -> None:
        """Events stored: a ``roster_added`` among them calls for the refold, and names the players it added;
        so does a fold ``behind`` (a late event before its checkpoints: ``game.fold_rerun.refold``)."""
        self.stale = self.stale or behind
        for event in events:
            if event.type == "roster_added":
                self.stale = True
                self.added.update(event.data.get("added", ()))

    def job(self, open_fold: Callable[..., Fold], may_fire: bool,
            pause: Callable[[], None] | None = None) -> Callable[[], Fold]:
        """The game folded again from its whole log, over the stored roster, in the background.  Under the timer
        lock it also runs every timer again (``Fold.rerun_timers``): what late registrations did before they were
        on the roster counts now, and no station could fire the deadlines of it.  It runs whenever the owner
        folds again, since the roster is saved before its ``roster_added`` is stored: a refold asked for another
        reason may be the first to read the new players.  ``pause`` is called every few hundred events (the
        job rests there while the station has live work: pacing.for_live_work)."""
        self.stale = False
        added, self.added = len(self.added), set()

        def job() -> Fold:
            started = time.monotonic()
            # No collection meanwhile: the new fold's million objects were walked again and again, each walk
            # holding the GIL (9 collections of 0.13-0.42 s in a refold of the 200,000-event game, every ack
            # and deadline waiting); they go to the permanent generation at once, as an opening's do.
            with no_collection():
                fold = open_fold(pause=pause)
                if may_fire:
                    fold.rerun = fold.rerun_timers(pause)    # the corrections go out at the swap
                gc.freeze()
            log.info("the game folded again over its roster (%d players added)%s in %.1f s", added,
                     f", every timer run again: {len(fold.rerun)} corrections" if may_fire else "",
                     time.monotonic() - started)
            return fold
        return job

    def take_waiting(self) -> list[AddPlayers]:
        waiting, self.waiting = self.waiting, []
        return waiting
