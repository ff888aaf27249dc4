"""A stock Meshtastic node as a gateway: ``--port meshtastic:/dev/ttyACM0`` or ``--port meshtastic-tcp:HOST[:PORT]``.

Through the ``meshtastic`` package (the optional extra ``controlroom[meshtastic]``),
imported only when such a port is used.  The package reads the node in its
own threads and publishes each packet on pypubsub's ``meshtastic.receive``
topics (on its publishing thread); this link turns them into
``mesh_ingest.MeshHeard`` and hands them on, as the serial gateway links hand
on lines.  Answers are sent with ``sendText``: to the sender for a direct
message (the node encrypts it with the sender's key when it has it, PKI), on
the same channel for a channel message.  The package sleeps 100 ms after
every write to the node (and waits while the node's transmit queue is full),
so answers are handed to a sender thread of the link's own: the core's
thread only queues them.  A lost node is tried again every few seconds until
the link is stopped.
"""

from __future__ import annotations

import logging
import queue as queues
import threading
from collections.abc import Callable

from controlroom.radio.link import HeardQueue, LinkState
from controlroom.radio.mesh_ingest import BROADCAST, MeshHeard, MeshReply, from_packet, node_name

log = logging.getLogger(__name__)

SCHEMES = ("meshtastic:", "meshtastic-tcp:")
DEFAULT_TCP_PORT = 4403
INSTALL_HINT = ("the meshtastic package is not installed, which a meshtastic: port needs: "
                "pip install 'controlroom[meshtastic]' (the installer bundles it)")
RETRY_S = 3.0
CONNECT_TIMEOUT_S = 30


class MeshtasticMissing(RuntimeError):  # noqa: N818 - an optional package not installed, not a fault
    """The optional ``meshtastic`` package is not importable."""


def is_meshtastic_url(url) -> bool:
    return isinstance(url, str) and url.strip().lower().startswith(SCHEMES)


def parse_url(url: str) -> tuple[str, str, int | None]:
    """("serial", device, None) or ("tcp", host, port); ValueError naming what is wrong."""
    text = url.strip()
    low = text.lower()
    if low.startswith("meshtastic-tcp:"):
        rest = text[len("meshtastic-tcp:"):].lstrip("/")
        if not rest:
            raise ValueError(f"{url!r}: give the node's address, e.g. meshtastic-tcp:192.168.1.50 "
                             f"(or HOST:PORT; the port is {DEFAULT_TCP_PORT} unless changed)")
        host, _, port = rest.rpartition(":") if rest.count(":") == 1 else (rest, "", "")
        if not port:
            return "tcp", rest, DEFAULT_TCP_PORT
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{url!r}: {port!r} is not a TCP port number")
        return "tcp", host, int(port)
    if low.startswith("meshtastic:"):
        rest = text[len("meshtastic:"):]
        if not rest.strip():
            raise ValueError(f"{url!r}: give the node's serial port, e.g. meshtastic:/dev/ttyACM0 or meshtastic:COM5")
        return "serial", rest, None
    raise ValueError(f"{url!r} is not a Meshtastic port (meshtastic:DEVICE or meshtastic-tcp:HOST)")


def check_url(url: str) -> None:
    """ValueError naming what is wrong with a Meshtastic port's URL."""
    parse_url(url)


def open_node(url: str, queue: HeardQueue, **options) -> MeshtasticLink:
    """A station's link to the Meshtastic node at ``url``: it puts what it hears into ``queue``."""
    known = {k: v for k, v in options.items() if k in ("retry_s", "connect_timeout_s")}
    return MeshtasticLink(url, queue=queue, **known)


def import_meshtastic():
    """(SerialInterface, TCPInterface, pub), or MeshtasticMissing with the install hint."""
    try:
        from meshtastic.serial_interface import SerialInterface
        from meshtastic.tcp_interface import TCPInterface
        from pubsub import pub
    except ImportError as exc:
        raise MeshtasticMissing(INSTALL_HINT) from exc
    return SerialInterface, TCPInterface, pub


class MeshtasticLink:
    """One Meshtastic node: read in the ``meshtastic`` package's threads, (re)connected by a thread of its own.

    ``on_packet(link, MeshHeard)`` runs on the package's publishing thread;
    ``on_state(link, state, detail)`` with state "connecting", "up" or "lost".
    """

    def __init__(self, url: str, on_packet: Callable[[str, MeshHeard], None] | None = None,
                 on_state: Callable[[str, str, object], None] | None = None, retry_s: float = RETRY_S,
                 connect_timeout_s: int = CONNECT_TIMEOUT_S, *, queue: HeardQueue | None = None) -> None:
        self.name = url
        self.kind, self.target, self.port = parse_url(url)
        self._queue = queue
        self.on_packet: Callable[[str, MeshHeard], None]
        self.on_state: Callable[[str, str, object], None]
        if queue is None:
            if on_packet is None or on_state is None:
                raise ValueError("a Meshtastic link reports to callbacks or to a station's queue")
            self.on_packet, self.on_state = on_packet, on_state
        else:
            self.on_packet = on_packet or (lambda _link, heard: queue.put(heard))
            self.on_state = on_state or (lambda link, state, detail: queue.put(LinkState(link, state,
                                                                                          str(detail or ""))))
        self.retry_s = retry_s
        self.connect_timeout_s = connect_timeout_s
        self.gateway = ""                   # the node's id once connected ("!0a1b2c3d")
        self.iface = None
        self._lock = threading.Lock()       # around sending and swapping the interface
        self._stop = threading.Event()
        self._lost = threading.Event()
        self._thread: threading.Thread | None = None
        self._sender: threading.Thread | None = None
        self._outbox: queues.Queue = queues.Queue()
        self._pub = None
        self.sent = 0
        self.send_failed = 0
        self.heard = 0

    # -- life cycle ------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"meshtastic {self.target}", daemon=True)
        self._sender = threading.Thread(target=self._send_loop, name=f"meshtastic {self.target} sender", daemon=True)
        self._thread.start()
        self._sender.start()

    def request_stop(self) -> None:
        self._stop.set()
        self._lost.set()
        self._outbox.put(None)

    def join(self, timeout: float = 5.0) -> bool:
        alive = False
        for thread in (self._thread, self._sender):
            if thread is not None:
                thread.join(timeout)
                alive = alive or thread.is_alive()
        return not alive

    def stop(self, timeout: float = 5.0) -> bool:
        self.request_stop()
        return self.join(timeout)

    def _run(self) -> None:
        try:
            self._connect_loop()
        finally:
            self._outbox.put(None)          # the sender thread ends with the link

    def _connect_loop(self) -> None:
        try:
            serial_interface, tcp_interface, pub = import_meshtastic()
        except MeshtasticMissing as exc:
            self.on_state(self.name, "lost", str(exc))
            return
        self._pub = pub
        pub.subscribe(self._on_receive, "meshtastic.receive")
        pub.subscribe(self._on_lost, "meshtastic.connection.lost")
        try:
            while not self._stop.is_set():
                self._lost.clear()
                self.on_state(self.name, "connecting", self.target)
                try:
                    iface = self._open(serial_interface, tcp_interface)
                except Exception as exc:        # any failure to connect: say so, try again
                    self.on_state(self.name, "lost", f"Meshtastic node at {self.target}: {type(exc).__name__}: {exc}")
                    self._stop.wait(self.retry_s)
                    continue
                num = getattr(getattr(iface, "myInfo", None), "my_node_num", 0)
                self.gateway = node_name(num) if num else ""
                self.on_state(self.name, "up", f"Meshtastic node {self.gateway or '?'} at {self.target}")
                self._lost.wait()
                with self._lock:
                    self.iface = None
                _close(iface)
                if not self._stop.is_set():
                    self.on_state(self.name, "lost", f"Meshtastic node at {self.target} lost")
                    self._stop.wait(self.retry_s)
        finally:
            for listener, topic in ((self._on_receive, "meshtastic.receive"),
                                    (self._on_lost, "meshtastic.connection.lost")):
                try:
                    pub.unsubscribe(listener, topic)
                except Exception:           # already gone
                    pass

    def _open(self, serial_interface, tcp_interface):
        if self.kind == "tcp":
            iface = tcp_interface(self.target, portNumber=self.port, connectNow=False, timeout=self.connect_timeout_s)
        else:
            iface = serial_interface(self.target, connectNow=False, timeout=self.connect_timeout_s)
        with self._lock:
            self.iface = iface              # packets published while connecting are ours too
        try:
            iface.connect()
            iface.waitForConfig()
        except BaseException:
            with self._lock:
                self.iface = None
            _close(iface)
            raise
        return iface

    # -- from the meshtastic package's publishing thread -----------------------------------
    def _on_receive(self, packet, interface=None) -> None:
        if interface is None or interface is not self.iface:
            return                          # another link's node
        try:
            heard = from_packet(packet, self.name, self.gateway)
        except Exception:                   # one odd packet must not stop the node
            log.exception("a Meshtastic packet that could not be read")
            return
        if heard is not None:
            self.heard += 1
            self.on_packet(self.name, heard)

    def _on_lost(self, interface=None) -> None:
        if interface is not None and interface is self.iface:
            self._lost.set()

    # -- from the core's thread -------------------------------------------------------------
    def owns(self, ack) -> bool:
        """Whether this node heard the message ``ack`` answers."""
        return isinstance(ack, MeshReply) and ack.link == self.name

    def send(self, reply) -> bool:
        """Queue an answer for the sender thread; False when the node is not connected (another may take it),
        or for what a Meshtastic node does not carry (a LoRa gateway's acknowledgement frame)."""
        if not isinstance(reply, MeshReply) or self.iface is None or self._stop.is_set():
            return False
        self._outbox.put(reply)
        return True

    def _send_loop(self) -> None:
        while True:
            reply = self._outbox.get()
            if reply is None or self._stop.is_set():
                return
            with self._lock:
                iface = self.iface
            if iface is None:
                self.send_failed += 1
                log.warning("answer to %s not sent: the node at %s is lost", node_name(reply.to), self.target)
                continue
            try:
                iface.sendText(reply.text, destinationId=reply.to if reply.to != BROADCAST else "^all",
                               channelIndex=reply.channel)
                self.sent += 1
            except Exception as exc:    # a broken link: counted, logged, the link goes on
                self.send_failed += 1
                log.warning("answer to %s through %s not sent: %s", node_name(reply.to), self.name, exc)

    def stats(self) -> dict:
        return {"heard": self.heard, "sent": self.sent, "send_failed": self.send_failed, "gateway": self.gateway}


def _close(iface) -> None:
    try:
        iface.close()
    except Exception:                   # closing a broken link
        log.debug("closing a Meshtastic interface", exc_info=True)
