"""The battle for GIS tools: tracks and placed events written as GeoJSON, GPX 1.1 and KML 2.2 (stdlib only)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controlroom.geo.worldfile import write_text_atomically

__all__ = ["TrackPoint", "Track", "Place", "GisLayers", "FORMATS", "SUFFIX", "render", "write_gis",
           "POSITION_OWN", "POSITION_REPORTER", "POSITION_GROUP"]

FORMATS = ("geojson", "gpx", "kml")
SUFFIX = {"geojson": ".geojson", "gpx": ".gpx", "kml": ".kml"}

# Where a placed event's position came from.
POSITION_OWN = "reported"               # the event carried its own latitude and longitude
POSITION_REPORTER = "reporter"          # the reporting device's last position before it
POSITION_GROUP = "group tracker"        # the last position of the character's group's tracker

_GPX_NS = "http://www.topografix.com/GPX/1/1"
_KML_NS = "http://www.opengis.net/kml/2.2"
# KML colours are aabbggrr.
_KML_STYLE = {"casualty": "ff0000b4", "stopp": "ff0000ff", "siege": "ff3f6e8d"}
_KML_TRACK = {"group": "ffb4771f", "marshal": "ff00d7ff", "siege": "ff3f6e8d", "tracker": "ff7f7f7f"}


@dataclass(frozen=True, slots=True)
class TrackPoint:
    t: int                  # game time, ms
    wall: int | None        # when it was stored, ms since 1970 (UTC)
    lat: float
    lon: float


@dataclass(slots=True)
class Track:
    """Where one radio device went: a group's tracker, a marshal's handset, a siege engine."""

    name: str
    kind: str               # "group", "marshal", "siege" or "tracker"
    device: str             # the events' source, "tracker:12"
    side: str = ""
    group: str = ""
    points: list[TrackPoint] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Place:
    """One event on the map: a casualty, a STOPP, a siege engine's report."""

    kind: str               # "casualty", "stopp" or "siege"
    name: str
    t: int
    wall: int | None
    lat: float
    lon: float
    position: str           # POSITION_OWN, POSITION_REPORTER or POSITION_GROUP
    properties: Mapping[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class GisLayers:
    game: str
    scope: str                                  # "the whole game" or "scenario NAME"
    tracks: list[Track] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)   # events nothing could place, in words

    def counts(self) -> dict[str, int]:
        out = {"tracks": len(self.tracks), "track points": sum(len(t.points) for t in self.tracks)}
        for kind in ("casualty", "stopp", "siege"):
            out[kind] = sum(1 for p in self.places if p.kind == kind)
        return out


def _iso(wall: int | None) -> str | None:
    if wall is None:
        return None
    return datetime.fromtimestamp(wall / 1000, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _game_time(t: int) -> str:
    s = t // 1000
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


def _place_properties(p: Place) -> dict[str, Any]:
    return {"layer": p.kind, "name": p.name, "time": _iso(p.wall), "game_time": _game_time(p.t),
            "position": p.position, **p.properties}


def _geojson(layers: GisLayers) -> str:
    features = []
    for tr in layers.tracks:
        coords = [[round(p.lon, 7), round(p.lat, 7)] for p in tr.points]
        geometry = ({"type": "LineString", "coordinates": coords} if len(coords) > 1
                    else {"type": "Point", "coordinates": coords[0]})
        features.append({"type": "Feature", "geometry": geometry, "properties": {
            "layer": "track", "name": tr.name, "kind": tr.kind, "device": tr.device, "side": tr.side, "group": tr.group,
            "start": _iso(tr.points[0].wall), "end": _iso(tr.points[-1].wall), "points": len(coords),
            "times": [_iso(p.wall) for p in tr.points]}})
    for p in layers.places:
        features.append({"type": "Feature",
                         "geometry": {"type": "Point", "coordinates": [round(p.lon, 7), round(p.lat, 7)]},
                         "properties": _place_properties(p)})
    doc = {"type": "FeatureCollection", "name": f"{layers.game} ({layers.scope})", "features": features}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def _sub(parent: ET.Element, tag: str, text: Any = None, **attrs) -> ET.Element:
    el = ET.SubElement(parent, tag, {k: str(v) for k, v in attrs.items()})
    if text is not None:
        el.text = str(text)
    return el


def _describe(props: Mapping[str, Any]) -> str:
    return "; ".join(f"{k}: {v}" for k, v in props.items() if v not in (None, "", ()))


def _gpx(layers: GisLayers) -> str:
    ET.register_namespace("", _GPX_NS)
    q = lambda tag: f"{{{_GPX_NS}}}{tag}"       # noqa: E731 - a one-line name for the namespaced tag
    root = ET.Element(q("gpx"), {"version": "1.1", "creator": "controlroom"})
    meta = _sub(root, q("metadata"))
    _sub(meta, q("name"), f"{layers.game} ({layers.scope})")
    for p in layers.places:
        wpt = _sub(root, q("wpt"), lat=f"{p.lat:.7f}", lon=f"{p.lon:.7f}")
        if p.wall is not None:
            _sub(wpt, q("time"), _iso(p.wall))
        _sub(wpt, q("name"), p.name)
        _sub(wpt, q("desc"), _describe({"game time": _game_time(p.t), "position": p.position, **p.properties}))
        _sub(wpt, q("type"), p.kind)
    for tr in layers.tracks:
        trk = _sub(root, q("trk"))
        _sub(trk, q("name"), tr.name)
        _sub(trk, q("desc"), _describe({"device": tr.device, "side": tr.side, "group": tr.group}))
        _sub(trk, q("type"), tr.kind)
        seg = _sub(trk, q("trkseg"))
        for pt in tr.points:
            el = _sub(seg, q("trkpt"), lat=f"{pt.lat:.7f}", lon=f"{pt.lon:.7f}")
            if pt.wall is not None:
                _sub(el, q("time"), _iso(pt.wall))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _kml(layers: GisLayers) -> str:
    ET.register_namespace("", _KML_NS)
    q = lambda tag: f"{{{_KML_NS}}}{tag}"       # noqa: E731 - a one-line name for the namespaced tag
    root = ET.Element(q("kml"))
    doc = _sub(root, q("Document"))
    _sub(doc, q("name"), f"{layers.game} ({layers.scope})")
    for kind, colour in _KML_STYLE.items():
        style = _sub(doc, q("Style"), id=kind)
        icon = _sub(style, q("IconStyle"))
        _sub(icon, q("color"), colour)
    for kind, colour in _KML_TRACK.items():
        style = _sub(doc, q("Style"), id=f"track-{kind}")
        line = _sub(style, q("LineStyle"))
        _sub(line, q("color"), colour)
        _sub(line, q("width"), 2)
    titles = {"casualty": "Casualties", "stopp": "STOPPs", "siege": "Siege engines"}
    for kind, title in titles.items():
        folder = _sub(doc, q("Folder"))
        _sub(folder, q("name"), title)
        for p in (p for p in layers.places if p.kind == kind):
            mark = _sub(folder, q("Placemark"))
            _sub(mark, q("name"), p.name)
            _sub(mark, q("description"),
                 _describe({"game time": _game_time(p.t), "position": p.position, **p.properties}))
            if p.wall is not None:
                _sub(_sub(mark, q("TimeStamp")), q("when"), _iso(p.wall))
            _sub(mark, q("styleUrl"), f"#{kind}")
            _sub(_sub(mark, q("Point")), q("coordinates"), f"{p.lon:.7f},{p.lat:.7f}")
    folder = _sub(doc, q("Folder"))
    _sub(folder, q("name"), "Tracks")
    for tr in layers.tracks:
        mark = _sub(folder, q("Placemark"))
        _sub(mark, q("name"), tr.name)
        _sub(mark, q("description"), _describe({"device": tr.device, "side": tr.side, "group": tr.group}))
        walls = [p.wall for p in tr.points if p.wall is not None]
        if walls:
            span = _sub(mark, q("TimeSpan"))
            _sub(span, q("begin"), _iso(walls[0]))
            _sub(span, q("end"), _iso(walls[-1]))
        _sub(mark, q("styleUrl"), f"#track-{tr.kind}")
        coords = " ".join(f"{p.lon:.7f},{p.lat:.7f}" for p in tr.points)
        if len(tr.points) > 1:
            line = _sub(mark, q("LineString"))
            _sub(line, q("tessellate"), 1)
            _sub(line, q("coordinates"), coords)
        else:
            _sub(_sub(mark, q("Point")), q("coordinates"), coords)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def render(layers: GisLayers, fmt: str) -> str:
    """The layers as the text of a GeoJSON, GPX or KML file."""
    try:
        return {"geojson": _geojson, "gpx": _gpx, "kml": _kml}[fmt](layers)
    except KeyError:
        raise ValueError(f"unknown GIS format {fmt!r} (formats: {', '.join(FORMATS)})") from None


def write_gis(layers: GisLayers, path: str | os.PathLike, fmt: str) -> Path:
    """Write the layers to ``path`` (replacing it whole, never half written)."""
    return write_text_atomically(path, render(layers, fmt))
