"""Cursor-on-Target events of the battle: what each one says (``Cot``), built into CoT XML by PyTAK.

A ``Cot`` is a plain value (compared to see whether an object changed); its
XML is made only when it is sent, by PyTAK's own event, point and detail
builders, so that the times (time, start, stale) are those of the moment it
leaves.  ``to_protobuf`` is the same event as TAK protocol 1, by takproto
(mesh framing for UDP, stream framing for TCP).  The mapping of the game
onto these events is ``radio.tak_objects``; docs/tak.md lists it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from controlroom.radio import tak_libs

__all__ = ["Cot", "UNKNOWN", "to_xml", "to_protobuf", "delete_of", "ROLE", "how_of"]

UNKNOWN = 9999999.0           # CoT's "not known" for hae, ce and le
ROLE = "Team Member"          # the role of a __group: what a TAK client shows beside the team colour
EMERGENCY_ALERT = "911 Alert"
DELETE_TYPE = "t-x-d-d"       # TAK's "remove this object" (with a link to it and __forcedelete)
LAT_LON_DIGITS = 7            # about 1 cm


@dataclass(frozen=True, slots=True)
class Cot:
    """One CoT event, as the station means it (its XML is made by ``to_xml`` when sent)."""

    uid: str
    type: str
    lat: float
    lon: float
    stale_s: float                      # how long after it is sent a TAK client may still trust it
    callsign: str = ""
    how: str = "m-g"                    # machine, GPS: the trackers' and handsets' fixes
    ce: float = UNKNOWN                 # circular error (m): a group's footprint
    colour: str | None = None           # the __group (team colour) it shows in
    role: str = ROLE
    remarks: str = ""
    emergency: str | None = None        # EMERGENCY_ALERT, or "cancel"
    delete: tuple[str, str] | None = None     # (uid, type) of the object a t-x-d-d removes
    medevac: str | None = None          # a CASEVAC request's title (the ATAK 9-line's _medevac_)


def how_of(reported: bool) -> str:
    """``m-g`` for a position a device's GPS gave, ``h-e`` for one a person estimated (a STOPP at its group)."""
    return "m-g" if reported else "h-e"


def delete_of(cot: Cot, stale_s: float = 60.0) -> Cot:
    """The event that removes ``cot`` from TAK clients' maps (sent where it was)."""
    return Cot(f"{cot.uid}-delete", DELETE_TYPE, cot.lat, cot.lon, stale_s, how="h-g-i-g-o",
               delete=(cot.uid, cot.type))


def _detail(cot: Cot) -> ET.Element:
    children = []
    if cot.callsign:
        children.append(ET.Element("contact", callsign=cot.callsign))
    if cot.colour:
        children.append(ET.Element("__group", name=cot.colour, role=cot.role))
    if cot.emergency == "cancel":
        e = ET.Element("emergency", cancel="true")
        e.text = cot.callsign
        children.append(e)
    elif cot.emergency:
        e = ET.Element("emergency", type=cot.emergency)
        e.text = cot.callsign
        children.append(e)
    if cot.medevac is not None:
        children.append(ET.Element("_medevac_", title=cot.medevac, casevac="true", urgent="1",
                                   medline_remarks=cot.remarks))
    if cot.delete is not None:
        children.append(ET.Element("link", uid=cot.delete[0], relation="none", type=cot.delete[1]))
        children.append(ET.Element("__forcedelete"))
    pytak = tak_libs.pytak()
    detail = pytak.cot_detail(*children, flow_tag=False)
    if cot.remarks:
        pytak.add_remarks(detail, [cot.remarks])
    return detail


def to_xml(cot: Cot, declaration: bool = True) -> bytes:
    """The CoT XML of ``cot``, timed now (stale ``cot.stale_s`` later), by PyTAK."""
    pytak = tak_libs.pytak()
    point = pytak.cot_point(lat=cot.lat, lon=cot.lon, ce=round(cot.ce, 1), hae=UNKNOWN, le=UNKNOWN,
                            precision=LAT_LON_DIGITS)
    event = pytak.cot_event(uid=cot.uid, cot_type=cot.type, how=cot.how, stale=max(1, round(cot.stale_s)),
                            point=point, detail=_detail(cot))
    return pytak.serialize_cot(event, xml_declaration=declaration)


def to_protobuf(xml: bytes, mesh: bool) -> bytes:
    """The event as TAK protocol 1 by takproto: mesh framing (UDP) or stream framing (TCP)."""
    takproto = tak_libs.takproto()
    version = takproto.TAKProtoVer.MESH if mesh else takproto.TAKProtoVer.STREAM
    return bytes(takproto.xml2proto(xml, version))
