"""The ``controlroom`` command line (argparse; Qt is imported only by commands that open windows)."""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

from controlroom import __version__
from controlroom.commands import COMMANDS


class CliError(Exception):
    """A problem the user can fix; printed as one line, exit status 1."""


def _command_module(name: str) -> ModuleType:
    return importlib.import_module(f"controlroom.commands.{name}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="controlroom",
        description="Control room for LARP battle games: live map, rule timers, radio, reports.",
    )
    parser.add_argument("--version", action="version", version=f"controlroom {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = _command_module(name)
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_usage(sys.stderr)
        print("controlroom: error: name a command (see controlroom --help)", file=sys.stderr)
        return 2
    try:
        return int(run(args) or 0)
    except CliError as exc:
        print(f"controlroom: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("controlroom: interrupted", file=sys.stderr)
        return 130
