"""What the web page shows, kept from the core's facts (the window's deltas): no fold, no database.

``WebView`` takes what the core tells (``opened``, each ``StateDelta``,
alarms, the devices known) in the web server's thread and keeps only what a
phone needs: the characters as the deltas left them, STOPPs, side counts, the
field's positions (merged with ``game.views.merge_field``), safety alarms.
``snapshot(role)`` is the page's JSON for one role.
"""

from __future__ import annotations

import time
from typing import Any

from controlroom.game.alarms import SAFETY, Alarm
from controlroom.game.views import CharacterView, StateDelta, StoppView, merge_field

LIST_MAX = 300           # the longest list a phone gets (the count says how many there are)
PARTS = ("positions",)


def _left(deadline, t: int) -> int | None:
    return None if deadline is None else (deadline.remaining if deadline.due is None else max(0, deadline.due - t))


class WebView:
    """The page's state; used in one thread (the web server's)."""

    def __init__(self) -> None:
        self.name = ""
        self.speed = 1.0
        self.t = 0
        self.at = time.time()
        self.scenario = ""
        self.characters: dict[int, CharacterView] = {}
        self.dying: set[int] = set()
        self.dead: set[int] = set()              # dead and not in Valhalla: due at the gate
        self.stopps: dict[str, StoppView] = {}
        self.sides: dict[str, dict[str, int]] = {}
        self.field: dict[str, dict] = {}
        self.devices: dict[str, dict] = {}
        self.alarms: dict[str, dict] = {}        # safety alarms not acknowledged, by id
        self.placer = None                       # web.mapping.MapPlacer of the game's map, if it has one
        self.version = 0

    # -- the core's facts --------------------------------------------------------------------------
    def opened(self, info: Any) -> None:
        self.name = getattr(info, "name", "") or ""
        speed = getattr(info, "speed", 1.0)
        self.speed = speed if speed and speed > 0 else 1.0
        self.version += 1

    def delta(self, delta: StateDelta) -> None:
        """A delta as the window gets it: ``full`` replaces, else changes what it names."""
        if delta.full:
            self.characters, self.dying, self.dead, self.stopps = {}, set(), set(), {}
        for c in delta.characters:
            self._character(c)
        for s in delta.stopps:
            self.stopps[s.id] = s
        for stored in delta.events:
            if stored.event.type == "alarm_acknowledged":
                self.alarms.pop(stored.event.data.get("alarm", ""), None)
        self.sides = dict(delta.sides) or self.sides
        self.field = merge_field(self.field if not delta.full else {}, delta.field, PARTS)
        self.t, self.at, self.scenario = delta.t, time.time(), delta.scenario
        self.version += 1

    def _character(self, c: CharacterView) -> None:
        self.characters[c.badge] = c
        if any(d.kind == "dies" for d in c.deadlines) and c.condition != "dead":
            self.dying.add(c.badge)
        else:
            self.dying.discard(c.badge)
        if c.condition == "dead" and not c.in_valhalla:
            self.dead.add(c.badge)
        else:
            self.dead.discard(c.badge)

    def died(self, views) -> None:
        for c in views:
            self._character(c)
        self.version += 1

    def stopp(self, sv: StoppView) -> None:
        self.stopps[sv.id] = sv
        self.version += 1

    def alarm(self, alarm: Alarm) -> None:
        if alarm.cls != SAFETY:
            return
        stopp = self.stopps.get(alarm.id.split(":", 1)[1]) if alarm.id.startswith("stopp:") else None
        entry = {"id": alarm.id, "kind": alarm.kind, "message": alarm.message, "t": alarm.t}
        if stopp is not None:
            entry.update(self._stopp_json(stopp))
        self.alarms[alarm.id] = entry
        self.version += 1

    def set_devices(self, devices: dict) -> None:
        self.devices = dict(devices or {})
        self.version += 1

    # -- the page ----------------------------------------------------------------------------------
    def now(self) -> int:
        """The game's time now, from the last delta and the clock's speed."""
        return self.t + int((time.time() - self.at) * 1000 * self.speed)

    def snapshot(self, role: str) -> dict[str, Any]:
        """Everything a page of ``role`` shows (viewer, safety, valhalla, marshal)."""
        t = self.now()
        out: dict[str, Any] = {"role": role, "game": self.name, "t": t, "delta_t": self.t, "speed": self.speed,
                               "wall": time.time(),
                               "scenario": self.scenario, "sides": self.sides, "version": self.version}
        if role == "valhalla":
            dead = sorted((self.characters[b] for b in self.dead), key=lambda c: (c.side, c.group, c.badge))
            out["dead"] = [self._person(c, t, "respawns") for c in dead[:LIST_MAX]]
            out["dead_count"] = len(dead)
            return out
        out["stopps"] = [self._stopp_json(s) for s in sorted(self.stopps.values(), key=lambda s: s.called)
                         if s.lifted is None]
        dying = sorted((self.characters[b] for b in self.dying),
                       key=lambda c: _left(next((d for d in c.deadlines if d.kind == "dies"), None), t) or 0)
        out["dying"] = [self._person(c, t, "dies") for c in dying[:LIST_MAX]]
        out["dying_count"] = len(dying)
        out["map"] = self._map()
        if role == "safety":
            out["alarms"] = sorted(self.alarms.values(), key=lambda a: -a["t"])[:LIST_MAX]
        return out

    def _person(self, c: CharacterView, t: int, kind: str) -> dict[str, Any]:
        deadline = next((d for d in c.deadlines if d.kind == kind), None)
        return {"badge": c.badge, "name": c.name, "side": c.side, "group": c.group, "deaths": c.deaths,
                "left": _left(deadline, t), "held": deadline is not None and deadline.due is None}

    def _stopp_json(self, s: StoppView) -> dict[str, Any]:
        caller = self.characters.get(s.caller) if s.caller is not None else None
        out = {"stopp": s.id, "called": s.called, "reason": s.reason, "groups": list(s.groups),
               "caller": s.caller, "caller_name": caller.name if caller else "", "lat": s.lat, "lon": s.lon,
               "overdue": s.overdue, "place": "", "square": ""}
        if self.placer is not None and s.lat is not None and s.lon is not None:
            out.update(self.placer.where(s.lat, s.lon))
        return out

    def _map(self) -> dict[str, Any]:
        """The map's size and the groups' and marshals' places on it (fractions of its width and height)."""
        marks = []
        for source, pos in list(self.field.get("positions", {}).items())[:2000]:
            _t, lat, lon = pos[0], pos[1], pos[2]
            if lat is None or lon is None:
                continue
            dev = self.devices.get(source, {})
            label = dev.get("group") or dev.get("engine") or dev.get("label") or source
            mark = {"label": label, "kind": dev.get("role", source.split(":", 1)[0]), "lat": lat, "lon": lon}
            if self.placer is not None:
                mark.update(self.placer.fraction(lat, lon))
            marks.append(mark)
        info: dict[str, Any] = {"marks": marks, "image": self.placer is not None and self.placer.image is not None}
        if self.placer is not None:
            info["width"], info["height"] = self.placer.width, self.placer.height
            for mark in info["marks"]:
                mark.pop("lat", None)
                mark.pop("lon", None)
            info["stopps"] = [{"stopp": s.id, **self.placer.fraction(s.lat, s.lon)} for s in self.stopps.values()
                              if s.lifted is None and s.lat is not None and s.lon is not None]
        return info
