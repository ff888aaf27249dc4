"""The simulated battle's air by the coverage plan's propagation model: who hears a frame, and whose ack arrives.

The plan's ``RadioModel`` (Longley-Rice over a DEM, or free space) gives each
gateway's SNR in every cell of the simulated field, computed once; a frame
sent from a place is heard by a gateway when that SNR plus a slow fading
(normal, ``fading_db`` standard deviation, drawn per frame and gateway) is at
or above the spreading factor's floor.  An acknowledgement reaches the
handset the same way (the link is reciprocal).  So the plan, the simulated
battle and the observed layer can be set side by side.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from controlroom.geo.coverage_plan import Plan, make_plan
from controlroom.geo.frame import MapFrame
from controlroom.geo.propagation import SF_FLOOR_DB, Gateway, RadioModel
from controlroom.sim.battle import FIELD_X, FIELD_Y, M_PER_DEG, ORIGIN

__all__ = ["AirModel", "ring_gateways"]

FADING_DB = 4.0
CELL_M = 25.0
MARGIN_M = 150.0            # the plan reaches this far beyond the field (a stray attacker, a wandering group)
SNR_MAX = 12.5              # what a LoRa receiver reports at most


def latlon(origin: tuple[float, float], x: float, y: float) -> tuple[float, float]:
    """Degrees of metres east and north of ``origin``, as the battle writes positions (``to_latlon_e7``)."""
    lat0, lon0 = origin
    return lat0 + y / M_PER_DEG, lon0 + x / (M_PER_DEG * math.cos(math.radians(lat0)))


def ring_gateways(n: int, radius: float, origin: tuple[float, float] = ORIGIN, height_m: float = 2.0) -> list[Gateway]:
    """``n`` gateways on a circle around the origin, as the simulator places them without a plan."""
    out = []
    for i in range(n):
        a = 2 * math.pi * i / n - math.pi / 2
        lat, lon = latlon(origin, radius * math.cos(a), radius * math.sin(a))
        out.append(Gateway(lat, lon, height_m, f"gateway {i + 1}"))
    return out


@dataclass
class AirModel:
    """Each gateway's SNR over the simulated field, from a plan made once."""

    plan: Plan
    origin: tuple[float, float]
    fading_db: float = FADING_DB

    @classmethod
    def make(cls, model: RadioModel, gateways: list[Gateway], origin: tuple[float, float] = ORIGIN,
             fading_db: float = FADING_DB) -> AirModel:
        frame = MapFrame(*origin)
        bounds = (-FIELD_X - MARGIN_M, FIELD_Y + MARGIN_M, FIELD_X + MARGIN_M, -FIELD_Y - MARGIN_M)
        if model.dem is not None:
            lats, lons = frame.to_geographic([bounds[0], bounds[2], bounds[2], bounds[0]],
                                             [bounds[1], bounds[1], bounds[3], bounds[3]])
            model.dem.check_covers(list(lats) + [g.lat for g in gateways], list(lons) + [g.lon for g in gateways],
                                   "the simulated field and its gateways")
        return cls(make_plan(frame, bounds, gateways, model, CELL_M), origin, fading_db)

    @property
    def sf(self) -> int:
        return self.plan.model.sf

    @property
    def gateways(self) -> list[Gateway]:
        return self.plan.gateways

    def describe(self) -> str:
        return f"{self.plan.model.describe()}; fading {self.fading_db:g} dB"

    def _cell(self, xy) -> tuple[int, int]:
        lat, lon = latlon(self.origin, xy[0], xy[1])
        x, y = self.plan.frame.to_local(lat, lon)
        rows, cols = self.plan.shape
        col = min(max(int((x - self.plan.x0) // self.plan.cell_m), 0), cols - 1)
        row = min(max(int((self.plan.y0 - y) // self.plan.cell_m), 0), rows - 1)
        return row, col

    def margins(self, xy) -> np.ndarray:
        """Each gateway's predicted margin (dB) at a place of the field (metres east and north of the origin)."""
        row, col = self._cell(xy)
        return self.plan.margins[:, row, col]

    def hear(self, xy, rng: random.Random) -> list[tuple[int, int, float]]:
        """The gateways (0-based) that hear a frame sent from ``xy`` now, with the RSSI and SNR each reports."""
        floor = SF_FLOOR_DB[self.sf]
        noise = self.plan.model.noise_dbm
        out = []
        for g, margin in enumerate(self.margins(xy)):
            snr = float(margin) + floor + rng.gauss(0.0, self.fading_db)
            if snr >= floor:
                rssi = max(-137, min(-30, round(snr + noise)))
                out.append((g, rssi, round(min(SNR_MAX, snr), 2)))
        return out

    def reaches(self, g: int, xy, rng: random.Random) -> bool:
        """Whether gateway ``g``'s acknowledgement reaches a handset at ``xy`` (the same link, the other way)."""
        return float(self.margins(xy)[g]) + rng.gauss(0.0, self.fading_db) >= 0.0
