"""The observed coverage of a stored game: its log's radio frames folded into coverage rows (geo/coverage.py).

The coverage layer is kept in no table of its own: it is the fold of what the
log holds of every radio frame (device, counter, each gateway's signal), of
the positions reported and of the frames found to need retries, in the order
they were stored.  What the window shows live, a replay at any moment, the
export and the report's page all read it here.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import sqlalchemy as sa

from controlroom.game.devices import RadioMeta
from controlroom.geo.coverage import CoverageFold, CoverageRows, anchor_for
from controlroom.store.eventlog import EVENTS
from controlroom.store.game import GameStore

__all__ = ["coverage_rows", "coverage_anchor"]

_PAYLOAD_TYPES = ("position", "radio_retried")


def coverage_anchor(store: GameStore) -> tuple[float, float] | None:
    """The grid's anchor: the game's first position report (in log order), rounded; None before one."""
    c = EVENTS.c
    q = sa.select(c.payload).where(c.type == "position").order_by(c.seq).limit(50)
    with store.engine.connect() as conn:
        for (payload,) in conn.execute(q):
            try:
                data = json.loads(payload)
            except ValueError:
                continue
            if data.get("lat") is not None and data.get("lon") is not None:
                return anchor_for(float(data["lat"]), float(data["lon"]))
    return None


def coverage_rows(store: GameStore, upto: int | None = None, after: int = 0,
                  progress: Callable[[int, int], bool] | None = None) -> CoverageRows:
    """The coverage rows of the game's events stored after ``after`` up to seq ``upto`` (None: all).

    Rows come only from radio frames (a retry marks a frame's cell): a log
    without any is answered from the index of (device, counter), not by
    reading the whole log twice (the anchor's query and the fold's).
    """
    c = EVENTS.c
    with store.engine.connect() as conn:     # (no seq range here: SQLite would walk the range, not the index)
        if conn.execute(sa.select(c.device).where(c.device.is_not(None)).limit(1)).first() is None:
            return CoverageRows.empty()
    cond = sa.and_(c.seq > int(after), sa.or_(c.device.is_not(None), c.type == "radio_retried"))
    if upto is not None:
        cond = sa.and_(cond, c.seq <= int(upto))
    q = (sa.select(c.seq, c.t, c.source, c.type, c.payload, c.device, c.counter, c.rssi, c.snr, c.gateways, c.via,
                   c.signals).where(cond).order_by(c.seq))
    fold = CoverageFold(coverage_anchor(store))
    total = store.log.count() if progress is not None else 0
    with store.engine.connect() as conn:
        for i, r in enumerate(conn.execution_options(yield_per=5000).execute(q)):
            seq, t, source, type_, payload, device, counter, rssi, snr, gateways, via, signals = r
            data = _data(payload) if type_ in _PAYLOAD_TYPES else {}
            radio = None
            if device is not None:
                radio = RadioMeta(device, counter, rssi, snr, tuple(gateways.split(",")) if gateways else (), via,
                                  signals)
            fold.add(t, source, type_, data, radio)
            if progress is not None and i % 5000 == 0 and not progress(seq, total):
                break
    return fold.take()


def _data(payload: str) -> dict:
    try:
        data = json.loads(payload)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
