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
        result.fired += fire_due(state, schedule, event.t)
        result.warning_lines[state.events_applied] = line
        state.apply(event)
    result.fired += fire_due(state, schedule, FOREVER if until is None else until)
    if until is not None:
        state.t = max(state.t, until)
    schedule.sync(state)
    return result
