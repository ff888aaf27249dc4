"""``controlroom export``: the battle for GIS tools: tracks, casualties, STOPPs and siege engines
(GeoJSON, GPX, KML); the game as a TAK data package for ATAK, iTAK and WinTAK (--format tak); or the radio
coverage observed (GeoJSON cells or a GeoTIFF)."""

from __future__ import annotations

import argparse
import sys

from controlroom.commands.errors import CliError
from controlroom.i18n import translate

NAME = "export"
HELP = ("Export a game's tracks, casualties, STOPPs and siege engines for QGIS or Google Earth (GeoJSON, GPX, KML), "
        "the game as a TAK data package (map, places, Valhalla and HQ markers, server) for ATAK, "
        "or its radio coverage (--format coverage: GeoJSON cells or a GeoTIFF).")


class ExportError(CliError):
    """A problem the organiser can fix: printed as one message, exit status 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="GAME", required=True, help="the game (a game file or a database URL)")
    parser.add_argument("--format", required=True, choices=("geojson", "gpx", "kml", "tak", "coverage"),
                        help="geojson for QGIS, kml for Google Earth, gpx for GPS tools, tak for a TAK data package "
                             "(a .zip ATAK imports in one step); coverage: the radio coverage observed, as cells "
                             "(--out FILE.geojson) or a GeoTIFF (--out FILE.tif)")
    parser.add_argument("--out", metavar="FILE", required=True, help="the file to write")
    parser.add_argument("--sf", type=int, default=9, choices=range(7, 13), metavar="SF",
                        help="coverage: the spreading factor whose demodulation floor the margins are over (default 9)")
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


def _coverage(args) -> int:
    from controlroom.geo.coverage_cells import Cells
    from controlroom.geo.coverage_files import write_cells
    from controlroom.store.coverage_log import coverage_rows
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    if args.scenario:
        raise ExportError(translate("errors", "--scenario is not for --format coverage: the coverage is the whole "
                                              "game's"))
    try:
        with GameStore.open(args.db, create=False, read_only=True) as store:
            name, cells = store.name, Cells.of(coverage_rows(store))
    except StoreError as exc:
        raise ExportError(str(exc)) from None
    try:
        written = write_cells(cells, args.out, args.sf, name)
    except ValueError as exc:
        raise ExportError(str(exc)) from None
    except OSError as exc:
        raise ExportError(f"{args.out} could not be written: {exc.strerror or exc}") from None
    view = cells.view(args.sf)
    print(translate("coverage", "{game}: {cells} cells of radio coverage from {frames:.0f} frames ({marked} where "
                           "frames needed retries or went missing) -> {path}").format(
        game=name, cells=len(cells), frames=view.frames.sum(), marked=int(view.marked.sum()), path=written[0]))
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
        return _coverage(args) if args.format == "coverage" else _export(args)
    except ExportError as exc:
        print(f"controlroom: {exc}", file=sys.stderr)
        return 1
