"""From TAK phones' position reports to events: registered marshals' phones, unknown uids, copies.

Pure and single-threaded, like ``mesh_ingest``: the core's engine owns one
TakIngest.  A position report (PLI) from a phone registered as a marshal's
(``controlroom keys new ID --role marshal --tak-uid UID``, or
``--tak-callsign``) becomes a ``position`` event of that marshal, marked as
come by TAK (``VIA_TAK``): nothing authenticates it, so the window says "TAK,
not authenticated" and no rule uses it.  Reports of phones nobody registered
are listed for the radio panel (the latest of each, a bounded number), never
stored and never drawn.  A copy of a report (the same uid and time, heard
through the server and on the network) is stored once.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controlroom.game.devices import VIA_TAK, DeviceInfo, RadioMeta
from controlroom.radio.cot_in import CotHeard

ACCEPTED = "accepted"
DUPLICATE = "duplicates"
UNKNOWN_UID = "unknown_uid"
NOT_A_POSITION = "not_a_position"          # chat, markers, pings...
OWN = "own"                                # the station's own objects, passed back by a server
OUTCOMES = (ACCEPTED, DUPLICATE, UNKNOWN_UID, NOT_A_POSITION, OWN)
COPY_WINDOW_MS = 10 * 60_000
MAX_UNKNOWN = 200                          # unknown phones listed in the radio panel


@dataclass(slots=True)
class TakOutcome:
    verdict: str
    device: DeviceInfo | None = None
    event: tuple[str, dict[str, Any], str] | None = None        # (type, fields, source)
    radio: RadioMeta | None = None


@dataclass
class TakIngest:
    """Classifies CoT heard and turns registered marshals' position reports into events."""

    devices: Mapping[int, DeviceInfo]
    own_prefix: str = "controlroom."
    copy_window_ms: int = COPY_WINDOW_MS
    by_uid: dict[str, DeviceInfo] = field(default_factory=dict)
    by_callsign: dict[str, DeviceInfo] = field(default_factory=dict)
    seen: collections.OrderedDict = field(default_factory=collections.OrderedDict)   # (uid, time) -> ms
    known: dict[str, dict] = field(default_factory=dict)         # uid -> what the radio panel shows of it
    unknown: collections.OrderedDict = field(default_factory=collections.OrderedDict)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("heard", *OUTCOMES), 0))

    def __post_init__(self) -> None:
        self.by_uid = {d.tak_uid: d for d in self.devices.values() if d.tak_uid}
        self.by_callsign = {d.tak_callsign.casefold(): d for d in self.devices.values() if d.tak_callsign}

    def know(self, devices: Mapping[int, DeviceInfo]) -> None:
        """The game's devices as registered now (a list imported while the station runs)."""
        self.devices = devices
        self.__post_init__()

    def device_of(self, heard: CotHeard) -> DeviceInfo | None:
        """The registered device that sent it: by its uid, else by its callsign."""
        dev = self.by_uid.get(heard.uid)
        if dev is None and heard.callsign:
            dev = self.by_callsign.get(heard.callsign.casefold())
        return dev

    def receive(self, heard: CotHeard, now_ms: int) -> TakOutcome:
        out = self._classify(heard, now_ms)
        self.counts["heard"] += 1
        self.counts[out.verdict] += 1
        return out

    def _classify(self, heard: CotHeard, now_ms: int) -> TakOutcome:
        if heard.uid.startswith(self.own_prefix):
            return TakOutcome(OWN)
        if not heard.is_position:
            return TakOutcome(NOT_A_POSITION)
        row = {"uid": heard.uid, "callsign": heard.callsign, "type": heard.type, "t": now_ms, "lat": heard.lat,
               "lon": heard.lon, "battery": heard.battery, "link": heard.link, "proto": heard.proto}
        dev = self.device_of(heard)
        if dev is None:
            self.unknown.pop(heard.uid, None)
            self.unknown[heard.uid] = row
            while len(self.unknown) > MAX_UNKNOWN:
                self.unknown.popitem(last=False)
            return TakOutcome(UNKNOWN_UID)
        self.known[heard.uid] = {**row, "device": dev.id, "source": dev.source}
        if self._copy(heard, now_ms):
            return TakOutcome(DUPLICATE, dev)
        # The event log keeps a radio report once per (device, counter): a phone's report, once per its own time.
        counter = heard.time_ms or now_ms
        radio = RadioMeta(dev.id, counter, None, None, (f"tak:{heard.link}",), VIA_TAK)
        fields = {"device": dev.id, "lat": heard.lat, "lon": heard.lon, "fix": 1}
        if heard.battery is not None:
            fields["battery"] = heard.battery
        return TakOutcome(ACCEPTED, dev, ("position", fields, dev.source), radio)

    def _copy(self, heard: CotHeard, now_ms: int) -> bool:
        seen = self.seen
        while seen:
            first = next(iter(seen.values()))
            if now_ms - first <= self.copy_window_ms:
                break
            seen.popitem(last=False)
        key = (heard.uid, heard.time_ms)
        if heard.time_ms and key in seen:
            return True
        seen[key] = now_ms
        return False

    def view(self) -> dict[str, Any]:
        """What the radio panel lists: registered phones heard, and unknown ones (newest last)."""
        return {"known": dict(self.known), "unknown": dict(self.unknown), "counts": dict(self.counts)}
