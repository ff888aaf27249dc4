"""The big played game the tests and the benchmarks share: a roster of N players and a plausible battle's log."""

from __future__ import annotations

import random

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.scheduler import Schedule, fire_due
from controlroom.game.state import GameState
from controlroom.store.game import GameStore

SIDES = ("North", "South", "East")


def roster(players: int) -> list[Member]:
    rng = random.Random(1)
    out = []
    for badge in range(1, players + 1):
        group = f"G{badge % 60:02d}"
        cls = "healer" if badge % 10 == 0 else "warrior"
        helmet = rng.choice([None, None, "leather", "metal"])
        armour = tuple(rng.sample(["leather", "chain", "plate"], rng.randint(0, 2)))
        out.append(Member(badge, f"Player {badge}", SIDES[badge % 60 % 3], group, cls, helmet=helmet, armour=armour))
    return out


def store_played_game(path: str, n_events: int, players: int = 8000) -> tuple[list[Member], list]:
    """The roster and ``played_game`` stored in a new game file (appended 5,000 events at a time), as the
    benchmarks that open the big game store it; returns the roster and the events."""
    members = roster(players)
    log = played_game(members, n_events)
    with GameStore.open(path) as store:
        store.save_roster(members)
        for i in range(0, len(log), 5000):
            store.log.append(log[i:i + 5000])
    return members, log


def played_game(members: list[Member], n_events: int, seed: int = 7) -> list:
    """A plausible battle: marshals' reports about characters in the right condition, ~1 report per
    5 game-seconds per 100 players, with the rule timers' own events in between."""
    rng = random.Random(seed)
    state = GameState(members)
    schedule = Schedule()
    chars = state.characters
    badges = [m.badge for m in members]
    healers = [m.badge for m in members if m.cls == "healer"]

    def pick(test, among=badges):
        for _ in range(30):
            b = rng.choice(among)
            if test(chars[b]):
                return b
        return rng.choice(among)        # a wrong report now and then: a rule warning

    def healer(need_touch=False):
        return pick(lambda c: c.condition == "active" and (not need_touch or c.touches_used < 5)
                    and len(c.patients) < 2, healers)

    active = lambda c: c.condition == "active"                       # noqa: E731 - like the table's lambdas
    reports = [
        ("strike", active, lambda b: {"count": rng.randint(1, 2), "on_armour": rng.random() < 0.7}),
        ("strike", active, lambda b: {}),
        ("down", active, lambda b: {}),
        ("knocked_out", lambda c: active(c) and c.member.helmet is None, lambda b: {}),
        ("big_stone", active, lambda b: {"on_shield": rng.random() < 0.3}),
        ("bound", lambda c: c.condition == "unconscious" or (active(c) and c.hp < c.max_hp and not c.bound),
         lambda b: {}),
        ("cared_for", lambda c: c.bound and c.carer is None, lambda b: {"carer": healer()}),
        ("healer_touch", lambda c: c.condition == "unconscious", lambda b: {"healer": healer(True)}),
        ("strenuous", lambda c: c.bound, lambda b: {}),
        ("permanent_kill", lambda c: c.condition == "unconscious", lambda b: {}),
        ("valhalla_checkin", lambda c: c.condition == "dead" and not c.in_valhalla, lambda b: {}),
    ]
    log = [make_event(0, "scenario_started", "gm", name="bench", respawn=True, respawn_time=900)]
    state.apply(log[0])
    step = max(1, 500_000 // len(members))          # ms between reports
    stopp = 0
    t = 0
    while len(log) < n_events:
        t += rng.randint(1, 2 * step)
        if rng.random() < 0.0003 and not state.active_stopps:
            stopp += 1
            ev = make_event(t, "stopp_called", "marshal:3", stopp=f"S{stopp}", groups=[f"G{rng.randint(0, 59):02d}"],
                            reason="injury")
        elif state.active_stopps and rng.random() < 0.002:
            ev = make_event(t, "stopp_lifted", "gm", stopp=f"S{stopp}")
        else:
            type_, test, extra = rng.choice(reports)
            b = pick(test)
            ev = make_event(t, type_, f"marshal:{rng.randint(1, 100)}", badge=b, **extra(b))
        log += fire_due(state, schedule, t)
        state.apply(ev)
        log.append(ev)
    return log[:n_events]
