"""A game master's rulings in the fold: hit and armour points set, scenarios started and ended, notes, retractions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controlroom.game.character import DEAD, Scenario
from controlroom.game.events import Event
from controlroom.game.fold_parts import StatePart
from controlroom.game.words import who_text as _who
from controlroom.i18n import joined, wording
from controlroom.rules.armour import ArmourPoints, armour_points
from controlroom.rules.armour_materials import check_armour, failures


class Rulings(StatePart):
    """GameState's part for what a game master rules, and the bookkeeping events (notes, retractions, alarms)."""

    if not TYPE_CHECKING:
        __slots__ = ()          # GameState holds the attributes

    def _e_hp_set(self, ev: Event) -> None:
        ch = self._char(ev)
        new = ev.data["max_hp"]
        if ch.hp == ch.max_hp and ch.condition != DEAD:
            ch.hp = new
        ch.hp = min(ch.hp, new)
        ch.max_hp = new

    def _e_armour_set(self, ev: Event) -> None:
        ch = self._char(ev)
        d = ev.data
        inadequate = d["inadequate"]
        try:
            thin = failures(check_armour(self.profile, d.get("helmet"), d["armour"], d.get("measures")))
            if thin and not inadequate:     # too thin is inadequate material, whatever the report says
                self._warn("armour_material", wording("warnings", "{who}: {checks}: inadequate material, at most "
                                                                "{most} armour points",
                    who=_who(ch), checks="; ".join(c.message for c in thin), most=self.profile.armour_inadequate_max))
                inadequate = True
            full = armour_points(self.profile, d.get("helmet"), d["armour"], inadequate, d.get("ap"))
        except ValueError as exc:
            self._warn("bad_armour", joined("{who}: {problem}", who=_who(ch), problem=str(exc)))
            return
        ch.armour = {"helmet": d.get("helmet"), "pieces": tuple(d["armour"]), "inadequate": d["inadequate"],
                     "ap": d.get("ap"), "measures": dict(d.get("measures") or {})}
        if ch.ap == ch.full_ap:
            ch.ap = full
        else:   # armour points are never restored during a scenario
            ch.ap = ArmourPoints(min(ch.ap.body, full.body), min(ch.ap.helmet, full.helmet))
        ch.full_ap = full

    def _e_scenario_started(self, ev: Event) -> None:
        d = ev.data
        respawn_ms = self.profile.respawn_ms
        if d.get("respawn_time") is not None:
            respawn_ms = int(round(d["respawn_time"] * 1000))
        self.scenario = Scenario(d["name"], d["respawn"], respawn_ms, self.t)
        self.scenarios.append(self.scenario)
        for ch in self.characters.values():
            ch.patients.clear()
            ch.reset()
        self._dirty.update(self.characters)

    def _e_scenario_ended(self, ev: Event) -> None:
        self.scenario.ended = self.t
        for ch in self.characters.values():
            ch.dying_at = ch.wake_at = ch.regen_at = ch.respawn_at = None
        self._dirty.update(self.characters)

    def _e_note(self, ev: Event) -> None:
        pass

    def _e_roster_added(self, ev: Event) -> None:
        # The roster is the store's: the core folds the whole log again over it (core/commands.py, _fold_again).
        pass

    def _e_retracted(self, ev: Event) -> None:
        self.retractions.append((self.t, ev.data["seq"], ev.data.get("reason")))

    def _e_alarm_acknowledged(self, ev: Event) -> None:
        self.acknowledged.add(ev.data["alarm"])
