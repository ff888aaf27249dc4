"""Who may see the web view: the game's invites, read every second, and each request's token checked against them.

The rows are read from the game (``store.invites``) by ``refresh``, never per
request: a request's token is hashed and looked up in memory.  Every station
of a shared game reads the same rows, so an invite or a revocation made on any
of them is honoured by all within a second or so.  Form posts are limited per
invite (``RateLimit``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable

from controlroom.store.invites import Invite, invites
from controlroom.web.invites import hash_token

REFRESH_S = 1.0


class AccessBook:
    """The invites in memory, by token hash; thread-safe (read by the server, refreshed from the game)."""

    def __init__(self, read: Callable[[], list[Invite]] | None = None) -> None:
        self._read = read
        self._lock = threading.Lock()
        self._by_hash: dict[str, Invite] = {}
        self._secret = secrets.token_bytes(32)       # this station's CSRF key, new at every start
        self.version = 0                             # raised whenever the rows changed
        self.last_error: str | None = None

    @classmethod
    def of_store(cls, store_or_engine) -> AccessBook:
        return cls(lambda: invites(store_or_engine))

    def load(self, rows: list[Invite]) -> bool:
        """Take these rows as the invites; True when anything changed."""
        by_hash = {row.token_sha256: row for row in rows}
        with self._lock:
            if by_hash == self._by_hash:
                return False
            self._by_hash = by_hash
            self.version += 1
            return True

    def refresh(self) -> bool:
        """Read the rows again (in a worker thread: it reads the database); True when they changed."""
        if self._read is None:
            return False
        try:
            rows = self._read()
        except Exception as exc:          # the server is away: the invites known stay as they are
            self.last_error = str(exc)
            return False
        self.last_error = None
        return self.load(rows)

    def lookup(self, token: str | None, now_ms: int | None = None) -> tuple[Invite | None, str]:
        """The invite a token opens, and "" ; or None and why not ("unknown", "revoked", "expired")."""
        if not token or len(token) > 200:
            return None, "unknown"
        with self._lock:
            invite = self._by_hash.get(hash_token(token))
        if invite is None:
            return None, "unknown"
        if invite.revoked is not None:
            return None, "revoked"
        now = int(time.time() * 1000) if now_ms is None else now_ms
        if not invite.valid(now):
            return None, "expired"
        return invite, ""

    def still_valid(self, invite: Invite, now_ms: int | None = None) -> bool:
        """Whether an invite let in before is still in force (not revoked, not expired, not removed)."""
        with self._lock:
            current = self._by_hash.get(invite.token_sha256)
        now = int(time.time() * 1000) if now_ms is None else now_ms
        return current is not None and current.valid(now)

    def csrf(self, invite: Invite) -> str:
        """The value a page of this invite must send with each form (an HMAC of its token's hash)."""
        return hmac.new(self._secret, invite.token_sha256.encode(), hashlib.sha256).hexdigest()[:32]

    def csrf_ok(self, invite: Invite, value: str | None) -> bool:
        return bool(value) and hmac.compare_digest(self.csrf(invite), value)


class RateLimit:
    """At most ``count`` posts per ``window_s`` per invite (a sliding window); thread-safe."""

    def __init__(self, count: int = 20, window_s: float = 60.0) -> None:
        self.count, self.window_s = count, window_s
        self._times: dict[int, deque] = {}
        self._lock = threading.Lock()

    def allow(self, invite_id: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._times.setdefault(invite_id, deque())
            while times and now - times[0] >= self.window_s:
                times.popleft()
            if len(times) >= self.count:
                return False
            times.append(now)
            return True
