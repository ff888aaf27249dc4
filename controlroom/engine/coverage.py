"""The radio coverage as the game is stored: the rows for the window's layer, and the weak-spot alarms.

Every stored event the engine folds goes through ``note``: the coverage fold
(``geo.coverage``) makes its rows from the record, the same rows a replay and
the report make from the log.  The rows since the last delta go out with it
(``StateDelta.coverage``); what came before the game was opened the window
reads from the log itself (``store.coverage_log``, a job).

A marshal whose reports keep needing retries in one place is in a weak spot:
when 3 of a device's last 4 reports (frames that want an acknowledgement)
needed retries, an alarm of the link class says where, in the map's grid
square when a map is kept with the game; it is raised again (merged into its
row) for each further retried report while that holds.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping

from controlroom.engine.output import Output
from controlroom.game.alarms import Alarm
from controlroom.game.devices import DeviceInfo
from controlroom.geo.coverage import CELL_M, UNACKED, CoverageFold, CoverageRows  # UNACKED: never retried
from controlroom.i18n import translate

WEAK_OF, WEAK_LAST = 3, 4          # this many of the last so many reports needed retries: a weak spot

Locate = Callable[[float, float], str | None]      # GPS position -> the map's grid square ("D4"), None off the map


class LiveCoverage:
    """The engine's coverage fold, seeded with what the opening knew; alarms for devices in weak spots."""

    def __init__(self, anchor: tuple[float, float] | None = None, positions: Mapping | None = None,
                 devices: Mapping[int, DeviceInfo] | None = None, locate: Locate | None = None,
                 highest: Mapping[int, int] | None = None) -> None:
        self.fold = CoverageFold(anchor)
        if positions:
            self.fold.seed(positions)
        if highest:
            self.fold.seed_counters(highest)
        self.devices = devices or {}
        self.locate = locate
        self.reports: dict[int, collections.deque] = {}     # device -> its last reports' (counter, retried)

    def note(self, stored: list, out: Output) -> None:
        """Stored events (``StoredEvent``s), in the order they were stored."""
        add = self.fold.add
        for s in stored:
            e = s.event
            add(e.t, e.source, e.type, e.data, s.radio)
            if e.type == "radio_retried":
                self._retried(e, out)
            elif s.radio is not None and s.radio.via is None and e.type not in UNACKED:
                last = self.reports.setdefault(s.radio.device, collections.deque(maxlen=WEAK_LAST))
                last.append([s.radio.counter, False])

    def take(self) -> CoverageRows | None:
        """The rows made since the last take, or None when there are none."""
        rows = self.fold.take()
        return rows if len(rows) else None

    def _retried(self, event, out: Output) -> None:
        device, counter = event.data["device"], event.data["counter"]
        last = self.reports.get(device)
        if not last:
            return
        for entry in last:
            if entry[0] == counter:
                if entry[1]:
                    return              # known already (another station stored it too)
                entry[1] = True
                break
        else:
            return
        retried = sum(1 for _c, r in last if r)
        if retried < WEAK_OF:
            return
        where = self._where(device, counter)
        dev = self.devices.get(device)
        who = (dev.label or f"{dev.role} {dev.id}") if dev is not None else event.source.replace(":", " ")
        text = translate("alarms", "{who} in a weak spot ({where}): {n} of the last {of} reports needed retries")
        out.alarms.append(Alarm(f"weak_spot:{device}:{where}:{event.t}", "weak_spot",
                                text.format(who=who, where=where, n=retried, of=len(last)), event.t))

    def _where(self, device: int, counter: int) -> str:
        """The map's grid square (or the position) the report was sent from."""
        cell = self.fold.cell_of(device, counter)
        if cell is None or self.fold.tm is None:
            return translate("alarms", "place not known")
        lat, lon = self.fold.tm.inverse((cell[0] + 0.5) * CELL_M, (cell[1] + 0.5) * CELL_M)
        square = self.locate(lat, lon) if self.locate is not None else None
        return square or f"{lat:.5f}, {lon:.5f}"


def map_locator(stored_map, where: str = "the game") -> Locate | None:
    """The grid square of a position on the map kept with the game (``store.maps.StoredMap``); None without one."""
    if stored_map is None:
        return None
    from controlroom.geo.places import grid_for
    from controlroom.geo.source import MapError, ground_metres_per_pixel, restore_map

    m = stored_map
    try:
        source = restore_map(m.name, m.kind, m.width, m.height, m.world, m.crs, where)
        grid = grid_for(m.width, m.height, ground_metres_per_pixel(source))
    except (MapError, ValueError):
        return None

    def locate(lat: float, lon: float) -> str | None:
        try:
            col, row = source.locate(lat, lon)
            return grid.square(float(col), float(row))
        except Exception:  # a position the map's coordinate system cannot hold: no square
            return None
    locate(*source.centre())        # its transformation made now, while the game opens
    return locate
