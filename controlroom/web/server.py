"""The web server (aiohttp) in a thread and event loop of its own: pages, the live stream, the map, the forms.

Every path but ``/join`` (a page with no game data that hands the invite's
token over) needs a valid token, carried in an HttpOnly, SameSite=Strict
cookie: without one the answer is 401, with a revoked or expired one 403,
and never game data.  Tokens are never logged (no access log is kept; the
token is never in a URL the server sees).  Form posts need the page's CSRF
value in a header, are limited per invite and in size, and are answered only
once the core has stored and folded the report.  A bad request gets a clear
status and a line of text, never a traceback, and never stops the station.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from importlib import resources

from aiohttp import web

from controlroom.web.access import REFRESH_S, AccessBook, RateLimit
from controlroom.web.forms import FormError, command_for
from controlroom.web.hub import Hub
from controlroom.web.mapping import placer_of
from controlroom.web.words import choose_language, words

log = logging.getLogger(__name__)
COOKIE, LANG_COOKIE = "cr_token", "cr_lang"
BODY_MAX = 16 * 1024                 # a form is a few hundred bytes
REFUSE_DELAY_S = 0.01                # a refused token waits a little: guessing is slowed, and a flood yields the GIL
ANSWER_WAIT_S = 10.0
KEEPALIVE_S = 10.0
STATIC = {"app.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}
OPEN_PATHS = ("/join", "/join.js", "/session")
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                    "X-Frame-Options": "DENY", "Cache-Control": "no-store",
                    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'"}


class WebError(OSError):
    """The web view cannot be served (the address is taken, the certificate cannot be used): in words."""


def _asset(name: str) -> bytes:
    return (resources.files("controlroom.resources") / "web" / name).read_bytes()


def _text(status: int, message: str) -> web.Response:
    return web.Response(status=status, text=message + "\n", content_type="text/plain", headers=SECURITY_HEADERS)


class WebServer:
    """Serves the web view of one station on ``host:port`` (port 0: any free one; ``port`` says which after start)."""

    def __init__(self, hub: Hub, access: AccessBook, host: str = "127.0.0.1", port: int = 8080,
                 ssl_context=None, places_of=None, rate: RateLimit | None = None) -> None:
        self.hub, self.access = hub, access
        self.host, self.port, self.ssl = host, port, ssl_context
        self.places_of = places_of            # () -> the field's named places (read once when the game opens)
        self.rate = rate or RateLimit()
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()
        self.error: BaseException | None = None
        self.counts = {"requests": 0, "refused": 0, "errors": 0}
        self.closers: list = []               # called once the server has stopped (the invites' connections)
        self._assets = {name: _asset(name) for name in STATIC}
        self._join, self._join_js = _asset("join.html"), _asset("join.js")
        hub.on_opened = self._opened

    # -- life (any thread) ----------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> None:
        """Listen, in a thread of its own; OSError (in words) when the address cannot be had."""
        self.thread = threading.Thread(target=self._run, name="controlroom-web", daemon=True)
        self.thread.start()
        if not self._started.wait(timeout):
            raise WebError(f"the web view did not start on {self.host}:{self.port} in {timeout:.0f} s")
        if self.error is not None:
            raise WebError(f"the web view cannot listen on {self.host}:{self.port}: {self.error}")

    def stop(self, timeout: float = 5.0) -> None:
        loop, stop = self.loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass
        if self.thread is not None:
            self.thread.join(timeout)
        for close in self.closers:
            close()
        self.closers = []

    @property
    def scheme(self) -> str:
        return "https" if self.ssl is not None else "http"

    def _run(self) -> None:
        loop = self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:       # said to the starter, never raised into the station
            self.error = exc
            log.error("the web view stopped: %s", exc)
        finally:
            self._started.set()
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        self.hub.attach(asyncio.get_running_loop())
        app = web.Application(middlewares=[self._guard], client_max_size=BODY_MAX)
        app.add_routes([
            web.get("/join", self._join_page), web.get("/join.js", self._join_script),
            web.post("/session", self._session),
            web.get("/", self._page), web.get("/static/{name}", self._static), web.get("/state", self._state),
            web.get("/stream", self._stream), web.get("/map", self._map),
            web.post("/report", self._form), web.post("/ack", self._form), web.post("/checkin", self._form),
        ])
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port, ssl_context=self.ssl, backlog=256)
            await site.start()
            self.port = runner.addresses[0][1]
            self._started.set()
            watcher = asyncio.create_task(self._watch_invites())
            await self._stop.wait()
            watcher.cancel()
            self.hub.close_all()
        finally:
            await runner.cleanup()

    async def _watch_invites(self) -> None:
        """Read the invites every second (in a worker thread: it reads the game); cut what is no longer valid."""
        loop = asyncio.get_running_loop()
        while True:
            await loop.run_in_executor(None, self.access.refresh)
            self.hub.cut(self.access.still_valid)
            await asyncio.sleep(REFRESH_S)

    def _opened(self, info) -> None:
        """The game opened: its map made ready for phones (once; in a worker thread, it reads the file)."""
        loop = self.loop

        def make():
            places = []
            if self.places_of is not None:
                try:
                    places = self.places_of()
                except Exception as exc:      # the map's place names are a help, not a need
                    log.warning("the web view has no place names: %s", exc)
            return placer_of(info, places)

        async def made():
            self.hub.view.placer = await loop.run_in_executor(None, make)
            self.hub.view.version += 1
            self.hub._cache.clear()
            self.hub.schedule_push()

        if loop is not None:
            loop.create_task(made())

    # -- every request ---------------------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler):
        self.counts["requests"] += 1
        try:
            length = request.content_length
            if length is not None and length > BODY_MAX:
                return self._refuse(413, "a form is at most 16 kB")
            if request.path not in OPEN_PATHS:
                invite, why = self.access.lookup(request.cookies.get(COOKIE))
                if invite is None:
                    await asyncio.sleep(REFUSE_DELAY_S)
                    status = 403 if why in ("revoked", "expired") else 401
                    return self._refuse(status, f"no access: the invite is {why}" if status == 403
                                        else "no access: open the invite's link (or QR code) again")
            response = await handler(request)
            for key, value in SECURITY_HEADERS.items():
                response.headers.setdefault(key, value)
            return response
        except web.HTTPException as exc:
            if exc.status >= 400:
                return self._refuse(exc.status, exc.reason or "refused")
            raise
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:
            self.counts["errors"] += 1
            log.exception("the web view could not answer %s %s", request.method, request.path)
            return _text(500, "the station could not answer this request; it goes on running")

    def _invite(self, request: web.Request):
        """The invite of a request the guard let in (looked up again: a hash and a dict, no storage on requests)."""
        invite, _why = self.access.lookup(request.cookies.get(COOKIE))
        if invite is None:
            raise web.HTTPForbidden(reason="no access: the invite is no longer valid")
        return invite

    def _refuse(self, status: int, message: str) -> web.Response:
        self.counts["refused"] += 1
        return _text(status, message)

    def _language(self, request: web.Request) -> str:
        return choose_language(request.headers.get("Accept-Language"), request.query.get("lang")
                               or request.cookies.get(LANG_COOKIE))

    # -- pages -------------------------------------------------------------------------------------
    async def _join_page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._join, content_type="text/html", charset="utf-8")

    async def _join_script(self, request: web.Request) -> web.Response:
        return web.Response(body=self._join_js, content_type="text/javascript", charset="utf-8")

    async def _session(self, request: web.Request) -> web.Response:
        """The join page hands the token over (from the link's fragment): kept in an HttpOnly cookie."""
        try:
            body = await request.json()
            token = body.get("token") if isinstance(body, dict) else None
        except (ValueError, UnicodeDecodeError):
            token = None
        if not isinstance(token, str):
            return self._refuse(400, "a session is asked for with {\"token\": ...}")
        invite, why = self.access.lookup(token)
        if invite is None:
            return self._refuse(403 if why in ("revoked", "expired") else 401, f"no access: the invite is {why}")
        response = web.json_response({"role": invite.role, "name": invite.name})
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", secure=self.ssl is not None,
                            max_age=7 * 24 * 3600, path="/")
        return response

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._assets["index.html"], content_type="text/html", charset="utf-8")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC or name == "index.html":
            return self._refuse(404, "no such file")
        return web.Response(body=self._assets[name], content_type=STATIC[name], charset="utf-8")

    async def _state(self, request: web.Request) -> web.Response:
        """Who the page is for, its words and CSRF value, and the view now."""
        invite = self._invite(request)
        lang = self._language(request)
        response = web.json_response({
            "role": invite.role, "name": invite.name, "badge": invite.badge, "lang": lang, "words": words(lang),
            "csrf": self.access.csrf(invite), "view": json.loads(self.hub.encoded(invite.role)),
        })
        if request.query.get("lang"):
            response.set_cookie(LANG_COOKIE, lang, samesite="Strict", max_age=365 * 24 * 3600, path="/")
        return response

    async def _map(self, request: web.Request) -> web.Response:
        placer = self.hub.view.placer
        if placer is None or placer.image is None:
            return self._refuse(404, "the game keeps no map a phone can show")
        return web.Response(body=placer.image, content_type=placer.content_type,
                            headers={"Cache-Control": "private, max-age=300"})

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the role's view as it changes (the latest only, when a phone falls behind)."""
        invite = self._invite(request)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no", **SECURITY_HEADERS})
        await response.prepare(request)
        client = self.hub.join(invite, invite.role)
        try:
            await response.write(b"retry: 2000\n\n")
            while not client.closed or client.queue:
                message = await client.next(KEEPALIVE_S)
                if message is None:
                    if not self.access.still_valid(invite):
                        await response.write(b"event: revoked\ndata: {}\n\n")
                        break
                    await response.write(b"event: ping\ndata: {}\n\n")
                    continue
                kind, data = message
                await response.write(b"event: " + kind.encode() + b"\ndata: " + data + b"\n\n")
                if kind in ("revoked", "closed"):
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.leave(client)
        return response

    async def _form(self, request: web.Request) -> web.Response:
        """A form from a phone: checked, sent to the core, answered once stored and folded."""
        invite = self._invite(request)
        if not self.access.csrf_ok(invite, request.headers.get("X-CSRF")):
            return self._refuse(403, "the form did not come from this station's page: reload the page")
        if not self.rate.allow(invite.id):
            return self._refuse(429, "too many forms in a minute: wait a little")
        try:
            body = await request.json()
        except web.HTTPRequestEntityTooLarge:
            return self._refuse(413, "a form is at most 16 kB")
        except (ValueError, UnicodeDecodeError):
            return self._refuse(400, "a form is sent as JSON")
        try:
            make = command_for(request.path.strip("/"), body, invite, self.hub.view.stopps)
        except FormError as exc:
            return self._refuse(exc.status, str(exc))
        started = time.monotonic()
        answer = await self.hub.ask(make, ANSWER_WAIT_S)
        if answer is None:
            return web.json_response({"stored": False, "counted": False, "again": False, "text": "",
                                      "waited": True}, status=504)
        return web.json_response({"stored": answer.stored, "counted": answer.counted, "again": answer.again,
                                  "text": answer.text, "ms": int((time.monotonic() - started) * 1000)})
