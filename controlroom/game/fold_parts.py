"""What GameState's parts (its mixins) use of the state they are mixed into, declared for the type checker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controlroom.game.character import Character, Scenario, Stopp
from controlroom.game.events import Event
from controlroom.game.roster import Roster
from controlroom.i18n import Text
from controlroom.rules.profile import RulesProfile


class StatePart:
    """A base of GameState's parts: the attributes and methods GameState defines, named here only as types.

    It adds nothing at run time (annotations and a block the interpreter skips): GameState's own
    ``__init__`` and methods are what the parts use.
    """

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
