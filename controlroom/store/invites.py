"""Staff invited to a game's web view: stored in the game, each token only as its SHA-256 (never the token).

Every station of a shared (PostgreSQL) game reads the same rows, so an invite
made on one laptop opens the web view of any of them, and a revocation on one
is honoured by all (``controlroom.web.access`` reads the rows every second).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from controlroom.store.engine import writing
from controlroom.store.errors import StoreError, explain
from controlroom.store.game import GameStore
from controlroom.store.models import InviteRow, table_of

ROLES = ("viewer", "safety", "valhalla", "marshal")
INVITES = table_of(InviteRow)
NAME_MAX = 40


class Invite(NamedTuple):
    """One invite as stored (the token's hash, never the token)."""

    id: int
    name: str
    role: str
    token_sha256: str
    badge: int | None
    created: int                 # unix ms
    expires: int | None          # unix ms; None: until revoked
    revoked: int | None          # unix ms it was revoked; None: in force

    def valid(self, now_ms: int) -> bool:
        """In force at ``now_ms``: not revoked, not expired."""
        return self.revoked is None and (self.expires is None or now_ms < self.expires)


def _now_ms() -> int:
    return int(time.time() * 1000)


def _checked_name(name: str) -> str:
    name = " ".join(str(name).split())
    if not name or len(name) > NAME_MAX or any(not ch.isprintable() for ch in name):
        raise StoreError(f"an invite's name is a text of 1 to {NAME_MAX} printable characters, not {name!r}")
    return name


def add_invite(store: GameStore, name: str, role: str, token_sha256: str, badge: int | None = None,
               expires: int | None = None) -> Invite:
    """Store an invite; StoreError when the role is unknown or the name is in use by an invite in force."""
    name = _checked_name(name)
    if role not in ROLES:
        raise StoreError(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
    if badge is not None and (isinstance(badge, bool) or not isinstance(badge, int) or badge < 1):
        raise StoreError(f"a badge is a whole number above 0, not {badge!r}")
    now = _now_ms()
    try:
        with writing(store.engine).begin() as conn:
            for old in _rows(conn, sa.and_(INVITES.c.name == name, INVITES.c.revoked.is_(None))):
                if old.valid(now):
                    raise StoreError(f"{name!r} is invited already (as {old.role}): revoke that invite first "
                                     f"(controlroom web revoke {name!r}), or choose another name")
            new_id = conn.execute(sa.insert(INVITES).values(
                name=name, role=role, token_sha256=token_sha256, badge=badge, created=now, expires=expires,
            ).returning(INVITES.c.id)).scalar_one()
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where)) from exc
    return Invite(new_id, name, role, token_sha256, badge, now, expires, None)


def invites(store_or_engine) -> list[Invite]:
    """Every invite of the game, oldest first (revoked and expired ones too)."""
    engine = getattr(store_or_engine, "engine", store_or_engine)
    try:
        with engine.connect() as conn:
            return _rows(conn, sa.true())
    except DBAPIError as exc:
        raise StoreError(explain(exc, getattr(store_or_engine, "where", "the game"))) from exc


def revoke_invite(store: GameStore, name: str) -> int:
    """Revoke every invite in force of that name; how many were revoked."""
    try:
        with writing(store.engine).begin() as conn:
            return conn.execute(sa.update(INVITES).where(INVITES.c.name == _checked_name(name),
                                                         INVITES.c.revoked.is_(None))
                                .values(revoked=_now_ms())).rowcount
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where)) from exc


def _rows(conn, where) -> list[Invite]:
    c = INVITES.c
    q = sa.select(c.id, c.name, c.role, c.token_sha256, c.badge, c.created, c.expires, c.revoked).where(where)
    return [Invite(*row) for row in conn.execute(q.order_by(c.id))]
