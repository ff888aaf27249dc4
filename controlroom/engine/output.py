"""What one step of the engine asks of the world around it: answers to send, things to say, work to schedule."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from controlroom.game.alarms import Alarm
from controlroom.game.views import CharacterView, StoppView
from controlroom.radio.link import Ack, LinkState


class RosterAnswer(NamedTuple):
    """The engine's answer to players offered for the open game (``commands.AddPlayers``)."""

    request: int                         # the asker's number for its question
    stored: bool                         # True: the players are in the game file (then folded in, published)
    added: tuple = ()                    # the new players (Member): added, or to be added when ``stored`` is False
    unchanged: int = 0                   # players of the file the game has already, exactly as the file has them
    problems: tuple[str, ...] = ()       # what stands in the way, by line: nothing was stored


@dataclass(frozen=True, slots=True)
class FormAnswer:
    """The answer to a phone's report (``commands.FormReport``), given once it is stored and folded.

    ``stored``: the report is in the log (now, or before: ``again``); ``counted``:
    the rules took it (else ``text`` says why not); ``text`` in words.
    """

    request: int
    stored: bool
    text: str
    counted: bool = True
    again: bool = False


@dataclass(slots=True)
class Output:
    """The effects of one step, in the order the world should see them (acks first: the handsets wait)."""

    acks: list[Ack] = field(default_factory=list)               # to send through the links
    alarms: list[Alarm] = field(default_factory=list)
    stopps: list[StoppView] = field(default_factory=list)       # STOPPs called, stored and folded
    died: list[CharacterView] = field(default_factory=list)     # deaths stored (a burst at once)
    rejected: list[str] = field(default_factory=list)           # reports or commands that are no event
    roster: list[RosterAnswer] = field(default_factory=list)
    answers: list[FormAnswer] = field(default_factory=list)     # to phones' reports, after the commit and fold
    links: list[LinkState] = field(default_factory=list)        # links' states as they changed
    stored: int | None = None        # the last seq folded (this station's or another's)
    publish: bool = False            # a delta is due (at most every publish interval)
    tick: bool = False               # a batch may be ready: ask for it
    flood_later: bool = False        # merged security alarms: flush their counts a little later
    refold: bool = False             # fold the game again over its stored roster (in the background)
    timers: str | None = None        # who runs the rule timers now, when that changed
    recheck: bool = False            # the timer lock is not ours after all: its watcher must look again now
    devices: dict | None = None      # the devices as registered now ({source: role, label, group, engine}), read again
    retired: Any = None              # the fold a refold replaced: to let go of in another thread (fold_release)

    def __bool__(self) -> bool:
        return any((self.acks, self.alarms, self.stopps, self.died, self.rejected, self.roster, self.answers,
                    self.links, self.stored is not None, self.publish, self.tick, self.flood_later, self.refold,
                    self.timers is not None, self.recheck, self.devices is not None, self.retired is not None))

    def summary(self) -> dict[str, Any]:
        """Counts of each effect (for logs and tests)."""
        return {"acks": len(self.acks), "alarms": len(self.alarms), "stopps": len(self.stopps),
                "died": len(self.died), "rejected": len(self.rejected), "roster": len(self.roster),
                "answers": len(self.answers)}


def device_view(known) -> dict:
    """What the window may know of the devices: {source: role, label, group, engine, tak}, no keys."""
    return {d.source: {"role": d.role, "label": d.label, "group": d.group, "engine": d.siege_engine,
                       "tak": d.tak_uid or d.tak_callsign} for d in known.values()}
