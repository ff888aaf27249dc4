"""Spoils of war: who looted what from whom, and what each looter still owes ("Responsibility")."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NamedTuple

from controlroom.game.events import Event
from controlroom.game.fold_parts import StatePart
from controlroom.i18n import wording


class Owed(NamedTuple):
    looter: int
    owner: int
    items: tuple[str, ...]        # still to return, in the order taken
    without_consent: bool         # any of it taken without the player's permission


class LootLedger(StatePart):
    """GameState's part for looting: the looter is responsible for what they took, always.

    Even when the looter is looted in turn, they still owe the items to the
    person they took them from; whoever looted them owes those items to the
    looter.  Scenario relics and group flags may be taken without consent.
    """

    if not TYPE_CHECKING:
        __slots__ = ()          # GameState holds the attributes

    def _init_loot(self) -> None:
        self._owed: dict[tuple[int, int], Counter] = {}
        self._order: dict[tuple[int, int], list[str]] = {}
        self._no_consent: set[tuple[int, int]] = set()
        # t, looter, owner, items, consent, relic
        self.loot_log: list[tuple[int, int, int, tuple[str, ...], bool, bool]] = []

    def _e_looted(self, ev: Event) -> None:
        d = ev.data
        owner, looter, items = d["badge"], d["by"], tuple(d["items"])
        if looter not in self.characters:
            self._warn("unknown_badge", wording("warnings", "{role} badge {badge} is not in the roster",
                role=wording("words", "looter"), badge=looter))
            return
        # An unconscious or dead looter breaks the rules, but the items were taken: the debt stands.
        self._actor(looter, "looter")
        if not d["consent"] and not d["relic"]:
            self._warn("loot_without_consent", wording("warnings", "badge {looter} looted badge {owner} without the "
                                                                 "player's permission: {items}",
                looter=looter, owner=owner, items=", ".join(items)))
            self._no_consent.add((looter, owner))
        key = (looter, owner)
        self._owed.setdefault(key, Counter()).update(items)
        self._order.setdefault(key, []).extend(items)
        self.loot_log.append((self.t, looter, owner, items, d["consent"], d["relic"]))

    def _e_returned(self, ev: Event) -> None:
        d = ev.data
        key = (d["by"], d["badge"])
        owed = self._owed.get(key)
        if owed is None or not +owed:          # +counter drops items already returned
            self._warn("nothing_owed", wording("warnings", "badge {looter} owes nothing to badge {owner}",
                looter=d["by"], owner=d["badge"]))
            return
        items = d["items"] or list(owed.elements())
        missing = [i for i in items if owed[i] <= 0]
        for item in items:
            if owed[item] > 0:
                owed[item] -= 1
                self._order[key].remove(item)
        if missing:
            self._warn("not_owed", wording("warnings", "badge {looter} did not take {items} from badge {owner}",
                                           looter=d["by"], items=", ".join(missing), owner=d["badge"]))

    def owed(self) -> list[Owed]:
        """Every looter's unreturned items, per person they were taken from."""
        out = []
        for (looter, owner), items in sorted(self._order.items()):
            if items:
                out.append(Owed(looter, owner, tuple(items), (looter, owner) in self._no_consent))
        return out
