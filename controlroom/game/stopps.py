"""The STOPP rule in the fold: game time stands still for the characters a STOPP covers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controlroom.game.character import DEAD, STOPP_OVERDUE, Deadline, Stopp
from controlroom.game.events import Event
from controlroom.game.fold_parts import StatePart
from controlroom.game.words import event_text, role_text, who_text
from controlroom.i18n import wording

# The reports a STOPP makes doubtful for the characters it covers: "everybody present must stop what they are
# doing immediately", "to avoid movement and interaction during the game stop".  The seed says nothing of
# what becomes of such a report: it is folded as any other, with a rule warning for the game master.
DURING_STOPP = {"strike": None, "knocked_out": None, "big_stone": None, "permanent_kill": "killer",
                "looted": "looter"}     # type -> the role of its actor ("by"), when the actor counts too


class StoppRules(StatePart):
    """GameState's part for STOPPs: called, lifted (perhaps ruled trivial), lasting too long."""

    if not TYPE_CHECKING:
        __slots__ = ()          # GameState holds the attributes

    def _during_stopp(self, ev: Event) -> None:
        """A strike, knock-out, big stone, permanent kill or looting of (or by) a character a STOPP covers: folded
        as any other, with a warning (``stopp_in_force``)."""
        role = DURING_STOPP[ev.type]
        for badge, who_role in ((ev.data.get("badge"), None), (ev.data.get("by") if role else None, role)):
            ch = self.characters.get(badge) if badge is not None else None
            if ch is None or ch.stops == 0:
                continue
            stopp = next((s.id for s in self.active_stopps.values() if badge in s.covered), "?")
            who = who_text(ch) if who_role is None else wording("warnings", "{role} {who}", role=role_text(who_role),
                                                              who=who_text(ch))
            self._warn("stopp_in_force", wording(
                "warnings", "{what} reported while STOPP {stopp!r} holds {who}: the game stands still for everyone "
                            "a STOPP covers", what=event_text(ev.type), stopp=stopp, who=who))
            return

    def _e_stopp_called(self, ev: Event) -> None:
        d = ev.data
        if d["stopp"] in self.active_stopps:
            self._warn("stopp_active", wording("warnings", "STOPP {stopp!r} is already in force",
                stopp=d["stopp"]))
            return
        if d["badges"]:
            covered = frozenset(b for b in d["badges"] if b in self.characters)
        elif d["groups"]:
            groups = self.roster.groups()
            covered = frozenset(b for g in d["groups"] for b in groups.get(g, ()))
        else:
            covered = frozenset(self.characters)
        s = Stopp(d["stopp"], self.t, covered, d["groups"], d["badges"], d.get("caller"), d["reason"],
                  d.get("lat"), d.get("lon"))
        self.stopps[s.id] = self.active_stopps[s.id] = s
        for b in covered:
            ch = self.characters[b]
            if ch.stops == 0:
                ch.frozen_since = self.t
            ch.stops += 1
        self._dirty.update(covered)
        self._dirty_stopps.add(s.id)

    def _e_stopp_lifted(self, ev: Event) -> None:
        s = self.active_stopps.pop(ev.data["stopp"], None)
        if s is None:
            self._warn("stopp_unknown", wording("warnings", "no STOPP {stopp!r} is in force",
                stopp=ev.data["stopp"]))
            return
        s.lifted = self.t
        s.trivial = ev.data["trivial"]
        for b in s.covered:
            ch = self.characters[b]
            ch.stops -= 1
            if ch.stops == 0:
                ch.frozen_ms += self.t - ch.frozen_since
        self._dirty.update(s.covered)
        self._dirty_stopps.add(s.id)
        if s.trivial and self.profile.trivial_stopp_unconscious and s.caller in self.characters:
            caller = self.characters[s.caller]
            if caller.condition != DEAD:
                self._dirty.add(caller.badge)
                self._fall(caller)

    def _e_stopp_overdue(self, ev: Event) -> None:
        s = self.active_stopps.get(ev.data["stopp"])
        if s is None or s.overdue_alerted or self.t - s.called < self.profile.stopp_overdue_ms:
            self._warn("stale_timer", wording("warnings", "STOPP {stopp!r} is not overdue",
                stopp=ev.data["stopp"]))
            return
        s.overdue_alerted = True
        self._dirty_stopps.add(s.id)

    def stopp_deadline(self, stopp_id: str) -> Deadline | None:
        s = self.active_stopps.get(stopp_id)
        if s is None or s.overdue_alerted:
            return None
        due = s.called + self.profile.stopp_overdue_ms
        return Deadline(STOPP_OVERDUE, due, max(0, due - self.t), stopp=stopp_id)

