"""What the report and the GIS export both read of a stored game besides its fold: who carries each
device, and every event's wall time."""

from __future__ import annotations

import sqlalchemy as sa

from controlroom.game.devices import DeviceInfo
from controlroom.store.eventlog import EVENTS
from controlroom.store.game import GameStore


def marshal_names(devs: dict[int, DeviceInfo]) -> dict[int, str]:
    """What names each radio device, by device id: who carries a handset (the marshal's name, else the
    device's label); what a tracker is on (its siege engine or group, else its label).  Names of the game's
    own, never words of a language: the report says "marshal handset", "tracker" in its language
    (``model.reporter``)."""
    out = {}
    for d in devs.values():
        name = (d.marshal or d.label) if d.role != "tracker" else (d.siege_engine or d.group or d.label)
        if name:
            out[d.id] = name
    return out


def _walls(store: GameStore):
    """The wall time of every stored event, in log order (read beside the log's fast path)."""
    q = sa.select(EVENTS.c.wall).order_by(EVENTS.c.seq)
    with store.engine.connect() as conn:
        result = conn.execution_options(yield_per=20_000).execute(q)
        try:
            for (wall,) in result:
                yield wall
        finally:
            result.close()
