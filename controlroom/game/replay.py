"""Replay a scenario script through the rules on a virtual clock (rule timers fire on their own)."""

from __future__ import annotations

from dataclasses import dataclass, field

from controlroom.game.events import Event
from controlroom.game.scheduler import Schedule, fire_due
from controlroom.game.script import Script
from controlroom.game.state import GameState

FOREVER = 2**62


@dataclass(slots=True)
class ReplayResult:
    state: GameState
    schedule: Schedule
    fired: list[Event] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)      # everything folded, in order: what a core would store
    warning_lines: dict[int, int] = field(default_factory=dict)   # event index -> script line


def replay_script(script: Script, until: int | None = None) -> ReplayResult:
    """Fold the script's events in order, firing every rule deadline when it falls due.

    Without ``until`` the clock runs on after the last scripted event until
    every pending deadline has fired (nobody is left bleeding out, knocked out
    or waiting to respawn; deadlines held by a STOPP that is never lifted stay
    pending).  With ``until`` the replay stops at that time.
    """
    state = GameState(script.members, script.profile)
    schedule = Schedule()
    result = ReplayResult(state, schedule)
    for event, line in zip(script.events, script.event_lines):
        if until is not None and event.t > until:
            break
        fired = fire_due(state, schedule, event.t)
        result.fired += fired
        result.log += fired
        result.warning_lines[state.events_applied] = line
        state.apply(event)
        result.log.append(event)
    fired = fire_due(state, schedule, FOREVER if until is None else until)
    result.fired += fired
    result.log += fired
    if until is not None:
        state.t = max(state.t, until)
        state.latest = max(state.latest, until)
    schedule.sync(state)
    return result


def replay_log(state: GameState, events, until: int | None = None) -> ReplayResult:
    """Fold a stored log (rule timers' events are in it already); with ``until``, run the timers on to it.

    Events after ``until`` are left out, so ``--until`` shows the game as it
    stood at that moment.
    """
    schedule = Schedule()
    result = ReplayResult(state, schedule)
    apply = state.apply
    for event in events:
        if until is not None and event.t > until:
            break
        apply(event)
    if until is not None:
        schedule.rebuild(state)
        result.fired += fire_due(state, schedule, until)
        state.t = max(state.t, until)
        state.latest = max(state.latest, until)
    return result
