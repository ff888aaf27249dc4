"""The game day's verdict: what the field saw acknowledged, and what the rules make of it, against the stored game.

Pure functions over values read once from the stored game (``read_game``)
and the simulator's record of what the handsets saw acknowledged, so that a
test can spoil either one and see the check fail.

- every frame a handset saw acknowledged is stored, exactly once;
- every rule deadline is stored at most once (its identity: kind, whom, when;
  none taken back and fired again counts twice) and none is missing: folding
  the stored game on to the end fires nothing that fell due before it;
- the players' final states equal the reference: the stored reports folded by
  the rules alone, with every deadline fired at its own time;
- the report's deaths, Valhalla check-ins and STOPPs equal the reference's.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from controlroom.game.events import SOURCE_TIMER, Event
from controlroom.game.roster import Member
from controlroom.game.scheduler import Schedule, fire_due
from controlroom.game.state import GameState
from controlroom.store.timer_keys import timer_key

STATE_FIELDS = ("condition", "hp", "deaths", "in_valhalla")


@dataclass
class StoredGame:
    """What the checks read of a stored game: the roster, the log in fold order, the radio frames stored."""

    members: list[Member]
    profile: object
    rows: list[tuple[int, float, int, Event]]           # (seq, fold position, wall ms, event) in fold order
    frames: list[tuple[int, int]]                       # (device, counter) of every stored radio report
    retracted: set[int] = field(default_factory=set)


def read_game(store) -> StoredGame:
    """Read a game (a ``GameStore``) once for the checks."""
    rows = [(r.seq, r.pos if r.pos is not None else float(r.seq), r.wall, r.event) for r in store.log.rows()]
    frames = [(s.radio.device, s.radio.counter) for s in store.log.read() if s.radio is not None and not s.radio.via]
    return StoredGame(store.roster(), store.profile(), rows, frames, set(store.retracted()))


def frames_check(acked: list[tuple[int, int]], game: StoredGame) -> dict:
    """Every acknowledged frame stored exactly once: how many were acked, lost, stored twice."""
    stored = Counter(game.frames)
    keys = {tuple(k) for k in acked}
    return {"frames_stored": len(game.frames), "acked": len(keys),
            "lost": sum(1 for k in keys if stored[k] == 0),
            "doubled": sum(1 for n in stored.values() if n > 1)}


def deadlines_check(game: StoredGame, horizon: int) -> dict:
    """Deadlines stored once each, none missing up to ``horizon`` (game ms), and each the rules' own: the same
    kind, whom and time as the reference fires (its reports folded by the rules alone)."""
    fired = Counter(timer_key(ev) for seq, _p, _w, ev in game.rows
                    if ev.source == SOURCE_TIMER and ev.type != "retracted" and seq not in game.retracted)
    fired.pop(None, None)
    stored = _fold(game, timers_from_log=True, horizon=None)
    missing = fire_due(stored.state, stored.schedule, horizon)
    _fold(game, timers_from_log=False, horizon=horizon, fired=(rules := []))
    ruled = Counter(timer_key(ev) for ev in rules if ev.t <= horizon)
    before = {k for k in fired if int(k.rsplit("|", 1)[1]) <= horizon}      # (after it: may be fired or not yet)
    wrong = sorted(k for k in before if k not in ruled)
    unfired = sorted(k for k in ruled if k not in fired)
    return {"deadlines_fired": sum(fired.values()), "deadlines_doubled": sum(n - 1 for n in fired.values() if n > 1),
            "deadlines_missing": len(missing), "missing_examples": [timer_key(e) for e in missing[:5]],
            "deadlines_not_the_rules": len(wrong), "not_the_rules_examples": wrong[:5],
            "deadlines_the_rules_fire_unstored": len(unfired), "unstored_examples": unfired[:5],
            "reference_deadlines": sum(ruled.values())}


@dataclass
class _Folded:
    state: GameState
    schedule: Schedule


def _fold(game: StoredGame, *, timers_from_log: bool, horizon: int | None, fired: list | None = None) -> _Folded:
    """The stored game folded: with its own deadlines (``timers_from_log``), or its reports only, every
    deadline fired by the rules at its time (the reference; into ``fired``), up to ``horizon``."""
    state = GameState(game.members, game.profile)
    schedule = Schedule()
    for seq, _pos, _wall, ev in game.rows:
        if seq in game.retracted:
            continue
        if ev.source == SOURCE_TIMER:
            if not timers_from_log:
                continue                # deadlines and their corrections: the reference fires its own
        elif not timers_from_log:
            due = fire_due(state, schedule, ev.t)
            if fired is not None:
                fired += due
        state.apply(ev)
        schedule.sync(state)
    if horizon is not None:
        due = fire_due(state, schedule, horizon)
        if fired is not None and not timers_from_log:
            fired += due
    return _Folded(state, schedule)


def states_check(game: StoredGame, horizon: int) -> dict:
    """The players' states at ``horizon``: the stored game's (its deadlines, then the rules on to the horizon)
    against the reference's."""
    stored = _fold(game, timers_from_log=True, horizon=horizon).state
    reference = _fold(game, timers_from_log=False, horizon=horizon).state
    differ = []
    for badge, ch in reference.characters.items():
        mine = stored.characters.get(badge)
        a = tuple(getattr(ch, f) for f in STATE_FIELDS)
        b = tuple(getattr(mine, f) for f in STATE_FIELDS) if mine is not None else None
        if a != b:
            differ.append((badge, a, b))
    return {"players": len(reference.characters), "state_differences": len(differ), "state_examples": differ[:5],
            "reference": counts_of(reference)}


def counts_of(state: GameState) -> dict:
    """The report's figures of a folded game: deaths and Valhalla check-ins per side, STOPPs."""
    side = {m.badge: m.side for m in (ch.member for ch in state.characters.values())}
    deaths = Counter(side.get(badge, "?") for _t, badge, _cause, _src in state.deaths)
    valhalla = Counter(side.get(badge, "?") for _t, badge in state.valhalla)
    return {"deaths": dict(sorted(deaths.items())), "valhalla": dict(sorted(valhalla.items())),
            "stopps": len(state.stopps)}


def report_check(report_counts: dict, reference_counts: dict) -> dict:
    """The report's figures against the reference's: how many of them differ (0 is the target)."""
    differences = {}
    for name in ("deaths", "valhalla", "stopps"):
        if report_counts.get(name) != reference_counts.get(name):
            differences[name] = {"report": report_counts.get(name), "reference": reference_counts.get(name)}
    return {"report_differences": len(differences), "report_examples": differences}


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)


def acks_check(ack_delays: list[tuple[float, float]], outages: list[tuple[float, float]],
               kills: list[tuple[float, float]] = ()) -> dict:
    """Ack delays (real ms) outside the given windows (real seconds into the battle): p50, p99, the longest;
    and the p99 also outside ``kills`` (from a station's kill until a minute after it started again: its
    handsets' reports then wait for their retries, seconds apart, whatever the stations do)."""
    def outside(windows):
        return [(at, ms) for at, ms in ack_delays if not any(a <= at - ms / 1000 <= b or a <= at <= b
                                                             for a, b in windows)]

    timed = outside(outages)
    calm = [ms for _at, ms in outside([*outages, *kills])]
    inside = [ms for _at, ms in timed]
    by_minute: dict[int, list[float]] = {}
    for at, ms in timed:
        by_minute.setdefault(int(at // 60), []).append(ms)
    return {"ack_p50_ms": percentile(inside, 0.5), "ack_p99_ms": percentile(inside, 0.99),
            # when the slow ones were: per real minute of the run (from its start), the p99 and how many
            "ack_p99_by_minute": {m: [percentile(v, 0.99), len(v)] for m, v in sorted(by_minute.items())},
            "ack_p99_outside_kills_ms": percentile(calm, 0.99), "acks_outside_kills": len(calm),
            "ack_max_ms": round(max(inside), 1) if inside else 0.0,
            "ack_max_all_ms": round(max((ms for _a, ms in ack_delays), default=0.0), 1),
            "acks_timed": len(inside), "ack_mean_ms": round(statistics.fmean(inside), 1) if inside else 0.0}


def owners_check(transitions: list[tuple[float, str, str]], end: float, outages: list[tuple[float, float]],
                 start: float = 0.0) -> dict:
    """From each station's word on the timers ((real s, station, state) in time order): owner changes, and the
    longest stretch with no owner outside the outages (real seconds), from ``start`` (the battle's) on."""
    state: dict[str, str] = {}
    owner_since: float | None = None
    changes, longest, total, none_since = 0, 0.0, 0.0, start
    outages = [*outages, (float("-inf"), start)]
    last_owner = None
    for at, station, word in sorted(transitions):
        state[station] = word
        owners = [s for s, w in state.items() if w in ("owner", "alone")]
        if owners and owner_since is None:
            owner_since = at
            gap = _outside(none_since, at, outages)
            longest, total = max(longest, gap), total + gap
            if last_owner is not None and owners[0] != last_owner:
                changes += 1
            last_owner = owners[0]
        elif not owners and owner_since is not None:
            owner_since, none_since = None, at
    if owner_since is None:
        gap = _outside(none_since, end, outages)
        longest, total = max(longest, gap), total + gap
    return {"owner_changes": changes, "longest_without_owner_s": round(longest, 1),
            "without_owner_s": round(total, 1)}


def _outside(a: float, b: float, outages: list[tuple[float, float]]) -> float:
    """How much of [a, b] lies outside every outage window."""
    span = max(0.0, b - a)
    for lo, hi in outages:
        span -= max(0.0, min(b, hi) - max(a, lo))
    return max(0.0, span)


def lateness(game: StoredGame, epoch_ms: int, speed: float, outages: list[tuple[float, float]] = ()) -> dict:
    """How late each deadline was stored after it fell due (real ms: its wall time against the game clock's),
    but those due within an outage (unix seconds)."""
    late = []
    for seq, _p, wall, ev in game.rows:
        if ev.source != SOURCE_TIMER or ev.type == "retracted" or seq in game.retracted:
            continue
        due = epoch_ms + ev.t / speed
        if not any(a <= due / 1000 <= b for a, b in outages):
            late.append(wall - due)
    return {"deadline_late_p50_ms": percentile(late, 0.5), "deadline_late_p99_ms": percentile(late, 0.99),
            "deadline_late_max_ms": round(max(late), 1) if late else 0.0}


def report_counts(report) -> dict:
    """The report's own figures (``report.model.Report``): deaths and Valhalla check-ins per side, STOPPs."""
    sides = report.sides()
    return {"deaths": dict(sorted((t.side, t.deaths) for t in sides if t.deaths)),
            "valhalla": dict(sorted((t.side, t.valhalla) for t in sides if t.valhalla)),
            "stopps": len(report.stopps)}
