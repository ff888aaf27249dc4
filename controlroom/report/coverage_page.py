"""The report's radio coverage page: the observed cells (best gateway's margin), per gateway, where retries were.

The figures come from the log (``store.coverage_log``): the whole game's
coverage, whatever scenario the report is for (the radio does not care).
The cells are given as polygons in the map's pixels when the game keeps a
map the page can draw, else in the grid's own metres (north up).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from controlroom.geo.coverage import CELL_M
from controlroom.geo.coverage_cells import Cells
from controlroom.store.coverage_log import coverage_rows
from controlroom.store.game import GameStore

SF = 9              # the margins' spreading factor on the page (the gateways' usual setting)


@dataclass(slots=True)
class GatewayLine:
    name: str
    cells: int                  # cells it heard frames from
    frames: int                 # frames it heard
    mean_margin: float          # over those cells (dB)


@dataclass(slots=True)
class CoveragePage:
    """What the page draws and lists."""

    sf: int
    cells: int
    frames: int
    retried: int
    missed: int
    marked: int                 # cells where frames needed retries or went missing
    weak: int                   # cells whose best margin is under 5 dB
    # One entry a cell: (corners as four (x, y), margin dB or NaN, marked); in map pixels (``on_map``) or in
    # metres east/north of the grid's anchor.
    polygons: list[tuple] = field(default_factory=list)
    on_map: bool = False
    gateways: list[GatewayLine] = field(default_factory=list)


def coverage_page(store: GameStore, field_map=None, sf: int = SF) -> CoveragePage | None:
    """The page's figures; None when no frame came from a known position (nothing to show)."""
    cells = Cells.of(coverage_rows(store))
    if not len(cells) or cells.frame is None:
        return None
    best = cells.view(sf)
    page = CoveragePage(sf, len(cells), int(best.frames.sum()), int(best.retried.sum()),
                        int(max(0, best.missed.sum())), int(best.marked.sum()),
                        int(np.sum(~(best.margin >= 5.0))))
    for name in cells.gateways:
        v = cells.view(sf, name)
        heard = v.heard > 0
        page.gateways.append(GatewayLine(name, int(heard.sum()), int(v.heard.sum()),
                                         float(np.nanmean(v.margin[heard])) if heard.any() else float("nan")))
    x0, y0 = best.ix * CELL_M, best.iy * CELL_M
    corners = [(x0, y0), (x0 + CELL_M, y0), (x0 + CELL_M, y0 + CELL_M), (x0, y0 + CELL_M)]
    source = getattr(field_map, "source", None)
    if source is not None:
        frame = cells.frame
        placed = []
        for x, y in corners:
            lat, lon = frame.to_geographic(x, y)
            col, row = source.locate(lat, lon)
            placed.append((np.atleast_1d(col), np.atleast_1d(row)))
        page.on_map = True
        corners = placed
    for i in range(len(best)):
        quad = tuple((float(c[0][i]), float(c[1][i])) for c in corners)
        page.polygons.append((quad, float(best.margin[i]), bool(best.marked[i])))
    return page
