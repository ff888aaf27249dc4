"""Read a stored game into a Report: its roster, rules, devices, siege engines and log."""

from __future__ import annotations

import json
from collections.abc import Callable

import sqlalchemy as sa

from controlroom.game.devices import DeviceInfo
from controlroom.game.roster import Member
from controlroom.report.coverage_page import coverage_page
from controlroom.report.field_map import field_map, place_text
from controlroom.report.log_read import marshal_names
from controlroom.report.model import Report, build_report
from controlroom.store.devices import devices
from controlroom.store.eventlog import EVENTS
from controlroom.store.game import GameStore
from controlroom.store.maps import stored_places
from controlroom.store.models import Side, SiegeEngineRow


def engine_sides(store: GameStore, members: list[Member], devs: dict[int, DeviceInfo]) -> dict[str, str]:
    """Each siege engine's side: its own, else that of the group whose tracker rides on it."""
    e, s = SiegeEngineRow.__table__.c, Side.__table__.c
    q = sa.select(e.name, s.name).select_from(SiegeEngineRow.__table__).join(Side.__table__, e.side_id == s.id)
    with store.engine.connect() as conn:
        own = dict(conn.execute(q).all())
    groups = {m.group: m.side for m in members}
    by_tracker = {d.siege_engine: groups[d.group] for d in devs.values()
                  if d.siege_engine and d.group in groups}
    return {**by_tracker, **own}


def load_report(store: GameStore, scenario: str | None = None,
                progress: Callable[[int, int], bool] | None = None) -> Report:
    """Fold the stored game (retracted events left out) into the report's figures."""
    gone = store.retracted()
    members, devs = store.roster(), devices(store)     # each read once
    wrong: dict = {}            # the retracted reports, kept as they are read (for the list of corrections)

    def items():
        for seq, wall, event in store.log.timed_events():      # in fold order, each with its wall time
            if seq in gone:
                wrong[seq] = event
            else:
                yield seq, wall, event

    report = build_report(
        store.name, members, store.profile(), items(), scenario=scenario,
        marshals=marshal_names(devs), engine_sides=engine_sides(store, members, devs),
        total=store.log.count(), progress=progress, retracted=wrong,
    )
    fm = report.field_map = field_map(store, scenario, progress=progress)     # a game with a map: its map page
    report.coverage = coverage_page(store, fm)          # a game heard by radio: its coverage page
    # STOPPs and siege engines placed in the field map's words: its nearest named feature and grid square.
    places, grid, source = (fm.places, fm.grid, fm.source) if fm is not None else (stored_places(store), None, None)
    for row in (*report.stopps, *report.siege_losses):
        row.place = place_text(places, grid, source, row.lat, row.lon)
    return report


def scenario_names(store: GameStore) -> list[str]:
    """The names of the scenarios the game started, in order, each once."""
    q = sa.select(EVENTS.c.seq, EVENTS.c.payload).where(EVENTS.c.type == "scenario_started").order_by(EVENTS.c.seq)
    gone = store.retracted()
    with store.engine.connect() as conn:
        names = (json.loads(payload).get("name", "") for seq, payload in conn.execute(q) if seq not in gone)
        return list(dict.fromkeys(n for n in names if n))
