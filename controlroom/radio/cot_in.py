"""Cursor-on-Target heard from TAK clients: XML (TAK protocol 0) or protobuf (protocol 1, mesh or stream framing).

What a TAK server passes on, or what phones send on the network, is decoded
here into a ``CotHeard``: a plain value the engine's intake reads (who sent
it, its type, where).  Protocol 1's messages are parsed by takproto; a TCP
stream is split into messages by ``StreamSplitter`` (an XML event ends at
``</event>``; a protocol 1 message is 0xBF, its length as a varint, and the
protobuf, which takproto reads).  Nothing here trusts the sender: any phone
on a TAK network can say it is anyone (docs/tak.md).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO

from controlroom.radio import tak_libs

__all__ = ["CotHeard", "MAX_MESSAGE", "StreamSplitter", "decode", "from_xml", "from_message"]

MAX_MESSAGE = 64 * 1024            # a position report is under 2 KiB; anything larger is not read
PROTO_MAGIC = 0xBF
MESH_HEADER = b"\xbf\x01\xbf"
END_TAG = b"</event>"


@dataclass(frozen=True, slots=True)
class CotHeard:
    """One CoT event a TAK link heard."""

    link: str                       # the link that heard it ("tcp://10.0.0.5:8087", "cot-udp://0.0.0.0:4242")
    uid: str
    type: str
    callsign: str = ""
    how: str = ""
    lat: float | None = None
    lon: float | None = None
    ce: float | None = None
    battery: int | None = None
    time_ms: int = 0                # when the sender made it (ms since 1970), 0 when not said
    proto: int = 0                  # 0: XML, 1: protobuf

    @property
    def is_position(self) -> bool:
        """A device's own position report (PLI): an atom with a place."""
        return self.type.startswith("a-") and self.lat is not None and self.lon is not None


def _ms(text: str | None) -> int:
    if not text:
        return 0
    try:
        return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return 0


def _number(text: str | None, low: float, high: float) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if low <= value <= high else None


def from_xml(data: bytes, link: str) -> CotHeard | None:
    """A CoT XML event (protocol 0); None when it is not one."""
    try:
        event = ET.fromstring(data)
    except ET.ParseError:
        return None
    uid, type_ = event.get("uid"), event.get("type")
    if event.tag != "event" or not uid or not type_:
        return None
    point = event.find("point")
    detail = event.find("detail")
    contact = detail.find("contact") if detail is not None else None
    status = detail.find("status") if detail is not None else None
    battery = None
    said = (status.get("battery") or "").strip() if status is not None else ""
    if said.isdigit():
        battery = min(100, int(said))
    lat = _number(point.get("lat"), -90, 90) if point is not None else None
    lon = _number(point.get("lon"), -180, 180) if point is not None else None
    return CotHeard(link, uid[:100], type_[:64], (contact.get("callsign") or "")[:64] if contact is not None else "",
                    event.get("how") or "", lat if lon is not None else None, lon if lat is not None else None,
                    _number(point.get("ce"), 0, 1e7) if point is not None else None, battery,
                    _ms(event.get("time")), 0)


def from_message(msg, link: str) -> CotHeard | None:
    """A takproto ``TakMessage`` (protocol 1); None when it carries no event."""
    cot = msg.cotEvent
    if not cot.uid or not cot.type:
        return None
    lat = cot.lat if -90 <= cot.lat <= 90 else None
    lon = cot.lon if -180 <= cot.lon <= 180 else None
    d = cot.detail
    battery = min(100, d.status.battery) if d.HasField("status") and d.status.battery else None
    return CotHeard(link, cot.uid[:100], cot.type[:64], d.contact.callsign[:64] if d.HasField("contact") else "",
                    cot.how, lat if lon is not None else None, lon if lat is not None else None,
                    cot.ce if 0 <= cot.ce <= 1e7 else None, battery, int(cot.sendTime), 1)


def decode(data: bytes, link: str) -> CotHeard | None:
    """One message: XML, protocol 1 mesh (0xBF 0x01 0xBF) or stream (0xBF length) framing; None if unreadable."""
    if not data or len(data) > MAX_MESSAGE:
        return None
    if data[0] != PROTO_MAGIC:
        return from_xml(data, link)
    takproto = tak_libs.takproto()
    try:
        msg = takproto.parse_proto(bytearray(data))
    except Exception:           # protobuf's DecodeError and friends: not a TAK message
        return None
    return from_message(msg, link) if msg is not None and msg != -1 else None


class StreamSplitter:
    """Splits what a TCP connection brings into whole messages: XML events or protocol 1 stream messages."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.dropped = 0                # bytes thrown away (junk, or a message over MAX_MESSAGE)

    def feed(self, data: bytes) -> list[bytes]:
        self.buffer += data
        out = []
        while self.buffer:
            message = self._next()
            if message is None:
                break
            if message:
                out.append(message)
        if len(self.buffer) > 2 * MAX_MESSAGE:          # no end in sight: start again from what comes next
            self.dropped += len(self.buffer)
            self.buffer.clear()
        return out

    def _next(self) -> bytes | None:
        buf = self.buffer
        start = 0
        while start < len(buf) and buf[start] in b" \t\r\n\x00":
            start += 1
        if start:
            del buf[:start]
        if not buf:
            return None
        if buf[0] == PROTO_MAGIC:
            if len(buf) < 2:
                return None
            tak_libs.takproto()                         # (installed, or TakUnavailableError in words)
            from takproto import delimited_protobuf

            length = BytesIO(bytes(buf[1:11]))
            try:
                size = delimited_protobuf._read_varint(length)     # takproto's own reading of the length
            except EOFError:                            # the length is not all here yet
                if len(buf) >= 11:
                    self.dropped += 1
                    del buf[:1]
                    return b""
                return None
            at = length.tell()
            end = 1 + at + size
            if size > MAX_MESSAGE:
                self.dropped += 1
                del buf[:1]
                return b""
            if len(buf) < end:
                return None
            message = bytes(buf[:end])
            del buf[:end]
            return message
        end = buf.find(END_TAG)
        if end < 0:
            return None
        end += len(END_TAG)
        message = bytes(buf[:end])
        del buf[:end]
        return message
