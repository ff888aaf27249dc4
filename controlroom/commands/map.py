"""``controlroom map``: check a map before the game: where a GPS point falls on it, and what it covers."""

from __future__ import annotations

import argparse
import json
import math
import sys

from controlroom.commands.errors import CliError
from controlroom.i18n import QT_TRANSLATE_NOOP, translate

NAME = "map"
HELP = "Check a map file (image with world file, GeoTIFF, MBTiles): its coordinate system, extent, where a point falls."

# Messages (translated where they are shown).
MSG = {
    "lat": QT_TRANSLATE_NOOP("errors", "the latitude must be a number of degrees between -90 and 90, not {value!r} "
                                       "(latitude first, then longitude)"),
    "lon": QT_TRANSLATE_NOOP("errors", "the longitude must be a number of degrees between -180 and 180, not {value!r}"),
    "outside": QT_TRANSLATE_NOOP("errors", "note: that point is outside the map ({width} x {height} pixels); latitude "
                                           "comes first, then longitude"),
}


class MapCommandError(CliError):
    """A problem the organiser can fix: printed as one message, exit status 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="map_command", metavar="ACTION", required=True)
    locate = sub.add_parser("locate", help="print where a WGS84 point falls on the map, in pixels",
                            description="Print the pixel (column, row) of a WGS84 point: from the image's top-left "
                                        "corner, pixel centres at .5. For MBTiles: pixels of the whole mosaic at the "
                                        "file's highest zoom, from the top-left of its extent.")
    locate.add_argument("image", metavar="IMAGE", help="the map: an image with its world file, a GeoTIFF or MBTiles")
    locate.add_argument("lat", metavar="LAT", help="latitude in decimal degrees (WGS84, as GPS gives it)")
    locate.add_argument("lon", metavar="LON", help="longitude in decimal degrees")
    locate.add_argument("--json", action="store_true", help='print one JSON object {"x", "y", "crs"}')
    locate.add_argument("--crs", metavar="EPSG:CODE",
                        help="the map's coordinate system, when no file beside it names it")
    info = sub.add_parser("info", help="print the map's coordinate system, extent and resolution")
    info.add_argument("image", metavar="IMAGE", help="the map: an image with its world file, a GeoTIFF or MBTiles")
    info.add_argument("--crs", metavar="EPSG:CODE", help="the map's coordinate system, when no file beside it names it")


def _degrees(text: str, low: float, high: float, key: str) -> float:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise MapCommandError(translate("errors", MSG[key]).format(value=text)) from None
    if not (math.isfinite(value) and low <= value <= high):
        raise MapCommandError(translate("errors", MSG[key]).format(value=text))
    return value


def _open(args):
    from controlroom.geo.crs import CrsError, parse_crs
    from controlroom.geo.source import CrsUnknown, MapError, open_map

    crs = None
    if args.crs:
        try:
            crs = parse_crs(args.crs, f"--crs {args.crs}")
        except CrsError as exc:
            raise MapCommandError(str(exc)) from None
    try:
        return open_map(args.image, crs, f"--crs {args.crs}" if crs is not None else "")
    except CrsUnknown as exc:
        raise MapCommandError(exc.explain()) from None
    except MapError as exc:
        raise MapCommandError(str(exc)) from None


def _locate(args) -> int:
    from controlroom.geo.crs import crs_label

    lat = _degrees(args.lat, -90.0, 90.0, "lat")
    lon = _degrees(args.lon, -180.0, 180.0, "lon")
    source = _open(args)
    try:
        x, y = source.locate(lat, lon)
    except Exception as exc:    # pyproj cannot put the point in this coordinate system
        raise MapCommandError(translate("errors", "{map}: {lat}, {lon} cannot be placed in {crs} ({problem})").format(
            map=source.path.name, lat=lat, lon=lon, crs=crs_label(source.crs), problem=exc)) from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise MapCommandError(translate("errors", "{map}: {lat}, {lon} has no place in {crs}").format(
            map=source.path.name, lat=lat, lon=lon, crs=crs_label(source.crs)))
    label = crs_label(source.crs)
    if args.json:
        print(json.dumps({"x": x, "y": y, "crs": label}))
    else:
        print(f"column {x:.3f}, row {y:.3f} ({label})")
    if not source.contains(x, y):
        print(translate("errors", MSG["outside"]).format(width=source.width, height=source.height), file=sys.stderr)
    return 0


def _info(args) -> int:
    source = _open(args)
    print("\n".join(source.info_lines()))
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return _locate(args) if args.map_command == "locate" else _info(args)
    except MapCommandError as exc:
        print(f"controlroom: {exc}", file=sys.stderr)
        return 1
