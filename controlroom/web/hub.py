"""The web server's thread-safe door: the core's facts come in from any thread, each phone gets the latest view.

``put(kind, value)`` may be called from any thread (the Qt adapter calls it
in the window's thread): it only appends to a list and wakes the web
server's event loop, which folds what came into its ``WebView`` there.  Each
connected phone is a ``Client`` with a bounded queue of views: one that
falls behind finds only the latest view when it reads again, never a backlog,
and nothing a phone does slows the core or the window.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from controlroom.web.view import WebView

log = logging.getLogger(__name__)
PUSH_INTERVAL_S = 0.25       # at most four views a second to each phone
QUEUE_MAX = 4


class Client:
    """One phone's stream: a bounded queue of messages (the latest view replaces a backlog)."""

    def __init__(self, invite, role: str) -> None:
        self.invite = invite
        self.role = role
        self.queue: deque[tuple[str, bytes]] = deque()
        self.ready = asyncio.Event()
        self.closed = False
        self.dropped = 0

    def offer(self, kind: str, data: bytes) -> None:
        if len(self.queue) >= QUEUE_MAX:
            self.dropped += len(self.queue)
            self.queue.clear()                 # behind: only the latest view is worth sending
        self.queue.append((kind, data))
        self.ready.set()

    def close(self, kind: str = "closed", data: bytes = b"{}") -> None:
        self.queue.clear()
        self.queue.append((kind, data))
        self.closed = True
        self.ready.set()

    async def next(self, timeout: float) -> tuple[str, bytes] | None:
        """The next message, or None after ``timeout`` seconds of nothing (time for a keep-alive)."""
        if not self.queue:
            self.ready.clear()
            try:
                await asyncio.wait_for(self.ready.wait(), timeout)
            except TimeoutError:
                return None
        return self.queue.popleft() if self.queue else None


class Hub:
    """What the core told, for the web server; ``send`` carries a phone's command to the core (thread-safe)."""

    def __init__(self, send: Callable[[Any], None] | None = None) -> None:
        self.send = send
        self.view = WebView()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.clients: set[Client] = set()
        self.on_opened: Callable[[Any], None] | None = None     # the server's: the map is made when the game opens
        self._lock = threading.Lock()
        self._pending: list[tuple[str, Any]] = []
        self._woken = False
        self._answers: dict[int, asyncio.Future] = {}
        self._requests = itertools.count(1)
        self._pushed = 0.0
        self._push_due: asyncio.TimerHandle | None = None
        self._cache: dict[str, bytes] = {}
        self.pushes = 0
        self.received_at: list[float] = []       # (for the benchmark) monotonic time each delta came in

    # -- any thread ------------------------------------------------------------------------------
    def put(self, kind: str, value: Any) -> None:
        """A fact of the core's: opened, delta, alarm, stopp, died, devices, answer."""
        with self._lock:
            self._pending.append((kind, value))
            if self._woken or self.loop is None:
                return
            self._woken = True
            loop = self.loop
        try:
            loop.call_soon_threadsafe(self._drain)
        except RuntimeError:          # the loop has closed: the server is stopping
            pass

    # -- the web server's loop --------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            self.loop = loop
            self._woken = bool(self._pending)
        if self._pending:
            loop.call_soon(self._drain)

    def _drain(self) -> None:
        with self._lock:
            items, self._pending = self._pending, []
            self._woken = False
        changed = False
        view = self.view
        for kind, value in items:
            try:
                if kind == "delta":
                    view.delta(value)
                elif kind == "answer":
                    future = self._answers.pop(value.request, None)
                    if future is not None and not future.done():
                        future.set_result(value)
                    continue
                elif kind == "opened":
                    view.opened(value)
                    if self.on_opened is not None:
                        self.on_opened(value)
                elif kind == "alarm":
                    view.alarm(value)
                elif kind == "stopp":
                    view.stopp(value)
                elif kind == "died":
                    view.died(value)
                elif kind == "devices":
                    view.set_devices(value)
                changed = True
            except Exception:          # a fact the page cannot show must not stop the others
                log.exception("the web view could not take a %s", kind)
        if changed:
            self._cache.clear()
            self.schedule_push()

    def schedule_push(self) -> None:
        if self._push_due is not None or self.loop is None:
            return
        wait = max(0.0, self._pushed + PUSH_INTERVAL_S - time.monotonic())
        self._push_due = self.loop.call_later(wait, self._push)

    def _push(self) -> None:
        self._push_due = None
        self._pushed = time.monotonic()
        self.pushes += 1
        for client in list(self.clients):
            client.offer("view", self.encoded(client.role))

    def encoded(self, role: str) -> bytes:
        """The view of ``role`` as JSON bytes (made once per change, shared by every phone of that role)."""
        data = self._cache.get(role)
        if data is None:
            data = self._cache[role] = json.dumps(self.view.snapshot(role), separators=(",", ":"),
                                                  ensure_ascii=False).encode()
        return data

    def join(self, invite, role: str) -> Client:
        client = Client(invite, role)
        self.clients.add(client)
        client.offer("view", self.encoded(role))
        return client

    def leave(self, client: Client) -> None:
        self.clients.discard(client)

    def cut(self, still_valid: Callable[[Any], bool]) -> int:
        """Close the streams of invites no longer in force; how many were cut."""
        cut = [c for c in self.clients if not still_valid(c.invite)]
        for client in cut:
            client.close("revoked")
            self.clients.discard(client)
        return len(cut)

    def close_all(self) -> None:
        for client in list(self.clients):
            client.close("closed")
        self.clients.clear()

    async def ask(self, make_command: Callable[[int], Any], timeout: float) -> Any | None:
        """Send the command ``make_command(request)`` to the core; its answer, or None after ``timeout`` s."""
        if self.send is None:
            return None
        request = next(self._requests)
        future = asyncio.get_running_loop().create_future()
        self._answers[request] = future
        try:
            self.send(make_command(request))
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None
        finally:
            self._answers.pop(request, None)
