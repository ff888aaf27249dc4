"""GameState: the fold of the event log into every character's condition and rule deadlines.

Time.  Events carry ``t``, milliseconds on the game's timeline.  Every
character also has a game clock of its own that stands still while a STOPP
covers them: ``clock = t - frozen_ms`` (minus the running stop, if any).  Rule
deadlines are kept on the character's clock, so a STOPP of length L moves every
deadline of the characters it covers by exactly L and no other.

Forbidden events (a sixth healer's touch, a knock-out on a helmet, a strike on
the dead) stay in the log; folding them changes nothing and records a
RuleWarning instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from controlroom.game.character import (  # noqa: F401  (re-exported: the state's vocabulary)
    ACTIVE,
    CONDITIONS,
    DEAD,
    DIES,
    KNOCKED_OUT,
    REGAINS_HP,
    RESPAWNS,
    STOPP_OVERDUE,
    UNCONSCIOUS,
    WAKES,
    Character,
    Deadline,
    RuleWarning,
    Scenario,
    Stopp,
)
from controlroom.game.events import SOURCE_TIMER, Event, make_event
from controlroom.game.field import QUIET, FieldReports
from controlroom.game.fold_parts import STATE_SLOTS
from controlroom.game.inspections import InspectionLedger
from controlroom.game.loot import LootLedger
from controlroom.game.roster import Member, Roster
from controlroom.game.rulings import Rulings
from controlroom.game.stopps import DURING_STOPP, StoppRules
from controlroom.game.words import condition_text, event_text, role_text
from controlroom.game.words import who_text as _who
from controlroom.i18n import QT_TRANSLATE_NOOP, Text, joined, language, wording
from controlroom.rules.combat import Vitals, big_stone, knockout_refusal, strike
from controlroom.rules.profile import RulesProfile, default_profile

_NONE: list[RuleWarning] = []      # shared "no warnings" answer; never appended to
NO_INTERACTION = QT_TRANSLATE_NOOP("warnings",
                                   "an unconscious or dead character cannot interact with others in any way")


class GameState(FieldReports, StoppRules, LootLedger, InspectionLedger, Rulings):
    """Characters, scenario, STOPPs, Valhalla and warnings, folded from events in order."""

    __slots__ = STATE_SLOTS      # (fold_parts.py: why slots)
    # Each event type's handler, set below the class.
    _handlers: ClassVar[dict[str, Callable[[GameState, Event], None]]]

    def __init__(self, roster: Roster | Iterable[Member], profile: RulesProfile | None = None) -> None:
        self.profile = profile or default_profile()
        if not isinstance(roster, Roster):
            roster = Roster.of(roster)
        self.roster = roster
        # Hit and armour points depend only on class, costume and overrides: computed once for each such kind.
        points: dict[tuple, tuple] = {}
        characters: dict[int, Character] = {}
        profile = self.profile
        for b, m in roster.members.items():
            kind = (m.cls, m.hp, m.helmet, m.armour, m.inadequate, m.ap)
            got = points.get(kind)
            if got is None:
                got = points[kind] = (m.max_hp(profile), m.armour_points(profile))
            characters[b] = Character(m, profile, *got)
        self.characters = characters
        # The time the event folded last counts at; the latest time of any event, and of a report (not a deadline).
        self.t = self.latest = self._floor = 0
        self.events_applied = 0
        self.scenario = Scenario()
        self.scenarios: list[Scenario] = []
        self.stopps: dict[str, Stopp] = {}
        self.active_stopps: dict[str, Stopp] = {}
        self.deaths: list[tuple[int, int, str, str]] = []      # (t, badge, cause, source)
        self.valhalla: list[tuple[int, int]] = []              # (t, badge) check-ins
        self.warnings: list[RuleWarning] = []
        self.retractions: list[tuple[int, int, str | None]] = []   # (t, retracted seq, reason)
        self.acknowledged: set[str] = set()                        # alarm ids a game master saw
        self._init_field()
        self._init_loot()
        self._init_inspections()
        self._dirty, self._dirty_stopps = set[int](), set[str]()
        self._event: Event | None = None

    # -- folding ---------------------------------------------------------
    def apply(self, event: Event) -> list[RuleWarning]:
        """Fold one event.  Returns the rule warnings it raised (also kept in ``warnings``).

        A report older than the last report folded counts at that one's time (the log's order is the game's).
        A deadline counts at its own time, where the rules fire it, and moves no report after it.
        """
        t, type_, data, source = event
        if t > self.latest:
            self.latest = t
        if source != SOURCE_TIMER:
            if t > self._floor:
                self._floor = t
            t = self._floor
        self.t = t
        self._event = event
        quiet = QUIET.get(type_)
        if quiet is not None:           # a position or a heartbeat: no character, no warning
            quiet(self, data, source)
            self.events_applied += 1
            return _NONE
        warnings = self.warnings
        before = len(warnings)
        handler = self._handlers.get(type_)
        if handler is None:
            self._warn("unknown_type", wording("warnings", "unknown event type {type!r}", type=type_))
        else:
            badge = data.get("badge")
            if badge is not None and badge not in self.characters:
                self._warn("unknown_badge", wording("warnings", "badge {badge} is not in the roster",
                    badge=badge))
            else:
                if self.active_stopps and type_ in DURING_STOPP:
                    self._during_stopp(event)
                handler(self, event)
        self.events_applied += 1
        return warnings[before:] if len(warnings) > before else _NONE

    def apply_late(self, event: Event) -> None:
        """Fold a field report (position, headcount...) that happened before events folded already."""
        self._event = event
        self._fold_late(event)
        self.events_applied += 1

    def take_dirty(self) -> tuple[set[int], set[str]]:
        """Badges and STOPPs whose deadlines may have changed since the last call."""
        badges, stopps = self._dirty, self._dirty_stopps
        self._dirty, self._dirty_stopps = set(), set()
        return badges, stopps

    def _warn(self, code: str, message: Text) -> None:
        """A rule warning of the event folded, in the language spoken now (said when read; its wording kept)."""
        ev = self._event
        assert ev is not None
        self.warnings.append(RuleWarning(self.events_applied, ev.t, ev.type, ev.data.get("badge"), code, None,
                                         message.packed(), language()))

    def _char(self, ev: Event) -> Character:
        badge = ev.data["badge"]
        self._dirty.add(badge)
        return self.characters[badge]

    def _living(self, ev: Event) -> Character | None:
        badge = ev.data["badge"]
        self._dirty.add(badge)
        ch = self.characters[badge]
        if ch.condition == DEAD:
            self._warn("target_dead", wording("warnings", "{who} is dead: {what} does not apply",
                who=_who(ch), what=event_text(ev.type)))
            return None
        return ch

    def _actor(self, badge: int, role: str) -> Character | None:
        """The character who binds, cares, heals, kills or loots, if the rules let them act (else a warning)."""
        actor = self.characters.get(badge)
        if actor is None:
            self._warn("unknown_badge", wording("warnings", "{role} badge {badge} is not in the roster",
                role=role_text(role), badge=badge))
            return None
        if actor.condition != ACTIVE:
            self._warn(f"{role}_not_conscious", wording("warnings", "{role} {who} is {condition}: {rule}",
                role=role_text(role), who=_who(actor), condition=condition_text(actor.condition),
                rule=wording("warnings", NO_INTERACTION)))
            return None
        self._dirty.add(badge)
        return actor

    # -- transitions shared by several events ----------------------------
    def _fall(self, ch: Character) -> None:
        """Hit points reached 0: unconscious and dying (a fresh 10 minutes)."""
        c = ch.clock(self.t)
        ch.hp = 0
        if ch.condition != UNCONSCIOUS:
            ch.condition = UNCONSCIOUS
            ch.dying_at = c + self.profile.dying_ms
        ch.wake_at = None
        self._unbind(ch)
        self._release_patients(ch)

    def _unbind(self, ch: Character) -> None:
        ch.bound = False
        ch.regen_at = None
        self._release_carer(ch)

    def _release_carer(self, ch: Character) -> None:
        if ch.carer is not None:
            carer = self.characters[ch.carer]
            carer.patients.discard(ch.badge)
            self._dirty.add(carer.badge)
            ch.carer = None
            self._set_regen_rate(ch, self.profile.regen_bound_ms)

    def _release_patients(self, carer: Character) -> None:
        if not carer.patients:          # most characters care for nobody
            return
        for badge in sorted(carer.patients):
            patient = self.characters[badge]
            patient.carer = None
            self._set_regen_rate(patient, self.profile.regen_bound_ms)
            self._dirty.add(badge)
        carer.patients.clear()

    def _set_regen_rate(self, ch: Character, period: int) -> None:
        """Change the regeneration rate, keeping the share of the current point already healed."""
        if ch.regen_at is None or ch.regen_period == period:
            ch.regen_period = period
            return
        c = ch.clock(self.t)
        remaining = max(0, ch.regen_at - c)
        ch.regen_at = c + remaining * period // ch.regen_period
        ch.regen_period = period

    def _start_regen(self, ch: Character) -> None:
        if ch.bound and ch.hp < ch.max_hp and ch.regen_at is None:
            ch.regen_period = self.profile.regen_cared_ms if ch.carer else self.profile.regen_bound_ms
            ch.regen_at = ch.clock(self.t) + ch.regen_period

    def _die(self, ch: Character, cause: str) -> None:
        ch.hp = 0
        ch.condition = DEAD
        ch.deaths += 1
        ch.dying_at = ch.wake_at = None
        self._unbind(ch)
        self._release_patients(ch)
        if self.scenario.respawn and self.scenario.ended is None:
            ch.respawn_at = ch.clock(self.t) + self.scenario.respawn_ms
        assert self._event is not None
        self.deaths.append((self.t, ch.badge, cause, self._event.source))

    def _vitals(self, ch: Character) -> Vitals:
        return Vitals(ch.hp, ch.max_hp, ch.ap)

    def _take(self, ch: Character, v: Vitals) -> None:
        was_zero = ch.hp == 0
        ch.hp, ch.ap = v.hp, v.ap
        if ch.hp == 0:
            if not was_zero or ch.condition != UNCONSCIOUS:
                self._fall(ch)
        elif ch.bound:
            self._unbind(ch)        # fighting again: the wounds open

    # -- casualty events ---------------------------------------------------
    def _e_strike(self, ev: Event) -> None:
        ch = self._living(ev)
        if ch:
            self._take(ch, strike(self.profile, self._vitals(ch), ev.data["count"], ev.data["on_armour"]))

    def _e_big_stone(self, ev: Event) -> None:
        ch = self._living(ev)
        if not ch:
            return
        if ev.data["on_shield"]:
            if ch.condition != ACTIVE:
                self._warn("not_conscious", wording("warnings", "{who} is {condition}: cannot take a big stone on a "
                                                          "shield", who=_who(ch),
                                                                           condition=condition_text(ch.condition)))
                return
            ch.condition = KNOCKED_OUT
            ch.wake_at = ch.clock(self.t) + self.profile.big_stone_on_shield_ms
            ch.knockouts += 1
            self._release_patients(ch)
        else:
            self._take(ch, big_stone(self.profile, self._vitals(ch)))

    def _e_knocked_out(self, ev: Event) -> None:
        ch = self._living(ev)
        if not ch:
            return
        helmet = ev.data.get("helmet")
        if helmet is None:
            helmet = ch.member.helmet is not None
        refusal = knockout_refusal(self.profile, helmet, ev.data["saw_attacker"])
        if refusal:
            self._warn("knockout_refused", joined("{who}: {rule}", who=_who(ch), rule=wording("warnings", refusal)))
        elif ch.condition != ACTIVE:
            self._warn("not_conscious", wording("warnings", "{who} is already {condition}",
                who=_who(ch), condition=condition_text(ch.condition)))
        else:
            ch.condition = KNOCKED_OUT
            ch.wake_at = ch.clock(self.t) + self.profile.knockout_ms
            ch.knockouts += 1
            self._release_patients(ch)

    def _e_down(self, ev: Event) -> None:
        ch = self._living(ev)
        if ch and ch.condition != UNCONSCIOUS:
            self._fall(ch)

    def _e_bound(self, ev: Event) -> None:
        ch = self._living(ev)
        if not ch:
            return
        if ch.hp >= ch.max_hp:
            self._warn("no_wounds", wording("warnings", "{who} has all hit points: no wounds to bind",
                who=_who(ch)))
            return
        if ev.data.get("by") is not None and self._actor(ev.data["by"], "binder") is None:
            return
        if ch.condition == UNCONSCIOUS:
            ch.condition = ACTIVE
            ch.dying_at = None
        ch.bound = True
        self._start_regen(ch)

    def _e_cared_for(self, ev: Event) -> None:
        ch = self._living(ev)
        if not ch:
            return
        carer_badge = ev.data["carer"]
        if carer_badge == ch.badge:
            self._warn("self_care", wording("warnings", "{who} cannot care for themself", who=_who(ch)))
            return
        carer = self._actor(carer_badge, "carer")
        if carer is None:
            return
        if not ch.bound or ch.regen_at is None:
            self._warn("not_bound", wording("warnings", "{who} must be tended and bound before being cared "
                                                      "for", who=_who(ch)))
        elif ch.carer == carer_badge:
            return
        else:
            limit = self.profile.character_class(carer.member.cls).max_cared
            if limit and len(carer.patients) >= limit:
                self._warn("care_limit", wording("warnings", "{who} already cares for {limit}: a healer may care for "
                                                           "at most {limit} at once", who=_who(carer),
                                                                                             limit=limit))
                return
            self._release_carer(ch)
            ch.carer = carer_badge
            carer.patients.add(ch.badge)
            self._set_regen_rate(ch, self.profile.regen_cared_ms)

    def _e_care_ended(self, ev: Event) -> None:
        ch = self._living(ev)
        if ch:
            self._release_carer(ch)

    def _e_strenuous(self, ev: Event) -> None:
        ch = self._living(ev)
        if ch and ch.bound:
            self._unbind(ch)
            if ch.hp == 0:
                self._fall(ch)

    _e_bandage_removed = _e_strenuous

    def _e_healer_touch(self, ev: Event) -> None:
        ch = self._living(ev)
        if not ch:
            return
        healer = self.characters.get(ev.data["healer"])
        if healer is None:
            self._warn("unknown_badge", wording("warnings", "{role} badge {badge} is not in the roster",
                role=role_text("healer"), badge=ev.data["healer"]))
            return
        allowed = self.profile.character_class(healer.member.cls).healer_touches
        if allowed == 0:
            self._warn("not_a_healer", wording("warnings", "{who} is a {cls}, not a healer",
                who=_who(healer), cls=healer.member.cls))
        elif self._actor(healer.badge, "healer") is None:
            return
        elif healer.touches_used >= allowed:
            self._warn("touches_exhausted", wording("warnings", "healer {who} has used all {allowed} healing touches "
                                                              "of this scenario", who=_who(healer),
                                                                                         allowed=allowed))
        else:
            healer.touches_used += 1
            self._dirty.add(healer.badge)
            self._unbind(ch)
            ch.hp = ch.max_hp
            ch.condition = ACTIVE
            ch.dying_at = ch.wake_at = None
            ch.healed += 1

    def _e_died(self, ev: Event) -> None:
        ch = self._living(ev)
        if not ch:
            return
        cause = ev.data["cause"]
        if cause == "bled_out" and (ch.dying_at is None or ch.clock(self.t) < ch.dying_at):
            self._warn("stale_timer", wording("warnings", "{who} is not bleeding out at this time",
                who=_who(ch)))
            return
        self._die(ch, cause)

    def _e_permanent_kill(self, ev: Event) -> None:
        ch = self._living(ev)
        if not ch:
            return
        if ev.data.get("by") is not None and self._actor(ev.data["by"], "killer") is None:
            return
        counted, needed = ev.data.get("counted"), self.profile.permanent_kill_count_ms
        if counted is not None and counted * 1000 < needed:
            self._warn("kill_count_short", wording("warnings", "{who} was hacked for {counted:g} s counted aloud: a "
                                                             "permanent kill takes at least {needed:g} s, counted loud "
                                                             "and clear", who=_who(ch), counted=counted,
                                                                                 needed=needed / 1000))
            return
        self._die(ch, "permanent_kill")

    def _e_valhalla_checkin(self, ev: Event) -> None:
        ch = self._char(ev)
        if ch.condition != DEAD:
            self._warn("not_dead", wording("warnings", "{who} is not dead: only the dead report to "
                                                     "Valhalla", who=_who(ch)))
        elif ch.in_valhalla:
            self._warn("already_in_valhalla", wording("warnings", "{who} has already checked in at "
                                                                "Valhalla", who=_who(ch)))
        else:
            ch.in_valhalla = True
            self.valhalla.append((self.t, ch.badge))

    def _e_respawned(self, ev: Event) -> None:
        ch = self._char(ev)
        if ch.condition != DEAD:
            self._warn("not_dead", wording("warnings", "{who} is not dead: nothing to respawn", who=_who(ch)))
            return
        if ev.source == SOURCE_TIMER and (ch.respawn_at is None or ch.clock(self.t) < ch.respawn_at):
            self._warn("stale_timer", wording("warnings", "{who} is not due to respawn at this time",
                who=_who(ch)))
            return
        touches = ch.touches_used       # healer touches are counted per scenario, not per life
        ch.reset()
        ch.touches_used = touches

    # -- rule timers -----------------------------------------------------
    def _e_woke(self, ev: Event) -> None:
        ch = self._char(ev)
        if ch.condition != KNOCKED_OUT:
            self._warn("stale_timer", wording("warnings", "{who} is not knocked out", who=_who(ch)))
        elif ev.source == SOURCE_TIMER and (ch.wake_at is None or ch.clock(self.t) < ch.wake_at):
            self._warn("stale_timer", wording("warnings", "{who} is not due to wake at this time",
                who=_who(ch)))
        else:
            ch.condition = ACTIVE
            ch.wake_at = None

    def _e_hp_regained(self, ev: Event) -> None:
        ch = self._char(ev)
        c = ch.clock(self.t)
        if ch.condition == DEAD or ch.regen_at is None or c < ch.regen_at:
            self._warn("stale_timer", wording("warnings", "{who} is not due to regain a hit point",
                who=_who(ch)))
            return
        ch.hp += 1
        if ch.hp >= ch.max_hp:
            self._unbind(ch)        # healed: the bandage may come off
        else:
            ch.regen_at = c + ch.regen_period

    # -- deadlines ---------------------------------------------------------
    def deadlines_of(self, badge: int) -> list[Deadline]:
        """The pending rule deadlines of one character."""
        ch = self.characters[badge]
        c = ch.clock(self.t)
        out: list[Deadline] = []
        for kind, at in ((DIES, ch.dying_at), (WAKES, ch.wake_at), (REGAINS_HP, ch.regen_at),
                         (RESPAWNS, ch.respawn_at)):
            if at is not None:
                out.append(Deadline(kind, ch.due(at), max(0, at - c), badge=badge))
        return out

    def pending_deadlines(self) -> list[Deadline]:
        """Every pending rule deadline, soonest first (deadlines held by a STOPP last)."""
        out = [d for b in self.characters for d in self.deadlines_of(b)]
        out += [d for s in self.active_stopps if (d := self.stopp_deadline(s))]
        out.sort(key=lambda d: (d.due is None, d.due if d.due is not None else d.remaining, d.badge or 0))
        return out

    def deadline_event(self, d: Deadline) -> Event:
        """The event a rule timer records when deadline ``d`` falls due."""
        assert d.due is not None
        if d.kind == STOPP_OVERDUE:
            return make_event(d.due, "stopp_overdue", SOURCE_TIMER, stopp=d.stopp)
        kind = {DIES: "died", WAKES: "woke", REGAINS_HP: "hp_regained", RESPAWNS: "respawned"}[d.kind]
        extra = {"cause": "bled_out"} if d.kind == DIES else {}
        return make_event(d.due, kind, SOURCE_TIMER, badge=d.badge, **extra)


# Each event type's handler (``_e_<type>``), looked up once for the class: a table of bound methods in
# each state made it a reference cycle, which kept a replaced fold alive until a full collection.
GameState._handlers = {name[3:]: getattr(GameState, name) for name in dir(GameState) if name.startswith("_e_")}
