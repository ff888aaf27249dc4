"""The game's map and gateway ports, kept in the game so that opening it again brings them back."""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from controlroom.store.engine import writing
from controlroom.store.errors import StoreError, explain
from controlroom.store.game import GameStore
from controlroom.store.models import MapRow, table_of

__all__ = ["StoredMap", "save_map", "current_map", "map_file", "save_ports", "stored_ports", "save_places",
           "stored_places", "MAX_MAP_BYTES"]

MAPS = table_of(MapRow)
PORTS_KEY = "gateway_ports"
#: SQLite and PostgreSQL both refuse a single value of a gigabyte: a map must stay below this.
MAX_MAP_BYTES = 900 * 2**20


@dataclass(frozen=True)
class StoredMap:
    """A map kept in a game (without its bytes: :func:`map_file` brings those)."""

    id: int
    name: str               # the file's name when it was added, "field.png"
    kind: str               # "image", "geotiff" or "mbtiles"
    crs: str                # WKT
    world: tuple[float, float, float, float, float, float]   # A, D, B, E, C, F
    width: int
    height: int
    sha256: str
    size: int
    added: int              # ms since 1970


def save_map(store: GameStore, path: str | os.PathLike, kind: str, crs_wkt: str, world, width: int,
             height: int) -> StoredMap:
    """Keep a map file in the game with its georeference; it becomes the game's map."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_MAP_BYTES:
        raise StoreError(f"{path.name} is {len(data) / 2**20:,.0f} MB: a map kept in a game must be under "
                         f"{MAX_MAP_BYTES // 2**20} MB (cut it to the field, or make MBTiles of fewer zoom levels)")
    values = dict(name=path.name[:255], kind=kind, crs=crs_wkt, world=json.dumps([float(v) for v in world]),
                  width=int(width), height=int(height), sha256=hashlib.sha256(data).hexdigest(), data=data,
                  added=int(time.time() * 1000))
    kept = current_map(store)
    if kept is not None and (kept.sha256, kept.crs, kept.world, kept.kind) == (
            values["sha256"], crs_wkt, tuple(float(v) for v in world), kind):
        return kept                     # the same map, placed the same way: kept once
    try:
        with writing(store.engine).begin() as conn:
            new_id = conn.execute(sa.insert(MAPS).values(**values).returning(MAPS.c.id)).scalar_one()
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where, store.log.path)) from exc
    saved = current_map(store)
    if new_id is None or saved is None:     # (the map just stored is the current one)
        raise StoreError(f"{path.name}: the map was not kept in {store.where}")
    return saved


def current_map(store: GameStore) -> StoredMap | None:
    """The game's map (the one added last), or None."""
    c = MAPS.c
    q = (sa.select(c.id, c.name, c.kind, c.crs, c.world, c.width, c.height, c.sha256, sa.func.length(c.data), c.added)
         .order_by(c.id.desc()).limit(1))
    try:
        with store.engine.connect() as conn:
            row = conn.execute(q).first()
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where, store.log.path)) from exc
    if row is None:
        return None
    try:
        world = tuple(float(v) for v in json.loads(row.world))
        if len(world) != 6:
            raise ValueError
    except (TypeError, ValueError):
        raise StoreError(f"{store.where}: the placement of its map {row.name} is damaged") from None
    return StoredMap(row.id, row.name, row.kind, row.crs, world, row.width, row.height, row.sha256, int(row[8]),
                     row.added)


def map_file(store: GameStore, stored: StoredMap, folder: str | os.PathLike) -> Path:
    """The map's file, written once into ``folder`` (under its checksum) and reused after that."""
    target = Path(folder) / stored.sha256[:16] / stored.name
    if target.is_file() and target.stat().st_size == stored.size:
        return target
    try:
        with store.engine.connect() as conn:
            data = conn.execute(sa.select(MAPS.c.data).where(MAPS.c.id == stored.id)).scalar_one()
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where, store.log.path)) from exc
    data = bytes(data)
    if hashlib.sha256(data).hexdigest() != stored.sha256:
        raise StoreError(f"{store.where}: its map {stored.name} is damaged (its checksum does not match)")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, target)
    return target


def save_ports(store: GameStore, ports: list[str]) -> None:
    """The gateways' serial ports this game was last run with."""
    store.set_meta(PORTS_KEY, json.dumps(list(ports)))


def stored_ports(store: GameStore) -> list[str]:
    """The gateways' serial ports kept with the game ([] when none)."""
    try:
        value = json.loads(store.meta(PORTS_KEY) or "[]")
    except ValueError:
        return []
    return [str(p) for p in value if isinstance(p, str) and p] if isinstance(value, list) else []


PLACES_KEY = "field_places"


def save_places(store: GameStore, places) -> None:
    """The field map's named features (controlroom.geo.places.Place), kept with the game."""
    from controlroom.geo.places import places_to_json

    store.set_meta(PLACES_KEY, places_to_json(places))


def stored_places(store: GameStore) -> list:
    """The field map's named features kept with the game ([] when none)."""
    from controlroom.geo.places import places_from_json

    return places_from_json(store.meta(PLACES_KEY))
