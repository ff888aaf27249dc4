"""The commands the engine takes from the game master's desk and the window: one typed value each.

The core's thread carries any of them to the engine with one signal
(``core.thread.CoreThread.send``); the engine answers each with an
``Output``.  A command that reports something becomes an event that takes
the road every report takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controlroom.game.events import SOURCE_GM


@dataclass(frozen=True, slots=True)
class Submit:
    """A report or an entry of the game master's, as an event of ``type`` happening now."""

    type: str
    fields: dict[str, Any]
    source: str = SOURCE_GM


@dataclass(frozen=True, slots=True)
class StartScenario:
    name: str
    respawn: bool = False
    respawn_time: float = 0.0          # seconds; 0: the profile's


@dataclass(frozen=True, slots=True)
class EndScenario:
    pass


@dataclass(frozen=True, slots=True)
class CallStopp:
    """A STOPP for everyone, called by a game master (numbered GM1, GM2 ... in the game)."""

    reason: str = "danger"


@dataclass(frozen=True, slots=True)
class LiftStopp:
    stopp: str
    trivial: bool = False


@dataclass(frozen=True, slots=True)
class Acknowledge:
    """An alarm the game master has seen (by its id)."""

    alarm: str


@dataclass(frozen=True, slots=True)
class Retract:
    """A wrong report corrected: the game leaves event ``seq`` out."""

    seq: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class AddPlayers:
    """Players for the open game (``entries``: (line of the file, Member)): checked, and added when ``store``."""

    request: int
    entries: tuple = field(default_factory=tuple)
    store: bool = False


@dataclass(frozen=True, slots=True)
class FormReport:
    """A report from a phone's form (the web view): stored once, answered only after the commit and the fold.

    ``device`` and ``form`` are its key in the event log, as a radio frame's
    (device, counter): a form sent again is the same key, stored once.  The
    answer (``output.FormAnswer``, in ``Output.answers``) carries ``request``
    back to the asker, with ``said`` when the report counted, else the rule's
    verdict in words.
    """

    request: int
    type: str
    fields: dict[str, Any]
    source: str
    device: int
    form: int
    said: str = ""


@dataclass(frozen=True, slots=True)
class ReloadDevices:
    """The game's devices were registered or changed elsewhere (a list imported): read them again."""


@dataclass(frozen=True, slots=True)
class Poll:
    """Look at the clock now (a virtual clock in tests moves without a timer): fire what is due, publish."""


Command = (Submit | StartScenario | EndScenario | CallStopp | LiftStopp | Acknowledge | Retract | AddPlayers
           | FormReport | Poll | ReloadDevices)
COMMANDS = (Submit, StartScenario, EndScenario, CallStopp, LiftStopp, Acknowledge, Retract, AddPlayers, FormReport,
            Poll, ReloadDevices)


def as_submit(cmd: Command) -> Submit | None:
    """The report a simple command makes (None for those that need the game: STOPP numbers, players, polls)."""
    if isinstance(cmd, Submit):
        return cmd
    if isinstance(cmd, StartScenario):
        fields: dict[str, Any] = {"name": cmd.name, "respawn": cmd.respawn}
        if cmd.respawn_time:
            fields["respawn_time"] = cmd.respawn_time
        return Submit("scenario_started", fields)
    if isinstance(cmd, EndScenario):
        return Submit("scenario_ended", {})
    if isinstance(cmd, LiftStopp):
        return Submit("stopp_lifted", {"stopp": cmd.stopp, "trivial": cmd.trivial})
    if isinstance(cmd, Acknowledge):
        return Submit("alarm_acknowledged", {"alarm": cmd.alarm})
    if isinstance(cmd, Retract):
        retract: dict[str, Any] = {"seq": cmd.seq}
        if cmd.reason:
            retract["reason"] = cmd.reason
        return Submit("retracted", retract)
    return None
