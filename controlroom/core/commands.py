"""The game master's commands to the core worker (``GameMasterCommands``, a part of ``core.worker.CoreWorker``).

Scenarios, STOPPs called and lifted, alarms acknowledged, wrong reports
retracted: each becomes an event that takes the road every report takes
(``CoreWorker.submit``).  Players added to an open game are stored in the
roster first, then announced by a ``roster_added`` event, and the game is
folded again over the new roster once that is stored and folded.
"""

from __future__ import annotations

import gc
import logging
from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import Slot

from controlroom.core.intake import Incoming
from controlroom.game.events import SOURCE_GM, validate
from controlroom.game.roster_addition import plan_addition
from controlroom.game.views import SideTally
from controlroom.i18n import translate
from controlroom.store.errors import StoreError

if TYPE_CHECKING:
    from controlroom.game.fold import Fold
    from controlroom.store.game import GameStore

log = logging.getLogger(__name__)

GM_STOPP_KEY = "gm_stopp_counter"      # the highest number given to a game master's STOPP (GM1, GM2...)


class RosterAnswer(NamedTuple):
    """The core's answer to players offered for the open game (``CoreWorker.add_players``)."""

    request: int                         # the asker's number for its question
    stored: bool                         # True: the players are in the game file (then folded in, published)
    added: tuple = ()                    # the new players (Member): added, or to be added when ``stored`` is False
    unchanged: int = 0                   # players of the file the game has already, exactly as the file has them
    problems: tuple[str, ...] = ()       # what stands in the way, by line: nothing was stored


class GameMasterCommands:
    """The game master's part of ``CoreWorker``: it uses the worker's ``fold``, ``store``, inbox and batch
    in flight, and hands each command on with ``submit``."""

    fold: Fold | None
    store: GameStore | None
    _gm_stopps: int
    _players_waiting: list[tuple[int, list]]
    _roster_stale: bool
    _folded_upto: int

    @Slot(str, bool, float)
    def start_scenario(self, name: str, respawn: bool = False, respawn_time: float = 0.0) -> None:
        fields = {"name": name, "respawn": respawn}
        if respawn_time:
            fields["respawn_time"] = respawn_time
        self.submit("scenario_started", fields, SOURCE_GM)

    @Slot()
    def end_scenario(self) -> None:
        self.submit("scenario_ended", {}, SOURCE_GM)

    @Slot(str)
    def call_global_stopp(self, reason: str = "danger") -> None:
        stopps = self.state.stopps if self.state is not None else {}
        known = [*stopps, *(i.data["stopp"] for i in self._inbox if i.type == "stopp_called")]
        # Above every number this station knows (a retracted STOPP's too, while folded), and above the last
        # one it gave (on its way to the store: out of the inbox, not yet folded) ...
        n = max([self._gm_stopps, *(int(k[2:]) for k in known if k.startswith("GM") and k[2:].isdigit())]) + 1
        # ... and the game's own count, raised in one statement: stations of a shared game calling at the
        # same moment, or a restart after a retraction, never give one number twice.
        if self.store is not None:
            try:
                n = max(n, self.store.reserve_block(GM_STOPP_KEY, 1))
            except StoreError as exc:       # the STOPP is called all the same: the number is this station's
                log.warning("numbering the game master's STOPP: %s", exc)
        self._gm_stopps = n
        self.submit("stopp_called", {"stopp": f"GM{n}", "reason": reason}, SOURCE_GM)

    @Slot(str, bool)
    def lift_stopp(self, stopp_id: str, trivial: bool = False) -> None:
        self.submit("stopp_lifted", {"stopp": stopp_id, "trivial": trivial}, SOURCE_GM)

    @Slot(str)
    def acknowledge(self, alarm_id: str) -> None:
        self.submit("alarm_acknowledged", {"alarm": alarm_id}, SOURCE_GM)

    @Slot(int, str)
    def retract(self, seq: int, reason: str = "") -> None:
        """Correct a wrong report: a new event that makes the game leave ``seq`` out."""
        fields: dict[str, Any] = {"seq": seq}
        if reason:
            fields["reason"] = reason
        self.submit("retracted", fields, SOURCE_GM)

    # -- the roster ----------------------------------------------------------------
    @Slot(int, object, bool)
    def add_players(self, request: int, entries, store: bool) -> None:
        """Players for the open game (``entries``: [(line of the file, Member)], as ``read_roster_entries`` gives
        them): checked against the stored roster (``roster_addition.plan_addition``) and, with ``store``, added.

        The roster is kept in the store, beside the event log, and the game is
        the fold of the log over it: the new players are stored in one
        transaction (after the batch in flight, if any), then a ``roster_added``
        event goes the way of every event; once it is stored and folded, here
        or at another station of a shared game, the whole log is folded again
        over the new roster (what a restart or a replay does: events that named
        their badges before now count) and published in full.  Nothing is
        stored while a problem stands; the answer (``roster_answered``) lists
        them by line.
        """
        def answer(problems=(), plan=None, stored=False) -> None:
            self.roster_answered.emit(RosterAnswer(
                request, stored, tuple(plan.new) if plan else (), len(plan.unchanged) if plan else 0,
                tuple(problems)))

        if self.fold is None or self._stopping or self.store is None:
            answer([translate("roster", "the game is not open")])
            return
        if store and self._storage_error is not None:
            answer([self._not_storing()])
            return
        if store and (self._in_flight is not None or self._buffer):
            self._players_waiting.append((request, list(entries)))      # folded over once it is stored
            return
        try:
            plan = plan_addition(list(entries), self.store.roster(), self.fold.state.profile)
        except StoreError as exc:
            answer([str(exc)])
            return
        if plan.problems or not store:
            answer(plan.problems, plan)
            return
        if not plan.new:
            answer((), plan, True)
            return
        if self.fold.provisional:
            answer([translate("roster", "the game's events kept on this laptop are not stored on the server yet; "
                                        "add the players when the server is back")])
            return
        try:
            self.store.save_roster(plan.new, remove_missing=False)
        except StoreError as exc:
            answer([str(exc)])
            return
        # Stored: the players are in the game file.  The event says when, to the log and to every station;
        # once it is stored and folded, the game is folded again over the new roster (_refresh_roster).
        self._receive(Incoming("roster_added", validate("roster_added", {"added": [m.badge for m in plan.new]}),
                               SOURCE_GM))
        answer((), plan, True)

    def _refresh_roster(self) -> None:
        """After a roster_added event (this station's or another's): the game folded again over the stored
        roster, once nothing of this station is on its way to the store (nothing provisional, no correction)."""
        if (self._roster_stale and self.fold is not None and self._in_flight is None and not self._corrections
                and not self.fold.provisional):
            self._roster_stale = False
            self._fold_again()

    def _fold_again(self) -> None:
        """The whole log folded again over the stored roster, as a restart does; published in full.

        The new fold holds every event stored up to its highest seq; the storage writer may still deliver
        some of those (another station's, read before): ``_fold`` leaves them out of the fold.
        """
        try:
            fold = self.store.open_fold()
        except StoreError as exc:       # the log cannot be read now: the next roster_added or a restart folds it
            log.error("folding the game again over its new roster: %s", exc)
            self._roster_stale = True
            return
        gc.unfreeze()                   # the old fold, frozen at opening, becomes garbage the collector sees
        self.fold = fold
        self._folded_upto = max(fold.index.seq, default=0)
        gc.freeze()                     # (no collection here: only the GUI thread collects, ui/collector.py)
        self._full = True
        self._tally = SideTally(self.fold.state)
        self._warnings_seen = 0
        self._request_publish()
        self._tick()                    # deadlines of the new players' earlier events that fell due

    def _not_storing(self) -> str:
        return translate("roster", "the game cannot be stored now ({error}); add the players once it is stored "
                                   "again").format(error=self._storage_error)
