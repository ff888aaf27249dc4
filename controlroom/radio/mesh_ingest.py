"""From Meshtastic packets to events: registered nodes, trust, copies, the marshals' text grammar.

Pure and single-threaded, like ``ingest``: the core worker owns one
MeshIngest.  The packets come from ``meshtastic_link`` as MeshHeard (plain
values, made from the ``meshtastic`` package's packet dicts by
``from_packet``, so nothing here needs that package).

Trust (docs/meshtastic.md): a direct message that the station's node
decrypted with the sender's key (PKI, firmware 2.5 and later) is stronger
than a message on a channel, which anyone holding the channel's key could
have sent in the sender's name.  Each event records which it was
(``RadioMeta.via``); a game may refuse reports that are not PKI direct
messages.  Copies (the same sender and Meshtastic packet id) are dropped for
30 minutes; the event log's unique (device, packet id) drops them after that.

Every answer is in the marshals' language (``language``: the game setting
``marshal_language``, read when the game is opened; None: the station's own),
whatever the station's window speaks.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controlroom.game.devices import VIA_MESH_CHANNEL, VIA_MESH_PKI, DeviceInfo, RadioMeta
from controlroom.game.textreport import TextError, clip, looks_like_command, parse, to_report
from controlroom.i18n import LANGUAGES, QT_TRANSLATE_NOOP, wording
from controlroom.radio.ingest import ROLE_TYPES

BROADCAST = 0xFFFFFFFF
COPY_WINDOW_MS = 30 * 60_000
TEXT_PORT = "TEXT_MESSAGE_APP"
POSITION_PORT = "POSITION_APP"
REQUIRE_PKI_KEY = "meshtastic_require_pki"      # the game setting (game_meta), "1" when required
MARSHAL_LANGUAGE_KEY = "marshal_language"       # the game setting (game_meta): the answers' language, "en", "et"
# A device's role as a refusal names it.
_ROLES = (QT_TRANSLATE_NOOP("textreport", "marshal"), QT_TRANSLATE_NOOP("textreport", "tracker"),
          QT_TRANSLATE_NOOP("textreport", "gateway"))

ACCEPTED = "accepted"
DUPLICATE = "duplicates"
UNKNOWN_NODE = "unknown_node"
REFUSED_TRUST = "refused_trust"            # not a PKI direct message, and the game wants them
REFUSED_ROLE = "refused_role"
BAD_TEXT = "bad_text"                      # answered with "? ..."
HELP = "help"
CHAT = "chat"                              # channel text not meant for the station
IGNORED = "ignored"                        # other ports (telemetry, node info...), positions without a fix
OUTCOMES = (ACCEPTED, DUPLICATE, UNKNOWN_NODE, REFUSED_TRUST, REFUSED_ROLE, BAD_TEXT, HELP, CHAT, IGNORED)


@dataclass(frozen=True, slots=True)
class MeshHeard:
    """One packet a Meshtastic node handed to the station."""

    link: str                      # the link that heard it ("meshtastic:/dev/ttyACM0")
    gateway: str                   # the station's node ("!0a1b2c3d"), "" before it is known
    sender: int                    # node number of the sender
    to: int                        # BROADCAST, or the node a direct message went to
    packet_id: int
    channel: int = 0
    port: str = ""
    text: str | None = None
    position: tuple[float, float, int] | None = None     # (lat, lon, sats)
    pki: bool = False              # decrypted with the sender's public key (a PKI direct message)
    rssi: float | None = None
    snr: float | None = None

    @property
    def direct(self) -> bool:
        return self.to != BROADCAST


@dataclass(frozen=True, slots=True)
class MeshReply:
    """An answer to send back the way a message came: to the sender (a direct message) or on its channel."""

    link: str
    to: int                        # BROADCAST for a channel
    channel: int
    text: str


@dataclass(slots=True)
class MeshOutcome:
    verdict: str
    device: DeviceInfo | None = None
    event: tuple[str, dict[str, Any], str] | None = None     # (type, fields, source)
    radio: RadioMeta | None = None
    reply: MeshReply | None = None          # with an event: send once it is stored; else send now
    detail: str = ""


def node_name(num: int) -> str:
    return f"!{num & 0xFFFFFFFF:08x}"


def from_packet(packet: Mapping[str, Any], link: str, gateway: str = "") -> MeshHeard | None:
    """A MeshHeard from the ``meshtastic`` package's packet dict (what its pubsub topics carry); None if not usable."""
    try:
        sender = int(packet.get("from") or 0)
        packet_id = int(packet.get("id") or 0)
    except (TypeError, ValueError):
        return None
    decoded = packet.get("decoded")
    if not sender or not isinstance(decoded, Mapping):
        return None                     # still encrypted (not our channel), or our own packet echoed
    port = str(decoded.get("portnum", ""))
    text = position = None
    if port == TEXT_PORT:
        text = decoded.get("text")
        if text is None:
            payload = decoded.get("payload", b"")
            text = payload.decode("utf-8", "replace") if isinstance(payload, (bytes, bytearray)) else str(payload)
    elif port == POSITION_PORT:
        p = decoded.get("position") or {}
        if "latitudeI" in p and "longitudeI" in p:
            position = (p["latitudeI"] / 1e7, p["longitudeI"] / 1e7, int(p.get("satsInView", 0)))
    to = packet.get("to")
    rssi, snr = packet.get("rxRssi"), packet.get("rxSnr")
    return MeshHeard(link, gateway, sender, BROADCAST if to is None else int(to), packet_id,
                     int(packet.get("channel") or 0), port, text, position, bool(packet.get("pkiEncrypted")),
                     None if rssi is None else float(rssi), None if snr is None else float(snr))


@dataclass
class MeshIngest:
    """Classifies Meshtastic packets and turns those of registered nodes into events and answers."""

    devices: Mapping[int, DeviceInfo]
    require_pki: bool = False
    language: str | None = None             # the marshals' language; None: the station's (``i18n.language``)
    copy_window_ms: int = COPY_WINDOW_MS
    by_node: dict[int, DeviceInfo] = field(default_factory=dict)
    seen: collections.OrderedDict = field(default_factory=collections.OrderedDict)   # (sender, id) -> first ms
    counts: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_node = {d.node_num: d for d in self.devices.values() if d.node_num is not None}

    def stats(self) -> dict[str, dict[str, int]]:
        return {k: dict(v) for k, v in self.counts.items()}

    def know(self, devices: Mapping[int, DeviceInfo]) -> None:
        """The game's devices as registered now (a list imported while the station runs)."""
        self.devices = devices
        self.__post_init__()

    def receive(self, heard: MeshHeard, now_ms: int, state) -> MeshOutcome:
        """What a packet is; ``state`` (the folded game) checks badges, groups and STOPPs of text reports."""
        out = self._classify(heard, now_ms, state)
        for key in (heard.link, "total"):
            c = self.counts.setdefault(key, dict.fromkeys(("packets_total", *OUTCOMES), 0))
            c["packets_total"] += 1
            c[out.verdict] += 1
        return out

    def _copy(self, heard: MeshHeard, now_ms: int) -> bool:
        key = (heard.sender, heard.packet_id)
        seen = self.seen
        while seen:
            oldest_key, first = next(iter(seen.items()))
            if now_ms - first <= self.copy_window_ms:
                break
            seen.popitem(last=False)
        if key in seen:
            return True
        seen[key] = now_ms
        return False

    def _classify(self, heard: MeshHeard, now_ms: int, state) -> MeshOutcome:
        if heard.port not in (TEXT_PORT, POSITION_PORT):
            return MeshOutcome(IGNORED, detail=f"port {heard.port or '?'}")
        is_text = heard.port == TEXT_PORT
        text = (heard.text or "").strip()
        addressed = heard.direct or (is_text and looks_like_command(text))
        dev = self.by_node.get(heard.sender)
        if dev is None:
            detail = f"node {node_name(heard.sender)} is not registered"
            said = wording("textreport", "node {node} is not registered", node=node_name(heard.sender))
            return MeshOutcome(UNKNOWN_NODE, detail=detail,
                               reply=self._reply(heard, self._said(said)) if is_text and addressed else None)
        if is_text and not addressed:
            return MeshOutcome(CHAT, dev)
        if self._copy(heard, now_ms):
            return MeshOutcome(DUPLICATE, dev)
        via = VIA_MESH_PKI if heard.pki and heard.direct else VIA_MESH_CHANNEL
        radio = RadioMeta(dev.id, heard.packet_id, heard.rssi, heard.snr,
                          (f"mesh:{heard.gateway or heard.link}",), via)
        if not is_text:
            if heard.position is None:
                return MeshOutcome(IGNORED, dev, detail="a position without a fix")
            lat, lon, sats = heard.position
            return MeshOutcome(ACCEPTED, dev, ("position", {"device": dev.id, "lat": lat, "lon": lon,
                                                            "fix": 1, "sats": sats}, dev.source), radio)
        if self.require_pki and via != VIA_MESH_PKI:
            return MeshOutcome(REFUSED_TRUST, dev, reply=self._reply(heard, self._said(wording(
                "textreport", "this game takes reports only as direct messages (PKI): send to the station's node"))))
        try:
            cmd = parse(text)
            if cmd.action != "help" and cmd.action not in ("headcount",) and "casualty" not in ROLE_TYPES[dev.role]:
                return MeshOutcome(REFUSED_ROLE, dev, reply=self._reply(heard, self._said(wording(
                    "textreport", "device {device} is a {role}: it sends positions and headcounts", device=dev.id,
                    role=wording("textreport", dev.role)))))
            mine = [s for s in state.stopps if s.startswith(f"{dev.id}-")]
            tag = f"{heard.packet_id & 0xFFFF:04x}"         # short, to type in a LIFT; longer if it was used
            if f"{dev.id}-{tag}" in state.stopps:
                tag = f"{heard.packet_id & 0xFFFFFFFF:08x}"
            report = to_report(cmd, badges=state.characters, groups=state.roster.groups().keys(), device=dev.id,
                               device_group=dev.group, tag=tag, now_ms=now_ms,
                               active_stopps=state.active_stopps, mine=mine, language=self.language)
        except TextError as exc:
            return MeshOutcome(BAD_TEXT, dev, reply=self._reply(heard, exc.said(self.language)), detail=str(exc))
        if report.type is None:
            return MeshOutcome(HELP, dev, reply=self._reply(heard, report.reply))
        return MeshOutcome(ACCEPTED, dev, (report.type, report.fields, dev.source), radio,
                           self._reply(heard, report.reply))

    def _said(self, text) -> str:
        """A refusal (``? ...``) in the marshals' language."""
        return f"? {text.render(self.language)}"

    @staticmethod
    def _reply(heard: MeshHeard, text: str) -> MeshReply:
        """Back the way it came: a direct message to the sender, or on the channel it was heard on."""
        return MeshReply(heard.link, heard.sender if heard.direct else BROADCAST, heard.channel, clip(text))


def marshal_language(value: str | None) -> str | None:
    """The game setting ``marshal_language`` as a language this program speaks; None (the station's) for none or
    one it does not speak."""
    code = (value or "").strip().lower()
    return code if code in LANGUAGES else None
