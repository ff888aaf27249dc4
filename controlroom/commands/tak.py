"""``controlroom tak``: a game's TAK settings (each side's affiliation and team colour, the server, the pace)."""

from __future__ import annotations

import argparse

NAME = "tak"
HELP = ("Set what TAK clients see of a game: each side's affiliation (friend, hostile, neutral) and team colour, "
        "the TAK server for the data package, how often an object is sent (docs/tak.md).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="GAME", required=True, help="the game (a game file or a database URL)")
    parser.add_argument("--affiliation", action="append", default=[], metavar="SIDE=AFFILIATION",
                        help="a side's affiliation on TAK maps: f (friend), h (hostile), n (neutral, the "
                             "default), u (unknown)...; repeat for each side")
    parser.add_argument("--colour", action="append", default=[], metavar="SIDE=COLOUR",
                        help="a side's team colour on TAK maps: White, Yellow, Orange, Magenta, Red, Maroon, Purple, "
                             "Dark Blue, Blue, Cyan, Teal, Green, Dark Green or Brown; repeat for each side")
    server = parser.add_mutually_exclusive_group()
    server.add_argument("--server", metavar="URL",
                        help="the TAK server the data package points phones to (tcp://HOST:PORT or tls://HOST:PORT)")
    server.add_argument("--no-server", action="store_true", help="the data package names no TAK server")
    parser.add_argument("--every", type=float, metavar="SECONDS",
                        help="send each object at most once per this many seconds (default 5)")
    parser.add_argument("--area-per-fighter", type=float, metavar="M2",
                        help="the ground each fighter of a group covers, for the group's footprint (default 20 m²)")


def _pairs(values: list[str], what: str) -> list[tuple[str, str]]:
    from controlroom.commands.errors import UsageError

    out = []
    for value in values:
        side, sep, setting = value.partition("=")
        if not sep or not side.strip() or not setting.strip():
            raise UsageError(f"--{what} takes SIDE={what.upper()}, not {value!r}")
        out.append((side.strip(), setting.strip()))
    return out


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from controlroom.commands.errors import CliError, UsageError
    from controlroom.game.tak_settings import (
        AFFILIATIONS,
        MIN_EVERY_S,
        SETTINGS_KEY,
        TakSettingsError,
        affiliation,
        check_tak_url,
        settings_from_json,
        team_colour,
    )
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        affiliations = [(side, affiliation(code)) for side, code in _pairs(args.affiliation, "affiliation")]
        colours = [(side, team_colour(name)) for side, name in _pairs(args.colour, "colour")]
        server = check_tak_url(args.server) if args.server else None
    except TakSettingsError as exc:
        raise UsageError(str(exc)) from None
    if server and not server.startswith(("tcp://", "tls://")):
        raise UsageError(f"a TAK server for the data package is tcp:// or tls://, not {server}")
    if args.every is not None and args.every < MIN_EVERY_S:
        raise UsageError(f"--every must be at least {MIN_EVERY_S:g} s")
    if args.area_per_fighter is not None and not 1 <= args.area_per_fighter <= 10_000:
        raise UsageError("--area-per-fighter is between 1 and 10,000 m²")
    try:
        with GameStore.open(args.db, create=False) as store:
            sides = sorted({m.side for m in store.roster()})
            unknown = [side for side, _v in affiliations + colours if side not in sides]
            if unknown:
                raise CliError(f"no side {unknown[0]!r} in the game's roster (its sides: {', '.join(sides) or 'none'})")
            try:
                settings = settings_from_json(store.meta(SETTINGS_KEY))
            except TakSettingsError as exc:
                print(f"controlroom: {exc}: starting again from the defaults")
                settings = settings_from_json(None)
            changed = bool(affiliations or colours or server or args.no_server or args.every is not None
                           or args.area_per_fighter is not None)
            settings = replace(
                settings, affiliations={**settings.affiliations, **dict(affiliations)},
                colours={**settings.colours, **dict(colours)},
                server="" if args.no_server else server or settings.server,
                every_s=args.every if args.every is not None else settings.every_s,
                area_per_fighter_m2=args.area_per_fighter if args.area_per_fighter is not None
                else settings.area_per_fighter_m2)
            if changed:
                store.set_meta(SETTINGS_KEY, settings.to_json())
    except StoreError as exc:
        raise CliError(str(exc)) from None
    team = settings.colours_for(sides)
    for side in sides:
        code = settings.affiliation_of(side)
        print(f"{side}: {AFFILIATIONS[code]} ({code}), team colour {team[side]}")
    print(f"each object at most every {settings.every_s:g} s; footprint {settings.area_per_fighter_m2:g} m² a fighter")
    print(f"TAK server for the data package: {settings.server or 'none'}")
    if changed:
        print("saved; a running station reads it when the game is opened again")
    return 0
