"""A station: one game's core and its links to the field, wired together (what the window, headless and the demo run).

Every link (``radio.link``: a LoRa gateway on a serial port, a Meshtastic
node, whatever the port's URL names) reads the field in threads of its own
and puts what it hears into the core's one ``HeardQueue``; the core takes it
in its thread.  The core's answers go straight from the core's thread
through the link that heard the report (or any other that can carry it),
never through the window's event loop.  The links start once the game is
open: their ports are the ones given, or those kept with the game.

With ``tak`` URLs the station also feeds TAK servers and clients
(``radio.tak_link``): the link takes the same facts the window gets, in this
thread, into an inbox of its own, and sends from its own thread; what phones
send back through the server comes into the core's queue like any link's.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot

from controlroom.core.thread import CoreThread
from controlroom.game.clock import Clock
from controlroom.game.tak_settings import check_tak_url
from controlroom.radio import tak_libs
from controlroom.radio.link import Ack, Link, send_through
from controlroom.radio.registry import check_url, open_link
from controlroom.radio.tak_libs import TakUnavailableError
from controlroom.radio.tak_link import TakLink, tls_files

# A link that has gone is looked for again after 1, 2, 4 ... 30 s (a lasting session starts it afresh).
LINK_OPTIONS = {"backoff_initial": 1.0, "backoff_max": 30.0}


def check_links(ports: list[str] | None, tak: list[str] | None = None,
                tak_tls: tuple[str | None, str | None, str | None] = (None, None, None)) -> None:
    """ValueError, in words, for a port or a TAK URL no link could open (before anything starts)."""
    for url in ports or ():
        check_url(url)
    for url in tak or ():
        check_tak_url(url)
    if tak:
        tls_files(list(tak), *tak_tls)
        try:
            tak_libs.pytak()
        except TakUnavailableError as exc:
            raise ValueError(str(exc)) from None


class Station(QObject):
    """The core thread of game ``db`` and, once it is open, a link for each of its ports.

    ``ports``: the links' URLs; None for those kept with the game.
    """

    def __init__(self, db: str, ports: list[str] | None = None, clock: Clock | None = None,
                 parent: QObject | None = None, link_options: dict | None = None, tak: list[str] | None = None,
                 tak_tls: tuple[str | None, str | None, str | None] = (None, None, None),
                 tak_options: dict | None = None, **core_options) -> None:
        super().__init__(parent)
        for url in ports or ():
            check_url(url)                      # ValueError: a port no link could ever open
        self.link_options = {**LINK_OPTIONS, **(link_options or {})}
        self.links: dict[str, Link] = {}
        self.core = CoreThread(db, clock, parent=self, acks=self.send_ack, link_stats=self.stats, ports=ports,
                               **core_options)
        self.tak = self._tak_link(list(tak or ()), tak_tls, tak_options or {})
        self.core.opened.connect(self._start_links)

    def _tak_link(self, urls: list[str], tls: tuple, options: dict) -> TakLink | None:
        """The TAK link of ``urls`` (None without any), fed the core's facts as the window is."""
        if not urls:
            return None
        for url in urls:
            check_tak_url(url)                  # ValueError, in words
        try:
            link = TakLink(urls, self.core.heard, tls=tls_files(urls, *tls), **options)
        except TakUnavailableError as exc:
            raise ValueError(str(exc)) from None
        core = self.core
        core.opened.connect(link.opened)
        core.devices_known.connect(link.inbox.put_devices)
        core.loaded.connect(link.inbox.put_delta)
        core.delta_published.connect(link.inbox.put_delta)
        core.stopp_called.connect(link.inbox.put_stopp)
        return link

    def start(self) -> None:
        self.core.start()

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Stop the links (nothing more is heard), then store what was heard and stop the core."""
        links = list(self.links.values())
        for link in links:
            link.request_stop()
        for link in links:
            link.join()
        return self.core.shutdown(timeout_ms)

    def stats(self) -> dict:
        """Each link's own counters (its TX queue, what it heard), by name; called in the core's thread too."""
        return {name: link.stats() for name, link in list(self.links.items())}

    @Slot(object)
    def _start_links(self, info) -> None:
        if self.links:
            return
        # Made whole, then put in place at once: the core's thread reads the links (answers, their counters).
        links = {url: open_link(url, self.core.heard, **self.link_options) for url in dict.fromkeys(info.ports)}
        if self.tak is not None:
            links[self.tak.name] = self.tak
        self.links = links
        for link in self.links.values():
            link.start()

    def send_ack(self, ack: Ack) -> None:
        """(In the core's thread.)  Through the link that heard the report; if it cannot, through any other."""
        send_through(list(self.links.values()), ack)
