"""A stored battle to replay (tests of issue 19): bench_eventlog's battle, with the field reports a map shows.

Groups carry trackers that report their position every few seconds, siege
engines report their status, a STOPP is called at a place and lifted, a
second scenario starts half-way, and one report is retracted by a correction.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from controlroom.game.events import make_event
from tests.support.played_game import played_game, roster

LAT0, LON0 = 58.38, 26.72        # a field near Tartu


def battle_events(players: int, n_events: int, seed: int = 19) -> tuple[list, list]:
    """(members, events): the battle's reports with positions, siege engines and a second scenario."""
    members = roster(players)
    log = played_game(members, n_events, seed=seed)
    groups = sorted({m.group for m in members})[:12]
    rng = random.Random(seed)
    out = []
    end = log[-1].t
    half = None
    for i, ev in enumerate(log):
        out.append(ev)
        if i % 7 == 3:
            k = rng.randrange(len(groups))
            device = 100 + k
            phase = ev.t / max(1, end) * 2 * math.pi
            lat = LAT0 + 0.0012 * math.sin(phase + k) + 0.0001 * k
            lon = LON0 + 0.002 * math.cos(phase + k / 2) + 0.0001 * k
            out.append(make_event(ev.t, "position", f"tracker:{device}", device=device, lat=round(lat, 6),
                                  lon=round(lon, 6), battery=90 - i * 50 // len(log), fix=1))
        if i % 97 == 50:
            out.append(make_event(ev.t, "siege_status", "tracker:200", engine="Ram",
                                  status=rng.choice(["moved", "firing", "damaged"]),
                                  lat=LAT0 + 0.0005, lon=LON0 - 0.001 + 0.00001 * (i % 50)))
        if i == len(log) // 4:
            out.append(make_event(ev.t, "stopp_called", "marshal:7", stopp="F1", groups=[groups[0]],
                                  reason="injury", lat=LAT0 - 0.0004, lon=LON0 + 0.0006))
        if i == len(log) // 4 + 60:
            out.append(make_event(ev.t, "stopp_lifted", "gm", stopp="F1"))
        if half is None and ev.t > end // 2 and ev.type not in ("stopp_called", "stopp_lifted"):
            half = ev.t
            out.append(make_event(ev.t, "scenario_started", "gm", name="second", respawn=True, respawn_time=600))
    return members, out


def store_battle(path: Path | str, players: int = 300, n_events: int = 4000, seed: int = 19,
                 with_map: bool = False) -> Path:
    """Write the battle into a game file (or database URL), with its devices (and the demo's field map); the path."""
    from controlroom.store.devices import register_device
    from controlroom.store.game import GameStore

    members, events = battle_events(players, n_events, seed)
    groups = sorted({m.group for m in members})[:12]
    with GameStore.open(path) as store:
        store.save_roster(members)
        for k, group in enumerate(groups):
            register_device(store, 100 + k, "tracker", label=f"{group} banner", group=group)
        register_device(store, 200, "tracker", label="Ram", siege_engine="Ram")
        for i in range(0, len(events), 2000):
            store.log.append(events[i:i + 2000])
        if with_map:
            from controlroom.geo.source import open_map
            from controlroom.store.maps import save_map

            field = open_map(Path(__file__).resolve().parents[2] / "resources" / "demo" / "field.png")
            save_map(store, field.path, field.kind, field.crs.to_wkt(), field.world.as_lines(), field.width,
                     field.height)
            from controlroom.geo.places import places_beside, read_places
            from controlroom.store.maps import save_places

            save_places(store, read_places(places_beside(field.path)))     # the demo field's named features
        # A correction: the first strike was a wrong report.
        first_strike = next(s for s, e in store.log.events() if e.type == "strike")
        store.log.append([make_event(events[-1].t, "retracted", "gm", seq=first_strike, reason="wrong badge")])
    return Path(path) if not str(path).startswith("postgresql") else path
