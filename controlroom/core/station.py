"""A station: one game's core and its gateways, wired together (what the window, headless and the demo run).

The gateways' serial links are read by plain threads (``radio.transport``);
what they hear is handed to the core as queued signals, in bunches.  The
core's acknowledgements go straight from the core's thread to the link that
heard the frame, never through the window's event loop.  The gateways start
once the game is open: their ports are the ones given, or those kept with
the game.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Slot

from controlroom.core.thread import CoreThread
from controlroom.game.clock import Clock
from controlroom.radio.mesh_ingest import MeshReply
from controlroom.radio.meshtastic_link import MeshtasticLink, is_meshtastic_url
from controlroom.radio.ports import check_url
from controlroom.radio.transport import GatewaySet

# A gateway that has gone is looked for again after 1, 2, 4 ... 30 s (a lasting session starts it afresh).
LINK_OPTIONS = {"backoff_initial": 1.0, "backoff_max": 30.0}


class Station(QObject):
    """The core thread of game ``db`` and, once it is open, a link to each of its gateways.

    ``ports``: the gateways' serial ports; None for those kept with the game.
    """

    def __init__(self, db: str, ports: list[str] | None = None, clock: Clock | None = None,
                 parent: QObject | None = None, link_options: dict | None = None, **core_options) -> None:
        super().__init__(parent)
        for url in ports or ():
            check_url(url)                      # ValueError: a port no link could ever open
        self.gateways: GatewaySet | None = None
        self.link_options = {**LINK_OPTIONS, **(link_options or {})}
        self._lock = threading.Lock()
        self._heard: list[tuple] = []
        self._signalled = False
        self.mesh_links: dict[str, MeshtasticLink] = {}     # stock Meshtastic nodes (docs/meshtastic.md)
        self._mesh_heard: list = []
        self._mesh_signalled = False
        self.core = CoreThread(db, clock, parent=self, acks=self.send_ack, ports=ports, **core_options)
        self.core.opened.connect(self._start_links)

    def start(self) -> None:
        self.core.start()

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Stop the gateways (nothing more is heard), then store what was heard and stop the core."""
        if self.gateways is not None:
            self.gateways.stop()
        for link in self.mesh_links.values():
            link.request_stop()
        for link in self.mesh_links.values():
            link.join()
        return self.core.shutdown(timeout_ms)

    def stats(self) -> dict:
        out = self.gateways.stats() if self.gateways is not None else {}
        for name, link in self.mesh_links.items():
            out = {**out, name: link.stats()}
        return out

    @Slot(object)
    def _start_links(self, info) -> None:
        if not info.ports or self.gateways is not None or self.mesh_links:
            return
        serial_ports = [p for p in info.ports if not is_meshtastic_url(p)]
        for url in info.ports:
            if is_meshtastic_url(url) and url not in self.mesh_links:
                self.mesh_links[url] = MeshtasticLink(url, self._on_mesh, self._on_state)
        self.gateways = GatewaySet(serial_ports, self._on_line, self._on_state, **self.link_options)
        self.gateways.start()
        for link in self.mesh_links.values():
            link.start()

    def _on_mesh(self, link: str, heard) -> None:
        """A Meshtastic packet (on the meshtastic package's thread): queued for the core, in bunches."""
        with self._lock:
            self._mesh_heard.append(heard)
            if self._mesh_signalled:
                return
            self._mesh_signalled = True
        self.core.mesh_heard.emit(_MeshTake(self))

    def take_mesh(self) -> list:
        with self._lock:
            heard, self._mesh_heard = self._mesh_heard, []
            self._mesh_signalled = False
        return heard

    # -- from the reader threads: only emit (Qt queues the call into the core's thread) ------------
    def _on_line(self, link: str, item) -> None:
        if item.ok:
            f = item.fields
            if f["kind"] == "rx":
                own = self._gateway_id(link)
                if own is not None and f["gateway"] != own:
                    # PROTOCOL.md section 7: an RX line names the gateway that heard it; this link's
                    # gateway said it is another one.  Not believed, not acknowledged under that id.
                    self.core.line_rejected.emit(str(own), "gateway_id",
                                                 f"an RX line claiming gateway {f['gateway']} on the link of gateway "
                                                 f"{own} ({link})")
                    return
                with self._lock:
                    self._heard.append((f["gateway"], f["rssi"], f["snr"], f["frame"]))
                    if self._signalled:
                        return              # rides along with the bunch already announced
                    self._signalled = True
                self.core.frames_heard.emit(_Take(self))
        else:
            self.core.line_rejected.emit(self._gateway_label(link), item.reason, item.detail)

    def _on_state(self, link: str, state: str, detail) -> None:
        text = detail if isinstance(detail, str) else ""
        if isinstance(detail, dict) and "gateway" in detail:
            text = f"gateway {detail['gateway']} ({detail.get('fw', '?')}, SF{detail.get('sf', '?')})"
        self.core.link_changed.emit(link, state, text)

    def _gateway_id(self, link: str) -> int | None:
        """The gateway id the link's gateway gave in its ID answer (None: it has not answered)."""
        for gl in (self.gateways.links.values() if self.gateways else ()):
            if gl.name == link:
                return gl.gateway_id
        return None

    def _gateway_label(self, link: str) -> str:
        own = self._gateway_id(link)
        return link if own is None else str(own)

    def take(self) -> list[tuple]:
        """The frames heard since the last take (called in the core's thread)."""
        with self._lock:
            heard, self._heard = self._heard, []
            self._signalled = False
        return heard

    # -- from the core's thread -----------------------------------------------------------------
    def send_ack(self, gateway: int, ack) -> None:
        """Through the gateway that heard the frame; if that one is not ours, through any gateway up.

        An answer to a Meshtastic message (MeshReply) goes back through the node that heard it, or any other.
        """
        if isinstance(ack, MeshReply):
            first = self.mesh_links.get(ack.link)
            for link in ([first] if first else []) + [m for m in self.mesh_links.values() if m is not first]:
                if link.send(ack):
                    return
            return
        gateways = self.gateways
        if gateways is None:
            return
        for link in gateways.targets(gateway):
            if link.send_frame(ack):
                return
        for link in gateways.links.values():
            if link.send_frame(ack):
                return


class _MeshTake:
    """Iterating it takes the station's pending Meshtastic packets (in the core's thread)."""

    __slots__ = ("station",)

    def __init__(self, station: Station) -> None:
        self.station = station

    def __iter__(self):
        return iter(self.station.take_mesh())


class _Take:
    """Iterating it takes the station's pending frames: they are read in the core's thread, in order."""

    __slots__ = ("station",)

    def __init__(self, station: Station) -> None:
        self.station = station

    def __iter__(self):
        return iter(self.station.take())
