"""Invites to the web view: a random token in a URL and a QR code; the game keeps only the token's SHA-256.

A token is 32 URL-safe characters (192 random bits).  The URL a phone opens
is ``http(s)://HOST:PORT/join#TOKEN``: the token rides in the fragment, which a
browser never sends in a request line nor keeps in a server's log; the page
hands it over once in a POST body and from then on carries it in an HttpOnly
cookie (``web.server``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from controlroom.i18n import translate
from controlroom.store.game import GameStore
from controlroom.store.invites import ROLES, Invite, add_invite

TOKEN_BYTES = 24
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8080
#: A phone's form reports are keyed (device, form) in the event log like a radio frame; an invite's device
#: number is this plus its id, above every radio device (1 to 65534).
WEB_DEVICE_BASE = 1_000_000

__all__ = ["ROLES", "InviteCard", "device_of", "hash_token", "make_invite", "new_token", "parse_address",
           "parse_expires", "write_qr"]


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The token's SHA-256 (hex): what the game keeps and what a request's token is looked up by."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def device_of(invite: Invite) -> int:
    return WEB_DEVICE_BASE + invite.id


def parse_address(text: str | None) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT``, ``PORT`` or ``HOST`` (port 8080; host 127.0.0.1); ValueError in words."""
    text = (text or "").strip()
    host, port = DEFAULT_HOST, DEFAULT_PORT
    if not text:
        return host, port
    m = re.fullmatch(r"\[([0-9a-fA-F:.]+)\](?::(\d+))?|([^:\s]*):(\d+)|(\d+)|([A-Za-z0-9.\-]+)", text)
    if m is None:
        raise ValueError(translate("errors", "the web address is HOST:PORT (e.g. 0.0.0.0:8080), not {text!r}")
                         .format(text=text))
    v6, v6port, h, hport, only_port, only_host = m.groups()
    host = v6 or h or only_host or host
    port_text = v6port or hport or only_port
    if port_text is not None:
        port = int(port_text)
    if not 0 <= port <= 65535:          # 0: any free port (the station says which)
        raise ValueError(translate("errors", "a port is a number from 1 to 65535, not {port}").format(port=port))
    return host, port


def parse_expires(text: str | None, now: dt.datetime | None = None) -> int | None:
    """``HH:MM`` on this laptop's clock, the next time it comes (today, or tomorrow if past): unix ms."""
    if text is None:
        return None
    m = re.fullmatch(r"(\d{1,2})[:.](\d{2})", text.strip())
    if m is None or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise ValueError(translate("errors", "--expires takes a time of day HH:MM (e.g. 18:30), not {text!r}")
                         .format(text=text))
    now = now or dt.datetime.now().astimezone()
    at = now.replace(hour=int(m.group(1)), minute=int(m.group(2)), second=0, microsecond=0)
    if at <= now:
        at += dt.timedelta(days=1)
    return int(at.timestamp() * 1000)


@dataclass(frozen=True)
class InviteCard:
    """What an organiser hands over: the URL (with the token), the QR code's file, the certificate's fingerprint."""

    invite: Invite
    url: str
    token: str
    qr: Path | None
    fingerprint: str | None = None

    def as_json(self) -> dict:
        out = {"url": self.url, "token": self.token, "role": self.invite.role, "name": self.invite.name,
               "qr": str(self.qr) if self.qr else None}
        if self.invite.badge is not None:
            out["badge"] = self.invite.badge
        if self.invite.expires is not None:
            out["expires"] = dt.datetime.fromtimestamp(self.invite.expires / 1000).astimezone().isoformat(
                timespec="minutes")
        if self.fingerprint:
            out["fingerprint"] = self.fingerprint
        return out


def url_for(host: str, port: int, token: str, https: bool = False) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("localhost" if host == "::" else host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{'https' if https else 'http'}://{shown}:{port}/join#{token}"


def make_invite(store: GameStore, name: str, role: str, *, badge: int | None = None, expires: int | None = None,
                address: tuple[str, int] = (DEFAULT_HOST, DEFAULT_PORT), https: bool = False,
                fingerprint: str | None = None, qr_folder: Path | None = None) -> InviteCard:
    """Store a new invite and make its URL and QR code (PNG in ``qr_folder``; None: no file)."""
    token = new_token()
    invite = add_invite(store, name, role, hash_token(token), badge, expires)
    url = url_for(*address, token, https)
    qr = write_qr(url, qr_folder / qr_name(invite)) if qr_folder is not None else None
    return InviteCard(invite, url, token, qr, fingerprint)


def qr_name(invite: Invite) -> str:
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", invite.name).strip("-") or "invite"
    return f"invite-{invite.id}-{safe}.png"


def qr_png(url: str, scale: int = 8) -> bytes:
    """The URL as a QR code, a PNG image."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=scale, border=4)
    return buf.getvalue()


def write_qr(url: str, path: Path) -> Path:
    """The QR code written to ``path``, readable by its owner only: it carries the token."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(qr_png(url))
    return path


def invite_to_game(db: str, name: str, role: str, **options) -> InviteCard:
    """``make_invite`` on the game ``db`` (opened for this, closed after): the window's Game, Invite staff.

    StoreError (``store.errors``) in words when the invite cannot be stored.
    """
    with GameStore.open(db, create=False) as store:
        return make_invite(store, name, role, **options)
