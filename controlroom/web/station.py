"""A station's web view, made ready to start: its hub, its invites read from the game, its server."""

from __future__ import annotations

from pathlib import Path

from controlroom.store.engine import make_engine
from controlroom.web.access import AccessBook
from controlroom.web.hub import Hub
from controlroom.web.invites import parse_address
from controlroom.web.server import WebError, WebServer
from controlroom.web.tls import context, self_signed


class WebOptions:
    """``--web HOST:PORT``, ``--web-cert``/``--web-key`` or ``--web-self-signed``, checked (ValueError in words)."""

    def __init__(self, address: str | None, cert: str | None = None, key: str | None = None,
                 make_self_signed: bool = False) -> None:
        self.host, self.port = parse_address(address)
        if bool(cert) != bool(key):
            raise ValueError("--web-cert and --web-key go together")
        self.cert, self.key = (Path(cert), Path(key)) if cert else (None, None)
        self.self_signed = make_self_signed and self.cert is None

    def ssl_context(self):
        """The server's TLS context (None: plain HTTP); WebError in words when the certificate cannot be used."""
        try:
            if self.self_signed:
                self.cert, self.key = self_signed()
            return context(self.cert, self.key) if self.cert is not None else None
        except (OSError, ValueError) as exc:
            raise WebError(str(exc)) from None


def web_server(db: str, options: WebOptions, send=None) -> WebServer:
    """The web server of game ``db`` (not started); ``send`` carries the phones' commands to the core."""
    engine = make_engine(db)
    access = AccessBook.of_store(engine)
    access.refresh()

    def places():
        from controlroom.store.game import GameStore
        from controlroom.store.maps import stored_places

        store = GameStore(engine, db)
        return stored_places(store)

    server = WebServer(Hub(send), access, options.host, options.port, options.ssl_context(), places_of=places)
    server.closers.append(engine.dispose)
    return server
