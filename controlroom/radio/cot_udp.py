"""``--port cot-udp://HOST:PORT``: phones' Cursor-on-Target heard on the network, as a radio link.

ATAK, iTAK and WinTAK send their position reports to the mesh SA multicast
group (239.2.3.1:6969) when no server is used, and to any UDP address they
are given.  This link listens there through PyTAK's UDP reader (which joins
the multicast group), decodes each datagram, XML or protocol 1 with mesh
framing (``radio.cot_in``), and puts it into the station's ``HeardQueue``.
It sends nothing: the battle goes out through ``--tak`` (``radio.tak_link``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any
from urllib.parse import urlsplit

from controlroom.radio import tak_libs
from controlroom.radio.cot_in import decode
from controlroom.radio.link import Ack, HeardQueue, LinkState

log = logging.getLogger(__name__)

SCHEME = "cot-udp"


def is_cot_udp_url(url: str) -> bool:
    return str(url).strip().lower().startswith(SCHEME + "://")


def check_url(url: str) -> None:
    """ValueError naming what is wrong with a ``cot-udp://`` port."""
    parts = urlsplit(str(url).strip())
    try:
        port = parts.port
    except ValueError:
        port = None
    if not parts.hostname or port is None:
        raise ValueError(f"a TAK listening port is cot-udp://ADDRESS:PORT, e.g. cot-udp://239.2.3.1:6969 for "
                         f"ATAK's multicast or cot-udp://0.0.0.0:4242, not {url!r}")
    missing = tak_libs.available()
    if missing:
        raise ValueError(missing)


class CotUdpLink:
    """Listens for CoT datagrams on one address (unicast or a multicast group)."""

    def __init__(self, url: str, queue: HeardQueue, **_options: Any) -> None:
        check_url(url)
        self.name = url
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.queue = queue
        self.heard = self.unreadable = 0
        self.stopping = False
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"controlroom-{self.name}", daemon=True)
        self._thread.start()

    def request_stop(self) -> None:
        self.stopping = True
        if self._loop is not None and self._stop is not None:
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:
                pass

    def join(self, timeout: float = 5.0) -> bool:
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    def send(self, ack: Ack) -> bool:
        return False

    def owns(self, ack: Ack) -> bool:
        return False

    def stats(self) -> dict[str, Any]:
        return {"kind": "cot-udp", "heard": self.heard, "unreadable": self.unreadable}

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:
            log.exception("the CoT listener on %s stopped", self.name)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if self.stopping:
            return
        pytak = tak_libs.pytak()
        from configparser import ConfigParser

        parser = ConfigParser(interpolation=None)
        parser["tak"] = {"COT_URL": f"udp+ro://{self.host}:{self.port}"}
        try:
            reader, _writer = await pytak.protocol_factory(parser["tak"])
        except OSError as exc:
            self.queue.put(LinkState(self.name, "lost", f"{self.name}: {exc.strerror or exc}"))
            return
        self.queue.put(LinkState(self.name, "connected"))
        stop = asyncio.create_task(self._stop.wait())
        try:
            while not self.stopping:
                recv = asyncio.create_task(reader.recv())
                done, _ = await asyncio.wait({recv, stop}, return_when=asyncio.FIRST_COMPLETED)
                if recv not in done:
                    recv.cancel()
                    break
                try:
                    data, _addr = recv.result()
                except OSError:                 # an ICMP error passed up by the socket: nothing heard
                    continue
                heard = decode(bytes(data), self.name)
                if heard is None:
                    self.unreadable += 1
                    continue
                self.heard += 1
                self.queue.put(heard)
        finally:
            stop.cancel()
            reader.close()
            self.queue.put(LinkState(self.name, "stopped"))


def open_listener(url: str, queue: HeardQueue, **options: Any) -> CotUdpLink:
    return CotUdpLink(url, queue, **options)
