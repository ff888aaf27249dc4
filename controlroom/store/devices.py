"""Radio devices of a game: marshal handsets, trackers and gateways, each with its own key."""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from controlroom.game.devices import BOARDS, ROLES, DeviceInfo, node_id
from controlroom.store.engine import writing
from controlroom.store.errors import StoreError, explain
from controlroom.store.game import GameStore
from controlroom.store.models import Device, Group, Marshal, SiegeEngineRow, table_of

KEY_BYTES = 16


def _check(device_id: int, role: str) -> None:
    if isinstance(device_id, bool) or not isinstance(device_id, int) or not 1 <= device_id <= 0xFFFE:
        raise StoreError(f"a device id is a number from 1 to 65534, not {device_id!r}")
    if role not in ROLES:
        raise StoreError(f"unknown device role {role!r} (roles: {', '.join(ROLES)})")


def devices(store: GameStore) -> dict[int, DeviceInfo]:
    """Every device of the game, by id, with keys (for the radio ingest only)."""
    d, g, s, m = table_of(Device).c, table_of(Group).c, table_of(SiegeEngineRow).c, table_of(Marshal).c
    q = (
        sa.select(d.id, d.role, d.label, g.name, s.name, m.name, d.key_hex, d.meshtastic, d.tak_uid, d.tak_callsign,
                  d.board)
        .select_from(table_of(Device))
        .outerjoin(table_of(Group), d.group_id == g.id)
        .outerjoin(table_of(SiegeEngineRow), d.siege_engine_id == s.id)
        .outerjoin(table_of(Marshal), d.marshal_id == m.id)
        .order_by(d.id)
    )
    with store.engine.connect() as conn:
        return {
            row[0]: DeviceInfo(row[0], row[1], row[2], row[3], row[4], row[5], bytes.fromhex(row[6]), row[7], row[8],
                               row[9], row[10])
            for row in conn.execute(q)
        }


def register_device(
    store: GameStore,
    device_id: int,
    role: str,
    label: str = "",
    group: str | None = None,
    siege_engine: str | None = None,
    marshal: str | None = None,
    key: bytes | None = None,
    replace_key: bool = False,
    meshtastic: str | int | None = None,
    tak_uid: str | None = None,
    tak_callsign: str | None = None,
    board: str | None = None,
) -> DeviceInfo:
    """Register a device with a fresh random key (or the given one); re-registering keeps its key.

    ``meshtastic``: the stock Meshtastic node the device is (``!a1b2c3d4``);
    ``tak_uid`` / ``tak_callsign``: the TAK phone a marshal carries, by the uid
    of its Cursor-on-Target or by its callsign.  Re-registering without them
    keeps what the device had; ``board`` (game.devices.BOARDS) likewise.
    """
    _check(device_id, role)
    tak_uid, tak_callsign = _tak_names(role, tak_uid, tak_callsign)
    node: str | None = None             # the Meshtastic node, in its usual spelling
    if meshtastic is not None:
        if role == "gateway":
            raise StoreError("a Meshtastic node is registered as a marshal or a tracker; a node plugged into "
                             "the laptop needs no registration (--port meshtastic:PORT)")
        try:
            node = node_id(meshtastic)
        except ValueError as exc:
            raise StoreError(str(exc)) from None
    if board is not None and board not in BOARDS:
        raise StoreError(f"unknown board {board!r} (boards: {', '.join(BOARDS)})")
    if key is not None and len(key) != KEY_BYTES:
        raise StoreError(f"a device key is {KEY_BYTES} bytes, not {len(key)}")
    try:
        with writing(store.engine).begin() as conn:
            group_id = engine_id = marshal_id = None
            if group is not None:
                t = table_of(Group)
                group_id = conn.execute(sa.select(t.c.id).where(t.c.name == group)).scalar()
                if group_id is None:
                    raise StoreError(f"no group {group!r} in the roster")
            if siege_engine is not None:
                t = table_of(SiegeEngineRow)
                engine_id = conn.execute(sa.select(t.c.id).where(t.c.name == siege_engine)).scalar()
                if engine_id is None:
                    engine_id = conn.execute(sa.insert(t).values(name=siege_engine).returning(t.c.id)).scalar()
            if marshal is not None:
                t = table_of(Marshal)
                marshal_id = conn.execute(sa.select(t.c.id).where(t.c.name == marshal)).scalar()
                if marshal_id is None:
                    marshal_id = conn.execute(sa.insert(t).values(name=marshal).returning(t.c.id)).scalar()
            t = table_of(Device)
            row = conn.execute(sa.select(t.c.key_hex, t.c.meshtastic, t.c.tak_uid, t.c.tak_callsign, t.c.board)
                               .where(t.c.id == device_id)).first()
            old = row[0] if row else None
            if key is None:
                key = bytes.fromhex(old) if old and not replace_key else secrets.token_bytes(KEY_BYTES)
            if node is None and row is not None:
                node = row[1]
            elif node is not None:
                other = conn.execute(sa.select(t.c.id).where(t.c.meshtastic == node,
                                                             t.c.id != device_id)).scalar()
                if other is not None:
                    raise StoreError(f"Meshtastic node {node} is device {other} already")
            if row is not None:
                tak_uid = tak_uid if tak_uid is not None else row[2]
                tak_callsign = tak_callsign if tak_callsign is not None else row[3]
                board = board if board is not None else row[4]
            for column, value, what in ((t.c.tak_uid, tak_uid, "TAK uid"), (t.c.tak_callsign, tak_callsign,
                                                                            "TAK callsign")):
                if value is not None:
                    other = conn.execute(sa.select(t.c.id).where(column == value, t.c.id != device_id)).scalar()
                    if other is not None:
                        raise StoreError(f"{what} {value!r} is device {other} already")
            values = dict(role=role, label=label, group_id=group_id, siege_engine_id=engine_id,
                          marshal_id=marshal_id, key_hex=key.hex(), meshtastic=node, tak_uid=tak_uid,
                          tak_callsign=tak_callsign, board=board)
            if old is None:
                conn.execute(sa.insert(t).values(id=device_id, **values))
            else:
                conn.execute(sa.update(t).where(t.c.id == device_id).values(**values))
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where, store.log.path)) from exc
    return DeviceInfo(device_id, role, label, group, siege_engine, marshal, key, node, tak_uid, tak_callsign,
                      board)


def _tak_names(role: str, uid: str | None, callsign: str | None) -> tuple[str | None, str | None]:
    """The TAK uid and callsign as stored (trimmed), or StoreError saying what is wrong with them."""
    out: list[str | None] = []
    for value, what, most in ((uid, "a TAK uid", 100), (callsign, "a TAK callsign", 64)):
        if value is None:
            out.append(None)
            continue
        text = str(value).strip()
        if not text or len(text) > most or any(ord(c) < 32 for c in text):
            raise StoreError(f"{what} is 1 to {most} printable characters, not {value!r}")
        out.append(text)
    if (out[0] or out[1]) and role != "marshal":
        raise StoreError("a TAK phone is registered as a marshal's (--role marshal): its positions show the "
                         "marshal on the map")
    return out[0], out[1]
