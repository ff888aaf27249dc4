"""The live map's layers, drawn for one moment of a replay instead of from a stream of deltas."""

from __future__ import annotations

import collections

import numpy as np

from controlroom.ui.map.layers import MapLayers

SIEGE_PREFIX = "siege:"        # a siege engine placed by its own status report (no tracker on it)


class ReplayLayers(MapLayers):
    """MapLayers that forget the previous moment: every moment is drawn from its own full delta.

    Trails come from the log (where each marker was in the minutes before the
    moment), not from the deltas seen so far, so seeking back shows the same
    trails as playing up to the moment.
    """

    def show_moment(self, moment) -> None:
        delta = moment.delta
        self.stopps.clear()
        self.unacknowledged.clear()
        self._conditions.clear()
        field = dict(delta.field or {})
        positions = dict(field.get("positions", {}))
        # A siege engine that reported where it stands, but carries no tracker, is drawn where it said.
        engines_tracked = {info.get("engine") for s, info in self.devices.items() if s in positions}
        for engine, (t, _status, lat, lon) in field.get("siege", {}).items():
            if lat is not None and lon is not None and engine not in engines_tracked:
                positions[SIEGE_PREFIX + engine] = (t, lat, lon, None, 1)
                self.devices.setdefault(SIEGE_PREFIX + engine, {"engine": engine, "label": engine})
        field["positions"] = positions
        lats = [p[1] for p in positions.values()] + [la for tr in moment.trails.values() for _t, la, _lo in tr]
        lons = [p[2] for p in positions.values()] + [lo for tr in moment.trails.values() for _t, _la, lo in tr]
        frame = self._frame(lats, lons)
        self._trails = {}
        if frame is not None:
            for source, trail in moment.trails.items():
                if trail:
                    xs, ys = frame.to_local([p[1] for p in trail], [p[2] for p in trail])
                    xs, ys = np.atleast_1d(xs), np.atleast_1d(ys)
                    self._trails[source] = collections.deque(
                        (p[0], float(x), float(y)) for p, x, y in zip(trail, xs, ys))
        self._trails_changed = True             # the trails are this moment's: drawn again
        self.apply(delta._replace(field=field, events=()))
