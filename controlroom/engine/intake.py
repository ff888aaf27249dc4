"""What the links heard, taken in: reports for the inbox, answers due now, alarms (pure; one per open game).

A frame is authenticated and de-duplicated (``radio.ingest``), a Meshtastic
packet read (``radio.mesh_ingest``), a TAK phone's position report matched
to its marshal (``radio.tak_ingest``: never authenticated, so only placed on
the map; unknown phones are listed, not drawn).  An accepted report becomes a
``Report``; its acknowledgement waits with it until it is stored.  A copy
of a frame already stored is acknowledged again at once; a copy of one still
on its way joins the first one's acknowledgements.  Security verdicts are
alarms, merged a kind a minute; lost links and silent marshals are alarms
too.  The radio panel's view of all this is ``radio_view``.
"""

from __future__ import annotations

import time
from typing import Any

from controlroom.engine.output import Output, device_view
from controlroom.engine.reports import Report, try_report
from controlroom.game.alarms import Alarm, SecurityFlood
from controlroom.game.state import GameState
from controlroom.i18n import translate
from controlroom.radio.ingest import ACCEPTED, DUPLICATE, SECURITY, Ingest, tries_by
from controlroom.radio.link import CotHeard, FrameAck, FrameHeard, Heard, LineRejected, LinkState, MeshHeard
from controlroom.radio.mesh_ingest import ACCEPTED as MESH_ACCEPTED
from controlroom.radio.mesh_ingest import MeshIngest
from controlroom.radio.tak_ingest import ACCEPTED as TAK_ACCEPTED
from controlroom.radio.tak_ingest import TakIngest

# A report whose key press (protocol v2) is this much older (real ms) than its first copy heard was heard on a
# retry: one transmission takes under 2 s even at SF12, and the handset's first retry comes 4 s after it.
LATE_PRESS_MS = 3_500


class Intake:
    """Turns what the links heard into reports, immediate answers and alarms."""

    def __init__(self, ingest: Ingest, mesh: MeshIngest, marshal_silence_ms: int = 600_000,
                 tak: TakIngest | None = None) -> None:
        self.ingest = ingest
        self.mesh = mesh
        self.tak = tak if tak is not None else TakIngest(ingest.devices)
        self.marshal_silence_ms = marshal_silence_ms
        self.links: dict[str, tuple[str, str]] = {}
        self.flood = SecurityFlood()
        self.unstored: dict[tuple[int, int], Report] = {}      # frames on their way to the store
        self.heard_at: dict[str, int] = {}                      # marshal or tracker source -> game ms last heard
        self.silent: set[str] = set()

    # -- what the links heard --------------------------------------------------------
    def take(self, items: list[Heard], state: GameState, now: int, out: Output) -> list[Report]:
        """Everything the links heard since the last take, in order: the reports it makes."""
        reports: list[Report] = []
        for item in items:
            if isinstance(item, FrameHeard):
                self._frame(item, now, reports, out)
            elif isinstance(item, MeshHeard):
                self._mesh(item, state, now, reports, out)
            elif isinstance(item, CotHeard):
                self._cot(item, now, reports, out)
            elif isinstance(item, LineRejected):
                self.ingest.reject_line(item.gateway, item.reason, item.detail, now)
            elif isinstance(item, LinkState):
                self._link(item, now, out)
        out.publish = True                    # the radio panel's counters changed
        return reports

    def _frame(self, heard: FrameHeard, now: int, reports: list[Report], out: Output) -> None:
        got = self.ingest.receive(heard.frame, heard.gateway, heard.rssi, heard.snr, now)
        ack = FrameAck(heard.gateway, got.ack) if got.ack is not None else None
        key = (got.device or 0, got.counter or 0)
        if got.verdict == ACCEPTED and got.event is not None:
            type_, fields, source = got.event
            report = try_report(type_, fields, source, out.rejected, radio=got.radio,
                                acks=[ack] if ack else [], pressed_ms=got.pressed_ms)
            if report is not None:
                self.unstored[key] = report
                reports.append(report)
                if got.pressed_ms is not None:
                    late = time.time() * 1000 - got.pressed_ms
                    if late >= LATE_PRESS_MS:
                        self.ingest.mark_retried(*key)
                        self._retried(source, key, max(2, tries_by(int(late), True)), reports, out)
            return
        if got.retry:
            dev = self.ingest.devices.get(key[0])
            if dev is not None:
                self._retried(dev.source, key, got.retry, reports, out)
        if got.verdict == DUPLICATE and ack is not None:
            waiting = self.unstored.get(key)
            if waiting is not None:
                waiting.acks.append(ack)             # acknowledged once it is stored
            else:
                out.acks.append(ack)                 # stored before: acknowledged again
        if got.verdict in SECURITY:
            alarm = self.flood.note(got.verdict, got.device, got.detail, int(time.monotonic() * 1000), now)
            if alarm is not None:
                out.alarms.append(alarm)
            else:
                out.flood_later = True               # the merged count, a little later

    @staticmethod
    def _retried(source: str, key: tuple[int, int], tries: int, reports: list[Report], out: Output) -> None:
        """The frame ``key`` needed retries: a fact for the record (the coverage layer marks its cell)."""
        fields = {"device": key[0], "counter": key[1], "tries": tries}
        report = try_report("radio_retried", fields, source, out.rejected)
        if report is not None:
            reports.append(report)

    def _mesh(self, heard: MeshHeard, state: GameState, now: int, reports: list[Report], out: Output) -> None:
        """A message that is no report is answered at once (``? ...``); a report once it is stored and folded."""
        got = self.mesh.receive(heard, now, state)
        if got.verdict != MESH_ACCEPTED or got.event is None:
            if got.reply is not None:
                out.acks.append(got.reply)
            return
        type_, fields, source = got.event
        report = try_report(type_, fields, source, out.rejected, radio=got.radio, answer=got.reply)
        if report is not None:
            reports.append(report)

    def _cot(self, heard: CotHeard, now: int, reports: list[Report], out: Output) -> None:
        """A registered marshal's phone's position: a report (marked as come by TAK); the rest only counted."""
        got = self.tak.receive(heard, now)
        if got.verdict == TAK_ACCEPTED and got.event is not None:
            type_, fields, source = got.event
            report = try_report(type_, fields, source, out.rejected, radio=got.radio)
            if report is not None:
                reports.append(report)

    def _link(self, item: LinkState, now: int, out: Output) -> None:
        """A link's state: a lost link is an alarm; found again, it ends it (in the radio panel)."""
        self.links[item.link] = (item.state, item.detail)
        out.links.append(item)
        if item.state == "lost":
            text = item.detail or translate("alarms", "gateway {link} lost").format(link=item.link)
            out.alarms.append(Alarm(f"gateway:{item.link}:{now}", "gateway_lost", text, now))

    # -- what was stored -----------------------------------------------------------------
    def stored(self, report: Report) -> None:
        """``report`` is stored (its acknowledgements go out now)."""
        if report.radio is not None:
            self.unstored.pop((report.radio.device, report.radio.counter), None)

    def logged(self, stored: Any, now: int) -> None:
        """A stored event read back (this station's or another's): its frame's copies are duplicates now."""
        radio = stored.radio
        if radio is not None:
            self.ingest.note_stored(radio, now)
            self.unstored.pop((radio.device, radio.counter), None)
        if stored.event.source.startswith(("marshal:", "tracker:")):
            self.heard(stored.event.source, now)

    def heard(self, source: str, now: int) -> None:
        self.heard_at[source] = now
        self.silent.discard(source)

    # -- alarms over time ------------------------------------------------------------------
    def check_silence(self, now: int, out: Output) -> None:
        """Marshals and trackers not heard for ``marshal_silence_ms``: one alarm each, until heard again."""
        for source, heard in self.heard_at.items():
            if source not in self.silent and now - heard >= self.marshal_silence_ms:
                self.silent.add(source)
                minutes = (now - heard) // 60_000
                out.alarms.append(Alarm(f"silent:{source}:{heard}", "marshal_silent",
                                        translate("alarms", "{source} has not been heard for {minutes} minutes")
                                        .format(source=source, minutes=minutes), now))

    def flush_flood(self, out: Output) -> None:
        out.alarms += self.flood.flush(int(time.monotonic() * 1000))

    # -- the radio panel ------------------------------------------------------------------
    def radio_view(self) -> dict[str, Any]:
        """Links, counters per gateway, devices heard (and by which gateway how well), the last frames, the
        Meshtastic packets per link, and TAK phones once one is heard."""
        view = {"links": dict(self.links), "counts": self.ingest.stats(), "heard": dict(self.ingest.heard),
                "signal": dict(self.ingest.signal),     # (each device's dict is replaced, never changed)
                "recent": list(self.ingest.recent)[-200:], "mesh": self.mesh.stats()}
        if self.tak.counts["heard"]:
            view["tak"] = self.tak.view()
        return view

    def reload(self, store) -> dict:
        """The devices as registered now in ``store`` (a list imported elsewhere), known from here on: what the
        window may know of them (``output.device_view``).  StoreError when they cannot be read."""
        from controlroom.store.devices import devices

        self.know(known := devices(store))
        return device_view(known)

    def know(self, devices) -> None:
        """The game's devices as registered now: the radio, Meshtastic and TAK paths take them from here on."""
        self.ingest.know(devices)
        self.mesh.know(devices)
        self.tak.know(devices)

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {"radio": self.ingest.stats()}
        if self.mesh.counts:
            out["meshtastic"] = self.mesh.stats()
        if self.tak.counts["heard"]:
            out["tak"] = dict(self.tak.counts)
        return out
