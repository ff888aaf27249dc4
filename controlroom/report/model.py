"""The figures of a post-game report, folded from a game's log (pure Python, no Qt).

One pass over the stored events, through the same ``GameState`` the timer core
and ``controlroom replay`` use, so every figure here is the rules' own: a death
is counted when the rules let it happen, not when a marshal reported it.  Each
event is attributed to the scenario in force when it was folded; a report for
one scenario counts only that scenario's events.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from controlroom.collecting import no_collection
from controlroom.game.character import UNCONSCIOUS
from controlroom.game.clock import format_time
from controlroom.game.events import Event
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.game.views import side_counts
from controlroom.i18n import translate
from controlroom.rules.profile import RulesProfile

# Events about one character's body: each is a row of the casualty list.
CASUALTY_TYPES = frozenset((
    "strike", "big_stone", "knocked_out", "down", "bound", "cared_for", "care_ended", "strenuous",
    "bandage_removed", "healer_touch", "died", "permanent_kill", "valhalla_checkin", "respawned",
    "woke", "hp_regained",
))
SIEGE_LOSSES = ("destroyed", "captured")
WHOLE_GAME = None
_DIGITS = re.compile(r"(\d+)")


class ReportCancelled(Exception):  # noqa: N818 - a cancellation, not an error
    """The user cancelled the export."""


class UnknownScenario(ValueError):  # noqa: N818 - a ValueError named for its case
    """A report was asked for a scenario the game never started."""


class CasualtyRow(NamedTuple):
    """One event about a character (the player's name, side and group are in the player's row)."""

    seq: int
    t: int
    wall: int
    badge: int
    type: str
    data: Mapping[str, Any]
    source: str
    scenario: str
    counted: bool           # the rules applied it (False: a rule warning, see ``note``)
    note: str


@dataclass(slots=True)
class PlayerRow:
    badge: int
    name: str
    side: str
    group: str
    cls: str
    deaths: int = 0
    knockouts: int = 0
    fell: int = 0           # times brought to 0 hit points (unconscious, bleeding out)
    healed: int = 0         # times a healer's touch brought them back
    touches_used: int = 0   # healing touches this player gave as a healer
    valhalla: int = 0       # check-ins at Valhalla
    condition: str = ""     # at the end of the report's span


FIGURES = ("deaths", "knockouts", "fell", "healed", "touches_used", "valhalla")


@dataclass(slots=True)
class Tally:
    """Sums of the players' figures for one side or one group."""

    side: str
    group: str
    players: int = 0
    deaths: int = 0
    knockouts: int = 0
    fell: int = 0
    healed: int = 0
    touches_used: int = 0
    valhalla: int = 0

    def add(self, p: PlayerRow) -> None:
        self.players += 1
        for f in FIGURES:
            setattr(self, f, getattr(self, f) + getattr(p, f))


@dataclass(slots=True)
class StoppRow:
    id: str
    called: int
    wall: int
    lifted: int | None
    caller: int | None
    caller_name: str
    reason: str
    trivial: bool
    lat: float | None
    lon: float | None
    groups: tuple[str, ...]
    covered: int
    reported_by: str
    overdue: bool
    place: str = ""         # the field map's nearest named feature and grid square ("" without a map or places)

    @property
    def duration(self) -> int | None:
        return None if self.lifted is None else self.lifted - self.called

    @property
    def where(self) -> str:
        parts = []
        if self.lat is not None and self.lon is not None:
            parts.append(f"{self.lat:.5f}, {self.lon:.5f}")
        if self.groups:
            parts.append(translate("report", "groups {groups}").format(groups=", ".join(self.groups)))
        return "; ".join(parts) or translate("report", "the whole field")


@dataclass(slots=True)
class SiegeLoss:
    t: int
    wall: int
    engine: str
    side: str
    status: str
    lat: float | None
    lon: float | None
    reported_by: str
    place: str = ""         # as StoppRow.place


@dataclass(slots=True)
class ValhallaRow:
    badge: int
    name: str
    side: str
    group: str
    deaths: int
    checkins: int
    first: int
    last: int


@dataclass(slots=True)
class LootRow:
    looter: int
    looter_name: str
    looter_side: str
    owner: int
    owner_name: str
    owner_side: str
    items: tuple[str, ...]
    without_consent: bool


@dataclass(slots=True)
class WarningRow:
    seq: int
    t: int
    type: str
    badge: int | None
    code: str
    message: str


@dataclass(slots=True)
class CorrectionRow:
    """A report taken back by a game master (the retraction's own log number and time), with the reason."""

    seq: int
    t: int
    wall: int | None
    retracted: int                  # the log number of the wrong report
    what: str                       # the wrong report in words ("" when it is not in the log read)
    reason: str
    by: str


@dataclass(slots=True)
class Report:
    game: str
    rules: str
    scope: str                              # "the whole game" or "scenario NAME"
    scenario: str | None
    scenarios: list[str]
    first_wall: int | None
    last_wall: int | None
    t_end: int
    events: int
    casualties: list[CasualtyRow] = field(default_factory=list)
    players: list[PlayerRow] = field(default_factory=list)
    stopps: list[StoppRow] = field(default_factory=list)
    siege_losses: list[SiegeLoss] = field(default_factory=list)
    valhalla: list[ValhallaRow] = field(default_factory=list)
    loot: list[LootRow] = field(default_factory=list)
    warnings: list[WarningRow] = field(default_factory=list)
    corrections: list[CorrectionRow] = field(default_factory=list)
    deaths_over_time: list[tuple[int, str]] = field(default_factory=list)   # (t, side), in time order
    end_counts: dict[str, dict[str, int]] = field(default_factory=dict)     # per side, at the end of the log
    marshals: dict[int, str] = field(default_factory=dict)                  # device id -> who carries it
    field_map: object = None        # report.field_map.FieldMap: casualties on the game's map (None: no map)
    coverage: object = None         # report.coverage_page.CoveragePage: the radio coverage (None: no radio)

    @property
    def date(self) -> str:
        """The game's date (of its first stored event), as the organisers know it."""
        if self.first_wall is None:
            return translate("report", "no events")
        first, last = (datetime.fromtimestamp(w / 1000).date()
                       for w in (self.first_wall, self.last_wall or self.first_wall))
        return first.isoformat() if first == last else f"{first.isoformat()} to {last.isoformat()}"

    def sides(self) -> list[Tally]:
        return _tally(self.players, by_group=False)

    def groups(self) -> list[Tally]:
        return _tally(self.players, by_group=True)

    def totals(self) -> Tally:
        total = Tally("all sides", "")
        for p in self.players:
            total.add(p)
        return total


def _tally(players: Iterable[PlayerRow], by_group: bool) -> list[Tally]:
    out: dict[tuple[str, str], Tally] = {}
    for p in players:
        key = (p.side, p.group if by_group else "")
        t = out.get(key)
        if t is None:
            t = out[key] = Tally(*key)
        t.add(p)
    return [out[k] for k in sorted(out)]


def natural(text: str) -> tuple:
    """A sort key that puts "Player 9" before "Player 10"."""
    return tuple(int(part) if part.isdigit() else part.casefold() for part in _DIGITS.split(text))


def wall_text(wall_ms: int | None) -> str:
    """A wall time in the laptop's local time zone, to the second."""
    if wall_ms is None:
        return ""
    return datetime.fromtimestamp(wall_ms / 1000).strftime("%Y-%m-%d %H:%M:%S")


def reporter(source: str, marshals: Mapping[int, str]) -> str:
    """Who reported an event, in words: a marshal by name, a tracker by what it is on, a game master, a rule
    timer (``marshals``: ``log_read.marshal_names``)."""
    kind, _, ident = source.partition(":")
    if kind == "timer":
        return translate("report", "rule timer")
    if kind == "gm":
        if ident:
            return translate("report", "game master {name}").format(name=ident)
        return translate("report", "game master")
    if kind == "script":
        return translate("report", "scenario script")
    if kind in ("marshal", "tracker"):
        device = (translate("report", "marshal handset {device}") if kind == "marshal"
                  else translate("report", "tracker {device}")).format(device=ident)
        name = marshals.get(int(ident)) if ident.isdigit() else None
        if not name:
            return device
        # A handset by who carries it, "Mari Saar (marshal handset 1002)"; a tracker by what it is on,
        # "tracker 3001 (Trebuchet 1)": the device in the report's words, the names as the game has them.
        return f"{name} ({device})" if kind == "marshal" else f"{device} ({name})"
    return source


def what_happened(kind: str, d: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """One event about a character, as a sentence fragment for the casualty list."""

    def who(badge):
        return f"{names.get(badge, 'badge')} ({badge})" if badge is not None else "someone"

    if kind == "strike":
        n = d.get("count", 1)
        return f"struck {n} time{'s' if n != 1 else ''}" + ("" if d.get("on_armour", True) else " (not on armour)")
    if kind == "big_stone":
        return "hit by a big stone on the shield (knocked out)" if d.get("on_shield") else "hit by a big stone"
    if kind == "knocked_out":
        return "knocked out"
    if kind == "down":
        return "down (0 hit points)"
    if kind == "bound":
        return "wounds bound" + (f" by {who(d['by'])}" if d.get("by") is not None else "")
    if kind == "cared_for":
        return f"cared for by {who(d['carer'])}"
    if kind == "healer_touch":
        return f"healed by {who(d['healer'])}"
    if kind == "died":
        return {"bled_out": "died (bled out)", "reported": "died", "permanent_kill": "killed permanently"}.get(
            d.get("cause", "reported"), "died")
    if kind == "permanent_kill":
        return "killed permanently" + (f" by {who(d['by'])}" if d.get("by") is not None else "")
    return {
        "care_ended": "care ended", "strenuous": "strenuous action (bandage opened)",
        "bandage_removed": "bandage removed", "valhalla_checkin": "checked in at Valhalla",
        "respawned": "respawned", "woke": "woke up", "hp_regained": "regained a hit point",
    }.get(kind, kind.replace("_", " "))


def build_report(
    game: str,
    members: Iterable[Member],
    profile: RulesProfile,
    items: Iterable[tuple[int, int, Event]],
    *,
    scenario: str | None = WHOLE_GAME,
    marshals: Mapping[int, str] | None = None,
    engine_sides: Mapping[str, str] | None = None,
    total: int = 0,
    progress: Callable[[int, int], bool] | None = None,
    retracted: Mapping[int, Event] | None = None,
) -> Report:
    """Fold the log once and gather every figure of the report (see ``_build``).

    ``retracted`` holds the reports corrections took back (by log number), so
    that the list of corrections says what each was; it may be filled while
    ``items`` is read, as long as a report comes before its retraction.
    """
    # Folding makes hundreds of thousands of small objects that live on: the
    # cyclic garbage collector would walk them again and again.
    with no_collection():
        return _build(game, members, profile, items, scenario, marshals or {}, engine_sides or {}, total, progress,
                      retracted if retracted is not None else {})


def _build(game, members, profile, items, scenario, marshals, engine_sides, total, progress, retracted) -> Report:
    """Fold the log once and gather every figure of the report.

    ``items`` are the stored events as (seq, wall ms, event) in log order,
    retracted ones left out.  ``progress(done, total)`` is called every few
    thousand events; when it returns False the export stops with
    ReportCancelled.
    """
    state = GameState(list(members), profile)
    chars = state.characters
    players = {b: PlayerRow(b, ch.member.name, ch.member.side, ch.member.group, ch.member.cls)
               for b, ch in chars.items()}
    rep = Report(game, profile.name_in(), translate("report", "the whole game") if scenario is None
                 else translate("report", "scenario {name}").format(name=scenario), scenario,
                 [], None, None, 0, 0)
    rep.marshals = dict(marshals)
    scenarios: list[str] = []
    in_scope = scenario is None
    scoped_stopps: dict[str, tuple[int, str]] = {}      # id -> (wall, source) of the call
    scoped_loot: set[tuple[int, int]] = set()
    valhalla: dict[int, list[int]] = {}
    casualties = rep.casualties
    deaths_over_time = rep.deaths_over_time
    apply = state.apply
    casualty_types = CASUALTY_TYPES
    done = 0
    wall = None
    # Each character's counters as last seen: after every event, the characters
    # it touched (the rules mark them dirty) are compared with these, so that a
    # fall caused by a trivial STOPP or a healer's used touch is counted too.
    seen = {b: (0, 0, 0, ch.condition, 0) for b, ch in chars.items()}
    take_dirty = state.take_dirty
    for seq, wall, ev in items:
        if rep.first_wall is None:
            rep.first_wall = wall
        type_ = ev.type
        data = ev.data
        warnings = apply(ev)
        done += 1
        if type_ == "scenario_started":
            scenarios.append(data["name"])
            in_scope = scenario is None or data["name"] == scenario
        elif progress is not None and not done & 4095 and not progress(done, total):
            raise ReportCancelled()
        dirty = take_dirty()[0]
        for b in dirty:
            ch = chars[b]
            now = (ch.deaths, ch.knockouts, ch.healed, ch.condition, ch.touches_used)
            was = seen[b]
            if now == was:
                continue
            seen[b] = now
            if in_scope:
                p = players[b]
                if now[0] > was[0]:
                    p.deaths += now[0] - was[0]
                    deaths_over_time.append((state.t, p.side))
                p.knockouts += now[1] - was[1]
                p.healed += now[2] - was[2]
                if now[3] == UNCONSCIOUS and was[3] != UNCONSCIOUS:
                    p.fell += 1
                if now[4] > was[4]:         # (touches start again at 0 with each scenario)
                    p.touches_used += now[4] - was[4]
        if not in_scope:
            continue
        rep.events += 1
        if warnings:
            rep.warnings.extend(WarningRow(seq, w.t, w.type, w.badge, w.code, w.message) for w in warnings)
        ch = chars.get(data.get("badge")) if type_ in casualty_types else None
        if ch is not None:
            badge = ch.member.badge
            if type_ == "valhalla_checkin" and not warnings:
                players[badge].valhalla += 1
                valhalla.setdefault(badge, []).append(state.t)
            casualties.append(CasualtyRow(
                seq, ev.t, wall, badge, type_, data, ev.source, state.scenario.name, not warnings,
                "; ".join(w.message for w in warnings) if warnings else "",
            ))
        elif type_ == "stopp_called" and not warnings:
            scoped_stopps[data["stopp"]] = (wall, ev.source)
        elif type_ == "siege_status" and data["status"] in SIEGE_LOSSES:
            rep.siege_losses.append(SiegeLoss(ev.t, wall, data["engine"], engine_sides.get(data["engine"], ""),
                                              data["status"], data.get("lat"), data.get("lon"),
                                              reporter(ev.source, marshals)))
        elif type_ == "retracted":
            wrong = retracted.get(data["seq"])
            what = ""
            if wrong is not None:
                badge = wrong.data.get("badge")
                member = chars[badge].member if badge in chars else None
                what = what_happened(wrong.type, wrong.data, {b: c.member.name for b, c in chars.items()}) + (
                    f": {member.name} ({badge})" if member else (f": badge {badge}" if badge is not None else ""))
                what = f"{format_time(wrong.t)} {what} from {reporter(wrong.source, marshals)}"
            rep.corrections.append(CorrectionRow(seq, ev.t, wall, data["seq"], what, data.get("reason") or "",
                                                 reporter(ev.source, marshals)))
        elif type_ == "looted" and not any(w.code == "unknown_badge" for w in warnings):
            scoped_loot.add((data["by"], data["badge"]))
    rep.last_wall = wall
    if progress is not None and not progress(done, total or done):
        raise ReportCancelled()
    if scenario is not None and scenario not in scenarios:
        known = ", ".join(repr(s) for s in dict.fromkeys(scenarios)) or "none"
        raise UnknownScenario(f"the game has no scenario {scenario!r} (its scenarios: {known})")
    rep.scenarios = list(dict.fromkeys(scenarios))
    rep.t_end = state.latest
    for b, p in players.items():
        p.condition = chars[b].condition
    rep.players = [players[b] for b in sorted(players)]
    rep.end_counts = side_counts(state)
    for sid, (called_wall, source) in scoped_stopps.items():
        s = state.stopps[sid]
        caller = chars.get(s.caller) if s.caller is not None else None
        rep.stopps.append(StoppRow(
            s.id, s.called, called_wall, s.lifted, s.caller,
            caller.member.name if caller else ("" if s.caller is None else f"badge {s.caller}"),
            s.reason, s.trivial, s.lat, s.lon, tuple(s.groups), len(s.covered), reporter(source, marshals),
            s.overdue_alerted,
        ))
    for b, times in valhalla.items():
        p = players[b]
        rep.valhalla.append(ValhallaRow(b, p.name, p.side, p.group, p.deaths, len(times), times[0], times[-1]))
    rep.valhalla.sort(key=lambda v: (v.side, natural(v.name), v.badge))
    for o in state.owed():
        if scenario is not None and (o.looter, o.owner) not in scoped_loot:
            continue
        lm, om = chars.get(o.looter), chars.get(o.owner)
        rep.loot.append(LootRow(
            o.looter, lm.member.name if lm else "", lm.member.side if lm else "",
            o.owner, om.member.name if om else "", om.member.side if om else "", o.items, o.without_consent,
        ))
    return rep


def deaths_per_side(report: Report) -> dict[str, list[tuple[int, int]]]:
    """Cumulative deaths over game time per side: (t, deaths so far) steps for the chart."""
    out: dict[str, list[tuple[int, int]]] = {side: [(0, 0)] for side in sorted({p.side for p in report.players})}
    counts: Counter = Counter()
    for t, side in report.deaths_over_time:
        counts[side] += 1
        out.setdefault(side, [(0, 0)]).append((t, counts[side]))
    for steps in out.values():
        steps.append((max(report.t_end, steps[-1][0]), steps[-1][1]))
    return out


def duration_text(ms: int | None) -> str:
    return translate("report", "not lifted") if ms is None else format_time(ms)
