"""The station's TAK link: the battle sent to TAK servers and clients as Cursor-on-Target, and phones' CoT heard back.

One thread with its own asyncio event loop serves every ``--tak`` URL
(tcp://, tls://, udp://), each connection opened by PyTAK's
``protocol_factory`` and written by PyTAK's ``TXWorker``; protocol 1
(``?proto=1``) is framed by takproto.  The core never waits for it: the facts
go into the feed's inbox (``radio.tak_feed``), and each connection has a
``LatestQueue`` that keeps only the latest event per uid, so a server that is
away for an hour costs one entry per object, not an hour of events.  A lost
server is looked for again after 0.5, 1, 2, 4, 8 s (then every 8 s); once it
is back it gets every object again.  What a TCP or TLS server passes on from
phones is decoded (``radio.cot_in``) and put into the station's
``HeardQueue`` as ``CotHeard``: this is a link like the radio gateways
(``radio.link.Link``), though it carries no acknowledgements.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import threading
from configparser import ConfigParser
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from controlroom.game.tak_settings import check_tak_url
from controlroom.i18n import translate
from controlroom.radio import tak_libs
from controlroom.radio.cot import to_protobuf, to_xml
from controlroom.radio.cot_in import StreamSplitter, decode
from controlroom.radio.link import Ack, HeardQueue, LinkState
from controlroom.radio.tak_feed import FeedInbox, TakFeed

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 5.0
TICK_S = 0.2                # the feed is looked at five times a second
QUEUE_LIMIT = 20_000        # objects (uids) kept per connection while it is away


@dataclass(frozen=True)
class TlsFiles:
    """The client certificate, its key and the certificate authority a tls:// server is checked against (PEM)."""

    cert: str
    key: str
    ca: str | None = None


def tls_files(urls: list[str], cert: str | None, key: str | None, ca: str | None) -> TlsFiles | None:
    """The TLS files for the tls:// URLs among ``urls`` (None when there are none); ValueError saying what is
    missing or cannot be read."""
    import os

    if not any(urlsplit(str(u)).scheme == "tls" for u in urls):
        return None
    if not cert or not key:
        raise ValueError("a tls:// TAK server needs the station's certificate and key: --tak-cert FILE.pem "
                         "--tak-key FILE.pem (and --tak-ca FILE.pem for the server's certificate authority)")
    for what, path in (("--tak-cert", cert), ("--tak-key", key), ("--tak-ca", ca)):
        if path and not os.path.isfile(path):
            raise ValueError(f"{what} {path}: no such file")
    return TlsFiles(cert, key, ca)


class LatestQueue:
    """The latest event of each uid, the oldest first; at most ``limit`` uids (the oldest is dropped)."""

    def __init__(self, limit: int = QUEUE_LIMIT) -> None:
        self.items: collections.OrderedDict[str, bytes] = collections.OrderedDict()
        self.limit = limit
        self.dropped = 0

    def put(self, uid: str, data: bytes) -> None:
        items = self.items
        items[uid] = data                  # a uid waiting keeps its place: an object updated often is not starved
        while len(items) > self.limit:
            items.popitem(last=False)
            self.dropped += 1

    def pop(self) -> tuple[str, bytes] | None:
        return self.items.popitem(last=False) if self.items else None

    def put_back(self, uid: str, data: bytes) -> None:
        """An event that could not be sent goes first again, unless a newer one of its uid waits."""
        if uid not in self.items:
            self.items[uid] = data
            self.items.move_to_end(uid, last=False)

    def __len__(self) -> int:
        return len(self.items)


class TakConnection:
    """One ``--tak`` URL: its connection, its queue, its counters."""

    def __init__(self, url: str, tls: TlsFiles | None = None, limit: int = QUEUE_LIMIT) -> None:
        self.url = check_tak_url(url)
        parts = urlsplit(self.url)
        self.scheme, self.host, self.port = parts.scheme, parts.hostname, parts.port
        self.proto = 1 if parse_qs(parts.query).get("proto", ["0"])[0] == "1" else 0
        self.tls = tls
        self.queue = LatestQueue(limit)
        self.wake: asyncio.Event | None = None
        self.state = ""
        self.sent = self.connects = self.errors = self.heard = 0
        self.last_error = ""

    def woken(self) -> asyncio.Event:
        """The event that wakes its sender: made in the link's loop (``_main``) before the connection is served."""
        if self.wake is None:
            raise RuntimeError(f"TAK connection {self.url} served before the link's loop made its wake event")
        return self.wake

    @property
    def listens(self) -> bool:
        """Whether what the server passes on is read (a TCP or TLS server; udp:// only sends)."""
        return self.scheme in ("tcp", "tls")

    def encode(self, xml: bytes) -> bytes:
        return to_protobuf(xml, mesh=self.scheme == "udp") if self.proto else xml

    def config(self):
        """PyTAK's configuration of this connection."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        values = {"COT_URL": f"{'udp+wo' if self.scheme == 'udp' else self.scheme}://{host}:{self.port}",
                  "TAK_PROTO": "0"}        # (protocol 1 is framed here, by takproto: see encode)
        if self.tls is not None:
            values["PYTAK_TLS_CLIENT_CERT"] = self.tls.cert
            values["PYTAK_TLS_CLIENT_KEY"] = self.tls.key
            if self.tls.ca:
                values["PYTAK_TLS_CLIENT_CAFILE"] = self.tls.ca
        parser = ConfigParser(interpolation=None)
        parser["tak"] = values
        return parser["tak"]

    def stats(self) -> dict[str, Any]:
        return {"state": self.state, "sent": self.sent, "queued": len(self.queue), "dropped": self.queue.dropped,
                "connects": self.connects, "errors": self.errors, "heard": self.heard, "last_error": self.last_error,
                "proto": self.proto}


class TakLink:
    """The TAK link of a station (``radio.link.Link``): a feed of the game, sent to every URL; CoT heard back."""

    name = "tak"

    def __init__(self, urls: list[str], queue: HeardQueue, *, tls: TlsFiles | None = None,
                 backoff_initial: float = 0.5, backoff_max: float = 8.0, tick_s: float = TICK_S,
                 limit: int = QUEUE_LIMIT) -> None:
        tak_libs.pytak()                        # TakUnavailableError, in words, before any thread starts
        self.connections = [TakConnection(url, tls if urlsplit(url).scheme == "tls" else None, limit)
                            for url in dict.fromkeys(urls)]
        self.queue = queue
        self.inbox = FeedInbox()
        self.feed: TakFeed | None = None
        self.backoff_initial, self.backoff_max, self.tick_s = backoff_initial, backoff_max, tick_s
        self.stopping = False
        self.steps = self.events = 0
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    # -- the facts (any thread) -------------------------------------------------------------------
    def opened(self, info) -> None:
        """The game is open (``GameInfo``): its name, places and TAK settings make the feed."""
        self.feed = TakFeed(info.name, info.tak, info.places)

    # -- the Link protocol ------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="controlroom-tak", daemon=True)
        self._thread.start()

    def request_stop(self) -> None:
        self.stopping = True
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:            # the loop has ended already
                pass

    def join(self, timeout: float = 5.0) -> bool:
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    def send(self, ack: Ack) -> bool:
        return False                        # TAK carries no acknowledgements

    def owns(self, ack: Ack) -> bool:
        return False

    def stats(self) -> dict[str, Any]:
        feed = self.feed
        return {"kind": "tak", "steps": self.steps, "events": self.events, "deltas": self.inbox.deltas,
                "objects": len(feed.entries) if feed is not None else 0,
                "unplaced_stopps": sorted(feed.unplaced) if feed is not None else [],
                "connections": {c.url: c.stats() for c in self.connections}}

    # -- the thread -------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:
            log.exception("the TAK link stopped")

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if self.stopping:
            return
        for conn in self.connections:
            conn.wake = asyncio.Event()
        tasks = [asyncio.create_task(self._ticks())] + [asyncio.create_task(self._serve(c)) for c in self.connections]
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for conn in self.connections:
            self._say(conn, "stopped")

    async def _ticks(self) -> None:
        while True:
            try:
                self.step()
            except Exception:               # a fact the feed did not expect must not end the link
                log.exception("the TAK feed")
            await asyncio.sleep(self.tick_s)

    def step(self) -> int:
        """Take the facts that came, and queue what is due on every connection; the number of events queued."""
        feed = self.feed
        if feed is None:
            return 0
        feed.apply(self.inbox.take())
        due = feed.due()
        self.steps += 1
        for cot in due:
            xml = to_xml(cot)
            for conn in self.connections:
                conn.queue.put(cot.uid, conn.encode(xml))
        if due:
            self.events += len(due)
            for conn in self.connections:
                if conn.wake is not None:
                    conn.wake.set()
        return len(due)

    def _say(self, conn: TakConnection, state: str, detail: str = "") -> None:
        if conn.state != state or state == "retrying":
            conn.state = state
            self.queue.put(LinkState(conn.url, state, detail))

    async def _serve(self, conn: TakConnection) -> None:
        """Connect, send and read until the connection fails; then look for the server again, ever less often."""
        pytak = tak_libs.pytak()
        delay = self.backoff_initial
        while not self.stopping:
            self._say(conn, "connecting")
            try:
                reader, writer = await asyncio.wait_for(pytak.protocol_factory(conn.config()), CONNECT_TIMEOUT_S)
            except asyncio.CancelledError:
                raise
            except Exception as exc:        # refused, unreachable, timed out, TLS refused...
                conn.errors += 1
                conn.last_error = _words(exc)
                self._say(conn, "retrying", translate("tak", "{why}; next attempt in {s:g} s").format(
                    why=conn.last_error, s=round(delay, 1)))
                await asyncio.sleep(delay)
                delay = min(self.backoff_max, delay * 2)
                continue
            delay = self.backoff_initial
            conn.connects += 1
            self._say(conn, "connected")
            if self.feed is not None:       # everything again: the server (or a client) may have lost it all
                for cot in self.feed.current():
                    conn.queue.put(cot.uid, conn.encode(to_xml(cot)))
            conn.woken().set()
            try:
                await self._exchange(conn, pytak.TXWorker(asyncio.Queue(), conn.config(), writer), reader)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                conn.errors += 1
                conn.last_error = _words(exc)
                self._say(conn, "lost", translate("tak", "TAK server {url} lost ({why}): its objects are sent "
                                                         "again when it is back").format(url=conn.url,
                                                                                         why=conn.last_error))
            finally:
                await _close(writer)
            await asyncio.sleep(delay)

    async def _exchange(self, conn: TakConnection, tx, reader) -> None:
        tasks = [asyncio.create_task(self._send(conn, tx))]
        if conn.listens and reader is not None:
            tasks.append(asyncio.create_task(self._read(conn, reader)))
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _send(self, conn: TakConnection, tx) -> None:
        wake = conn.woken()
        while True:
            await wake.wait()
            wake.clear()
            while (item := conn.queue.pop()) is not None:
                uid, data = item
                try:
                    await tx.send_data(data)
                except OSError as exc:
                    if conn.scheme == "udp":    # nobody listening now (an ICMP refusal): UDP goes on regardless
                        conn.errors += 1
                        conn.last_error = _words(exc)
                        continue
                    conn.queue.put_back(uid, data)
                    raise
                conn.sent += 1

    async def _read(self, conn: TakConnection, reader) -> None:
        splitter = StreamSplitter()
        while True:
            data = await reader.read(65536)
            if not data:
                raise ConnectionResetError(translate("tak", "the server closed the connection"))
            for message in splitter.feed(data):
                heard = decode(message, conn.url)
                if heard is not None:
                    conn.heard += 1
                    self.queue.put(heard)


def _words(exc: BaseException) -> str:
    if isinstance(exc, asyncio.TimeoutError):
        return translate("tak", "no answer in {s:g} s").format(s=CONNECT_TIMEOUT_S)
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return str(text)


async def _close(writer) -> None:
    """Close a connection and wait (a little) until it is closed."""
    try:
        if writer is not None and hasattr(writer, "close"):
            writer.close()
            if hasattr(writer, "wait_closed"):
                await asyncio.wait_for(writer.wait_closed(), 1.0)
    except (Exception, asyncio.CancelledError):     # closing what has failed may fail too; so may a stop meanwhile
        pass

