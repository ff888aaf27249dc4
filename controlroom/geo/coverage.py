"""Observed radio coverage: what each stored frame says about the cell of the field it was sent from.

A fold of the event log, in the order the events were stored (seq), so that
the live station, a station opening the game again and a replay make the
same rows.  For every authenticated radio frame from a source whose position
is recent (its own position report, or one of the last two minutes) it adds
rows to the frame's cell of the grid (``CELL_M`` squares in the ``MapFrame``
anchored on the game's first position, projected by ``geo.tmerc`` without
PROJ: the engine's thread folds it):

- ``FRAME``: a frame was sent from the cell;
- ``HEARD``: gateway ``gw`` heard it, with its SNR and RSSI (the stored
  per-gateway signals; for frames stored before those were kept, the best
  signal for each gateway that heard it);
- ``RETRIED``: the frame needed retries (a ``radio_retried`` event);
- ``MISSED``: ``n`` frames of the device never came (a gap in its counters
  since its last frame, put in the cell that frame came from; -1 when a
  missing frame arrives after all).

Plain values in (the duck-typed event and radio metadata of ``game``),
numpy rows out (``CoverageRows``); no Qt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from controlroom.geo.tmerc import LocalTM

__all__ = ["CELL_M", "FRESH_MS", "FRAME", "HEARD", "RETRIED", "MISSED", "ROW", "UNACKED", "CoverageRows",
           "CoverageFold", "anchor_for"]

CELL_M = 25.0               # the side of a cell, metres
FRESH_MS = 120_000          # a position this recent (game time) stands for where a frame was sent from
MAX_GAP = 64                # a larger jump of a device's counter is a restart (it skips up to 256), not losses
REMEMBER = 4096             # at most this many frames remembered per device for their retries and late arrivals
# Events of frames that want no acknowledgement: a handset never retries them (radio/codec.py TYPES), so their
# cells are not remembered for retries (trackers' positions: most frames of a game).
UNACKED = frozenset({"position", "heartbeat", "headcount", "siege_status", "message"})
HOLD_MS = 1_800_000         # and only those of the last 30 to 60 game minutes (a handset retries for 30: the radio's
                            # RETRY_WINDOW_MS), kept in two generations: the current half hour's and the one before
FRAME, HEARD, RETRIED, MISSED = 0, 1, 2, 3
ROW = np.dtype([("t", "i8"), ("kind", "i1"), ("ix", "i4"), ("iy", "i4"), ("gw", "i2"), ("snr", "f4"),
                ("rssi", "f4"), ("n", "i4")])
_NAN = float("nan")


def anchor_for(lat: float, lon: float) -> tuple[float, float]:
    """The grid's anchor for a game first heard at (lat, lon): rounded to 0.01 degree, so a grid is recognisable."""
    return round(lat, 2), round(lon, 2)


@dataclass(frozen=True)
class CoverageRows:
    """Rows of the coverage fold, with the gateway names their ``gw`` numbers index and the grid's anchor."""

    rows: np.ndarray                    # of ROW
    gateways: tuple[str, ...]
    anchor: tuple[float, float] | None  # (lat, lon) of the grid's frame; None before the first position

    def __len__(self) -> int:
        return len(self.rows)

    @staticmethod
    def empty() -> CoverageRows:
        return CoverageRows(np.empty(0, ROW), (), None)

    def until(self, t: int) -> CoverageRows:
        """The rows of the events up to game time ``t`` (a replay's moment)."""
        return CoverageRows(self.rows[self.rows["t"] <= t], self.gateways, self.anchor)


class CoverageFold:
    """Folds stored events into coverage rows; ``take()`` hands over the rows made since the last take."""

    def __init__(self, anchor: tuple[float, float] | None = None, fresh_ms: int = FRESH_MS) -> None:
        self.fresh_ms = fresh_ms
        self.anchor: tuple[float, float] | None = None
        self.tm: LocalTM | None = None
        self.gateways: list[str] = []
        self._gw: dict[str, int] = {}
        self._where: dict[str, tuple] = {}      # source -> (t, lat, lon, ix, iy) of its last position
        self._last: dict[int, tuple] = {}       # device -> (counter, ix, iy) of its highest frame
        self._cells: dict[int, dict] = {}       # device -> {counter: (ix, iy)} of its recent reports (retries)
        self._missing: dict[int, dict] = {}     # device -> {counter: (ix, iy)} counted missing
        self._retried: set[tuple[int, int]] = set()
        self._before: tuple[dict, dict, set] = ({}, {}, set())   # the three above, of the generation before
        self._turn_at: int | None = None        # the game time at which the current generation becomes old
        self._rows: list[tuple] = []
        self.frames = 0                         # radio frames folded, placed or not
        if anchor is not None:
            self._anchor(*anchor)

    # -- the grid ---------------------------------------------------------------------------
    def _anchor(self, lat: float, lon: float) -> None:
        self.anchor = (float(lat), float(lon))
        self.tm = LocalTM(*self.anchor)

    def cell(self, lat: float, lon: float) -> tuple[int, int]:
        """The cell (column east, row north) of a GPS position; the first position anchors the grid."""
        if self.tm is None:
            self._anchor(*anchor_for(lat, lon))
        assert self.tm is not None
        x, y = self.tm.forward(lat, lon)
        return math.floor(x / CELL_M), math.floor(y / CELL_M)

    def _gateway(self, name: str) -> int:
        i = self._gw.get(name)
        if i is None:
            i = self._gw[name] = len(self.gateways)
            self.gateways.append(name)
        return i

    # -- folding ---------------------------------------------------------------------------------
    def add(self, t: int, source: str, type_: str, data, radio) -> None:
        """One stored event (``radio``: its RadioMeta or None), in the order it was stored."""
        if self._turn_at is None or t >= self._turn_at:
            self._turn(t)
        if type_ == "radio_retried":
            self._retry(t, data)
            return
        if radio is None or radio.via is not None:
            return                      # not a frame of ours (a game master's entry, a Meshtastic packet)
        self.frames += 1
        if type_ == "position":
            lat, lon = data.get("lat"), data.get("lon")
            if lat is not None and lon is not None:
                was = self._where.get(source)
                if was is not None and was[1] == lat and was[2] == lon:
                    self._where[source] = (t, lat, lon, was[3], was[4])
                else:
                    self._where[source] = (t, lat, lon, *self.cell(lat, lon))
        where = self._where.get(source)
        cell = None if where is None or abs(t - where[0]) > self.fresh_ms else (where[3], where[4])
        self._gaps(t, radio.device, radio.counter, cell)
        if cell is None:
            return
        ix, iy = cell
        rows = self._rows
        rows.append((t, FRAME, ix, iy, -1, _NAN, _NAN, 1))
        signals = getattr(radio, "signals", None)
        if signals:
            for part in signals.split(","):
                gw, rssi, snr = part.split(":")
                rows.append((t, HEARD, ix, iy, self._gateway(gw), float(snr) if snr else _NAN,
                             float(rssi) if rssi else _NAN, 1))
        else:
            best = True
            for gw in radio.gateways:
                rows.append((t, HEARD, ix, iy, self._gateway(gw), _num(radio.snr) if best else _NAN,
                             _num(radio.rssi) if best else _NAN, 1))
                best = False
        if type_ in UNACKED:
            return
        known = self._cells.setdefault(radio.device, {})
        known[radio.counter] = cell
        if len(known) > REMEMBER:
            for old in sorted(known)[:len(known) - REMEMBER // 2]:
                del known[old]

    def _gaps(self, t: int, device: int, counter: int, cell) -> None:
        last = self._last.get(device)
        if last is None or counter > last[0]:
            if last is not None and 1 < counter - last[0] <= MAX_GAP + 1:
                where = (last[1], last[2]) if last[1] is not None else cell
                if where is not None:
                    self._rows.append((t, MISSED, where[0], where[1], -1, _NAN, _NAN, counter - last[0] - 1))
                    missing = self._missing.setdefault(device, {})
                    for c in range(last[0] + 1, counter):
                        missing[c] = where
                    if len(missing) > REMEMBER:
                        for old in sorted(missing)[:len(missing) - REMEMBER // 2]:
                            del missing[old]
            self._last[device] = (counter, *(cell if cell is not None else (None, None)))
            return
        found = self._missing.get(device, {}).pop(counter, None)
        if found is None:
            found = self._before[1].get(device, {}).pop(counter, None)
        if found is not None:           # a frame counted missing came after all (late, through a far gateway)
            self._rows.append((t, MISSED, found[0], found[1], -1, _NAN, _NAN, -1))

    def _retry(self, t: int, data) -> None:
        key = (data.get("device"), data.get("counter"))
        if key in self._retried or key in self._before[2]:
            return                      # (another station stored it too)
        cell = self.cell_of(*key)
        if cell is not None:
            self._retried.add(key)
            self._rows.append((t, RETRIED, cell[0], cell[1], -1, _NAN, _NAN, 1))

    def cell_of(self, device: int, counter: int) -> tuple[int, int] | None:
        """Where a folded report (a frame that wants an acknowledgement) was sent from (None: not placed, not
        a report, or forgotten: sent over HOLD_MS before the newest event folded)."""
        cell = self._cells.get(device, {}).get(counter)
        return cell if cell is not None else self._before[0].get(device, {}).get(counter)

    def retried(self, device: int, counter: int) -> bool:
        return (device, counter) in self._retried or (device, counter) in self._before[2]

    def _turn(self, t: int) -> None:
        """A new generation from game time ``t`` on (at the first event, and once HOLD_MS have passed since the
        last turn): what was current becomes the generation before, and the one before that is forgotten. Each
        turn depends only on the events' times in the order they were stored: a fold of the same log forgets the
        same frames."""
        if self._turn_at is not None:
            self._before = (self._cells, self._missing, self._retried)
            self._cells, self._missing, self._retried = {}, {}, set()
        self._turn_at = (t // HOLD_MS + 1) * HOLD_MS

    def seed(self, positions) -> None:
        """Where sources were when a game was opened (``GameState.positions``: source -> (t, lat, lon, ...))."""
        for source, (t, lat, lon, *_rest) in positions.items():
            if lat is not None and lon is not None and source not in self._where:
                self._where[source] = (t, lat, lon, *self.cell(lat, lon))

    def seed_counters(self, highest) -> None:
        """Each device's highest counter stored when a game was opened (``Ingest.highest``): frames it sent
        meanwhile that never came count as missing."""
        for device, counter in highest.items():
            self._last.setdefault(device, (counter, None, None))

    def take(self) -> CoverageRows:
        """The rows made since the last take (an empty set of rows when none)."""
        rows, self._rows = self._rows, []
        array = np.array(rows, dtype=ROW) if rows else np.empty(0, ROW)
        return CoverageRows(array, tuple(self.gateways), self.anchor)


def _num(value) -> float:
    return _NAN if value is None else float(value)
