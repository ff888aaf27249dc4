"""The STOPP rule in the fold: game time stands still for the characters a STOPP covers."""

from __future__ import annotations

from controlroom.game.character import DEAD, STOPP_OVERDUE, Deadline, Stopp
from controlroom.game.events import Event
from controlroom.i18n import translate


class StoppRules:
    """GameState's part for STOPPs: called, lifted (perhaps ruled trivial), lasting too long."""

    def _e_stopp_called(self, ev: Event) -> None:
        d = ev.data
        if d["stopp"] in self.active_stopps:
            self._warn("stopp_active", translate("warnings", "STOPP {stopp!r} is already in force").format(
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
            self._warn("stopp_unknown", translate("warnings", "no STOPP {stopp!r} is in force").format(
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
            self._warn("stale_timer", translate("warnings", "STOPP {stopp!r} is not overdue").format(
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

