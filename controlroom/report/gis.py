"""Fold a stored game into map layers for GIS tools: each device's track, casualties, STOPPs, siege engines."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from controlroom.collecting import no_collection
from controlroom.game.events import Event
from controlroom.game.state import GameState
from controlroom.geo.gis import POSITION_GROUP, POSITION_OWN, POSITION_REPORTER, GisLayers, Place, Track, TrackPoint
from controlroom.report.log_read import marshal_names
from controlroom.report.model import ReportCancelled, UnknownScenario, reporter, what_happened
from controlroom.store.devices import DeviceInfo, devices
from controlroom.store.game import GameStore

# The casualty events placed on the map: what hurt a character (not the care and the timers' wake-ups).
PLACED_CASUALTIES = frozenset(("strike", "big_stone", "knocked_out", "down", "died", "permanent_kill"))

__all__ = ["load_gis", "gis_layers", "PLACED_CASUALTIES"]


def load_gis(store: GameStore, scenario: str | None = None,
             progress: Callable[[int, int], bool] | None = None) -> GisLayers:
    """The map layers of a stored game, or of one of its scenarios (retracted events left out)."""
    gone = store.retracted()
    devs = devices(store)
    items = ((seq, wall, event) for seq, wall, event in store.log.timed_events() if seq not in gone)
    return gis_layers(store.name, store.roster(), store.profile(), items, devs, scenario=scenario,
                      total=store.log.count(), progress=progress)


def gis_layers(game: str, members, profile, items: Iterable[tuple[int, int, Event]], devs: dict[int, DeviceInfo],
               *, scenario: str | None = None, total: int = 0,
               progress: Callable[[int, int], bool] | None = None) -> GisLayers:
    """Fold (seq, wall ms, event) items through the rules; see :func:`load_gis`."""
    with no_collection():
        return _fold(game, members, profile, items, devs, scenario, total, progress)


def _fold(game, members, profile, items, devs, scenario, total, progress) -> GisLayers:
    state = GameState(list(members), profile)
    chars = state.characters
    names = {b: ch.member.name for b, ch in chars.items()}
    marshals = marshal_names(devs)
    by_source = {d.source: d for d in devs.values()}
    group_devices: dict[str, list[str]] = {}
    for d in devs.values():
        if d.group and d.role != "gateway":
            group_devices.setdefault(d.group, []).append(d.source)
    sides = {m.group: m.side for m in state.roster.members.values()}
    layers = GisLayers(game, "the whole game" if scenario is None else f"scenario {scenario}")
    tracks: dict[str, Track] = {}
    last: dict[str, tuple[int, float, float]] = {}          # source -> (t, lat, lon) of its last fix
    scenarios: list[str] = []
    in_scope = scenario is None
    stopp_places: dict[str, int] = {}                       # STOPP id -> index in layers.places
    done = 0
    for _seq, wall, ev in items:
        warnings = state.apply(ev)
        done += 1
        if progress is not None and not done & 4095 and not progress(done, total):
            raise ReportCancelled()
        type_, data = ev.type, ev.data
        if type_ == "scenario_started":
            scenarios.append(data["name"])
            in_scope = scenario is None or data["name"] == scenario
        if type_ == "position" and data.get("lat") is not None and data.get("lon") is not None:
            last[ev.source] = (state.t, data["lat"], data["lon"])
            if in_scope:
                _track(tracks, ev.source, by_source.get(ev.source), sides).points.append(
                    TrackPoint(state.t, wall, float(data["lat"]), float(data["lon"])))
            continue
        if not in_scope:
            continue
        if type_ in PLACED_CASUALTIES and data.get("badge") in chars:
            member = chars[data["badge"]].member
            where = _where(ev, last, group_devices.get(member.group, ()))
            what = what_happened(type_, data, names)
            if where is None:
                layers.unplaced.append(f"{member.name} ({member.badge}): {what}")
                continue
            lat, lon, how, age = where
            props = {"badge": member.badge, "player": member.name, "side": member.side, "group": member.group,
                     "event": type_, "what": what, "reported_by": reporter(ev.source, marshals),
                     "scenario": state.scenario.name, "counted": not warnings}
            if age is not None:
                props["position_age_s"] = round(age / 1000)
            if warnings:
                props["rule_warning"] = "; ".join(w.message for w in warnings)
            layers.places.append(Place("casualty", f"{member.name} ({member.badge}): {what}", ev.t, wall,
                                       lat, lon, how, props))
        elif type_ == "stopp_called" and not warnings:
            where = _where(ev, last, ())
            if where is None:
                layers.unplaced.append(f"STOPP {data['stopp']} ({data.get('reason', '')})")
                continue
            lat, lon, how, _age = where
            caller = data.get("caller")
            props = {"stopp": data["stopp"], "reason": data.get("reason", ""),
                     "caller": f"{names.get(caller, 'badge')} ({caller})" if caller is not None else "",
                     "groups": ", ".join(data.get("groups", ())), "reported_by": reporter(ev.source, marshals)}
            stopp_places[data["stopp"]] = len(layers.places)
            layers.places.append(Place("stopp", f"STOPP {data['stopp']} ({props['reason']})", ev.t, wall,
                                       lat, lon, how, props))
        elif type_ == "siege_status":
            where = _where(ev, last, ())
            if where is None:
                layers.unplaced.append(f"siege engine {data['engine']}: {data['status']}")
                continue
            lat, lon, how, _age = where
            props = {"engine": data["engine"], "status": data["status"], "reported_by": reporter(ev.source, marshals)}
            layers.places.append(Place("siege", f"{data['engine']}: {data['status']}", ev.t, wall, lat, lon, how,
                                       props))
    if scenario is not None and scenario not in scenarios:
        known = ", ".join(repr(s) for s in dict.fromkeys(scenarios)) or "none"
        raise UnknownScenario(f"the game has no scenario {scenario!r} (its scenarios: {known})")
    _stopp_endings(layers, stopp_places, state)
    layers.tracks = [t for t in tracks.values() if t.points]
    layers.tracks.sort(key=lambda t: (t.kind, t.side, t.name))
    return layers


def _track(tracks: dict[str, Track], source: str, dev: DeviceInfo | None, sides: dict[str, str]) -> Track:
    tr = tracks.get(source)
    if tr is None:
        if dev is None:
            tr = Track(source, "tracker", source)
        elif dev.siege_engine:
            tr = Track(dev.siege_engine, "siege", source, sides.get(dev.group or "", ""), dev.group or "")
        elif dev.group:
            tr = Track(dev.group, "group", source, sides.get(dev.group, ""), dev.group)
        elif dev.role == "marshal":
            tr = Track(dev.marshal or dev.label or source, "marshal", source)
        else:
            tr = Track(dev.label or source, "tracker", source)
        tracks[source] = tr
    return tr


def _where(ev: Event, last: dict, group_sources) -> tuple[float, float, str, int | None] | None:
    """(lat, lon, how it was found, age of the fix in ms) of an event, or None."""
    d = ev.data
    if d.get("lat") is not None and d.get("lon") is not None:
        return float(d["lat"]), float(d["lon"]), POSITION_OWN, None
    fix = last.get(ev.source)
    if fix is not None:
        return fix[1], fix[2], POSITION_REPORTER, max(0, ev.t - fix[0])
    fixes = [last[s] for s in group_sources if s in last]
    if fixes:
        t, lat, lon = max(fixes)
        return lat, lon, POSITION_GROUP, max(0, ev.t - t)
    return None


def _stopp_endings(layers: GisLayers, where: dict[str, int], state: GameState) -> None:
    """Each STOPP's lifting, known only at the end of the fold, added to its place."""
    for sid, index in where.items():
        s = state.stopps.get(sid)
        if s is None:
            continue
        p = layers.places[index]
        extra = {"lifted_game_time": None if s.lifted is None else _hms(s.lifted),
                 "duration_s": None if s.lifted is None else round((s.lifted - s.called) / 1000),
                 "trivial": s.trivial, "covered": len(s.covered)}
        layers.places[index] = Place(p.kind, p.name, p.t, p.wall, p.lat, p.lon, p.position, {**p.properties, **extra})


def _hms(t: int) -> str:
    s = t // 1000
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"
