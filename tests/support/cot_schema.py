"""The CoT base-event schema's constraints, restated, and a round trip through takproto: every event checked.

MITRE's "Schema for Cursor-On-Target (CoT) Event data model (Version 2.0)"
(Event-PUBLIC.xsd, 13 June 2003; Copyright (c) 2005 The MITRE Corporation,
Approved for Public Release, Distribution Unlimited, MITRE Case #11-3895) was
not in any repository fetched for this work (snstac/pytak, snstac/takproto,
tkuester/taky), so its constraints are restated here:

- ``event``: a ``point`` first, then at most one ``detail``;
  ``version`` a decimal of at least 2; ``type`` matching ``\\w+(-\\w+)*(;[^;]*)?``;
  ``uid`` a string; ``time``, ``start``, ``stale`` xs:dateTime; ``how``
  matching ``\\w(-\\w+)*``; all six required;
- ``point``: ``lat`` a decimal from -90 to 90, ``lon`` from -180 to 180,
  ``hae``, ``ce`` and ``le`` decimals; all five required;
- (its documentation) an event is valid from ``start`` until ``stale``.

And TAK's ``__group`` detail (ATAK's detail schema ``__group.xsd``): ``name``
one of the 14 team colours, ``role`` one of its eight roles.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import datetime

import takproto

TYPE = re.compile(r"\w+(-\w+)*(;[^;]*)?")
HOW = re.compile(r"\w(-\w+)*")
DATETIME = re.compile(r"-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?")
DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
TEAM_COLOURS = {"White", "Yellow", "Orange", "Magenta", "Red", "Maroon", "Purple", "Dark Blue", "Blue", "Cyan",
                "Teal", "Green", "Dark Green", "Brown"}
ROLES = {"Team Member", "Team Lead", "HQ", "Sniper", "Medic", "Forward Observer", "RTO", "K9"}


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def problems(xml: bytes) -> list[str]:
    """What in a CoT event breaks the base-event schema (and TAK's __group); [] for a valid one."""
    out: list[str] = []
    try:
        event = ET.fromstring(xml)
    except ET.ParseError as exc:
        return [f"not XML: {exc}"]
    if event.tag != "event":
        return [f"the root is <{event.tag}>, not <event>"]
    a = event.attrib
    for name in ("version", "type", "uid", "time", "start", "stale", "how"):
        if name not in a:
            out.append(f"event has no {name}")
    if "version" in a and (not DECIMAL.fullmatch(a["version"]) or float(a["version"]) < 2):
        out.append(f"version {a['version']!r} is not a decimal of at least 2")
    if "type" in a and not TYPE.fullmatch(a["type"]):
        out.append(f"type {a['type']!r} breaks its pattern")
    if "how" in a and not HOW.fullmatch(a["how"]):
        out.append(f"how {a['how']!r} breaks its pattern")
    times = {}
    for name in ("time", "start", "stale"):
        if name in a:
            if DATETIME.fullmatch(a[name]):
                times[name] = _when(a[name])
            else:
                out.append(f"{name} {a[name]!r} is not an xs:dateTime")
    if len(times) == 3 and not times["start"] <= times["stale"]:
        out.append("stale is before start")
    children = list(event)
    if not children or children[0].tag != "point":
        out.append("the first child is not a point")
    if [c.tag for c in children[1:]] not in ([], ["detail"]):
        out.append(f"after the point: {[c.tag for c in children[1:]]} (at most one detail)")
    point = event.find("point")
    if point is not None:
        for name, low, high in (("lat", -90, 90), ("lon", -180, 180), ("hae", None, None), ("ce", None, None),
                                ("le", None, None)):
            value = point.get(name)
            if value is None or not DECIMAL.fullmatch(value):
                out.append(f"point {name} {value!r} is not a decimal")
            elif low is not None and not low <= float(value) <= high:
                out.append(f"point {name} {value} is outside {low}..{high}")
    for group in event.iterfind("detail/__group"):
        if group.get("name") not in TEAM_COLOURS:
            out.append(f"__group name {group.get('name')!r} is not a team colour")
        if group.get("role") not in ROLES:
            out.append(f"__group role {group.get('role')!r} is not a TAK role")
    return out


def check(xml: bytes) -> ET.Element:
    """The event, parsed; AssertionError listing what breaks the schema."""
    found = problems(xml)
    assert not found, f"{found} in {xml.decode(errors='replace')}"
    return ET.fromstring(xml)


def round_trip(xml: bytes) -> None:
    """The event through takproto (TAK protocol 1, stream and mesh framing) and back: the same event."""
    event = ET.fromstring(xml)
    point = event.find("point")
    detail = event.find("detail")
    for version in (takproto.TAKProtoVer.STREAM, takproto.TAKProtoVer.MESH):
        cot = takproto.parse_proto(takproto.xml2proto(xml, version)).cotEvent
        assert (cot.uid, cot.type, cot.how) == (event.get("uid"), event.get("type"), event.get("how"))
        for name, ms in (("time", cot.sendTime), ("start", cot.startTime), ("stale", cot.staleTime)):
            assert abs(ms - int(_when(event.get(name)).timestamp() * 1000)) <= 1, name
        for name in ("lat", "lon", "hae", "ce", "le"):
            assert abs(getattr(cot, name) - float(point.get(name))) < 1e-9, name
        contact = detail.find("contact") if detail is not None else None
        assert cot.detail.contact.callsign == (contact.get("callsign") if contact is not None else "")
        group = detail.find("__group") if detail is not None else None
        if group is not None:
            assert (cot.detail.group.name, cot.detail.group.role) == (group.get("name"), group.get("role"))
        remarks = detail.find("remarks") if detail is not None else None
        if remarks is not None:
            assert ET.fromstring(f"<d>{cot.detail.xmlDetail}</d>").find("remarks").text == remarks.text
