"""``controlroom export``: the battle for GIS tools: tracks, casualties, STOPPs and siege engines
(GeoJSON, GPX, KML); or the game as a TAK data package for ATAK, iTAK and WinTAK (--format tak)."""

from __future__ import annotations

import argparse
import sys

from controlroom.commands.errors import CliError

NAME = "export"
HELP = ("Export a game's tracks, casualties, STOPPs and siege engines for QGIS or Google Earth (GeoJSON, GPX, KML), "
        "or the game as a TAK data package (map, places, Valhalla and HQ markers, server) for ATAK.")


class ExportError(CliError):
    """A problem the organiser can fix: printed as one message, exit status 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="GAME", required=True, help="the game (a game file or a database URL)")
    parser.add_argument("--format", required=True, choices=("geojson", "gpx", "kml", "tak"),
                        help="geojson for QGIS, kml for Google Earth, gpx for GPS tools, tak for a TAK data package "
                             "(a .zip ATAK imports in one step)")
    parser.add_argument("--out", metavar="FILE", required=True, help="the file to write")
    parser.add_argument("--scenario", metavar="NAME", help="one scenario only (default: the whole game)")


def _tak_package(args) -> int:
    from controlroom.radio.tak_libs import TakUnavailableError
    from controlroom.report.tak_package import write_tak_package
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    if args.scenario:
        raise ExportError("a TAK data package is the game's map and places, not a scenario: leave out --scenario")
    try:
        with GameStore.open(args.db, create=False) as store:
            package = write_tak_package(store, args.out)
    except (StoreError, ValueError, TakUnavailableError) as exc:
        raise ExportError(str(exc)) from None
    except OSError as exc:
        raise ExportError(f"{args.out} could not be written: {exc.strerror or exc}") from None
    print(f"TAK data package {package.path}: {', '.join(package.entries)} (and MANIFEST/manifest.xml)")
    for note in package.notes:
        print(f"  {note}")
    return 0


def _export(args) -> int:
    if args.format == "tak":
        return _tak_package(args)
    from controlroom.geo.gis import write_gis
    from controlroom.report.gis import load_gis
    from controlroom.report.model import UnknownScenario
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        with GameStore.open(args.db, create=False) as store:
            layers = load_gis(store, args.scenario)
    except (StoreError, UnknownScenario) as exc:
        raise ExportError(str(exc)) from None
    try:
        path = write_gis(layers, args.out, args.format)
    except OSError as exc:
        raise ExportError(f"{args.out} could not be written: {exc.strerror or exc}") from None
    c = layers.counts()
    print(f"{layers.game} ({layers.scope}): {c['tracks']} tracks of {c['track points']} positions, "
          f"{c['casualty']} casualties, {c['stopp']} STOPPs, {c['siege']} siege engine reports -> {path}")
    if layers.unplaced:
        print(f"  {len(layers.unplaced)} events had no position to put them at (no report from the marshal's handset "
              f"or the group's tracker before them), for example: {layers.unplaced[0]}")
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return _export(args)
    except ExportError as exc:
        print(f"controlroom: {exc}", file=sys.stderr)
        return 1
