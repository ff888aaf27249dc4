"""A stored game opened for a replay: read once, read-only, into a Seeker (game/seek.py).

Nothing is written to the game: the file is opened read-only (a database
server with a read-only transaction's worth of SELECTs), so a replay may run
beside the live game, on the same file or database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from controlroom.game.seek import DEFAULT_EVERY, Seeker
from controlroom.game.state import GameState
from controlroom.geo.coverage import CoverageRows
from controlroom.paths import data_dir
from controlroom.rules.profile import RulesProfile
from controlroom.store.coverage_log import coverage_rows
from controlroom.store.devices import devices
from controlroom.store.engine import database_url, describe, make_engine
from controlroom.store.errors import SchemaTooNew, StoreError, explain
from controlroom.store.game import GameStore
from controlroom.store.maps import StoredMap, current_map, map_file
from controlroom.store.migrations import LATEST, schema_version


def open_read_only(db: str | Path) -> GameStore:
    """A game opened only to read: a file as ``GameStore.open(read_only=True)`` opens it; a database
    server's game in read-only transactions, so that not even an upgrade is written (StoreError if one is due).
    """
    if make_url(database_url(db)).get_backend_name() == "sqlite":
        return GameStore.open(db, create=False, read_only=True)
    engine = make_engine(db)
    where = describe(str(engine.url))

    def read_only(dbapi_conn, _record) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        cur.close()
        dbapi_conn.commit()

    sa.event.listen(engine, "connect", read_only)
    try:
        with engine.connect() as conn:
            version = schema_version(conn)
    except DBAPIError as exc:
        engine.dispose()
        raise StoreError(explain(exc, where, None)) from exc
    if version != LATEST:
        engine.dispose()
        if version == 0:
            raise StoreError(f"{where} holds no game")
        if version > LATEST:
            raise SchemaTooNew(f"{where} was written by a newer controlroom (schema {version}; this version knows "
                               f"up to {LATEST}); it was not changed.")
        raise StoreError(f"{where} was written by an older controlroom: open it once in the control room, "
                         "which upgrades it, then replay it; it was not changed.")
    return GameStore(engine, where)


@dataclass(slots=True)
class ReplayGame:
    """What a replay needs of a stored game: its seeker, devices and map."""

    seeker: Seeker
    name: str
    where: str
    devices: dict[str, dict] = field(default_factory=dict)    # source -> {"role", "label", "group", "engine"}
    map: StoredMap | None = None
    map_path: Path | None = None
    map_problem: str = ""
    coverage: CoverageRows = field(default_factory=CoverageRows.empty)     # the radio coverage observed, all rows


def open_replay(db: str | Path, every: int = DEFAULT_EVERY, profile: RulesProfile | None = None,
                maps_folder: Path | None = None) -> ReplayGame:
    """Read a stored game for a replay (StoreError says what is wrong, in words).

    The map kept with the game is written to ``maps_folder`` (this laptop's
    data folder by default), never into the game.
    """
    from controlroom.store.errors import StoreError

    with open_read_only(db) as store:
        base = GameState(store.roster(), profile or store.profile())
        seeker = Seeker(base, store.log.rows(), store.retracted(), every=every, name=store.name)
        known = {d.source: {"role": d.role, "label": d.label, "group": d.group, "engine": d.siege_engine}
                 for d in devices(store).values()}
        game = ReplayGame(seeker, store.name, store.where, known, coverage=coverage_rows(store))
        try:
            game.map = current_map(store)
            if game.map is not None:
                game.map_path = map_file(store, game.map, maps_folder or data_dir() / "maps")
        except (StoreError, OSError) as exc:
            game.map_problem = str(exc)
    return game
