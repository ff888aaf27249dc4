"""The battle as TAK objects: which CoT event each group, siege engine, marshal, Valhalla and STOPP is.

Pure functions of what the TAK feed keeps of the game (``radio.tak_feed``):
each returns the ``Cot`` events an object is now (none when it has no place
to be shown).  The table (docs/tak.md):

- a group is an atom ``a-<affiliation>-G-U-C`` at its tracker's last fix,
  its callsign the group's name, its side's team colour as its ``__group``,
  up/down/dead in its remarks, and its footprint as the circular error;
- a siege engine is ``a-<affiliation>-G-E-W`` (ground equipment, weapon) at
  its tracker's fix or its last status report's place, its status in remarks;
- a marshal's handset is ``a-f-G-U-C`` at its last fix, in white;
- Valhalla is a spot marker ``b-m-p-s-m`` at the field map's place of that
  name, its count in remarks;
- a STOPP is an emergency ``b-a-o-tbl`` while in force and ``b-a-o-can``
  once lifted; an injury STOPP is also a CASEVAC request ``b-r-f-h-c``,
  removed (``t-x-d-d``) when the STOPP is lifted.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping, Sequence

from controlroom.game.tak_settings import TakSettings
from controlroom.geo.places import Place
from controlroom.i18n import translate
from controlroom.radio.cot import EMERGENCY_ALERT, Cot, delete_of, how_of

#: How long a TAK client may trust each kind of object after it was sent (s), and how often an object
#: that did not change is sent again while its position is that recent (s).  A tracker reports every
#: 30 s to 2 min, a marshal's handset every 2 min (keys.RADIO_DEFAULTS), the silence alarm is at 10 min.
STALE_S = {"group": 300.0, "engine": 300.0, "marshal": 600.0, "valhalla": 900.0, "stopp": 300.0,
           "cancel": 120.0, "casevac": 600.0, "delete": 60.0}
REFRESH_S = {"group": 60.0, "engine": 60.0, "marshal": 120.0, "valhalla": 300.0, "stopp": 60.0,
             "casevac": 120.0}
MIN_FOOTPRINT_M = 10.0
MARSHAL_COLOUR = "White"
VALHALLA_NAMES = ("valhalla",)
HQ_NAMES = ("hq", "headquarters", "control room", "staap", "peakorter")
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def uid_part(name: str) -> str:
    """A name as a part of a CoT uid: itself when it is plain, else its plain letters and a short hash."""
    text = str(name)
    safe = _SAFE.sub("_", text).strip("_") or "x"
    if safe == text:
        return text
    return f"{safe}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"


def uid_prefix(game: str) -> str:
    """Every uid of a game's objects starts with this ("controlroom.<game>.")."""
    return f"controlroom.{uid_part(game)}."


def place_named(places: Sequence[Place], names: Sequence[str]) -> Place | None:
    for place in places:
        if place.name.strip().lower() in names:
            return place
    return None


def footprint_m(up: int, down: int, settings: TakSettings) -> float:
    """The radius of the ground a group's fighters on the field cover (each ``area_per_fighter_m2``)."""
    return max(MIN_FOOTPRINT_M, math.sqrt(max(0, up + down) * settings.area_per_fighter_m2 / math.pi))


def group_cot(prefix: str, group: str, side: str, fix: tuple, counts: Sequence[int], settings: TakSettings,
              colour: str) -> Cot:
    """A group at its tracker's ``fix`` (t, lat, lon, battery, fix), with its ``counts`` (up, down, dead)."""
    up, down, dead = counts
    remarks = translate("tak", "{side}: {up} up, {down} down, {dead} dead").format(
        side=side, up=up, down=down, dead=dead)
    return Cot(f"{prefix}group.{uid_part(group)}", f"a-{settings.affiliation_of(side)}-G-U-C", float(fix[1]),
               float(fix[2]), STALE_S["group"], callsign=group, ce=footprint_m(up, down, settings), colour=colour,
               remarks=remarks)


def engine_cot(prefix: str, engine: str, where: tuple[float, float], status: str, settings: TakSettings,
               side: str | None = None, colour: str | None = None) -> Cot:
    remarks = translate("tak", "siege engine: {status}").format(status=status)
    return Cot(f"{prefix}engine.{uid_part(engine)}", f"a-{settings.affiliation_of(side)}-G-E-W", where[0],
               where[1], STALE_S["engine"], callsign=engine, colour=colour, remarks=remarks)


def marshal_cot(prefix: str, source: str, label: str, fix: tuple) -> Cot:
    battery = fix[3] if len(fix) > 3 else None
    remarks = translate("tak", "marshal's handset") + (
        translate("tak", ", battery {battery} %").format(battery=battery) if battery is not None else "")
    return Cot(f"{prefix}marshal.{uid_part(source)}", "a-f-G-U-C", float(fix[1]), float(fix[2]), STALE_S["marshal"],
               callsign=label or source, colour=MARSHAL_COLOUR, role="HQ", remarks=remarks)


def valhalla_cot(prefix: str, place: Place, sides: Mapping[str, Mapping[str, int]]) -> Cot:
    here = sum(int(c.get("in_valhalla", 0)) for c in sides.values())
    dead = sum(int(c.get("dead", 0)) for c in sides.values())
    per_side = ", ".join(translate("tak", "{side} {here} of {dead}").format(
        side=side, here=int(c.get("in_valhalla", 0)), dead=int(c.get("dead", 0))) for side, c in sorted(sides.items()))
    remarks = translate("tak", "Valhalla: {here} here of {dead} dead").format(here=here, dead=dead) + (
        f" ({per_side})" if per_side else "")
    return Cot(f"{prefix}valhalla", "b-m-p-s-m", place.lat, place.lon, STALE_S["valhalla"], callsign=place.name,
               how="h-e", remarks=remarks)


def place_cot(prefix: str, place: Place, remarks: str = "") -> Cot:
    """A named place of the field map as a spot marker (the data package's HQ and Valhalla)."""
    return Cot(f"{prefix}place.{uid_part(place.name)}", "b-m-p-s-m", place.lat, place.lon, 24 * 3600.0,
               callsign=place.name, how="h-e", remarks=remarks)


def stopp_cots(prefix: str, stopp, where: tuple[float, float, bool] | None) -> list[Cot]:
    """A STOPP (``StoppView``) at ``where`` (lat, lon, reported by a device): its emergency (or its cancel),
    and for an injury its CASEVAC request (or the removal of it)."""
    if where is None:
        return []
    lat, lon, reported = where
    callsign = f"STOPP {stopp.id}"
    groups = ", ".join(stopp.groups)
    remarks = translate("tak", "STOPP {id}: {reason}").format(id=stopp.id, reason=stopp.reason) + (
        " \u00b7 " + translate("tak", "groups {groups}").format(groups=groups) if groups else "")
    uid = f"{prefix}stopp.{uid_part(stopp.id)}"
    casevac = Cot(f"{uid}.casevac", "b-r-f-h-c", lat, lon, STALE_S["casevac"], callsign=f"CASEVAC {stopp.id}",
                  how=how_of(reported), remarks=remarks, medevac=callsign)
    if stopp.lifted is None:
        out = [Cot(uid, "b-a-o-tbl", lat, lon, STALE_S["stopp"], callsign=callsign, how=how_of(reported),
                   remarks=remarks, emergency=EMERGENCY_ALERT)]
        return out + ([casevac] if stopp.reason == "injury" else [])
    lifted = translate("tak", "STOPP {id} lifted").format(id=stopp.id)
    out = [Cot(uid, "b-a-o-can", lat, lon, STALE_S["cancel"], callsign=callsign, how=how_of(reported),
               remarks=lifted, emergency="cancel")]
    return out + ([delete_of(casevac, STALE_S["delete"])] if stopp.reason == "injury" else [])


TYPE_KINDS = {"t-x-d-d": "delete", "b-a-o-can": "cancel", "b-a-o-tbl": "stopp", "b-r-f-h-c": "casevac",
              "b-m-p-s-m": "valhalla"}


def kind_of(cot: Cot, default: str) -> str:
    """Which kind of object an event is, for its refresh time: by its type, else ``default``."""
    return TYPE_KINDS.get(cot.type, default)
