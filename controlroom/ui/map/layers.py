"""From the core's deltas to the map's layers: who is where, in which colour."""

from __future__ import annotations

import collections
import math
import time

import numpy as np
from PySide6.QtCore import QCoreApplication, QTimer

from controlroom.game.views import StateDelta, merge_field
from controlroom.geo.frame import MapFrame
from controlroom.ui.map.view import MapView

SIDE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
SIEGE_COLOURS = {"moved": "#555555", "firing": "#ff7f0e", "damaged": "#bcbd22", "destroyed": "#000000",
                 "captured": "#9467bd"}


# A trail keeps one point every 5 s: at 200 frames a second the map does not redraw tens of thousands of dots.
TRAIL_STEP_MS = 5_000
_NO_INFO: dict = {}                 # (read only) a source the devices do not name
_NO_COUNTS = (0, 0, 0)
_NOT_MADE = (None,)


class MapLayers:
    """Keeps the latest field reports and pushes them into a MapView's layers."""

    def __init__(self, view: MapView, projection: MapFrame | None = None,
                 valhalla: tuple[float, float] | None = None, trail_minutes: float = 10.0,
                 redraw_ms: int = 0, replan_ms: int = 0, trails_ms: int = 0):
        self.view = view
        # The layers are drawn again at most every ``redraw_ms`` (0: at each delta); deltas in between are
        # taken in (counts, the fallen, STOPPs) and drawn together once the time is up.
        self.redraw_ms = redraw_ms
        # Whom the casualties layer shows is planned again at most every ``replan_ms``, and the trails set again
        # at most every ``trails_ms`` (0: at each drawing).  Either sets every marker of its layer again (a
        # Python loop per marker in pyqtgraph, 2,000 of each in a big battle: 10-20 ms each time); in between,
        # the fallen near their group move with it, and the trails keep what they showed.
        self.replan_ms = replan_ms
        self.trails_ms = trails_ms
        self._planned_at = -math.inf
        self._trails_at = -math.inf
        self._drawn_at = -math.inf
        self._field: dict = {}
        self._redraw = QTimer(view)
        self._redraw.setSingleShot(True)
        self._redraw.timeout.connect(self.flush)
        if projection is not None and view.projection is None:
            view.projection = projection
        self.valhalla = valhalla                    # (lat, lon) of Valhalla, if the organisers gave it
        self.devices: dict[str, dict] = {}
        self.side_of_group: dict[str, str] = {}
        self.side_colour: dict[str, str] = {}
        self.group_counts: dict[str, list[int]] = {}       # group -> [up, down, dead] from the characters
        self.stopps: dict[str, tuple] = {}
        self._conditions: dict[int, tuple[str, str]] = {}
        self.unacknowledged: set[str] = set()      # STOPPs whose alarm no game master has acknowledged
        self.trail_ms = trail_minutes * 60_000
        self._trails: dict[str, collections.deque] = {}    # source -> (t, x, y) of its recent positions
        self._trails_changed = True                # the trails layer is set again only when a kept point changed
        self.fell_at: dict[int, tuple[float, float, str]] = {}  # badge -> (lat, lon, how known) where it fell
        self._positions: dict = {}
        # The casualties layer is planned again only when someone fell, woke or was placed (the version
        # changes); in between, each delta only moves the fallen "near group" with their group's marker.
        self._fallen_version = 0
        self._plan_key: tuple | None = None
        self._plan: dict | None = None
        self._casualties_shown: tuple | None = None    # (plan key, xs, ys) last set on the map
        self._fallen_rows: dict | None = None     # badge -> what the casualties layer shows of it (None: all anew)
        self._fallen_changed: set[int] = set()    # badges whose condition changed since the last plan
        self._rows_frame = None
        self._given: dict[str, tuple[list, list]] = {}  # layer -> (colours, labels) last given to the map
        self._made: dict[str, tuple] = {}       # source -> (what its marker was made from, marker, label)
        self._made_frame = None

    @property
    def projection(self) -> MapFrame | None:
        """The map's frame: the map's, or (without a map) one centred on the first positions reported."""
        return self.view.projection

    def _frame(self, lats, lons) -> MapFrame | None:
        if self.view.projection is None and len(lats):
            try:
                self.view.projection = MapFrame.around(lats, lons)
            except ValueError:
                return None
        return self.view.projection

    def set_devices(self, devices: dict[str, dict]) -> None:
        self.devices = dict(devices)
        self._made.clear()                  # a device's group or role may have changed: every marker made anew

    def _colour(self, side: str) -> str:
        if side not in self.side_colour:
            self.side_colour[side] = SIDE_COLOURS[len(self.side_colour) % len(SIDE_COLOURS)]
        return self.side_colour[side]

    def apply(self, delta: StateDelta) -> None:
        self._follow_roster(delta)
        if delta.full:
            self.group_counts.clear()
        self._count(delta)
        for s in delta.stopps:
            if s.lifted is None and s.lat is not None and s.lon is not None:
                if s.id not in self.stopps:
                    self.unacknowledged.add(s.id)
                self.stopps[s.id] = (s.lat, s.lon, s.reason)
            else:
                self.stopps.pop(s.id, None)
                self.unacknowledged.discard(s.id)
        for stored in delta.events:
            alarm = stored.event.data.get("alarm", "") if stored.event.type == "alarm_acknowledged" else ""
            if alarm.startswith("stopp:"):
                self.unacknowledged.discard(alarm[len("stopp:"):])
        self._field = merge_field(self._field, delta.field)     # a delta brings what changed since the last
        self._positions = self._field.get("positions", {})
        self._fallen(delta)
        self._sides = delta.sides
        self._now = delta.t
        wait = self._drawn_at + self.redraw_ms / 1000 - time.monotonic()
        if delta.full or wait <= 0:
            self.flush()
        elif not self._redraw.isActive():
            self._redraw.start(max(1, int(wait * 1000)))

    def _follow_roster(self, delta: StateDelta) -> None:
        """Each group's side, read anew from a full delta (the opening, a refold over a new roster); the legend
        follows here, not where the layers are drawn: those wait for something to place (issue 37)."""
        side_of_group = {} if delta.full else self.side_of_group
        changed = delta.full
        for ch in delta.characters:
            if side_of_group.get(ch.group) != ch.side:
                side_of_group[ch.group] = ch.side
                changed = True
        if changed:
            self.side_of_group = side_of_group
            self.view.legend.set_sides({side: self._colour(side) for side in sorted(set(side_of_group.values()))})

    def flush(self) -> None:
        """Draw the layers from what the deltas brought, now."""
        self._redraw.stop()
        self._drawn_at = time.monotonic()
        self._draw(self._field)

    def _draw_again_in(self, seconds: float) -> None:
        """Draw again within ``seconds`` (what waits its time is drawn then even if no delta comes)."""
        ms = max(1, int(seconds * 1000) + 1)
        if not self._redraw.isActive() or self._redraw.remainingTime() > ms:
            self._redraw.start(ms)

    #: A marshal's own position stands for a casualty's when heard this recently before the report.
    MARSHAL_FIX_MS = 120_000

    def _fallen(self, delta: StateDelta) -> None:
        """Where each casualty fell: the report's own position, else its marshal's position at the time."""
        fell_at = self.fell_at
        changed: set[int] = set()
        for stored in delta.events:
            e = stored.event
            badge = e.data.get("badge")
            if badge is None or e.type in ("position", "heartbeat", "weapon_inspected", "armour_set", "hp_set"):
                continue
            if e.type in ("respawned", "valhalla_checkin"):
                if fell_at.pop(badge, None) is not None:
                    changed.add(badge)
                continue
            if e.data.get("lat") is not None and e.data.get("lon") is not None:
                place = (e.data["lat"], e.data["lon"], "reported")
                if fell_at.get(badge) != place:
                    changed.add(badge)
                fell_at[badge] = place
                continue
            heard = self._positions.get(e.source)
            if heard is not None and abs(e.t - heard[0]) <= self.MARSHAL_FIX_MS and badge not in fell_at:
                fell_at[badge] = (heard[1], heard[2], "marshal")
                changed.add(badge)
        for ch in delta.characters:
            if ch.condition == "active" and fell_at.pop(ch.badge, None) is not None:
                changed.add(ch.badge)
        if changed:
            self._fallen_version += 1
            self._fallen_changed |= changed

    @staticmethod
    def _kind(condition: str) -> int:
        return 0 if condition == "active" else 2 if condition == "dead" else 1

    def _count(self, delta: StateDelta) -> None:
        # Counts per group come from the characters; a delta carries only those that changed,
        # so the layer keeps a per-character view, and counts only what changed.
        conditions = self._conditions
        if delta.full:
            for ch in delta.characters:
                conditions[ch.badge] = (ch.group, ch.condition)
            counts: dict[str, list[int]] = {}
            for group, condition in conditions.values():
                counts.setdefault(group, [0, 0, 0])[self._kind(condition)] += 1
            self.group_counts = counts
            self._fallen_version += 1
            self._fallen_rows = None                # every fallen character planned again
            return
        counts = self.group_counts
        for ch in delta.characters:
            now = (ch.group, ch.condition)
            was = conditions.get(ch.badge)
            if was == now:
                continue
            if was is not None:
                counts[was[0]][self._kind(was[1])] -= 1
            counts.setdefault(now[0], [0, 0, 0])[self._kind(now[1])] += 1
            conditions[ch.badge] = now
            self._fallen_version += 1
            self._fallen_changed.add(ch.badge)

    def _draw(self, field: dict) -> None:
        positions = field.get("positions", {})
        groups, marshals, trackers, siege, labels = [], [], [], [], []
        where_group: dict[str, tuple[float, float]] = {}
        stopp_ll = list(self.stopps.values())
        lats = [p[1] for p in positions.values()] + [s[0] for s in stopp_ll]
        lons = [p[2] for p in positions.values()] + [s[1] for s in stopp_ll]
        frame = self._frame(lats, lons)
        if frame is None:
            return                  # nothing to place yet, nor any map
        xs, ys = frame.to_local(np.asarray(lats, dtype=float), np.asarray(lons, dtype=float))
        xs, ys = np.atleast_1d(xs), np.atleast_1d(ys)
        # What each source shows is kept with what it was made from (its position report, its group's counts,
        # its engine's status): of 400 groups a few moved since the last drawing, and making every marker's
        # texts again took most of the 10 ms a drawing cost (bench_map, a profile).
        if frame is not self._made_frame:       # (another frame: every position lands elsewhere)
            self._made.clear()
            self._made_frame = frame
        made = self._made
        devices, counts_of, side_of = self.devices, self.group_counts, self.side_of_group
        siege_status = field.get("siege", {})
        now = getattr(self, "_now", None)
        for i, (source, report) in enumerate(positions.items()):
            info = devices.get(source, _NO_INFO)
            group = info.get("group")
            if group:
                counts = counts_of.get(group, _NO_COUNTS)
                side = side_of.get(group, "?")
                stamp = (report, counts[0], counts[1], counts[2], side)
                was = made.get(source)
                if was is not None and was[0] == stamp:
                    _stamp, marker, label = was
                else:
                    x, y = float(xs[i]), float(ys[i])
                    self._trail(source, report[0], x, y)
                    up, down, dead = counts
                    marker = (x, y, self._colour(side), f"{group} ({side}): {up} up, {down} down, {dead} dead")
                    label = (x, y, f"{group} {up}\u2191 {down}\u2193 {dead}\u2020", -(down + dead), group)
                    made[source] = (stamp, marker, label)
                where_group[group] = (marker[0], marker[1])
                groups.append(marker)
                labels.append(label)
                continue
            _t, _lat, _lon, battery, _fix = report
            x, y = float(xs[i]), float(ys[i])
            if made.get(source, _NOT_MADE)[0] != report:
                self._trail(source, _t, x, y)
                made[source] = (report, None, None)
            if info.get("engine"):
                status = siege_status.get(info["engine"], (0, "moved"))[1]
                siege.append((x, y, SIEGE_COLOURS.get(status, "#555555"), f"{info['engine']}: {status}"))
            elif info.get("role") == "marshal":
                bat = f", battery {battery} %" if battery is not None else ""
                age = max(0, (_t if now is None else now) - _t) // 1000
                heard = f"last report {age // 60} min {age % 60} s ago" if age >= 60 else f"last report {age} s ago"
                trust = (", " + QCoreApplication.translate("MapLayers", "position by TAK, not authenticated")
                         if info.get("tak") else "")
                marshals.append((x, y, "#ffd700", f"{info.get('label') or source}: {heard}{bat}{trust}"))
            else:
                trackers.append((x, y, "#7f7f7f", info.get("label") or source))
        for name, points in (("groups", groups), ("marshals", marshals), ("trackers", trackers), ("siege", siege)):
            self._set(name, points)
        # Labels: the groups with most fallen first (they win a crowded spot), then by name.
        self.view.set_labels([(x, y, text) for x, y, text, _k, _g in sorted(labels, key=lambda row: (row[3], row[4]))])
        self._set_casualties(where_group, frame)
        if self._trails_changed:
            wait = self._trails_at + self.trails_ms / 1000 - time.monotonic()
            if wait <= 0:
                self._trails_changed = False
                self._trails_at = time.monotonic()
                self._set("trails", self._trail_points())
            else:
                self._draw_again_in(wait)
        stopps = []
        for k, (sid, (_lat, _lon, reason)) in enumerate(self.stopps.items()):
            i = len(positions) + k
            stopps.append((float(xs[i]), float(ys[i]), "#ff0000", f"STOPP {sid} ({reason})"))
        self._set("stopp", stopps)
        if self.valhalla is not None:
            per_side = ", ".join(f"{side} {c.get('dead', 0)} dead ({c.get('in_valhalla', 0)} here)"
                                 for side, c in getattr(self, "_sides", {}).items())
            vx, vy = frame.to_local(*self.valhalla)
            self._set("valhalla", [(vx, vy, "#444444", f"Valhalla: {per_side}")])

    def group_xy(self, group: str) -> tuple[float, float] | None:
        """Where a group's tracker was last heard, in frame metres."""
        for source, info in self.devices.items():
            trail = self._trails.get(source)
            if info.get("group") == group and trail:
                return trail[-1][1], trail[-1][2]
        return None

    def badge_xy(self, badge: int) -> tuple[float, float] | None:
        """Where a player is: where they fell when known, else where their group is."""
        fell = self.fell_at.get(badge)
        if fell is not None and self.projection is not None:
            x, y = self.projection.to_local(fell[0], fell[1])
            return float(x), float(y)
        group = self._conditions.get(badge, (None,))[0]
        return self.group_xy(group) if group else None

    def where(self, event) -> tuple[float, float] | None:
        """Map position of an event: its own latitude and longitude, or where its character's group is."""
        d = event.data
        if d.get("lat") is not None and d.get("lon") is not None:
            frame = self._frame([d["lat"]], [d["lon"]])
            return frame.to_local(d["lat"], d["lon"])
        group = self._conditions.get(d.get("badge"), (None,))[0] if d.get("badge") else None
        for source, info in self.devices.items():
            if (info.get("group") == group and group) or source == event.source:
                trail = self._trails.get(source)
                if trail:
                    return trail[-1][1], trail[-1][2]
        return None

    def _trail(self, source: str, t: int, x: float, y: float) -> None:
        """Keep a point of the trail every TRAIL_STEP_MS; the newest position replaces the last one in between
        (it is where the marker is, not yet the trail: the trail shows every point but the last)."""
        trail = self._trails.setdefault(source, collections.deque())
        if len(trail) >= 2 and t - trail[-2][0] < TRAIL_STEP_MS:
            trail[-1] = (t, x, y)
        elif not trail or trail[-1][0] != t:
            trail.append((t, x, y))
            self._trails_changed = len(trail) > 1 or self._trails_changed
        while trail and trail[0][0] < t - self.trail_ms:
            trail.popleft()
            self._trails_changed = True

    def _trail_points(self) -> list[tuple]:
        """Where groups, engines and marshals were in the last minutes (not where they are now)."""
        out = []
        for source, trail in self._trails.items():
            info = self.devices.get(source, {})
            side = self.side_of_group.get(info.get("group", ""), None)
            colour = self._colour(side) if side else "#555555"
            out += [(x, y, colour, source) for _t, x, y in list(trail)[:-1]]
        return out

    def _casualties(self, where_group: dict[str, tuple[float, float]], frame: MapFrame) -> list[tuple]:
        """The fallen: where they fell when known; else in a ring "near group", around the group's marker."""
        xs, ys, colours, labels = self._casualty_arrays(where_group, frame)
        return list(zip(xs.tolist(), ys.tolist(), colours, labels))

    def _casualty_plan(self, frame: MapFrame) -> dict:
        """What of the casualties layer does not move with the groups, made again only when the fallen change.

        Per fallen character, in badge order: either where it fell (x, y), or
        its group's index and its offset on the ring around the group's marker;
        and its colour and hover text (the same list objects until the fallen
        change, so that the map does not convert them again).
        """
        key = (self._fallen_version, id(frame))
        if self._plan_key == key and self._plan is not None:
            return self._plan
        if (self._plan is not None and self._plan_key[1] == id(frame) and self._fallen_rows is not None
                and self.replan_ms > 0):
            wait = self._planned_at + self.replan_ms / 1000 - time.monotonic()
            if wait > 0:
                self._draw_again_in(wait)           # the fallen since then are shown once the time is up
                return self._plan
        self._planned_at = time.monotonic()
        rows = self._fallen_rows_now(frame)
        base_x, base_y, group_index, colours, labels = [], [], [], [], []
        group_names: dict[str, int] = {}
        near: dict[str, int] = {}
        fells = []
        for badge in sorted(rows):
            group, colour, label, fell = rows[badge]
            if fell is not None:
                fells.append((len(base_x), fell[0], fell[1]))
                base_x.append(0.0)
                base_y.append(0.0)
                group_index.append(-1)
            else:
                k = near[group] = near.get(group, -1) + 1
                # Near the group: evenly on a ring 15 m out (a second ring further for many), never random.
                ring, slot = divmod(k, 12)
                angle = 2 * math.pi * (slot + 0.5 * ring) / 12
                r = 15.0 + 8.0 * ring
                base_x.append(r * math.cos(angle))
                base_y.append(r * math.sin(angle))
                group_index.append(group_names.setdefault(group, len(group_names)))
            colours.append(colour)
            labels.append(label)
        bx, by = np.asarray(base_x, dtype=float), np.asarray(base_y, dtype=float)
        if fells:
            at = np.asarray([i for i, _la, _lo in fells])
            fx, fy = frame.to_local(np.asarray([la for _i, la, _lo in fells], dtype=float),
                                    np.asarray([lo for _i, _la, lo in fells], dtype=float))
            bx[at], by[at] = np.atleast_1d(fx), np.atleast_1d(fy)
        self._plan_key = key
        self._plan = {"x": bx, "y": by, "group": np.asarray(group_index, dtype=int), "groups": list(group_names),
                      "colours": colours, "labels": labels}
        return self._plan

    def _fallen_rows_now(self, frame: MapFrame) -> dict[int, tuple]:
        """badge -> (group, colour, hover text, (lat, lon) where it fell or None) of every fallen character;
        only the characters that changed are made again."""
        rows = self._fallen_rows
        if rows is None or self._rows_frame is not frame:
            rows, todo = {}, [b for b, (_g, c) in self._conditions.items() if c != "active"]
        else:
            todo = self._fallen_changed
        self._fallen_changed = set()
        self._rows_frame = frame
        for badge in todo:
            group, condition = self._conditions.get(badge, ("", "active"))
            if condition == "active":
                rows.pop(badge, None)
                continue
            colour = "#ab47bc" if condition == "dead" else "#e65100"       # as the legend: read at night too
            state = condition.replace("_", " ")
            fell = self.fell_at.get(badge)
            if fell is not None:
                how = (QCoreApplication.translate("MapLayers", "where reported") if fell[2] == "reported"
                       else QCoreApplication.translate("MapLayers", "at the reporting marshal"))
                label = QCoreApplication.translate("MapLayers", "badge {badge}: {state} ({how})").format(
                    badge=badge, state=state, how=how)
                rows[badge] = (group, colour, label, (fell[0], fell[1]))
            else:
                rows[badge] = (group, colour, QCoreApplication.translate(
                    "MapLayers", "badge {badge}: {state} (near group {group}, no position reported)").format(
                    badge=badge, state=state, group=group), None)
        self._fallen_rows = rows
        return rows

    def _casualty_arrays(self, where_group: dict[str, tuple[float, float]], frame: MapFrame):
        """The casualties layer now: (xs, ys, colours, labels); a fallen character whose group is nowhere is
        left out."""
        plan = self._casualty_plan(frame)
        gi = plan["group"]
        if not plan["groups"]:
            return plan["x"], plan["y"], plan["colours"], plan["labels"]
        nowhere = (math.nan, math.nan)
        gxy = np.asarray([where_group.get(g, nowhere) for g in plan["groups"]], dtype=float)
        near = gi >= 0
        xs, ys = plan["x"].copy(), plan["y"].copy()
        xs[near] += gxy[gi[near], 0]
        ys[near] += gxy[gi[near], 1]
        known = ~np.isnan(xs)
        if known.all():
            return xs, ys, plan["colours"], plan["labels"]
        keep = np.flatnonzero(known).tolist()
        return (xs[known], ys[known], [plan["colours"][i] for i in keep], [plan["labels"][i] for i in keep])

    def _set_casualties(self, where_group: dict[str, tuple[float, float]], frame: MapFrame) -> None:
        """Set the casualties layer only when a fallen character or the group one is near moved."""
        xs, ys, colours, labels = self._casualty_arrays(where_group, frame)
        shown = self._casualties_shown
        if (shown is not None and shown[0] == self._plan_key and shown[3] is colours
                and np.array_equal(shown[1], xs) and np.array_equal(shown[2], ys)):
            return
        self._casualties_shown = (self._plan_key, xs, ys, colours)
        if not len(xs):
            self.view.clear_layer("casualties")
            self._given.pop("casualties", None)
            return
        colours, labels = self._same("casualties", colours, labels)
        self.view.set_layer("casualties", xs, ys, colours=colours, labels=labels)

    def _set(self, name: str, points: list[tuple]) -> None:
        if not points:
            self.view.clear_layer(name)
            self._given.pop(name, None)
            return
        xs, ys, colours, labels = zip(*points)
        colours, labels = self._same(name, list(colours), list(labels))
        self.view.set_layer(name, list(xs), list(ys), colours=colours, labels=labels)

    def _same(self, name: str, colours: list, labels: list) -> tuple[list, list]:
        """The colour and label lists last given for a layer when these equal them: the map, given the same
        lists again, neither converts them nor builds its markers' styles again (it only moves them)."""
        before = self._given.get(name)
        if before is not None:
            colours = before[0] if before[0] == colours else colours
            labels = before[1] if before[1] == labels else labels
        self._given[name] = (colours, labels)
        return colours, labels
