"""``controlroom coverage plan``: predict the gateways' radio coverage over the field before the game."""

from __future__ import annotations

import argparse
import sys

from controlroom.commands.errors import CliError
from controlroom.i18n import translate

NAME = "coverage"
HELP = "Plan the gateways' radio coverage over the field before the game (Longley-Rice over a DEM, or free space)."
EPILOG = """\
Each gateway's path loss to a handset in every cell of the map is predicted
with the Longley-Rice Irregular Terrain Model (itmlogic) over the DEM's ground
profile, or without a DEM as free space (hills cast no shadow then, and the
command says so); a clutter loss is added to either.  The margin is the SNR
over the spreading factor's demodulation floor (SF7 -7.5 dB ... SF12 -20 dB):
below 0 dB a handset there is not heard.  The GeoTIFF has the best margin and
then one band per gateway; the PNG shows the best margin in colour, with a
.pgw and .prj beside it (QGIS and controlroom --map place it).  See
docs/coverage.md."""


class CoverageError(CliError):
    """A problem the organiser can fix: printed as one message, exit status 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="coverage_command", metavar="ACTION", required=True)
    plan = sub.add_parser("plan", help="predict the margin over the map for gateways placed so",
                          description="Predict each gateway's coverage over the map: margin in dB per cell.")
    plan.add_argument("--map", metavar="MAP", required=True,
                      help="the field's map (an image with its world file, a GeoTIFF or MBTiles): the area planned")
    plan.add_argument("--dem", metavar="DEM.tif",
                      help="the ground's heights as a GeoTIFF in any coordinate system (without it: free space)")
    plan.add_argument("--gateway", metavar="LAT,LON,HEIGHT_M", action="append", required=True,
                      help="a gateway: WGS84 degrees and its antenna's height above the ground; repeat for each")
    plan.add_argument("--sf", type=int, default=9, choices=range(7, 13), metavar="SF",
                      help="the spreading factor the gateways use, 7 to 12 (default 9)")
    plan.add_argument("--tx-dbm", type=float, default=14.0, metavar="DBM",
                      help="the handsets' transmit power in dBm (default 14)")
    plan.add_argument("--clutter-db", type=float, default=10.0, metavar="DB",
                      help="loss the terrain model does not know (trees, tents, bodies), dB (default 10)")
    plan.add_argument("--cell", type=float, default=25.0, metavar="METRES", help="the cells' side (default 25 m)")
    plan.add_argument("--out", metavar="FILE.tif|FILE.png", required=True, help="the file to write")


def _plan(args) -> int:
    from pathlib import Path

    from controlroom.geo.coverage_files import PLAN_SUFFIXES, write_plan
    from controlroom.geo.coverage_plan import make_plan, plan_area
    from controlroom.geo.dem import DemError, read_dem
    from controlroom.geo.propagation import RadioModel, parse_gateway
    from controlroom.geo.source import MapError, open_map

    out = Path(args.out)
    if out.suffix.lower() not in PLAN_SUFFIXES:
        raise CoverageError(translate("errors", "--out must end in .tif or .png, not {name}").format(name=out.name))
    if not 5 <= args.cell <= 500:
        raise CoverageError(translate("errors", "--cell is 5 to 500 metres, not {value:g}").format(value=args.cell))
    try:
        source = open_map(args.map)
    except MapError as exc:
        raise CoverageError(str(exc)) from None
    gateways = []
    for i, text in enumerate(args.gateway, start=1):
        try:
            gateway = parse_gateway(text, f"gateway {i}")
        except ValueError as exc:
            raise CoverageError(str(exc)) from None
        col, row = source.locate(gateway.lat, gateway.lon)
        if not source.contains(float(col), float(row)):
            raise CoverageError(translate(
                "errors", "gateway {n} ({lat:.5f}, {lon:.5f}) is outside the map {map}: give its latitude first, "
                          "then its longitude, in WGS84 degrees").format(n=i, lat=gateway.lat, lon=gateway.lon,
                                                                         map=source.path.name))
        gateways.append(gateway)
    dem = None
    try:
        if args.dem:
            dem = read_dem(args.dem)
        model = RadioModel(sf=args.sf, tx_dbm=args.tx_dbm, clutter_db=args.clutter_db, dem=dem)
    except (DemError, ValueError) as exc:
        raise CoverageError(str(exc)) from None
    frame, *bounds = plan_area(source)
    if dem is not None:
        x0, y0, x1, y1 = bounds
        xs, ys = [x0, x1, x1, x0, (x0 + x1) / 2], [y0, y0, y1, y1, (y0 + y1) / 2]
        lats, lons = frame.to_geographic(xs, ys)
        try:
            dem.check_covers(list(lats) + [g.lat for g in gateways], list(lons) + [g.lon for g in gateways],
                             f"the map {source.path.name}")
        except DemError as exc:
            raise CoverageError(str(exc)) from None
    print(translate("coverage", "model: {model}").format(model=model.describe()))
    plan = make_plan(frame, tuple(bounds), gateways, model, args.cell)
    try:
        written = write_plan(plan, out)
    except (OSError, ValueError) as exc:
        raise CoverageError(translate("errors", "{name} could not be written: {why}").format(
            name=out.name, why=getattr(exc, "strerror", None) or exc)) from None
    rows, cols = plan.shape
    heard = translate("coverage", "{cells} cells of {cell:g} m; heard (margin 0 dB or more) in {share:.0f} % of them")
    print(heard.format(cells=rows * cols, cell=args.cell, share=plan.covered_share() * 100))
    for g, gateway in enumerate(gateways):
        share = float((plan.margins[g] >= 0).mean() * 100)
        print(translate("coverage", "  gateway {n} ({where}): {share:.0f} %").format(n=g + 1, where=gateway,
                                                                                   share=share))
    hint = plan.suggestion()
    if hint is not None:
        print(translate("coverage", "one more gateway would help most near {lat:.5f}, {lon:.5f}").format(
            lat=hint[0], lon=hint[1]))
    print(translate("coverage", "written: {files}").format(files=", ".join(str(p) for p in written)))
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return _plan(args)
    except CoverageError as exc:
        print(f"controlroom: {exc}", file=sys.stderr)
        return exc.exit_code
