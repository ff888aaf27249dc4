"""``controlroom devices``: a game's devices in bulk: import a list, see who is ready, provision boards, print cards."""

from __future__ import annotations

import argparse
import json
import time

from controlroom.i18n import LANGUAGES, QT_TRANSLATE_NOOP, translate

LIST_HEADS = (QT_TRANSLATE_NOOP("devices", "id"), QT_TRANSLATE_NOOP("devices", "role"),
              QT_TRANSLATE_NOOP("devices", "label"), QT_TRANSLATE_NOOP("devices", "marshal / group"),
              QT_TRANSLATE_NOOP("devices", "board"), QT_TRANSLATE_NOOP("devices", "provisioned"),
              QT_TRANSLATE_NOOP("devices", "first heard"), QT_TRANSLATE_NOOP("devices", "last heard"),
              QT_TRANSLATE_NOOP("devices", "battery"), QT_TRANSLATE_NOOP("devices", "signal"))
NAME = "devices"
HELP = "Set up a game's devices at once: import their list, see which are ready, provision boards, print marshal cards."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from controlroom.commands.keys import radio_options

    sub = parser.add_subparsers(dest="devices_action", metavar="ACTION", required=True)
    imp = sub.add_parser(
        "import", help="register every device of a list (CSV or .xlsx) in one go, each with a fresh key",
        description="Check every row of a device list and register its devices in one transaction; any problem "
                    "is reported with its line and nothing is stored. A new device gets a fresh key (never "
                    "printed); one registered before keeps its key. The format: docs/devices.md.")
    imp.add_argument("file", metavar="FILE", help="the list: a CSV file (UTF-8, comma, semicolon or tab separated) "
                                                  "or an .xlsx workbook, with a header row")
    imp.add_argument("--db", required=True, metavar="GAME", help="game file (created if missing) or database URL")
    ls = sub.add_parser("list", help="every device: registered, provisioned, heard, battery, last heard, signal")
    ls.add_argument("--db", required=True, metavar="GAME", help="game file or database URL")
    ls.add_argument("--json", action="store_true", help="one JSON object per device, in a list")
    prov = sub.add_parser(
        "provision", help="write the firmware and a device's file to a board on USB, and have the board confirm it",
        description="Write the firmware, codec.py and the device's file to a MicroPython board through its raw "
                    "REPL, have the board read its device file back (firmware version and key fingerprint) and "
                    "restart it. The key goes to the board only: no key file is written on this computer.")
    which = prov.add_mutually_exclusive_group(required=True)
    which.add_argument("device", type=int, nargs="?", metavar="DEVICE_ID", help="the device to provision")
    which.add_argument("--next", action="store_true", help="the next device not yet provisioned")
    prov.add_argument("--db", required=True, metavar="GAME", help="game file or database URL")
    prov.add_argument("--board", metavar="PORT", help="the board's serial port (default: the one board plugged in)")
    radio_options(prov)
    cards = sub.add_parser("cards", help="a PDF of marshal cards, four to an A4 page",
                           description="One card per marshal's handset: the marshal, the device, the group, the "
                                       "handset's keys and the text grammar, the STOPP rule in short, and a QR code "
                                       "with the device id and the game's name (never the key).")
    cards.add_argument("--db", required=True, metavar="GAME", help="game file or database URL")
    cards.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF to write (replaced if it exists)")
    cards.add_argument("--language", choices=sorted(LANGUAGES), help="the cards' language (default: the one spoken)")


def _import(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.game.device_list import DeviceListError, read_device_list
    from controlroom.store.device_setup import DeviceImportError, import_devices
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        entries = read_device_list(args.file)
        with GameStore.open(args.db) as store:
            change = import_devices(store, entries)
    except (DeviceListError, DeviceImportError) as exc:
        n = len(exc.problems)
        head = translate("devices", "{file}: {count} problem(s), nothing was imported:").format(file=args.file,
                                                                                                 count=n)
        raise CliError("\n  ".join([head, *exc.problems])) from None
    except StoreError as exc:
        raise CliError(str(exc)) from None
    roles = {role: sum(e.role == role for e in entries) for role in ("marshal", "tracker", "gateway")}
    print(translate("devices", "Devices imported: {count} ({added} added with fresh keys, {updated} updated, "
                               "{unchanged} unchanged): {marshal} marshal handsets, {tracker} trackers, "
                               "{gateway} gateways").format(count=len(entries), added=change.added,
                                                            updated=change.updated, unchanged=change.unchanged,
                                                            **roles))
    return 0


def when(ms: int | None) -> str:
    return "" if ms is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ms / 1000))


def ready_word(status) -> str:
    """Provisioned or not, in words: "yes (fw 1.1.0, key A1B2-...)", "failed: why", "old key", "no", "n/a"."""
    p = status.provisioning
    if status.meshtastic:
        return translate("devices", "n/a (Meshtastic node {node})").format(node=status.meshtastic)
    if status.provisioned:
        return translate("devices", "yes (firmware {firmware}, key {fingerprint})").format(
            firmware=p.firmware, fingerprint=p.fingerprint)
    if p is None:
        return translate("devices", "no")
    if p.state == "failed":
        return translate("devices", "failed: {why}").format(why=p.detail)
    return translate("devices", "no: provisioned with an older key ({fingerprint})").format(fingerprint=p.fingerprint)


def _list(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.store.device_setup import device_status
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        with GameStore.open(args.db, create=False, read_only=True) as store:
            statuses = device_status(store)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps([s.to_dict() for s in statuses], ensure_ascii=False, indent=1))
        return 0
    head = [translate("devices", w) for w in LIST_HEADS]
    rows = []
    for s in statuses:
        last = s.last
        signal = "" if last is None or last.rssi is None else (
            f"{last.rssi:g} dBm / {last.snr:g} dB via {','.join(last.gateways)}" if last.snr is not None
            else f"{last.rssi:g} dBm")
        rows.append([str(s.id), s.role, s.label, s.marshal or s.group or s.engine or "", s.board or "",
                     ready_word(s), when(s.first.wall if s.first else None), when(last.wall if last else None),
                     "" if s.battery is None else f"{s.battery} %", signal])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    provisioned = sum(s.provisioned for s in statuses)
    heard = sum(s.first is not None for s in statuses)
    print(translate("devices", "{count} devices: {provisioned} provisioned, {heard} heard").format(
        count=len(statuses), provisioned=provisioned, heard=heard))
    return 0


def _provision(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.commands.keys import radio_plan
    from controlroom.engine.provisioning import ProvisionError, provision
    from controlroom.radio.board import find_boards
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    port = args.board
    if port is None:
        found = find_boards()
        if len(found) != 1:
            listed = ", ".join(f"{b.port} ({b.bridge})" for b in found) or translate("devices", "none")
            raise CliError(translate("devices", "name the board's port with --board PORT: {count} board(s) found by "
                                                "their USB ids: {boards}").format(count=len(found), boards=listed))
        port = found[0].port
    try:
        with GameStore.open(args.db, create=False) as store:
            done = provision(store, None if args.next else args.device, port, radio_plan(args))
    except (ProvisionError, StoreError) as exc:
        raise CliError(str(exc)) from None
    if not done.ok:
        raise CliError(translate("devices", "device {device} was not provisioned: {why}").format(
            device=done.device, why=done.detail))
    c = done.confirmation
    counter = (translate("devices", "frame counter kept at {counter}").format(counter=c.counter)
               if c.counter is not None else translate("devices", "no frame counter yet"))
    print(translate("devices", "device {device} ({role}) provisioned on {port}: firmware {firmware}, key "
                               "{fingerprint}, as the board read them back; {counter}; {sent} file(s) sent. The "
                               "board restarts now.").format(
        device=done.device, role=c.role, port=done.port, firmware=c.firmware, fingerprint=c.fingerprint,
        counter=counter, sent=c.sent))
    return 0


def _cards(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controlroom.commands.errors import CliError
    from controlroom.commands.report import _qt_application
    from controlroom.i18n import language
    from controlroom.report.cards import load_cards
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        with GameStore.open(args.db, create=False, read_only=True) as store:
            cards = load_cards(store, args.language or language())
    except StoreError as exc:
        raise CliError(str(exc)) from None
    if not cards.cards:
        raise CliError(translate("devices", "no marshal handsets in this game: no cards to print "
                                            "(controlroom devices import FILE)"))
    app = _qt_application()
    try:
        from controlroom.report.pdf_cards import write_cards

        pages = write_cards(cards, Path(args.out))
    except OSError as exc:
        raise CliError(translate("devices", "the cards could not be written to {path}: {problem}").format(
            path=args.out, problem=exc.strerror or exc)) from None
    finally:
        del app
    print(translate("devices", "{count} marshal card(s) on {pages} page(s): {path}").format(
        count=len(cards.cards), pages=pages, path=args.out))
    return 0


def run(args: argparse.Namespace) -> int:
    return {"import": _import, "list": _list, "provision": _provision, "cards": _cards}[args.devices_action](args)
