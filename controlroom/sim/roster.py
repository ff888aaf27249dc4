"""The simulated battle's people and radios: a generated roster, and the handsets and trackers they carry."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from controlroom.game.roster import Member
from controlroom.radio import codec
from controlroom.rules.profile import RulesProfile, default_profile

SIDES = ("North", "South", "East", "West", "Coast", "Forest", "Marsh", "Hills")
GROUPS = ("Wolves", "Ravens", "Bears", "Elks", "Lynxes", "Boars", "Eagles", "Foxes", "Owls", "Hawks",
          "Otters", "Stags", "Badgers", "Herons", "Vipers", "Bisons")
FIRST = ("Aldo", "Birgit", "Kaarel", "Liis", "Mart", "Piret", "Rein", "Tiiu", "Urmas", "Vaike", "Jaan", "Kadri",
         "Toomas", "Maret", "Indrek", "Helle", "Priit", "Anu", "Siim", "Kertu", "Ott", "Eha", "Margus", "Reet")
EPITHETS = ("the Bold", "Ironhand", "Longbeard", "the Quiet", "Axebiter", "of the Marsh", "Redcloak",
            "Stonefist", "the Swift", "Ashborn", "Oakheart", "the Grim")
ENGINES = ("Trebuchet", "Ballista", "Catapult", "Onager")
# The marshals carrying the handsets: people's names (a report names a handset by who carries it, in any
# language; "Marshal 2" was English in an Estonian report).
MARSHALS = ("Kalle Tamm", "Mari Saar", "Jüri Sepp", "Anne Mägi", "Peeter Kask", "Liina Kukk", "Tõnis Rebane",
            "Ene Ilves", "Arvo Pärn", "Heli Koppel")

@dataclass(frozen=True, slots=True)
class SimDevice:
    """A simulated marshal handset or tracker.  ``watches``: the groups a field marshal reports on."""

    id: int
    role: str
    label: str
    key: bytes = field(default=b"", repr=False)
    group: str | None = None
    siege_engine: str | None = None
    marshal: str | None = None
    watches: tuple[str, ...] = ()
    at_valhalla: bool = False
    engine: int = 0                 # siege engine number in siege frames


def _healer_class(profile: RulesProfile) -> str | None:
    return next((n for n, c in sorted(profile.classes.items()) if c.healer_touches > 0), None)


def generate_roster(sides: int = 2, groups: int = 6, players: int = 60, seed: int = 0,
                    profile: RulesProfile | None = None) -> list[Member]:
    """``players`` in all, in ``groups`` groups in all, spread over ``sides`` sides; all paid.
    At most one healer per five members of a group; some helmets and body armour."""
    if not 1 <= sides <= groups <= players:
        raise ValueError("need at least one side, a group per side and a player per group "
                         f"(sides {sides}, groups {groups}, players {players})")
    profile = profile or default_profile()
    rng = random.Random(f"roster:{seed}")
    healer = _healer_class(profile)
    helmets, bodies = sorted(profile.helmet_points), sorted(profile.body_points)
    side_names = [SIDES[i] if i < len(SIDES) else f"Side {i + 1}" for i in range(sides)]
    members, badge = [], 1
    for g in range(groups):
        name = GROUPS[g % len(GROUPS)] + (f" {g // len(GROUPS) + 1}" if g >= len(GROUPS) else "")
        size = players // groups + (g < players % groups)
        most = size // profile.members_per_healer if healer else 0
        healers = most if rng.random() < 0.7 else max(0, most - 1)
        for i in range(size):
            helmet = rng.choice(helmets) if helmets and rng.random() < 0.35 else None
            armour = (rng.choice(bodies),) if bodies and rng.random() < 0.3 else ()
            who = f"{rng.choice(FIRST)} {rng.choice(EPITHETS)}"
            members.append(Member(badge, who, side_names[g % sides], name, healer if i < healers else "warrior",
                                  True, helmet, armour))
            badge += 1
    return members


def _marshal(k: int) -> str:
    name = MARSHALS[k % len(MARSHALS)]
    return name if k < len(MARSHALS) else f"{name} {k // len(MARSHALS) + 1}"


def plan_devices(members: list[Member], seed: int = 0, engines: int | None = None,
                 groups_per_marshal: int = 2) -> list[SimDevice]:
    """Field marshal handsets (one per ``groups_per_marshal`` groups, ids 1001..) and one at Valhalla; a
    tracker per group leader (2001..) and per siege engine (3001..).  Keys come from the seed (a game's
    registry gives its own: ``dataclasses.replace(device, key=...)``)."""
    rng = random.Random(f"keys:{seed}")
    groups = list(dict.fromkeys(m.group for m in members))
    sides = list(dict.fromkeys(m.side for m in members))
    out = []
    per = max(1, groups_per_marshal)
    for k in range((len(groups) + per - 1) // per):
        watch = tuple(groups[per * k:per * k + per])
        out.append(SimDevice(1001 + k, "marshal", f"Handset {k + 1} ({', '.join(watch)})",
                             marshal=_marshal(k), watches=watch))
    out.append(SimDevice(1001 + len(out), "marshal", "Handset at Valhalla", marshal=_marshal(len(out)),
                         at_valhalla=True))
    for i, g in enumerate(groups):
        out.append(SimDevice(2001 + i, "tracker", f"Tracker {g}", group=g))
    n = engines if engines is not None else min(4, max(2, len(sides)))
    for j in range(n):
        name = f"{ENGINES[j % len(ENGINES)]} {j + 1}"
        out.append(SimDevice(3001 + j, "tracker", f"Tracker on {name}", siege_engine=name, engine=j + 1))
    return [replace(d, key=rng.randbytes(codec.KEY_LEN)) for d in out]
