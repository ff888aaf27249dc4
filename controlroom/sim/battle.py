"""A simulated battle for ``controlroom sim``: roster, radio devices, field and every radio report.

Pure and deterministic: the same arguments and seed give the same battle, byte
for byte (no I/O, no clock, no Qt).  The battle follows the rules because a
GameState (with the rule timers of a Schedule) decides what may be reported:
strikes ("down", knock-outs, big stones on shields) only on the active; binding,
healer touches and permanent kills only on the unconscious; "died" reported a
little before the ten minutes of bleeding run out; Valhalla check-ins only by
the dead; healer touches only by conscious healers with touches left; nothing
but tracker pings, heartbeats and headcounts while a STOPP is in force.

    members = generate_roster(sides=2, groups=6, players=60, seed=7)
    devices = plan_devices(members, seed=7)          # keys from the seed
    b = generate(members, devices, duration_min=30, seed=7)
    b.transmissions      # [Transmission(t_ms, device, type, frame, counter, ...)], in time order
"""

from __future__ import annotations

import heapq
import math
import random
from collections import Counter
from dataclasses import dataclass

from controlroom.game.events import Event, make_event
from controlroom.game.roster import Member
from controlroom.game.scheduler import Schedule, fire_due
from controlroom.game.state import ACTIVE, DEAD, DIES, KNOCKED_OUT, UNCONSCIOUS, GameState
from controlroom.radio import codec
from controlroom.rules.profile import RulesProfile
from controlroom.sim.roster import SimDevice, generate_roster, plan_devices  # noqa: F401 (part of this API)

ORIGIN = (58.38, 26.72)          # a field in Estonia
FIELD_X, FIELD_Y = 750.0, 500.0  # half width (east-west) and half height of the 1.5 km x 1 km field, metres
M_PER_DEG = 111_320.0
VALHALLA_XY = (-700.0, -470.0)
CANNED = ("all_quiet", "need_healer", "need_marshal", "need_water", "need_bandages", "weapon_check",
          "rules_dispute", "found_item", "outsiders", "returning", "need_game_master")
BY_FIELD = {"healer_touch": "healer", "cared_for": "carer"}     # the event field of a casualty's second badge
RETIMED = {"fight", "tick", "fight_end", "stray", "fate", "died", "care", "strain", "valhalla", "canned", "siege"}


@dataclass(frozen=True, slots=True)
class Transmission:
    """One new frame a device sends.  ``tally``: "death" / "valhalla" about a character of ``side``."""

    t_ms: int
    device: int
    type: str
    frame: bytes
    counter: int
    needs_ack: bool
    side: str | None = None
    tally: str | None = None
    xy: tuple[float, float] = (0.0, 0.0)    # where the sender was, metres east/north of the origin


@dataclass
class Battle:
    seed: int
    members: list[Member]
    devices: list[SimDevice]
    origin: tuple[float, float]
    duration_ms: int
    transmissions: list[Transmission]
    events: list[Event]             # the rule events the reports stand for, with the timers' own
    state: GameState                # at the end of the battle

    def keys(self) -> dict[int, bytes]:
        return {d.id: d.key for d in self.devices}

    def sides(self) -> list[str]:
        return list(dict.fromkeys(m.side for m in self.members))

    def counts(self) -> dict[str, int]:
        return dict(Counter(tx.type for tx in self.transmissions))


def to_latlon_e7(origin: tuple[float, float], x: float, y: float) -> tuple[int, int]:
    """Metres east (x) and north (y) of ``origin`` -> (lat, lon) in 1e-7 degree."""
    lat0, lon0 = origin
    return (int(round((lat0 + y / M_PER_DEG) * 1e7)),
            int(round((lon0 + x / (M_PER_DEG * math.cos(math.radians(lat0)))) * 1e7)))


def generate(members: list[Member], devices: list[SimDevice], duration_min: float = 60, seed: int = 0,
             origin: tuple[float, float] = ORIGIN, profile: RulesProfile | None = None,
             counter_floor: dict[int, int] | None = None, fights: int = 1) -> Battle:
    """The battle: every report of ``duration_min`` game minutes, in time order.  Frame counters
    start at a random base per device (above ``counter_floor[device]``: counters stored before).
    ``fights``: how many fights go on at once at most (one, for a small field; a field of 400 groups
    has a few dozen)."""
    if duration_min <= 0:
        raise ValueError("the battle needs a duration above 0 minutes")
    if fights < 1:
        raise ValueError("a battle has at least one fight at a time")
    gen = _Battle(members, devices, int(round(duration_min * 60_000)), seed, origin, profile, counter_floor or {},
                  fights)
    gen.run()
    return Battle(seed, list(members), list(devices), origin, gen.end, gen.out, gen.events, gen.state)


class _Battle:
    def __init__(self, members, devices, end, seed, origin, profile, floor, fights=1):
        self.fights = fights
        self.rng = rng = random.Random(f"battle:{seed}")
        self.state = GameState(members, profile)
        self.profile, self.schedule, self.end, self.origin = self.state.profile, Schedule(), end, origin
        self.out: list[Transmission] = []
        self.events: list[Event] = []
        self.heap, self.seq, self.episode, self.devs = [], 0, {}, {d.id: d for d in devices}
        self.counter = {d.id: max(rng.randrange(1 << 12, 1 << 28), floor.get(d.id, -1) + 257) for d in devices}
        self.groups: dict[str, list[int]] = {}
        for m in members:
            self.groups.setdefault(m.group, []).append(m.badge)
        self.side = {m.group: m.side for m in members}
        sides = list(dict.fromkeys(self.side.values()))
        self.marshal_of = {g: d.id for d in devices for g in d.watches}
        field_marshals = [d.id for d in devices if d.role == "marshal" and not d.at_valhalla]
        for g in self.groups:
            self.marshal_of.setdefault(g, field_marshals[0] if field_marshals else None)
        self.valhalla = next((d.id for d in devices if d.at_valhalla), None) or (field_marshals or [None])[0]
        self.pos, self.goal, self.pace, self.fight, self.moved = {}, {}, {}, {}, {}
        for g in self.groups:
            a = 2 * math.pi * sides.index(self.side[g]) / len(sides) + math.pi / 2
            self.pos[g] = [0.75 * FIELD_X * math.cos(a) + rng.uniform(-80, 80),
                           0.75 * FIELD_Y * math.sin(a) + rng.uniform(-60, 60)]
            self.goal[g], self.pace[g] = self._waypoint(), rng.uniform(0.3, 1.1)
        self.engine_xy = {d.id: [rng.uniform(-0.6, 0.6) * FIELD_X, rng.uniform(-0.6, 0.6) * FIELD_Y]
                          for d in devices if d.engine}
        self.battery = {d.id: rng.randint(60, 100) for d in devices}
        self.booted = {d.id: rng.randint(5, 180) for d in devices}
        self.stopps = self._plan_stopps(field_marshals)

    # -- the timeline ------------------------------------------------------
    def at(self, t: float, action: str, *args) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (int(t), self.seq, action, args))

    def run(self) -> None:
        rng = self.rng
        for d in self.devs.values():
            if d.role == "tracker":
                self.at(rng.uniform(0, 30_000), "ping", d.id)
                self.at(rng.uniform(60_000, 300_000), "siege" if d.engine else "headcount", d.id)
            elif not d.at_valhalla:
                self.at(rng.uniform(0, 300_000), "heartbeat", d.id)
        for i, (call, lift, *_rest) in enumerate(self.stopps):
            self.at(call, "stopp", i, False)
            self.at(lift, "stopp", i, True)
        for _ in range(self.fights):
            self.at(rng.uniform(30_000, 180_000), "fight")
        self.at(rng.expovariate(1 / 240_000), "stray")
        self.at(rng.expovariate(1 / 480_000), "canned")
        while self.heap and self.heap[0][0] <= self.end:
            t, _seq, action, args = heapq.heappop(self.heap)
            held = self._held_until(t)
            if action in RETIMED and held is not None:
                self.at(held + rng.uniform(10_000, 90_000), action, *args)
                continue
            self._fire(t)
            getattr(self, "_" + action)(t, *args)
        self._fire(self.end)

    def _plan_stopps(self, marshals: list[int]) -> list[tuple[int, int, int, int, str]]:
        rng, minutes = self.rng, self.end / 60_000
        n = 0 if minutes < 4 or not marshals else 1 + (minutes >= 20 and rng.random() < 0.5)
        out = []
        for i in range(n):
            call = int(self.end * (i + rng.uniform(0.25, 0.6)) / n)
            lift = call + int(min(rng.uniform(120_000, 360_000), 0.2 * self.end))
            reason = rng.choices(codec.STOPP_REASONS, (2, 5, 3))[0]
            out.append((call, lift, rng.choice(marshals), rng.randrange(256), reason))
        return out

    def _held_until(self, t: int) -> int | None:
        return next((lift for call, lift, *_ in self.stopps if call <= t <= lift), None)

    def _fire(self, t: int) -> None:
        fire_due(self.state, self.schedule, t, self._timer)

    def _timer(self, ev: Event) -> None:
        self.events.append(ev)
        if ev.type == "died":
            self._dead(ev.t, ev.data["badge"])

    def _apply(self, t: int, type_: str, source: str, **fields) -> None:
        ev = make_event(t, type_, source, **fields)
        badge = ev.data.get("badge")
        before = self.state.characters[badge].condition if badge is not None else None
        self.state.apply(ev)
        self.events.append(ev)
        if badge is not None:
            after = self.state.characters[badge].condition
            if after == UNCONSCIOUS and before != UNCONSCIOUS:
                self._fallen(t, badge)
            elif after == DEAD and before != DEAD:
                self._dead(t, badge)

    def _send(self, t: int, dev_id: int, type_: str, fields: dict, side=None, tally=None) -> None:
        dev = self.devs[dev_id]
        c = self.counter[dev_id]
        self.counter[dev_id] = c + 1
        frame = codec.encode_frame(dev.key, type_, dev_id, c, fields)
        self.out.append(Transmission(t, dev_id, type_, frame, c, codec.TYPES[codec.TYPE_CODES[type_]][4],
                                     side, tally, tuple(self._xy(dev, t))))

    def _report(self, t: int, badge: int, kind: str, by: int | None = None, dev_id: int | None = None) -> None:
        """A marshal's casualty report: sent, and applied to the state as the station will."""
        group = self.state.characters[badge].member.group
        dev_id = dev_id or self.marshal_of[group]
        tally = "death" if kind in codec.DEATH_KINDS else None
        self._send(t, dev_id, "casualty", {"badge": badge, "kind": kind, "by": by}, self.side[group], tally)
        fields = {"badge": badge} if by is None else {"badge": badge, BY_FIELD.get(kind, "by"): by}
        if kind == "big_stone_on_shield":
            kind, fields["on_shield"] = "big_stone", True
        self._apply(t, kind, f"marshal:{dev_id}", **fields)

    # -- where things are ----------------------------------------------------
    def _waypoint(self) -> tuple[float, float]:
        return (self.rng.uniform(-0.8, 0.8) * FIELD_X, self.rng.uniform(-0.8, 0.8) * FIELD_Y)

    def _where(self, g: str, t: int) -> list[float]:
        """Where group ``g`` is at ``t``: walked towards its goal (a waypoint, or the fight's meeting point)."""
        p, last = self.pos[g], self.moved.get(g, 0)
        self.moved[g] = max(last, t)
        step = self.pace[g] * max(0, t - last) / 1000
        gx, gy = self.goal[g]
        dist = math.hypot(gx - p[0], gy - p[1])
        if dist <= step:
            p[0], p[1] = gx, gy
            if g not in self.fight:
                self.goal[g] = self._waypoint()
        elif dist > 0:
            p[0] += (gx - p[0]) * step / dist
            p[1] += (gy - p[1]) * step / dist
        return p

    def _xy(self, dev: SimDevice, t: int) -> list[float]:
        if dev.engine:
            return self.engine_xy[dev.id]
        if dev.group:
            return self._where(dev.group, t)
        if dev.at_valhalla or not dev.watches:
            return list(VALHALLA_XY)
        ps = [self._where(g, t) for g in dev.watches]
        return [sum(p[0] for p in ps) / len(ps) + 15, sum(p[1] for p in ps) / len(ps) - 10]

    def _latlon(self, xy) -> tuple[int, int]:
        return to_latlon_e7(self.origin, xy[0] + self.rng.gauss(0, 3), xy[1] + self.rng.gauss(0, 3))

    def _members(self, group: str, condition: str = ACTIVE) -> list[int]:
        chars = self.state.characters
        return [b for b in self.groups[group] if chars[b].condition == condition]

    # -- devices' routine ------------------------------------------------------
    def _ping(self, t: int, dev_id: int) -> None:
        dev, rng = self.devs[dev_id], self.rng
        lat, lon = self._latlon(self._xy(dev, t))
        battery = max(5, self.battery[dev_id] - t // 600_000)
        self._send(t, dev_id, "position", {"lat": lat, "lon": lon, "battery": battery,
                                           "fix": 2 if rng.random() < 0.1 else 1, "sats": rng.randint(5, 14)})
        self.at(t + rng.uniform(30_000, 60_000), "ping", dev_id)

    def _heartbeat(self, t: int, dev_id: int) -> None:
        self._send(t, dev_id, "heartbeat", {"battery": max(5, self.battery[dev_id] - t // 900_000),
                                            "uptime_min": self.booted[dev_id] + t // 60_000})
        self.at(t + self.rng.uniform(240_000, 360_000), "heartbeat", dev_id)

    def _headcount(self, t: int, dev_id: int) -> None:
        g = self.devs[dev_id].group
        n = [len(self._members(g, c)) for c in (ACTIVE, UNCONSCIOUS, KNOCKED_OUT, DEAD)]
        number = list(self.groups).index(g) + 1
        self._send(t, dev_id, "headcount", {"group": number, "up": min(255, n[0]), "down": min(255, n[1] + n[2]),
                                            "dead": min(255, n[3])})
        self.at(t + self.rng.uniform(240_000, 420_000), "headcount", dev_id)

    def _siege(self, t: int, dev_id: int) -> None:
        rng, xy = self.rng, self.engine_xy[dev_id]
        status = rng.choices(codec.SIEGE_STATUSES, (35, 45, 10, 4, 6))[0]
        if status == "moved":
            xy[0] = max(-FIELD_X, min(FIELD_X, xy[0] + rng.uniform(-120, 120)))
            xy[1] = max(-FIELD_Y, min(FIELD_Y, xy[1] + rng.uniform(-120, 120)))
        lat, lon = self._latlon(xy)
        self._send(t, dev_id, "siege", {"engine": self.devs[dev_id].engine, "status": status, "lat": lat, "lon": lon})
        if status != "destroyed":
            self.at(t + rng.uniform(180_000, 540_000), "siege", dev_id)

    def _canned(self, t: int) -> None:
        marshals = sorted({d for d in self.marshal_of.values() if d})
        if marshals:
            self._send(t, self.rng.choice(marshals), "canned", {"message": self.rng.choice(CANNED)})
        self.at(t + self.rng.expovariate(1 / 480_000), "canned")

    def _stopp(self, t: int, i: int, lifted: bool) -> None:
        _call, _lift, dev_id, number, reason = self.stopps[i]
        if lifted:
            self._send(t, dev_id, "stopp_lifted", {"stopp": number})
            self._apply(t, "stopp_lifted", f"marshal:{dev_id}", stopp=f"{dev_id}-{number}")
            return
        lat, lon = self._latlon(self._xy(self.devs[dev_id], t))
        self._send(t, dev_id, "stopp_called", {"stopp": number, "reason": reason, "lat": lat, "lon": lon})
        self._apply(t, "stopp_called", f"marshal:{dev_id}", stopp=f"{dev_id}-{number}", reason=reason,
                    lat=lat / 1e7, lon=lon / 1e7)

    # -- fighting --------------------------------------------------------------
    def _fight(self, t: int) -> None:
        rng = self.rng
        self.at(t + rng.uniform(150_000, 420_000), "fight")
        free = [g for g in self.groups if g not in self.fight and self._members(g)]
        pairs = [(math.dist(self._where(a, t), self._where(b, t)), a, b) for a in free for b in free
                 if a < b and self.side[a] != self.side[b]]
        if not pairs:
            return
        pairs.sort()
        _d, a, b = pairs[min(len(pairs) - 1, int(rng.expovariate(1.0)))]
        meet = tuple((p + q) / 2 for p, q in zip(self._where(a, t), self._where(b, t)))
        until = t + rng.uniform(120_000, 360_000)
        for g, other in ((a, b), (b, a)):
            self.fight[g], self.goal[g] = other, meet
        if rng.random() < 0.5:
            self._send(t, self.marshal_of[a], "canned", {"message": "fight_started"})
        self.at(t + rng.expovariate(1 / 30_000), "tick", a, b, until)
        self.at(until, "fight_end", a, b)

    def _tick(self, t: int, a: str, b: str, until: float) -> None:
        if t >= until or self.fight.get(a) != b:
            return
        rng = self.rng
        pools = [self._members(a), self._members(b)]
        if pools[0] and pools[1]:
            victim = rng.choice(pools[rng.random() < len(pools[1]) / (len(pools[0]) + len(pools[1]))])
            self._hit(t, victim, stone=False)
        self.at(t + rng.expovariate(1 / 35_000), "tick", a, b, until)

    def _fight_end(self, t: int, a: str, b: str) -> None:
        for g in (a, b):
            if g in self.fight:
                del self.fight[g]
                self.goal[g] = self._waypoint()
        if self.rng.random() < 0.5:
            self._send(t, self.marshal_of[b], "canned", {"message": "fight_over"})

    def _stray(self, t: int) -> None:
        """An arrow or a siege engine's stone somewhere on the field."""
        active = [b for g in self.groups for b in self._members(g)]
        if active:
            self._hit(t, self.rng.choice(active), stone=True)
        self.at(t + self.rng.expovariate(1 / 240_000), "stray")

    def _hit(self, t: int, badge: int, stone: bool) -> None:
        r, ch = self.rng.random(), self.state.characters[badge]
        if r < 0.15 and not stone and ch.member.helmet is None:
            self._report(t, badge, "knocked_out")
        elif r < (0.4 if stone else 0.22):
            self._report(t, badge, "big_stone_on_shield")
        else:
            self._report(t, badge, "down")

    # -- the fallen and the dead -----------------------------------------------
    def _fallen(self, t: int, badge: int) -> None:
        rng = self.rng
        e = self.episode[badge] = self.episode.get(badge, 0) + 1
        r = rng.random()
        if r < 0.33:
            self.at(t + rng.uniform(60_000, 400_000), "fate", badge, e, "bound")
        elif r < 0.5:
            self.at(t + rng.uniform(30_000, 240_000), "fate", badge, e, "healer_touch")
        elif r < 0.65:
            self.at(t + rng.uniform(15_000, 150_000), "fate", badge, e, "permanent_kill")
        elif rng.random() < 0.5:
            self.at(t + self.profile.dying_ms - rng.uniform(5_000, 40_000), "died", badge, e)

    def _dead(self, t: int, badge: int) -> None:
        if self.rng.random() < 0.9 and self.valhalla is not None:
            self.at(t + self.rng.uniform(120_000, 540_000), "valhalla", badge)

    def _down(self, badge: int, e: int) -> bool:
        return self.state.characters[badge].condition == UNCONSCIOUS and self.episode.get(badge) == e

    def _fate(self, t: int, badge: int, e: int, kind: str) -> None:
        if not self._down(badge, e):
            return
        rng, ch = self.rng, self.state.characters[badge]
        group, chars = ch.member.group, self.state.characters
        if kind == "healer_touch":
            healers = [b for g, side in self.side.items() if side == self.side[group] for b in self._members(g)
                       if chars[b].touches_used < self.profile.character_class(chars[b].member.cls).healer_touches]
            if healers:
                self._report(t, badge, "healer_touch", rng.choice(healers))
                return
            kind = "bound"
        if kind == "permanent_kill":
            foes = [b for g in self.groups if self.side[g] != self.side[group] for b in self._members(g)]
            if foes:
                self._report(t, badge, "permanent_kill", rng.choice(foes) if rng.random() < 0.7 else None)
            return
        friends = [b for b in self._members(group) if b != badge]
        if friends:
            self._report(t, badge, "bound", rng.choice(friends) if rng.random() < 0.6 else None)
            if rng.random() < 0.4:
                self.at(t + rng.uniform(30_000, 240_000), "care", badge)
            if rng.random() < 0.12:
                self.at(t + rng.uniform(60_000, 600_000), "strain", badge)

    def _died(self, t: int, badge: int, e: int) -> None:
        if not self._down(badge, e):
            return
        due = next((d.due for d in self.state.deadlines_of(badge) if d.kind == DIES), None)
        if due is None or due <= t:
            return
        if due - t > 60_000:           # a STOPP held the clock: ten minutes are not up yet
            self.at(due - self.rng.uniform(5_000, 40_000), "died", badge, e)
            return
        self._report(t, badge, "died")

    def _care(self, t: int, badge: int) -> None:
        ch, chars = self.state.characters[badge], self.state.characters
        if ch.condition != ACTIVE or not ch.bound or ch.regen_at is None or ch.carer is not None:
            return
        def free(b):
            limit = self.profile.character_class(chars[b].member.cls).max_cared
            return b != badge and (not limit or len(chars[b].patients) < limit)
        carers = [b for b in self._members(ch.member.group) if free(b)]
        healers = [b for b in carers if self.profile.character_class(chars[b].member.cls).healer_touches]
        if carers:
            self._report(t, badge, "cared_for", self.rng.choice(healers or carers))

    def _strain(self, t: int, badge: int) -> None:
        if self.state.characters[badge].condition == ACTIVE and self.state.characters[badge].bound:
            self._report(t, badge, "strenuous")

    def _valhalla(self, t: int, badge: int) -> None:
        ch = self.state.characters[badge]
        if ch.condition == DEAD and not ch.in_valhalla:
            self._send(t, self.valhalla, "valhalla", {"badge": badge}, ch.member.side, "valhalla")
            self._apply(t, "valhalla_checkin", f"marshal:{self.valhalla}", badge=badge)
