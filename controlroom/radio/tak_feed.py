"""The TAK feed: the deltas the window gets, kept as TAK objects, each sent at most once per N seconds.

A consumer of the core's facts like the window (``loaded``,
``delta_published``, ``stopp_called``, ``devices_known``): it never folds
the game again and never reads the database.  The facts arrive in the
window's thread and go into a ``FeedInbox``, which merges them at once (a
few dictionary updates; it holds at most one entry per character, STOPP and
field report, however long the sender is away).  The sender's thread takes
what waits every tick and asks the ``TakFeed`` what is ``due``: objects that
changed, no sooner than ``every_s`` after they were last sent (a new object,
or one whose type changed, such as a STOPP lifted, at once), and objects that
did not change, again before TAK clients would take them as stale.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from controlroom.game.tak_settings import TakSettings
from controlroom.game.views import merge_field
from controlroom.geo.places import Place
from controlroom.radio import tak_objects as objs
from controlroom.radio.cot import Cot

FIELD_PARTS = ("positions", "siege")
#: A lifted STOPP's cancel (and a removal) is sent again after a reconnection for this long (s).
KEEP_ENDED_S = 120.0
ENDED = ("cancel", "delete")                        # kinds that end an object
TIMELESS = ("valhalla", "stopp", "casevac")         # kinds whose place no device reports


@dataclass
class Pending:
    """What the facts brought since the sender last took them, merged."""

    full: bool = False                  # the game as a whole (after an opening or a fold again)
    devices: dict | None = None         # source -> {role, label, group, engine, tak}
    characters: dict = field(default_factory=dict)      # badge -> CharacterView
    reports: dict = field(default_factory=dict)         # positions and siege reports (merge_field)
    stopps: dict = field(default_factory=dict)          # id -> StoppView
    sides: dict | None = None


class FeedInbox:
    """The facts, taken in any thread, merged until the sender takes them (bounded by the game's size)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending = Pending()
        self.deltas = 0

    def put_delta(self, delta) -> None:
        with self._lock:
            p = self._pending
            if delta.full:
                p = self._pending = Pending(full=True, devices=p.devices, stopps=p.stopps)
            p.characters.update((c.badge, c) for c in delta.characters)
            merge_field(p.reports, delta.field, FIELD_PARTS)
            p.stopps.update((s.id, s) for s in delta.stopps)
            p.sides = delta.sides
            self.deltas += 1

    def put_stopp(self, view) -> None:
        with self._lock:
            self._pending.stopps[view.id] = view

    def put_devices(self, devices: Mapping[str, dict]) -> None:
        with self._lock:
            self._pending.devices = {str(k): dict(v) for k, v in devices.items()}

    def take(self) -> Pending:
        with self._lock:
            p, self._pending = self._pending, Pending()
        return p


@dataclass
class Entry:
    """One TAK object: what it is now, what was last sent of it, and when."""

    kind: str
    cot: Cot
    sent: Cot | None = None
    sent_at: float = -1e18
    fresh_at: float = 0.0               # when its position last changed (refreshed only while that is recent)
    ended_at: float | None = None       # a cancel or a removal: forgotten KEEP_ENDED_S after


class TakFeed:
    """The game's TAK objects, from the facts; ``due`` says which to send now (``Cot`` events by uid)."""

    def __init__(self, game: str, settings: TakSettings | None = None, places: Sequence[Place] = (),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings or TakSettings()
        self.prefix = objs.uid_prefix(game)
        self.clock = clock
        self.valhalla = objs.place_named(places, objs.VALHALLA_NAMES)
        self.hq = objs.place_named(places, objs.HQ_NAMES)
        self.devices: dict[str, dict] = {}
        self.sources_of: dict[tuple, list[str]] = {}             # ("group", name) -> the sources that place it
        self.field: dict = {name: {} for name in FIELD_PARTS}
        self.members: dict[int, tuple[str, str, int]] = {}       # badge -> (group, side, kind 0 up 1 down 2 dead)
        self.counts: dict[str, list[int]] = {}                   # group -> [up, down, dead]
        self.side_of: dict[str, str] = {}                        # group -> side
        self.colours: dict[str, str] = {}                        # side -> team colour
        self.sides: dict = {}
        self.stopps: dict[str, object] = {}
        self.entries: dict[str, Entry] = {}
        self.owner: dict[tuple, list[str]] = {}                  # the key of a thing -> the uids it made
        self.dirty: set[tuple] = set()
        self.fresh: set[tuple] = set()                           # ... of those, the ones a device placed anew
        self.unplaced: set[str] = set()                          # STOPPs with no place to show them at

    # -- the facts ---------------------------------------------------------------------------------
    def apply(self, p: Pending) -> None:
        if p.devices is not None:
            self.devices = p.devices
            self.sources_of = {}
            for source in self.devices:
                for key in self._keys_of_source(source):
                    self.sources_of.setdefault(key, []).append(source)
            self.dirty |= {("group", g) for g in self.counts} | set(self.sources_of)
        if p.full:
            self.members, self.counts = {}, {}
            self.field = {name: {} for name in FIELD_PARTS}
        self._characters(p.characters.values())
        changed = {name: dict(p.reports.get(name) or {}) for name in FIELD_PARTS}
        merge_field(self.field, {**changed, "partial": not p.full}, FIELD_PARTS)
        for source in changed["positions"]:
            self.fresh |= self._keys_of_source(source)
        self.fresh |= {("engine", e) for e in changed["siege"]}
        self.dirty |= self.fresh
        if p.sides is not None and p.sides != self.sides:
            self.sides = p.sides
            self.dirty.add(("valhalla",))
        for sid, view in p.stopps.items():
            self.stopps[sid] = view
            self.dirty.add(("stopp", sid))
        if p.full:
            self.dirty |= {("group", g) for g in self.counts} | set(self.sources_of) | {("valhalla",)}

    def _characters(self, views) -> None:
        for c in views:
            kind = 0 if c.condition == "active" else 2 if c.condition == "dead" else 1
            now, was = (c.group, c.side, kind), self.members.get(c.badge)
            if now == was:
                continue
            if was is not None:
                self.counts[was[0]][was[2]] -= 1
                self.dirty.add(("group", was[0]))
            self.counts.setdefault(c.group, [0, 0, 0])[kind] += 1
            self.members[c.badge] = now
            if self.side_of.get(c.group) != c.side:
                self.side_of[c.group] = c.side
                colours = self.settings.colours_for(self.side_of.values())
                if colours != self.colours:         # a side new to the feed: the sides' colours are dealt again
                    self.colours = colours
                    self.dirty |= {("group", g) for g in self.side_of}
            self.dirty.add(("group", c.group))

    def _keys_of_source(self, source: str) -> set[tuple]:
        info = self.devices.get(source, {})
        if info.get("engine"):
            return {("engine", info["engine"])}
        if info.get("group"):
            return {("group", info["group"])}
        if info.get("role") == "marshal" and not info.get("tak"):
            return {("marshal", source)}
        return set()

    # -- the objects ------------------------------------------------------------------------------------
    def _fix_of(self, sources) -> tuple | None:
        positions = self.field["positions"]
        fixes = [positions[s] for s in sources if s in positions]
        return max(fixes, key=lambda f: f[0]) if fixes else None

    def _make(self, key: tuple) -> list[tuple[str, Cot]]:
        kind = key[0]
        p, s = self.prefix, self.settings
        if kind == "valhalla":
            return [("valhalla", objs.valhalla_cot(p, self.valhalla, self.sides))] if self.valhalla else []
        name: str = key[1]          # every other kind names its group, engine, marshal or STOPP
        if kind == "group":
            fix = self._fix_of(self.sources_of.get(key, ()))
            side = self.side_of.get(name, "")
            return [("group", objs.group_cot(p, name, side, fix, self.counts.get(name, (0, 0, 0)), s,
                                             self.colours.get(side, "White")))] if fix else []
        if kind == "engine":
            fix = self._fix_of(self.sources_of.get(key, ()))
            report = self.field["siege"].get(name)
            at = (fix[1], fix[2]) if fix else (report[2], report[3]) if report and report[2] is not None else None
            status = report[1] if report else "moved"
            return [("engine", objs.engine_cot(p, name, at, status, s))] if at else []
        if kind == "marshal":
            fix = self.field["positions"].get(name)
            info = self.devices.get(name, {})
            return [("marshal", objs.marshal_cot(p, name, info.get("label") or "", fix))] if fix else []
        view = self.stopps[name]
        where = self._stopp_place(view)
        (self.unplaced.discard if where else self.unplaced.add)(name)
        return [(objs.kind_of(c, "stopp"), c) for c in objs.stopp_cots(p, view, where)]

    def _stopp_place(self, view) -> tuple[float, float, bool] | None:
        """Where a STOPP is: its report's own place, else its first group's, else HQ's (None: nowhere known)."""
        if view.lat is not None and view.lon is not None:
            return float(view.lat), float(view.lon), True
        for group in view.groups:
            fix = self._fix_of(self.sources_of.get(("group", group), ()))
            if fix:
                return float(fix[1]), float(fix[2]), False
        return (self.hq.lat, self.hq.lon, False) if self.hq else None

    def _refresh(self, now: float) -> None:
        """Make the objects of what changed; an object changed is due (see ``due``)."""
        dirty, self.dirty = self.dirty, set()
        fresh, self.fresh = self.fresh, set()
        for key in dirty:
            made = self._make(key)
            uids = self.owner.get(key, ())
            self.owner[key] = [c.uid for _kind, c in made]
            for kind, cot in made:
                e = self.entries.get(cot.uid)
                if e is None:
                    e = self.entries[cot.uid] = Entry(kind, cot, fresh_at=now)
                elif e.cot != cot or key in fresh:
                    if e.kind != kind:
                        e.ended_at = None
                    e.kind, e.cot = kind, cot
                    if key in fresh:
                        e.fresh_at = now
                if kind in ENDED and e.ended_at is None:
                    e.ended_at = now
            for uid in set(uids) - {c.uid for _k, c in made}:
                self.entries.pop(uid, None)         # nowhere to show it now: it goes stale in the clients

    def due(self) -> list[Cot]:
        """The events to send now: what changed (at most once per ``every_s`` each, at once when new or of
        another type), and what did not change but would soon be stale while its position is recent."""
        now = self.clock()
        self._refresh(now)
        every = self.settings.every_s
        out, gone = [], []
        for uid, e in self.entries.items():
            cot = e.cot
            if e.sent != cot:
                urgent = e.sent is None or e.sent.type != cot.type
                if not (urgent or now - e.sent_at >= every):
                    continue
            elif e.ended_at is not None:
                if now - e.ended_at >= KEEP_ENDED_S:
                    gone.append(uid)
                continue
            else:
                refresh = objs.REFRESH_S.get(e.kind)
                if refresh is None or now - e.sent_at < refresh or not self._alive(e, now):
                    continue
            e.sent, e.sent_at = cot, now
            out.append(cot)
        for uid in gone:
            del self.entries[uid]
        return out

    def current(self) -> list[Cot]:
        """Every object a TAK client should have now (for a server connected again): sent again."""
        now = self.clock()
        self._refresh(now)
        return [e.cot for e in self.entries.values() if e.ended_at is not None or self._alive(e, now)]

    @staticmethod
    def _alive(e: Entry, now: float) -> bool:
        """Whether an object is still where it was said to be: a device placed it within its stale time (a
        STOPP, a CASEVAC request and Valhalla stay where they are)."""
        return e.kind in TIMELESS or now - e.fresh_at < e.cot.stale_s
