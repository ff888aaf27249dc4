"""Markers given to a pyqtgraph ScatterPlotItem in a few numpy operations, not a Python loop per marker.

``ScatterPlotItem.setData(x=..., y=..., brush=[...])`` looks every marker's
style up in the item's symbol atlas with a Python loop per marker (its
``setBrush`` maps each brush, the atlas builds a key per marker): 2,000
casualties took 15-30 ms of the GUI thread, once a second in a busy battle
(bench_map).  A layer's markers come in a handful of styles (a colour per side
or per condition), so :func:`fill_scatter` looks each *style* up once and
gives the markers their atlas place by numpy indexing: the same record array
``setData`` would build (tests/ui/test_map_scatter.py compares them field by
field and pixel by pixel).

It writes the item's record array itself, which is pyqtgraph's inside: when
the item is not laid out as expected (another pyqtgraph, a mode without the
atlas), it calls ``setData`` as before.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QBrush, QPen

#: The record fields fill_scatter writes; any other layout of pyqtgraph's records is left to setData.
_FIELDS = ("x", "y", "size", "symbol", "pen", "brush", "visible", "data", "hovered", "item", "sourceRect")


def _fast_path_holds(item: pg.ScatterPlotItem) -> bool:
    names = item.data.dtype.names or ()
    return (tuple(names) == _FIELDS and item.opts.get("pxMode") is True and item.opts.get("useCache") is True
            and hasattr(item, "fragmentAtlas"))


def fill_scatter(item: pg.ScatterPlotItem, xs: np.ndarray, ys: np.ndarray, brush: QBrush | list[QBrush],
                 pen: QPen, symbol: str, size: float) -> None:
    """What ``item.setData(x=xs, y=ys, data=np.arange(n), brush=brush, pen=pen, symbol=symbol, size=size)``
    does, with one atlas look-up per distinct brush (``brush``: one for all, or one per marker)."""
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys, dtype=float)
    if not _fast_path_holds(item):
        item.setData(x=xs, y=ys, data=np.arange(xs.size), brush=brush, pen=pen, symbol=symbol, size=size)
        return
    n = xs.size
    # The defaults every marker without a style of its own takes (setData sets them the same way).
    item.setPen(pen, update=False)
    item.setSymbol(symbol, update=False)
    item.setSize(size, update=False)
    records = np.empty(n, dtype=item.data.dtype)
    records["x"] = xs
    records["y"] = ys
    records["size"] = -1                # -1, None: the item's default size, symbol and pen
    records["visible"] = True
    records["hovered"] = False
    records["data"] = np.arange(n)
    if isinstance(brush, list):
        if len(brush) != n:
            raise ValueError(f"{len(brush)} brushes for {n} markers")
        index_of: dict[int, int] = {}
        distinct: list[QBrush] = []
        which = np.empty(n, dtype=np.intp)
        for i, b in enumerate(brush):
            k = index_of.get(id(b))
            if k is None:
                k = index_of[id(b)] = len(distinct)
                distinct.append(b)
            which[i] = k
        kinds = np.empty(len(distinct), dtype=object)
        kinds[:] = distinct
        records["brush"] = kinds[which]
    else:
        item.setBrush(brush, update=False)
        distinct = [item.opts["brush"]]
        which = np.zeros(n, dtype=np.intp)
    styles = [(item.opts["symbol"], item.opts["size"], item.opts["pen"], b) for b in distinct]
    places = np.array([tuple(c) for c in item.fragmentAtlas[styles]], dtype=records["sourceRect"].dtype)
    records["sourceRect"] = places[which] if n else places[:0]
    item.data["item"][...] = None       # (what setData does: spot items of the old records are let go)
    item.data = records
    item._maybeRebuildAtlas()
    item._updateMaxSpotSizes()
    item.prepareGeometryChange()
    item.informViewBoundsChanged()
    item.bounds = [None, None]
    item.invalidate()
    item.sigPlotChanged.emit(item)
