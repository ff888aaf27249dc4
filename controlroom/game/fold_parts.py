"""What GameState's parts (its mixins) use of the state they are mixed into, declared for the type checker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controlroom.game.character import Character, Scenario, Stopp
from controlroom.game.events import Event
from controlroom.game.roster import Roster
from controlroom.i18n import Text
from controlroom.rules.profile import RulesProfile

# GameState's attributes and its parts' (the parts have none of their own): slots, each read at a fixed place.
# An instance dict is searched instead once it is made (a snapshot's vars() made it, and a fold then took 23 %
# more instructions) or once it holds 30 names (CPython 3.11's shared keys: a fold took 6 % more).
STATE_SLOTS = ("profile", "roster", "characters", "t", "latest", "_floor", "events_applied", "scenario",
               "scenarios", "stopps", "active_stopps", "deaths", "valhalla", "warnings", "retractions",
               "acknowledged", "_dirty", "_dirty_stopps", "_event",
               "positions", "heard", "headcounts", "siege", "messages",            # FieldReports
               "_owed", "_order", "_no_consent", "loot_log",                       # LootLedger
               "inspections", "inspection_count", "_inspection_limits",            # InspectionLedger
               "__weakref__")


class StatePart:
    """A base of GameState's parts: the attributes and methods GameState defines, named here only as types.

    It adds nothing at run time (annotations and a block the interpreter skips): GameState's own
    ``__init__`` and methods are what the parts use.
    """

    if not TYPE_CHECKING:       # (mypy would refuse the parts' assignments to GameState's slots)
        __slots__ = ()          # GameState holds the attributes (its __slots__): no instance dict

    t: int
    profile: RulesProfile
    roster: Roster
    characters: dict[int, Character]
    scenario: Scenario
    scenarios: list[Scenario]
    stopps: dict[str, Stopp]
    active_stopps: dict[str, Stopp]
    retractions: list[tuple[int, int, str | None]]
    acknowledged: set[str]
    _dirty: set[int]
    _dirty_stopps: set[str]

    if TYPE_CHECKING:
        def _warn(self, code: str, message: Text) -> None: ...

        def _char(self, ev: Event) -> Character: ...

        def _actor(self, badge: int, role: str) -> Character | None: ...

        def _fall(self, ch: Character) -> None: ...
