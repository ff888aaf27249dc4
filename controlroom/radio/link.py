"""The one protocol every radio link follows, the values it passes, and the registry of links by URL (no Qt).

A link is one connection to the field: a LoRa gateway on a serial port, a
stock Meshtastic node, a TAK server (``radio.tak_link``) or the phones' CoT
on the network (``radio.cot_udp``), tomorrow ChirpStack.  Each one

- ``start()``s its own threads and ``stop()``s them (``request_stop`` then
  ``join``, so that many links stop at once);
- puts what it hears into one thread-safe ``HeardQueue`` shared by every link
  of a station: ``FrameHeard``, ``MeshHeard`` (``radio.mesh_ingest``),
  ``CotHeard`` (``radio.cot_in``), ``LineRejected``, ``LinkState``; the core
  drains the queue in its own thread;
- ``send(ack)``s an answer (``FrameAck``, ``MeshReply``) when it can carry
  it: False when it cannot (another kind of link, or not connected), so that
  the station tries the next link;
- says whether an answer belongs to what it heard (``owns``: the gateway or
  node that heard the report answers it first), and reports ``stats()``.

``radio.registry.open_link(url, queue)`` picks the link for a URL by its
scheme: a new transport is one module and one line there; the station
(``core.wiring``) never names one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from controlroom.radio.cot_in import CotHeard
from controlroom.radio.mesh_ingest import MeshHeard, MeshReply

__all__ = ["Ack", "CotHeard", "FrameAck", "FrameHeard", "Heard", "HeardQueue", "LineRejected", "Link", "LinkState",
           "MeshHeard", "MeshReply", "send_through"]


@dataclass(frozen=True, slots=True)
class FrameHeard:
    """A frame a LoRa gateway heard (an RX line): the gateway's id, the signal, the frame's bytes."""

    link: str
    gateway: int
    rssi: float | None
    snr: float | None
    frame: bytes


@dataclass(frozen=True, slots=True)
class LineRejected:
    """A line from a gateway that failed its checksum, did not parse, or named another gateway."""

    gateway: str            # the gateway's id when it gave one, else the link's name
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class LinkState:
    """A link's state changed: connecting, identified, up, lost ... (``detail`` in words)."""

    link: str
    state: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class FrameAck:
    """An acknowledgement frame to transmit through ``gateway`` (the one that heard the report)."""

    gateway: int
    frame: bytes


Heard = FrameHeard | MeshHeard | CotHeard | LineRejected | LinkState
Ack = FrameAck | MeshReply


class HeardQueue:
    """What every link of a station heard, in the order heard; drained by the core in its thread.

    ``wake`` is called (in the link's thread) when the queue turns from empty
    to not empty: the core then takes everything at once.  Items heard while
    a take is pending ride along with it, so a burst of frames is one wake.
    """

    def __init__(self, wake: Callable[[], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._items: list[Heard] = []
        self._woken = False
        self.wake = wake

    def put(self, item: Heard) -> None:
        with self._lock:
            self._items.append(item)
            if self._woken:
                return
            self._woken = True
        if self.wake is not None:
            self.wake()

    def take(self) -> list[Heard]:
        """Everything heard since the last take (the next put wakes the core again)."""
        with self._lock:
            items, self._items = self._items, []
            self._woken = False
        return items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


@runtime_checkable
class Link(Protocol):
    """One connection to the field (see the module's docstring)."""

    name: str

    def start(self) -> None: ...

    def request_stop(self) -> None: ...

    def join(self, timeout: float = 5.0) -> bool: ...

    def send(self, ack: Ack) -> bool: ...

    def owns(self, ack: Ack) -> bool: ...

    def stats(self) -> dict[str, Any]: ...


def send_through(links: Iterable[Link], ack: Ack) -> bool:
    """Send ``ack`` through the link that heard its report, else through any other that takes it."""
    links = list(links)
    for link in sorted(links, key=lambda link: not link.owns(ack)):
        if link.send(ack):
            return True
    return False
