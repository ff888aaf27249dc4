"""RadioBridge: the gateways' serial links (plain threads) wired to the core worker (queued signals)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Slot

from controlroom.core.thread import CoreThread
from controlroom.radio.transport import GatewaySet


class RadioBridge(QObject):
    """Reads every gateway in its own thread and hands what it hears to the core; sends the core's acks."""

    def __init__(self, core: CoreThread, urls: list[str], **link_options) -> None:
        super().__init__()
        self.core = core
        self.gateways = GatewaySet(urls, self._on_line, self._on_state, **link_options)
        core.ack_ready.connect(self._send_ack)
        self._lock = threading.Lock()
        self._heard: list[tuple] = []
        self._signalled = False

    def take(self) -> list[tuple]:
        """The frames heard since the last take (called in the core's thread)."""
        with self._lock:
            heard, self._heard = self._heard, []
            self._signalled = False
        return heard

    def start(self) -> None:
        self.gateways.start()

    def stop(self) -> None:
        self.gateways.stop()

    # Called from the reader threads: only emit (Qt queues the call into the core's thread).
    # Frames are handed over in bunches: the first frame after a hand-over emits one
    # signal, and whatever arrives before the core takes them rides along.
    def _on_line(self, link: str, item) -> None:
        if item.ok:
            f = item.fields
            if f["kind"] == "rx":
                with self._lock:
                    self._heard.append((f["gateway"], f["rssi"], f["snr"], f["frame"]))
                    if self._signalled:
                        return
                    self._signalled = True
                self.core.frames_heard.emit(_Take(self))
        else:
            gw = self._gateway_label(link)
            self.core.line_rejected.emit(gw, item.reason)

    def _on_state(self, link: str, state: str, detail) -> None:
        text = detail if isinstance(detail, str) else ""
        if isinstance(detail, dict) and "gateway" in detail:
            text = f"gateway {detail['gateway']} ({detail.get('fw', '?')}, SF{detail.get('sf', '?')})"
        self.core.link_changed.emit(link, state, text)

    def _gateway_label(self, link: str) -> str:
        for gl in self.gateways.links.values():
            if gl.name == link and gl.gateway_id is not None:
                return str(gl.gateway_id)
        return link

    @Slot(int, str)
    def _send_ack(self, gateway: int, line: str) -> None:
        """Through the gateway that heard the frame; if that one is not ours, through any gateway up."""
        if self.gateways.send_to(gateway, line):
            return
        for link in self.gateways.links.values():
            if link.send(line):
                return

    def stats(self) -> dict:
        return self.gateways.stats()


class _Take:
    """Iterating it takes the bridge's pending frames: they are read in the core's thread, in order."""

    __slots__ = ("bridge",)

    def __init__(self, bridge: RadioBridge) -> None:
        self.bridge = bridge

    def __iter__(self):
        return iter(self.bridge.take())
