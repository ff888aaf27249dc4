"""``controlroom keys``: register radio devices with their keys, and export provisioning files."""

from __future__ import annotations

import argparse
import json
import os

from controlroom.game.devices import BOARDS as BOARD_CHIPS
from controlroom.game.devices import RADIO_DEFAULTS
from controlroom.i18n import translate

NAME = "keys"
HELP = "Register marshal handsets, trackers and gateways, and export the file a device is provisioned with."

# The boards hardware/firmware/boards.py knows (a test keeps the two lists equal).
BOARDS = tuple(BOARD_CHIPS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="keys_command", metavar="ACTION", required=True)
    new = sub.add_parser("new", help="register a device with a fresh key (re-running keeps the key)")
    new.add_argument("device", type=int, metavar="DEVICE_ID", help="the device number, 1 to 65534")
    new.add_argument("--role", required=True, choices=("marshal", "tracker", "gateway"))
    new.add_argument("--db", metavar="GAME", required=True)
    new.add_argument("--label", default="", help="a name for the device, e.g. 'Marshal North 2'")
    new.add_argument("--group", help="the group a tracker's leader belongs to")
    new.add_argument("--engine", help="the siege engine a tracker is mounted on")
    new.add_argument("--marshal", help="the marshal carrying a handset")
    new.add_argument("--new-key", action="store_true", help="replace the device's key (a lost or stolen device)")
    new.add_argument("--meshtastic", metavar="NODE_ID",
                     help="the device is a stock Meshtastic node or phone, e.g. '!a1b2c3d4' (docs/meshtastic.md)")
    new.add_argument("--tak-uid", metavar="UID",
                     help="the marshal's TAK phone (ATAK, iTAK, WinTAK) by the uid of its position reports, "
                          "e.g. 'ANDROID-1a2b3c4d5e6f' (docs/tak.md)")
    new.add_argument("--tak-callsign", metavar="CALLSIGN",
                     help="the marshal's TAK phone by the callsign set in it (docs/tak.md)")
    mesh = sub.add_parser("meshtastic",
                          help="whether Meshtastic reports must be PKI direct messages (docs/meshtastic.md)")
    mesh.add_argument("--db", metavar="GAME", required=True)
    how = mesh.add_mutually_exclusive_group()
    how.add_argument("--require-pki", action="store_true",
                     help="take text reports only as direct messages encrypted to the station's node (firmware 2.5+)")
    how.add_argument("--allow-channel", action="store_true",
                     help="take text reports on a channel too (the default; marked as weaker in the window)")
    mesh.add_argument("--marshal-language", choices=("en", "et", "station"), metavar="LANG",
                      help="the language the station answers the marshals' texts in: en, et, or station (the "
                           "language of the station that answers: the default)")
    ls = sub.add_parser("list", help="list the registered devices (keys are never shown)")
    ls.add_argument("--db", metavar="GAME", required=True)
    ex = sub.add_parser("export", help="write the provisioning file for one device")
    ex.add_argument("device", type=int, metavar="DEVICE_ID")
    ex.add_argument("--db", metavar="GAME", required=True)
    ex.add_argument("--out", metavar="FILE", required=True)
    radio_options(ex)
    ex.add_argument("--board", choices=BOARDS, default=BOARDS[0],
                    help=f"the board the device runs on (default {BOARDS[0]}; see hardware/README.md)")


def _marshal_language_line(code: str | None, changed: bool) -> str:
    """What ``keys meshtastic`` says of the language the marshals are answered in."""
    from controlroom.i18n import LANGUAGES

    line = (translate("keys", "Answers to the marshals: in the language of the station that answers") if code is None
            else translate("keys", "Answers to the marshals: in {language} ({code})").format(
                language=LANGUAGES[code], code=code))
    return line + (translate("keys", "; a running station reads this when the game is opened") if changed else "")


def radio_options(parser: argparse.ArgumentParser) -> None:
    """The radio plan's options (``keys export``, ``devices provision``): each with its default."""
    for key, value in RADIO_DEFAULTS.items():
        parser.add_argument(f"--{key.replace('_', '-')}", type=type(value), default=value,
                            help=f"radio plan: {key} (default {value:g})" if isinstance(value, float)
                            else f"radio plan: {key} (default {value})")


def radio_plan(args: argparse.Namespace) -> dict:
    return {key: getattr(args, key) for key in RADIO_DEFAULTS}


def _provisioning(dev, args) -> dict:
    from controlroom.commands.errors import CliError
    from controlroom.engine.provisioning import ProvisionError, device_file

    try:
        return device_file(dev, args.board, radio_plan(args))
    except ProvisionError as exc:
        raise CliError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.store.devices import devices, register_device
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        with GameStore.open(args.db, create=args.keys_command == "new") as store:
            if args.keys_command == "new":
                dev = register_device(store, args.device, args.role, args.label, args.group, args.engine,
                                      args.marshal, replace_key=args.new_key, meshtastic=args.meshtastic,
                                      tak_uid=args.tak_uid, tak_callsign=args.tak_callsign)
                print(f"device {dev.id} registered as {dev.role}" + (f" ({dev.label})" if dev.label else "")
                      + (f", Meshtastic node {dev.meshtastic}" if dev.meshtastic else "")
                      + (f", TAK uid {dev.tak_uid}" if dev.tak_uid else "")
                      + (f", TAK callsign {dev.tak_callsign}" if dev.tak_callsign else ""))
            elif args.keys_command == "meshtastic":
                from controlroom.radio.mesh_ingest import MARSHAL_LANGUAGE_KEY, REQUIRE_PKI_KEY, marshal_language

                if args.require_pki or args.allow_channel:
                    store.set_meta(REQUIRE_PKI_KEY, "1" if args.require_pki else "0")
                if args.marshal_language:
                    store.set_meta(MARSHAL_LANGUAGE_KEY, "" if args.marshal_language == "station"
                                   else args.marshal_language)
                required = store.meta(REQUIRE_PKI_KEY) == "1"
                print("Meshtastic reports: " + ("PKI direct messages only (channel messages are refused)" if required
                      else "channel messages and direct messages (channel ones are marked as weaker)")
                      + ("; a running station reads this when the game is opened" if args.require_pki
                         or args.allow_channel else ""))
                print(_marshal_language_line(marshal_language(store.meta(MARSHAL_LANGUAGE_KEY)),
                                             bool(args.marshal_language)))
            elif args.keys_command == "list":
                for dev in devices(store).values():
                    where = dev.group or dev.siege_engine or dev.marshal or ""
                    mesh = f"  meshtastic {dev.meshtastic}" if dev.meshtastic else ""
                    tak = (f"  tak uid {dev.tak_uid}" if dev.tak_uid else "") + (
                        f"  tak callsign {dev.tak_callsign}" if dev.tak_callsign else "")
                    print(f"{dev.id:>5}  {dev.role:<8} {dev.label:<24} {where}{mesh}{tak}".rstrip())
            else:
                dev = devices(store).get(args.device)
                if dev is None:
                    raise CliError(translate("errors", "no device {device} in this game (see: controlroom keys list)")
                                   .format(device=args.device))
                data = _provisioning(dev, args)
                fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=2)
                print(f"device {dev.id} written to {args.out} (keep it secret: it holds the device's key)")
    except (StoreError, OSError, ValueError) as exc:
        raise CliError(str(exc)) from None
    return 0
