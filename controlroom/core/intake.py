"""What the gateways hear, taken in by the core worker (``RadioIntake``, a part of ``core.worker.CoreWorker``).

A frame is authenticated and de-duplicated (``radio.ingest``), a Meshtastic
packet read (``radio.mesh_ingest``); an accepted report waits in the inbox as
an ``Incoming`` for the next batch (``CoreWorker._receive``), and its
acknowledgement waits with it until it is stored.  A copy of a frame already
stored is acknowledged again at once; one still on its way waits with the
first.  Security verdicts are alarms, merged a kind a minute; lost gateway
links and silent marshals are alarms too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Slot

from controlroom.game.alarms import Alarm
from controlroom.game.devices import RadioMeta
from controlroom.game.events import EventError, validate
from controlroom.i18n import translate
from controlroom.radio.ingest import ACCEPTED, DUPLICATE, SECURITY
from controlroom.radio.mesh_ingest import ACCEPTED as MESH_ACCEPTED

if TYPE_CHECKING:
    from controlroom.game.alarms import SecurityFlood
    from controlroom.radio.ingest import Ingest
    from controlroom.radio.mesh_ingest import MeshIngest

DOWNLINK_KEY = "downlink_counter"       # the highest downlink counter reserved (PROTOCOL.md section 4)


@dataclass(slots=True)
class Incoming:
    """A report waiting for the next batch."""

    type: str
    data: dict
    source: str
    radio: RadioMeta | None = None
    acks: list = field(default_factory=list)       # [(gateway, ack bytes)] to send once stored
    pressed_ms: int | None = None                  # unix ms of the key press (protocol v2), if known


class RadioIntake:
    """The radio's part of ``CoreWorker``: it uses the worker's ``fold``, ``clock``, ``store``, ``ingest``,
    ``mesh``, ``links``, timers and signals, and hands reports on with ``_receive``."""

    ingest: Ingest | None
    mesh: MeshIngest | None
    links: dict[str, tuple[str, str]]
    _flood: SecurityFlood
    _unstored_frames: dict[tuple[int, int], Incoming]
    _marshals: dict[str, int]
    _silent: set[str]

    @Slot(object)
    def frames_received(self, frames) -> None:
        """Frames the gateways heard since the last call: [(gateway, rssi, snr, frame bytes), ...]."""
        for gateway, rssi, snr, frame in frames:
            self.frame_received(gateway, rssi, snr, frame)

    @Slot(int, object, object, object)
    def frame_received(self, gateway: int, rssi, snr, frame: bytes) -> None:
        """A frame a gateway heard: authenticated, de-duplicated; its event waits for the next batch."""
        if self.fold is None or self._stopping:
            return                      # not acknowledged: the handset tries again
        out = self.ingest.receive(frame, gateway, rssi, snr, self.clock.now_ms())
        if out.verdict == ACCEPTED:
            item = self._incoming(out.event, out.radio, [(gateway, out.ack)] if out.ack else [],
                                  getattr(out, "pressed_ms", None))
            if item is None:
                return
            self._unstored_frames[(out.device, out.counter)] = item
            self._receive(item)
            return
        if out.verdict == DUPLICATE and out.ack is not None:
            waiting = self._unstored_frames.get((out.device, out.counter))
            if waiting is not None:
                waiting.acks.append((gateway, out.ack))     # acknowledged once it is stored
            else:
                self._send_ack(gateway, out.ack)            # stored before: acknowledged again
        self._request_publish()             # the radio panel's counters changed
        if out.verdict in SECURITY:
            alarm = self._flood.note(out.verdict, out.device, out.detail, int(time.monotonic() * 1000),
                                     self.clock.now_ms())
            if alarm is not None:
                self.alarm_raised.emit(alarm)
            elif not self._flood_timer.isActive():
                self._flood_timer.start(self._flood.update_ms)     # the merged count, a little later

    def _incoming(self, event: tuple[str, dict, str], radio: RadioMeta, acks: list,
                  pressed_ms: int | None = None) -> Incoming | None:
        """A report heard, as it waits for the next batch; None (and said) if its fields are not an event's."""
        type_, fields, source = event
        try:
            return Incoming(type_, validate(type_, fields), source, radio, acks, pressed_ms)
        except EventError as exc:
            self.input_rejected.emit(f"{source}: {exc}")
            return None

    @Slot()
    def _flush_flood(self) -> None:
        for alarm in self._flood.flush(int(time.monotonic() * 1000)):
            self.alarm_raised.emit(alarm)

    def _downlink_reserve(self, size: int) -> int:
        """A session used up its block of downlink counters (65,536 acks): the next block, reserved in the game."""
        return self.store.reserve_block(DOWNLINK_KEY, size)

    @Slot(object)
    def mesh_received(self, packets) -> None:
        """Packets Meshtastic nodes heard (``radio.mesh_ingest.MeshHeard``): events, and answers once stored.

        A message that is no report is answered at once (``? ...``); a report
        is answered when it is stored, like every acknowledgement.
        """
        if self.fold is None or self._stopping:
            return
        now = self.clock.now_ms()
        for heard in packets:
            out = self.mesh.receive(heard, now, self.fold.state)
            if out.verdict != MESH_ACCEPTED:
                if out.reply is not None:
                    self._send_ack(-1, out.reply)
                continue
            item = self._incoming(out.event, out.radio, [(-1, out.reply)] if out.reply else [])
            if item is not None:
                self._receive(item)
        self._request_publish()

    @Slot(str, str, str)
    def line_rejected(self, gateway: str, reason: str, detail: str = "") -> None:
        """A serial line from a gateway that failed its checksum, did not parse, or named another gateway."""
        if self.ingest is not None:
            self.ingest.reject_line(gateway, reason, detail, self.clock.now_ms())
            self._request_publish()

    @Slot(str, str, str)
    def link_changed(self, link: str, state: str, detail: str) -> None:
        """A gateway's serial link: lost links are alarms, found ones end them."""
        now = self.clock.now_ms() if self.clock else 0
        self.links[link] = (state, detail)
        if state == "lost":
            self.alarm_raised.emit(Alarm(f"gateway:{link}:{now}", "gateway_lost",
                                         detail or translate("alarms", "gateway {link} lost").format(link=link), now))
        self._request_publish()

    def radio_view(self) -> dict[str, Any]:
        """What the radio panel shows: links, counters per gateway, devices heard, the last frames."""
        if self.ingest is None:
            return {}
        return {"links": dict(self.links), "counts": self.ingest.stats(), "heard": dict(self.ingest.heard),
                "recent": list(self.ingest.recent)[-200:]}

    @Slot()
    def _check_silence(self) -> None:
        if self.fold is None:
            return
        now = self.clock.now_ms()
        for source, heard in self._marshals.items():
            if source not in self._silent and now - heard >= self.marshal_silence_ms:
                self._silent.add(source)
                minutes = (now - heard) // 60_000
                self.alarm_raised.emit(Alarm(f"silent:{source}:{heard}", "marshal_silent",
                                             translate("alarms", "{source} has not been heard for {minutes} minutes")
                                             .format(source=source, minutes=minutes), now))
