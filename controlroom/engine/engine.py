"""The engine of one open game: the one road every input takes, from what was heard to what is shown.

    heard / command -> Report -> batch -> stored durably -> folded in the log's order
    -> acknowledged (with the fold's verdict) -> announcements, delta due

A report waits in the inbox until the batch before it is stored; then what
waits becomes the next batch, with the rule deadlines that fell due (fired
only while ``Authority.may_fire``).  ``committed`` folds what the store
wrote and read back, acknowledges the frames it stored and answers typed
reports from the record, then says what a game master must see.  A batch
that cannot be stored is retried by the caller and nothing of it is
acknowledged, so the handsets retry too.

Plain values in, plain values out: the core (``controlroom.core``) runs the
engine in its thread, turns each ``Output`` into signals, and sends the acks
through the links; tests drive it directly.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from typing import Any

from controlroom.engine import commands as cmds
from controlroom.engine.authority import ALONE, OWNER, Authority
from controlroom.engine.batching import Batch, Batcher, happened_at
from controlroom.engine.coverage import LiveCoverage, map_locator
from controlroom.engine.intake import Intake
from controlroom.engine.opening import OpenedGame
from controlroom.engine.output import FormAnswer, Output, RosterAnswer
from controlroom.engine.publisher import Publisher, Viewed, viewed
from controlroom.engine.reports import Report, form_verdict, try_report, verdict
from controlroom.engine.roster import Additions, not_storing
from controlroom.engine.storage import Committed, Logged
from controlroom.engine.words import late_news, late_report_alarm, stopp_alarm, stopp_overdue_alarm
from controlroom.game.alarms import Alarm
from controlroom.game.devices import VIA_WEB, RadioMeta
from controlroom.game.events import Event
from controlroom.game.fold import Confirmed, Fold
from controlroom.game.views import StateDelta, StoredView, character_view, stopp_view
from controlroom.i18n import translate
from controlroom.radio.link import Heard
from controlroom.store.errors import StoreError

log = logging.getLogger(__name__)

GM_STOPP_KEY = "gm_stopp_counter"      # the highest number given to a game master's STOPP (GM1, GM2...)


class Engine:
    """Owns one game's fold, its deadlines and what waits to be stored; nothing else writes them."""

    def __init__(self, game: OpenedGame, *, marshal_silence_ms: int = 600_000) -> None:
        self._first_events = game.events         # (not the game: its fold would outlive a refold's swap)
        self.store = game.store
        self.fold: Fold = game.fold
        self.clock = game.clock
        self.intake = Intake(game.ingest, game.mesh, marshal_silence_ms, game.tak)
        self.batcher = Batcher()
        self.publisher = Publisher(game.fold)
        self.authority = Authority(game.store.log.shared)
        self.additions = Additions()
        self.happened = happened_at(self.clock.speed)
        self.buffer: Logged = []                 # the log read back while a batch is in flight
        self.storage_error: str | None = None
        self.gm_stopps = 0                       # the number of the last STOPP a game master called here
        self.dropped_deadlines = 0               # deadlines fired under a timer lock found lost
        self.doubled_deadlines = 0               # deadlines fired that the log had already
        self.queued = 0                          # events in the local queue
        self.stopping = False
        self.folded_upto = 0                     # after a refold: the highest seq its fold read
        self.refolding: list | None = None       # while a refold runs: the events folded meanwhile
        self._new_fold: Fold | None = None       # a refold done, waiting for a quiet moment to be swapped in
        self._viewed: Viewed | None = None       # its characters viewed beforehand, in the refold's thread
        self._later = Output()                   # what making a batch found, said with its commit
        self.coverage = LiveCoverage(game.coverage_anchor, game.fold.state.positions, game.ingest.devices,
                                     map_locator(game.info.map, game.store.where), game.ingest.highest)

    @property
    def state(self):
        return self.fold.state

    # -- the opening --------------------------------------------------------------------------
    def opened(self) -> StateDelta:
        """The whole game as opened, with its last events: what the window shows first."""
        delta = self.publisher.opened(self.fold, self._first_events)
        self._first_events = []
        return delta._replace(t=max(delta.t, self.clock.now_ms()))

    def complete(self, pause: Callable[[], None] | None = None) -> StateDelta | None:
        """What the opening left for later (``Fold.complete``).  Should the log have changed under it, the game
        is folded again in full: the delta to show again (else None)."""
        try:
            self.fold.complete(pause)
            return None
        except (ValueError, StoreError):
            log.exception("completing the fold of %s: folded again from the whole log", self.store.where)
        self.fold = self.store.open_fold(saved=False)
        delta = self.publisher.opened(self.fold, [])
        return delta._replace(t=max(delta.t, self.clock.now_ms()))

    # -- inputs ----------------------------------------------------------------------------------
    def heard(self, items: list[Heard]) -> Output:
        """What the links heard since the last call, in order."""
        out = Output()
        if self.stopping:
            return out                  # not acknowledged: the handsets try again
        for report in self.intake.take(items, self.fold.state, self.clock.now_ms(), out):
            self._receive(report, out)
        return out

    def command(self, cmd: cmds.Command) -> Output:
        """A command of the game master's (``engine.commands``)."""
        out = Output()
        if isinstance(cmd, cmds.Poll):
            out.tick = out.publish = True
        elif isinstance(cmd, cmds.CallStopp):
            self._call_stopp(cmd.reason, out)
        elif isinstance(cmd, cmds.AddPlayers):
            self._add_players(cmd, out)
        elif isinstance(cmd, cmds.FormReport):
            self._form_report(cmd, out)
        elif isinstance(cmd, cmds.ReloadDevices):
            self._reload_devices(out)
        else:
            submit = cmds.as_submit(cmd)
            if submit is None:
                raise TypeError(f"not a command: {cmd!r}")
            report = try_report(submit.type, submit.fields, submit.source, out.rejected)
            if report is not None:
                self._receive(report, out)
        return out

    def _reload_devices(self, out: Output) -> None:
        """The devices as registered now (a list imported elsewhere): the radio knows them from here on."""
        try:
            out.devices = self.intake.reload(self.store)
        except StoreError as exc:
            out.rejected.append(str(exc))
            return
        out.publish = True

    def _receive(self, report: Report, out: Output) -> None:
        self.batcher.add(report)
        out.tick = True                 # one batch per turn of the event loop

    def _form_report(self, cmd: cmds.FormReport, out: Output) -> None:
        """A phone's report: keyed (device, form) like a radio frame, so a resent form is stored once."""
        if self.stopping:
            out.answers.append(FormAnswer(cmd.request, False, translate("web", "the station is stopping: send it again"
                                                                                " in a moment"), counted=False))
            return
        rejected: list[str] = []
        report = try_report(cmd.type, cmd.fields, cmd.source, rejected, radio=RadioMeta(cmd.device, cmd.form,
                            via=VIA_WEB), answer=FormAnswer(cmd.request, True, cmd.said))
        if report is None:
            out.rejected += rejected
            why = rejected[0].split(": ", 1)[-1] if rejected else ""
            out.answers.append(FormAnswer(cmd.request, False, translate("web", "not stored: {why}").format(why=why),
                                          counted=False))
            return
        self._receive(report, out)

    def _call_stopp(self, reason: str, out: Output) -> None:
        known = [*self.state.stopps, *(r.data["stopp"] for r in self.batcher.inbox if r.type == "stopp_called")]
        # Above every number this station knows (a retracted STOPP's too, while folded), and above the last
        # one it gave (on its way to the store: out of the inbox, not yet folded) ...
        n = max([self.gm_stopps, *(int(k[2:]) for k in known if k.startswith("GM") and k[2:].isdigit())]) + 1
        # ... and the game's own count, raised in one statement: stations of a shared game calling at the
        # same moment, or a restart after a retraction, never give one number twice.
        try:
            n = max(n, self.store.reserve_block(GM_STOPP_KEY, 1))
        except StoreError as exc:       # the STOPP is called all the same: the number is this station's
            log.warning("numbering the game master's STOPP: %s", exc)
        self.gm_stopps = n
        report = try_report("stopp_called", {"stopp": f"GM{n}", "reason": reason}, "gm", out.rejected)
        if report is not None:
            self._receive(report, out)

    # -- the batch ---------------------------------------------------------------------------------
    def next_batch(self) -> Batch | None:
        """The next batch to store (None: one is on its way, or nothing is due): corrections, deadlines, reports."""
        fold, clock = self.fold, self.clock
        now = max(clock.now_ms(), fold.state.latest)
        batch = self.batcher.take(fold, now, may_fire=self.authority.may_fire, epoch=self.authority.epoch or None,
                                  best=self.intake.ingest.best, happened=self.happened, real_ms=clock.real_ms)
        if batch is not None:
            for report in batch.reports:
                if report is not None and report.from_field:
                    self.intake.heard(report.source, now)
            if batch.refolded:          # deadlines fired late, folded in their place: the game was folded again
                self.publisher.refolded(fold)
                if late_news(batch.late):
                    self._later.alarms.append(late_report_alarm(fold.state, batch.late, now))
        return batch

    def next_due_ms(self) -> float | None:
        """Real ms until it fires the next deadline (None: none, stopping, not the owner, a batch on its way)."""
        due = self.fold.next_due()
        if due is None or self.stopping or not self.authority.may_fire or self.batcher.in_flight is not None:
            return None
        return self.clock.real_ms(due - self.clock.now_ms())

    # -- stored: fold, acknowledge, announce ------------------------------------------------------------
    def committed(self, batch_id: int, result: Committed) -> Output:
        """The store wrote the batch in flight (or kept it on this laptop): fold it, answer it, announce it."""
        out = Output()
        batch = self.batcher.done(batch_id)
        if batch is None:
            return out
        out.alarms, self._later = self._later.alarms, Output()
        self._delivered(result, out)
        if result.kept:                 # on this laptop until the server is back: durable, so acknowledged
            verdicts: dict[int, list] = {}
            for i, (pending, report) in enumerate(zip(batch.items, batch.reports)):
                if report is not None:
                    _token, verdicts[i] = self.fold.prefold(pending.event, pending.token)
            self._acknowledge(batch, range(len(batch.items)), verdicts, out)
            self._announce(Confirmed(applied=[p.event for p, r in zip(batch.items, batch.reports) if r]), out)
            if self.buffer:
                items, self.buffer = self.buffer, []
                self._fold(items, out)
        else:
            if result.dropped:          # deadlines fired under a timer lock that is no longer ours
                self.dropped_deadlines += len(result.dropped)
                self._withdraw(batch, result.dropped)
                if self.authority.lock_lost():
                    out.timers, out.recheck = self.authority.state, True
            if result.doubled:          # deadlines another station had stored already: folded as its events
                self.doubled_deadlines += len(result.doubled)
                self._withdraw(batch, result.doubled)
            # (A report stored at once was not folded ahead: the fold takes it as the log's new event.)
            items = self.buffer + [(s, None if i is None or batch.reports[i] is not None else batch.items[i].token)
                                   for s, i in result.logged]
            self.buffer = []
            confirmed = self._fold(items, out)
            index_of = {s.seq: i for s, i in result.logged if i is not None}
            stored = set(index_of.values())
            verdicts = {index_of[seq]: w for seq, w in confirmed.verdicts.items() if seq in index_of}
            self._acknowledge(batch, sorted(stored | set(result.duplicates)), verdicts, out, set(result.duplicates))
            fired = [p.event for i, p in enumerate(batch.items) if i in stored and p.token and batch.reports[i] is None]
            self._announce(None, out, batch, fired)
        for offer in self.additions.take_waiting():
            self._add_players(offer, out)
        self._swap_refold(out)
        out.refold = out.refold or self._refold_due()     # a roster_added folded while this batch was on its way
        out.tick = True
        return out

    def logged(self, items: Logged) -> Output:
        """The log read back: other stations' events, and this station's queued ones delivered."""
        out = Output()
        if self.batcher.in_flight is not None:
            self.buffer += items            # folded together with the batch in flight
            return out
        self._fold(items, out)
        out.tick = True
        return out

    def delivered(self, result: Committed) -> Output:
        """The local queue was stored but the batch after it failed: fold what the queue's delivery read back."""
        out = Output()
        self._delivered(result, out)
        if result.delivered and self.batcher.in_flight is None:
            items, self.buffer = self.buffer, []
            self._fold(items, out)
        return out

    def _withdraw(self, batch: Batch, indexes: list[int]) -> None:
        tokens = [batch.items[i].token for i in indexes]
        self._refolded(self.fold.withdraw([t for t in tokens if t is not None]))

    def _delivered(self, result: Committed, out: Output) -> None:
        if result.withdrawn:
            self._refolded(self.fold.withdraw(result.withdrawn))
            out.publish = True
        self.buffer += result.delivered

    def _fold(self, items: Logged, out: Output) -> Confirmed:
        if not items:
            return Confirmed()
        fold = self.fold
        fold.defer_deep = True          # a late event before its checkpoints: folded in the background (refold_job)
        now = self.clock.now_ms()
        for s, _tok in items:
            self.intake.logged(s, now)
        if self.refolding is not None:
            self.refolding += items
        to_fold = items
        if self.folded_upto:            # folded again: what its fold read is in the fold already
            to_fold = [(s, tok) for s, tok in items if s.seq > self.folded_upto]
            if len(to_fold) == len(items):
                self.folded_upto = 0
        confirmed = fold.confirm(to_fold, self.authority.may_fire) if to_fold else Confirmed()
        self.publisher.note([StoredView(s.seq, s.wall, s.event, s.radio.via if s.radio else None) for s, _t in items])
        self.coverage.note([s for s, _t in items], out)
        self._refolded(confirmed)
        if confirmed.corrections:
            self.batcher.correct(confirmed.corrections)
            if late_news(confirmed.corrections, to_fold):
                out.alarms.append(late_report_alarm(fold.state, confirmed.corrections, now))
        self._announce(confirmed, out)
        out.stored = max(s.seq for s, _t in items)
        out.publish = True
        self.additions.note((s.event for s, _t in items), fold.behind)
        out.refold = self._refold_due()
        return confirmed

    def _acknowledge(self, batch: Batch, indexes: Iterable[int], verdicts: dict[int, list], out: Output,
                     again: AbstractSet[int] = frozenset()) -> None:
        for i in indexes:
            report = batch.reports[i]
            if report is None:
                continue
            self.intake.stored(report)
            out.acks += report.acks
            report.acks = []
            if isinstance(report.answer, FormAnswer):
                out.answers.append(form_verdict(report.answer, verdicts.get(i, ()), i in again))
            elif report.answer is not None:
                out.acks.append(verdict(report.answer, verdicts.get(i, ()), self.intake.mesh.language))
            report.answer = None

    def _refolded(self, confirmed: Confirmed) -> None:
        if confirmed.refolded:
            self.publisher.refolded(self.fold)

    def _announce(self, confirmed: Confirmed | None, out: Output, batch: Batch | None = None,
                  fired: Iterable[Event] = ()) -> None:
        """What a game master must see at once, once it is stored: STOPPs, deaths, deaths undone."""
        state = self.fold.state
        events = [*(confirmed.applied if confirmed is not None else ()), *fired]
        for event in events:
            if event.type == "stopp_called" and event.data["stopp"] in state.active_stopps:
                sv = stopp_view(state, event.data["stopp"])
                out.stopps.append(sv)
                out.alarms.append(stopp_alarm(state, sv, event.t))
            elif event.type == "stopp_overdue":
                out.alarms.append(stopp_overdue_alarm(event))
        deaths = list(confirmed.deaths) if confirmed is not None else []
        if batch is not None and confirmed is None:
            deaths += batch.deaths
        # One burst, one announcement: 2,000 deaths sent one by one were 2,000 events the window took in one go.
        out.died += [character_view(state, badge) for _t, badge, _cause, _source in deaths if badge in state.characters]

    # -- storage and the timer lock ----------------------------------------------------------------
    def storage_failed(self, message: str) -> Output:
        out = Output()
        if message != self.storage_error:
            self.storage_error = message
            out.alarms.append(Alarm("storage:write", "storage", message, self.fold.state.t))
        # Players waiting for the batch that cannot be stored: told now, not left waiting.
        for waiting in self.additions.take_waiting():
            out.roster.append(RosterAnswer(waiting.request, False, (), 0, (not_storing(self.storage_error),)))
        return out

    def storage_recovered(self) -> Output:
        out = Output()
        if self.storage_error is not None:
            self.storage_error = None
            out.alarms.append(Alarm("storage:ok", "storage", translate("alarms", "the game is being stored again"),
                                    self.fold.state.t))
        return out

    def lock_acquired(self, epoch: int) -> None:
        """The timer lock is this station's (session ``epoch``): the log is read up to now, then ``caught_up``."""
        self.authority.acquired(epoch)

    def caught_up(self, epoch: int) -> Output:
        out = Output()
        if self.authority.caught_up(epoch):
            out.timers, out.tick = OWNER, True         # what fell due while the previous owner was gone
            self.take_timers(out)
        return out

    def take_timers(self, out: Output) -> None:
        """This station runs the rule timers from now: what fell due while none did, or the station before fired
        late, is folded where it fell due (``Fold.repair``) and stored; then every timer runs again (refold_job)."""
        self.additions.stale = True         # (the station before may have died before it stored its run)
        out.refold = self._refold_due()     # (a fold behind fires nothing until this refold is swapped in)
        deaths_before = set(self.fold.state.deaths)
        fired = self.fold.repair()
        state = self.fold.state
        out.died += [character_view(state, badge) for d in state.deaths if d not in deaths_before
                     for _t, badge, _cause, _source in (d,) if badge in state.characters]
        if fired.corrections:
            self.batcher.correct(fired.corrections)
            self.publisher.refolded(self.fold)
            if late_news(fired.corrections):
                out.alarms.append(late_report_alarm(self.fold.state, fired.corrections, self.clock.now_ms()))
            out.publish = out.tick = True

    def lock_lost(self, state: str) -> Output:
        self.authority.lost(state)
        return Output(timers=state)

    # -- the game's roster ---------------------------------------------------------------------------
    def _add_players(self, cmd: cmds.AddPlayers, out: Output) -> None:
        if self.stopping:
            out.roster.append(RosterAnswer(cmd.request, False, (), 0, (translate("roster", "the game is not open"),)))
            return
        answer, added = self.additions.offer(cmd, fold=self.fold, store=self.store, storage_error=self.storage_error,
                                             busy=self.batcher.in_flight is not None or bool(self.buffer))
        if added is not None:
            self._receive(added, out)
        if answer is not None:
            out.roster.append(answer)

    def _refold_due(self) -> bool:
        """A roster_added was folded and nothing of this station is on its way: fold the game again."""
        return (self.additions.stale and self.refolding is None and self._new_fold is None
                and self.batcher.in_flight is None and not self.batcher.corrections and not self.fold.provisional)

    def refold_job(self, pause: Callable[[], None] | None = None) -> Callable[[], Fold]:
        """The refold (``Additions.job``, resting at ``pause``) for another thread, its fold to ``refolded``."""
        self.refolding, self._viewed = [], None
        job = self.additions.job(self.store.open_fold, self.authority.may_fire, pause)

        def refold() -> Fold:           # its characters viewed too: read at the swap, once this thread is done
            self._viewed = viewed(fold := job(), pause)
            return fold
        return refold

    def busy(self) -> bool:
        """Live work on its way: a batch to store, events stored to fold (a background refold rests meanwhile)."""
        return self.batcher.busy or bool(self.buffer)

    def refolded(self, fold: Fold | BaseException) -> Output:
        """The refold's result (a fold, or what went wrong): swapped in as soon as nothing is on its way."""
        out = Output()
        if isinstance(fold, BaseException):
            log.error("folding the game again over its new roster: %s", fold)
            self.refolding = None
            self.additions.stale = True         # the next roster_added, or a restart, folds it
            return out
        self._new_fold = fold
        self._swap_refold(out)
        return out

    def _swap_refold(self, out: Output) -> None:
        fold = self._new_fold
        if fold is None or self.batcher.in_flight is not None or self.batcher.corrections or self.fold.provisional:
            return
        upto = max(fold.index.seq, default=0)
        since = [(s, None) for s, _t in (self.refolding or ()) if s.seq > upto]
        self._new_fold, self.refolding = None, None
        rerun, fold.rerun = fold.rerun, []
        if rerun and not self.authority.may_fire:   # its timers ran under a lock lost since: again, without
            self.additions.stale, out.refold, out.retired = True, True, fold
            return
        gc.unfreeze()                   # the old fold, frozen at opening, becomes garbage the collector sees
        fold.defer_deep = True          # an event of ``since`` before its checkpoints: folded again in the background
        confirmed = fold.confirm(since, self.authority.may_fire) if since else Confirmed()
        self.additions.note((), fold.behind)
        confirmed.corrections = rerun + confirmed.corrections
        out.retired, self.fold = self.fold, fold
        self.folded_upto = upto         # the storage writer may still deliver events the new fold has read
        gc.freeze()                     # (no collection here: only the GUI thread collects, ui/collector.py)
        self.publisher.refolded(fold, anew=True, ready=self._viewed)
        if confirmed.corrections:
            self.batcher.correct(confirmed.corrections)
        out.publish = out.tick = True   # and the deadlines of the new players' earlier events that fell due
        out.refold = self._refold_due()

    # -- over time -------------------------------------------------------------------------------------
    def publish(self) -> StateDelta:
        """The delta due: what changed since the last one, at the game's time now, with the radio's view."""
        delta = self.publisher.delta(self.fold)
        return delta._replace(t=max(delta.t, self.clock.now_ms()), radio=self.intake.radio_view(),
                              coverage=self.coverage.take())

    def check_silence(self) -> Output:
        out = Output()
        self.intake.check_silence(self.clock.now_ms(), out)
        return out

    def flush_flood(self) -> Output:
        out = Output()
        self.intake.flush_flood(out)
        return out

    def stop(self) -> None:
        """Nothing more is taken in (what waits is still stored); reports heard from now on are not acknowledged."""
        self.stopping = True

    def stats(self) -> dict[str, Any]:
        """The radio counters and the engine's health, for ``headless --stats-json`` and the radio panel."""
        late = sorted(self.batcher.lateness_ms)
        def pct(p: float) -> float:
            return round(late[min(len(late) - 1, int(p * len(late)))], 3) if late else 0.0

        health = {"fired": self.batcher.fired, "late_p50_ms": pct(0.5), "late_p99_ms": pct(0.99),
                  "late_max_ms": round(late[-1], 3) if late else 0.0, "pending": len(self.fold.schedule),
                  "unstored": self.batcher.unstored(), "timers": self.authority.state if self.authority else ALONE,
                  "queued": self.queued, "dropped_deadlines": self.dropped_deadlines,
                  "doubled_deadlines": self.doubled_deadlines, "waiting": self.batcher.waiting}
        return {"health": health, **self.intake.stats()}
