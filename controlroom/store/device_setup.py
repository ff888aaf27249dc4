"""A game's devices set up in bulk: a device list stored at once, each one's readiness, its provisioning kept.

``import_devices`` stores a checked device list (``game.device_list``) in one
transaction: a new device gets a fresh random key, one registered before
keeps its key (its board stays provisioned); what only the game can say
(an unknown group, a Meshtastic node another device has) is a problem of the
line that says it, and nothing is stored while one stands.
``device_status`` says of every device what the record knows: registered,
provisioned (as the board confirmed it), heard (its first authenticated
frame), its battery and signal as last stored.  No key leaves this module
but through ``store.devices.devices`` (for the radio and for provisioning).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from controlroom.game.device_list import DeviceEntry
from controlroom.game.devices import key_fingerprint
from controlroom.game.table_file import at_line
from controlroom.i18n import translate
from controlroom.store.engine import writing
from controlroom.store.errors import StoreError, explain
from controlroom.store.game import GameStore
from controlroom.store.models import Device, EventRow, Group, Marshal, ProvisioningRow, SiegeEngineRow, table_of

KEY_BYTES = 16
PROVISIONED, FAILED = "provisioned", "failed"


class DeviceImportError(StoreError):
    """Every problem the game found in a device list, by line; nothing was stored."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class ImportChange(NamedTuple):
    added: int
    updated: int
    unchanged: int


class Provisioning(NamedTuple):
    """A device's last provisioning: "provisioned" (the board's firmware and key fingerprint) or "failed"."""

    state: str
    firmware: str | None
    fingerprint: str | None
    detail: str
    port: str
    at: int                              # unix ms


class Heard(NamedTuple):
    """A frame of a device's as stored: game ms, wall ms, signal, the gateways that heard it."""

    t: int
    wall: int
    rssi: float | None
    snr: float | None
    gateways: tuple[str, ...]


@dataclass(frozen=True)
class DeviceStatus:
    """One device as the record knows it (no key: its fingerprint only)."""

    id: int
    role: str
    label: str
    group: str | None
    engine: str | None
    marshal: str | None
    badge: int | None
    board: str | None
    meshtastic: str | None
    fingerprint: str                     # of the key it has now
    provisioning: Provisioning | None = None
    first: Heard | None = None           # its first authenticated frame stored
    last: Heard | None = None            # its last one
    frames: int = 0
    battery: int | None = None           # as its last position or heartbeat said

    @property
    def provisioned(self) -> bool:
        """Provisioned, and with the key the device has now (a new key needs a new provisioning)."""
        p = self.provisioning
        return p is not None and p.state == PROVISIONED and p.fingerprint == self.fingerprint

    def to_dict(self) -> dict:
        p = self.provisioning
        return {"id": self.id, "role": self.role, "label": self.label, "group": self.group, "engine": self.engine,
                "marshal": self.marshal, "badge": self.badge, "board": self.board, "meshtastic": self.meshtastic,
                "key_fingerprint": self.fingerprint, "provisioned": self.provisioned,
                "provisioning": None if p is None else p._asdict(),
                "first_heard": None if self.first is None else self.first._asdict(),
                "last_heard": None if self.last is None else self.last._asdict(),
                "frames": self.frames, "battery": self.battery}


def _ids(conn, table, names: Iterable[str]) -> dict[str, int]:
    names = set(names)
    if not names:
        return {}
    return dict(conn.execute(sa.select(table.c.name, table.c.id).where(table.c.name.in_(names))).all())


def import_devices(store: GameStore, entries: list[DeviceEntry]) -> ImportChange:
    """Store every device of the list in one transaction (DeviceImportError: nothing was stored)."""
    d, m, e = table_of(Device), table_of(Marshal), table_of(SiegeEngineRow)
    added = updated = unchanged = 0
    try:
        with writing(store.engine).begin() as conn:
            groups = _ids(conn, table_of(Group), (x.group for x in entries if x.group))
            problems = [at_line(x.line, translate("devices", "unknown group {group}: import the roster with it "
                                                              "first").format(group=repr(x.group)))
                        for x in entries if x.group and x.group not in groups]
            listed = {x.id for x in entries}
            held = dict(conn.execute(sa.select(d.c.meshtastic, d.c.id).where(d.c.meshtastic.is_not(None))).all())
            for x in entries:
                other = held.get(x.meshtastic)
                if x.meshtastic and other is not None and other not in listed:
                    problems.append(at_line(x.line, translate("devices", "Meshtastic node {node} is device {other} "
                                                                        "already").format(node=x.meshtastic,
                                                                                          other=other)))
            if problems:
                raise DeviceImportError(problems)
            engines = _ids(conn, e, (x.engine for x in entries if x.engine))
            for name in sorted({x.engine for x in entries if x.engine} - set(engines)):
                engines[name] = conn.execute(sa.insert(e).values(name=name).returning(e.c.id)).scalar_one()
            marshals = {name: (mid, badge) for name, mid, badge in
                        conn.execute(sa.select(m.c.name, m.c.id, m.c.badge)).all()}
            for x in entries:
                if not x.marshal:
                    continue
                if x.marshal not in marshals:
                    mid = conn.execute(sa.insert(m).values(name=x.marshal, badge=x.badge).returning(m.c.id)).scalar()
                    marshals[x.marshal] = (mid, x.badge)
                elif x.badge is not None and marshals[x.marshal][1] != x.badge:
                    conn.execute(sa.update(m).where(m.c.id == marshals[x.marshal][0]).values(badge=x.badge))
                    marshals[x.marshal] = (marshals[x.marshal][0], x.badge)
            old = {row.id: row for row in conn.execute(sa.select(d).where(d.c.id.in_(listed)))}
            # Nodes move between listed devices: clear them first, so that the unique column never sees two.
            moving = [x.id for x in entries if x.id in old and old[x.id].meshtastic != x.meshtastic]
            if moving:
                conn.execute(sa.update(d).where(d.c.id.in_(moving)).values(meshtastic=None))
            for x in entries:
                values = dict(role=x.role, label=x.label, group_id=groups.get(x.group) if x.group else None,
                              siege_engine_id=engines.get(x.engine) if x.engine else None,
                              marshal_id=marshals[x.marshal][0] if x.marshal else None, meshtastic=x.meshtastic,
                              board=x.board)
                row = old.get(x.id)
                if row is None:
                    conn.execute(sa.insert(d).values(id=x.id, key_hex=secrets.token_bytes(KEY_BYTES).hex(), **values))
                    added += 1
                elif any(getattr(row, k) != v for k, v in values.items()):
                    conn.execute(sa.update(d).where(d.c.id == x.id).values(**values))
                    updated += 1
                else:
                    unchanged += 1
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where, store.log.path)) from exc
    return ImportChange(added, updated, unchanged)


def record_provisioning(store: GameStore, device: int, state: str, firmware: str | None = None,
                        fingerprint: str | None = None, detail: str = "", port: str = "") -> Provisioning:
    """Keep what became of a device's provisioning (the last one replaces the one before)."""
    p = table_of(ProvisioningRow)
    kept = Provisioning(state, firmware, fingerprint, detail, port, int(time.time() * 1000))
    try:
        with writing(store.engine).begin() as conn:
            conn.execute(sa.delete(p).where(p.c.device == device))
            conn.execute(sa.insert(p).values(device=device, **kept._asdict()))
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where, store.log.path)) from exc
    return kept


def _heard(conn, seqs: list[int]) -> dict[int, tuple]:
    ev = table_of(EventRow).c
    if not seqs:
        return {}
    q = sa.select(ev.seq, ev.device, ev.t, ev.wall, ev.rssi, ev.snr, ev.gateways, ev.payload).where(ev.seq.in_(seqs))
    return {row[0]: tuple(row) for row in conn.execute(q)}


def device_status(store: GameStore) -> list[DeviceStatus]:
    """Every device, by id, with what the record knows of its readiness."""
    d, g, s, m, p = (table_of(Device), table_of(Group), table_of(SiegeEngineRow), table_of(Marshal),
                     table_of(ProvisioningRow))
    ev = table_of(EventRow).c
    q = (sa.select(d.c.id, d.c.role, d.c.label, g.c.name, s.c.name, m.c.name, m.c.badge, d.c.board, d.c.meshtastic,
                   d.c.key_hex, p.c.state, p.c.firmware, p.c.fingerprint, p.c.detail, p.c.port, p.c.at)
         .select_from(d).outerjoin(g, d.c.group_id == g.c.id).outerjoin(s, d.c.siege_engine_id == s.c.id)
         .outerjoin(m, d.c.marshal_id == m.c.id).outerjoin(p, p.c.device == d.c.id).order_by(d.c.id))
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(q).all()
            spans = {row[0]: row[1:] for row in conn.execute(
                sa.select(ev.device, sa.func.min(ev.seq), sa.func.max(ev.seq), sa.func.count())
                .where(ev.device.is_not(None)).group_by(ev.device))}
            powered = dict(conn.execute(
                sa.select(ev.device, sa.func.max(ev.seq)).where(ev.device.is_not(None),
                                                                ev.type.in_(("position", "heartbeat")))
                .group_by(ev.device)).all())
            found = _heard(conn, sorted({x for a, b, _n in spans.values() for x in (a, b)} | set(powered.values())))
    except DBAPIError as exc:
        raise StoreError(explain(exc, store.where, store.log.path)) from exc

    def heard(seq: int | None) -> Heard | None:
        row = found.get(seq) if seq is not None else None
        if row is None:
            return None
        _seq, _device, t, wall, rssi, snr, gateways, _payload = row
        return Heard(t, wall, rssi, snr, tuple(x for x in (gateways or "").split(",") if x))

    out = []
    for (dev, role, label, group, engine, marshal, badge, board, mesh, key_hex, state, firmware, fingerprint,
         detail, port, at) in rows:
        first, last, frames = spans.get(dev, (None, None, 0))
        battery = None
        if dev in powered and powered[dev] in found:
            battery = json.loads(found[powered[dev]][7]).get("battery")
        prov = None if state is None else Provisioning(state, firmware, fingerprint, detail, port, at)
        out.append(DeviceStatus(dev, role, label, group, engine, marshal, badge, board, mesh,
                                key_fingerprint(bytes.fromhex(key_hex)), prov, heard(first), heard(last), frames,
                                battery))
    return out


def next_unprovisioned(store: GameStore) -> int | None:
    """The lowest device id that has a board to provision and is not provisioned with its key now."""
    for status in device_status(store):
        if status.meshtastic is None and not status.provisioned:
            return status.id
    return None
