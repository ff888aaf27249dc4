"""The ``controlroom`` command line (argparse; Qt is imported only by commands that open windows)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType

from controlroom import __version__
from controlroom.commands import COMMANDS
from controlroom.commands.errors import CliError, UsageError
from controlroom.i18n import LANGUAGES, check_language, choose, language, translate


def _command_module(name: str) -> ModuleType:
    return importlib.import_module(f"controlroom.commands.{name}")


def _speak_argparse() -> None:
    """argparse's own words (usage:, options, its errors) in the language spoken: it looks them up as it goes."""
    argparse._ = lambda text: translate("argparse", text)
    argparse.ngettext = lambda one, many, n: translate("argparse", one if n == 1 else many)


def _translated(parser: argparse.ArgumentParser) -> None:
    """Every description, help and group title of the parser and its commands, in the language spoken."""
    if parser.description:
        parser.description = translate("cli", parser.description)
    for group in parser._action_groups:
        group.title = translate("cli", group.title) if group.title else group.title
        group.description = translate("cli", group.description) if group.description else group.description
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            action.help = translate("cli", action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = translate("cli", choice.help)
            for sub in dict.fromkeys(action.choices.values()):
                _translated(sub)


def build_parser(translated: bool = True) -> argparse.ArgumentParser:
    """The command line; its help in the language spoken (``translated=False``: the English source texts)."""
    if translated and language() != "en":
        _speak_argparse()
    parser = argparse.ArgumentParser(
        prog="controlroom",
        description="Control room for LARP battle games: live map, rule timers, radio, reports.",
    )
    parser.add_argument("--version", action="version", version=f"controlroom {__version__}")
    parser.add_argument("--lang", metavar="LANG", choices=sorted(LANGUAGES),
                        help="the language to speak: " + ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items())
                             + " (default: the system's, then English)")
    window = parser.add_argument_group("the window (when no command is given)")
    window.add_argument("--db", metavar="GAME", help="the game to open (default: the last one, or ask)")
    window.add_argument("--port", action="append", default=[], metavar="URL",
                        help="a gateway's serial port, or a stock Meshtastic node (meshtastic:/dev/ttyACM0, "
                             "meshtastic-tcp:HOST); repeat for several (kept with the game: next time --db alone "
                             "opens them)")
    window.add_argument("--tak", action="append", default=[], metavar="URL",
                        help="send the battle to a TAK server or client as Cursor-on-Target: tcp://HOST:PORT, "
                             "tls://HOST:PORT (with --tak-cert and --tak-key), udp://HOST:PORT; add ?proto=1 for "
                             "TAK protocol 1 (protobuf); repeat for several (docs/tak.md)")
    window.add_argument("--tak-cert", metavar="FILE.pem", help="the station's client certificate for tls:// (PEM)")
    window.add_argument("--tak-key", metavar="FILE.pem", help="the key of --tak-cert (PEM)")
    window.add_argument("--tak-ca", metavar="FILE.pem",
                        help="the certificate authority the tls:// server's certificate is checked against (PEM)")
    window.add_argument("--map", metavar="MAP",
                        help="the field's map: an image with its world file and .prj or .aux.xml, a GeoTIFF, or "
                             "MBTiles (kept with the game: next time --db alone shows it)")
    window.add_argument("--origin", metavar="LAT,LON", help="no longer needed: the map places itself (deprecated)")
    window.add_argument("--desk", choices=("map", "valhalla", "weapons", "devices"), default="map",
                        help="open as the Valhalla desk, the weapon-check desk or the Devices desk instead of the "
                             "map (View, Desk switches)")
    window.add_argument("--replay", action="store_true",
                        help="replay the game read-only: scrub through it on the map (it may be running elsewhere)")
    from controlroom.commands.web import add_web_options

    add_web_options(window)
    window.add_argument("--quit-after", type=float, metavar="SECONDS", help=argparse.SUPPRESS)
    window.add_argument("--screenshot", metavar="FILE.png", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = _command_module(name)
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    if translated and language() != "en":
        _translated(parser)
    return parser


def _open_window(args: argparse.Namespace) -> int:
    """``controlroom`` alone: the window on a game (the one given, the last one, or one asked for)."""
    from controlroom.core.wiring import check_links
    from controlroom.ui.app import application, run_window
    from controlroom.ui.dialogs.games import game_exists, last_game
    from controlroom.ui.dialogs.start import ask_start

    try:
        check_links(args.port, args.tak, (args.tak_cert, args.tak_key, args.tak_ca))
    except ValueError as exc:           # a --port or --tak no link could open: said before any window opens
        raise UsageError(str(exc)) from None

    origin = None
    if args.origin:
        try:
            lat, lon = (float(v) for v in args.origin.split(","))
        except ValueError:
            raise CliError(translate("errors", "--origin takes LAT,LON in degrees, not {value!r}").format(
                value=args.origin)) from None
        if not (-85.0 < lat < 85.0 and -180.0 <= lon <= 180.0):
            raise CliError(translate("errors", "--origin {value} is not a latitude and longitude on the map").format(
                value=args.origin))
        origin = (lat, lon)
        print("controlroom: --origin is no longer needed and will go: the map is placed by its own coordinate "
              "system, and without a map the view fits the field's positions", file=sys.stderr)
    if args.replay:
        return _open_replay(args)
    from controlroom.commands.web import web_options
    from controlroom.web.server import WebError

    web = web_options(args)
    db, map_image, before_start = args.db, args.map, None
    if db is None:
        application()
        db = last_game()
        if db is None or not game_exists(db):          # a first start (or the last game gone): the start window
            choice = ask_start()
            if choice is None:
                print("controlroom: " + translate("errors", "no game chosen"), file=sys.stderr)
                return 2
            if choice.kind == "demo":
                return _run_demo(args)
            db, map_image, before_start = choice.db, choice.map or map_image, choice.before_start
    try:
        return run_window(db, args.port, map_image=map_image, origin=origin, quit_after=args.quit_after,
                          screenshot=args.screenshot, desk=args.desk, before_start=before_start, web=web,
                          tak=args.tak, tak_tls=(args.tak_cert, args.tak_key, args.tak_ca))
    except WebError as exc:
        raise CliError(str(exc)) from None


def _run_demo(args: argparse.Namespace) -> int:
    """The start window's "Start the demo": ``controlroom demo``, as its own command runs it."""
    demo = _command_module("demo")
    parser = argparse.ArgumentParser(prog="controlroom demo")
    demo.add_arguments(parser)
    given = [] if args.quit_after is None else ["--quit-after", str(args.quit_after)]
    given += [] if args.screenshot is None else ["--screenshot", args.screenshot]
    return demo.run(parser.parse_args(given))


def _open_replay(args: argparse.Namespace) -> int:
    """``controlroom --db GAME --replay``: the replay window; the game is read in its worker thread, read-only."""
    from functools import partial
    from pathlib import Path

    from controlroom.store.replay import open_replay
    from controlroom.ui.replay.app import run_replay

    if args.db is None:
        raise CliError(translate("errors", "--replay needs the game: --db GAME"))
    return run_replay(partial(open_replay, args.db), Path(str(args.db)).stem, quit_after=args.quit_after,
                      screenshot=args.screenshot)


def _language_given(argv: list[str]) -> str | None:
    """``--lang X`` (or ``--lang=X``) before the command: read first, for the help and messages to speak it."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = _language_given(argv)
    try:
        choose(None if lang is None else check_language(lang))     # the environment's, read now, or the one given
    except ValueError as exc:
        print(f"controlroom: {exc}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        run = _open_window
    try:
        return int(run(args) or 0)
    except CliError as exc:
        print(f"controlroom: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("controlroom: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Whoever read the output stopped early (`controlroom replay --json | head`): stop quietly.
        # What is left in stdout's buffer goes nowhere, so that the flush at exit cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141          # as a program ended by SIGPIPE
