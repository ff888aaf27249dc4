"""``controlroom web``: invite field staff to the station's web view, list the invites, revoke one."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

from controlroom.i18n import translate

NAME = "web"
HELP = "Invite field staff to the station's web view (a link and a QR code per person), list or revoke invites."
WEB_HELP = ("serve the live web view for field staff on HOST:PORT (127.0.0.1:8080 when only the port or nothing "
            "follows; 0.0.0.0:8080 puts it on the tent's Wi-Fi); off unless given")


def add_web_options(parser) -> None:
    """``--web`` and its HTTPS options, for the window and ``headless``."""
    parser.add_argument("--web", nargs="?", const="", metavar="HOST:PORT", help=WEB_HELP)
    parser.add_argument("--web-cert", metavar="FILE", help="serve the web view over HTTPS with this certificate (PEM)")
    parser.add_argument("--web-key", metavar="FILE", help="the private key of --web-cert (PEM)")
    parser.add_argument("--web-self-signed", action="store_true",
                        help="serve the web view over HTTPS with a self-signed certificate (made once, kept in the "
                             "user's data folder; the invites show its fingerprint)")


def web_options(args):
    """The checked web options of ``args`` (None when ``--web`` was not given); UsageError in words."""
    if getattr(args, "web", None) is None:
        if args.web_cert or args.web_key or args.web_self_signed:
            from controlroom.commands.errors import UsageError

            raise UsageError(translate("errors", "--web-cert, --web-key and --web-self-signed need --web"))
        return None
    from controlroom.commands.errors import UsageError
    from controlroom.web.station import WebOptions

    try:
        return WebOptions(args.web, args.web_cert, args.web_key, args.web_self_signed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="web_command", metavar="ACTION", required=True)
    new = sub.add_parser("invite", help="invite someone: prints the link, writes its QR code (PNG) beside it")
    new.add_argument("--db", metavar="GAME", required=True)
    new.add_argument("--role", required=True, choices=("viewer", "safety", "valhalla", "marshal"),
                     help="viewer: sees the battle; safety: and acknowledges safety alarms; valhalla: checks the "
                          "dead in; marshal: reports as a handset does")
    new.add_argument("--name", required=True, help="who it is for (revoke it by this name)")
    new.add_argument("--badge", type=int, metavar="N", help="the invitee's own badge, if a player")
    new.add_argument("--expires", metavar="HH:MM", help="the link stops working at this time (the next time it comes)")
    new.add_argument("--address", metavar="HOST:PORT", default="",
                     help="where the station's web view is reached, as given to --web (default 127.0.0.1:8080); "
                          "on the tent's Wi-Fi: this laptop's address there")
    new.add_argument("--https", action="store_true",
                     help="the station serves HTTPS (--web-cert, or --web-self-signed): the link is https and the "
                          "certificate's fingerprint is shown")
    new.add_argument("--cert", metavar="FILE", help="the certificate the station serves (default: its self-signed one)")
    new.add_argument("--out", metavar="FOLDER", help="where the QR code is written (default: the current folder)")
    new.add_argument("--json", action="store_true", help='print {"url", "token", "role", "name", "qr"} as JSON')
    ls = sub.add_parser("list", help="list the invites (tokens are never shown: the game keeps only their hashes)")
    ls.add_argument("--db", metavar="GAME", required=True)
    ls.add_argument("--json", action="store_true", help="print them as JSON")
    rv = sub.add_parser("revoke", help="revoke a person's invite: open pages lose the view within 2 seconds")
    rv.add_argument("name", metavar="NAME")
    rv.add_argument("--db", metavar="GAME", required=True)


def _when(ms: int | None) -> str:
    return "" if ms is None else dt.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M")


def run(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError, UsageError
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore
    from controlroom.store.invites import invites, revoke_invite
    from controlroom.web.invites import make_invite, parse_address, parse_expires

    try:
        if args.web_command == "invite":
            try:
                address = parse_address(args.address)
                expires = parse_expires(args.expires)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            fingerprint = None
            if args.https or args.cert:
                from controlroom.web.tls import fingerprint as fingerprint_of
                from controlroom.web.tls import self_signed

                try:
                    fingerprint = fingerprint_of(Path(args.cert) if args.cert else self_signed()[0])
                except (OSError, ValueError) as exc:
                    raise CliError(translate("errors", "the certificate cannot be read: {error}").format(
                        error=exc)) from None
            with GameStore.open(args.db, create=False) as store:
                card = make_invite(store, args.name, args.role, badge=args.badge, expires=expires, address=address,
                                   https=bool(args.https or args.cert), fingerprint=fingerprint,
                                   qr_folder=Path(args.out) if args.out else Path.cwd())
            if args.json:
                print(json.dumps(card.as_json(), ensure_ascii=False))
            else:
                print(card.url)
                print(translate("web", "{role} invite for {name}; its QR code: {qr}").format(
                    role=card.invite.role, name=card.invite.name, qr=card.qr))
                if card.invite.expires is not None:
                    print(translate("web", "it stops working at {time}").format(time=_when(card.invite.expires)))
                if fingerprint:
                    print(translate("web", "the station's certificate (SHA-256): {fp}").format(fp=fingerprint))
            return 0
        with GameStore.open(args.db, create=False) as store:
            if args.web_command == "revoke":
                n = revoke_invite(store, args.name)
                if not n:
                    raise CliError(translate("errors", "no invite in force is named {name!r}").format(name=args.name))
                print(translate("web", "revoked the invite of {name}").format(name=args.name))
                return 0
            rows = invites(store)
        now = int(dt.datetime.now().timestamp() * 1000)
        if args.json:
            print(json.dumps([{"name": r.name, "role": r.role, "badge": r.badge, "created": _when(r.created),
                               "expires": _when(r.expires) or None, "revoked": _when(r.revoked) or None,
                               "valid": r.valid(now)} for r in rows], ensure_ascii=False))
            return 0
        for r in rows:
            state = (translate("web", "revoked {time}").format(time=_when(r.revoked)) if r.revoked is not None
                     else translate("web", "expired") if not r.valid(now)
                     else translate("web", "until {time}").format(time=_when(r.expires)) if r.expires
                     else translate("web", "in force"))
            badge = f" #{r.badge}" if r.badge is not None else ""
            print(f"{r.name:<24} {r.role:<9}{badge:<8} {state}".rstrip())
        return 0
    except StoreError as exc:
        raise CliError(str(exc)) from None
