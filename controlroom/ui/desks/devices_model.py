"""The Devices desk's table: each device's readiness, from the game's record and the core's deltas, and its filters.

A row joins what the store said of a device through a core job (registered,
provisioned as the board confirmed it, first heard as stored) with what the
core's deltas say of it now (``delta.radio``: heard, by which gateway how well;
``delta.field["heard"]``: its battery).  Nothing here reads the store or the
radio itself.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette

from controlroom.game.clock import format_time
from controlroom.ui.panels.radio import ago, number
from controlroom.ui.panels.table import RowTable
from controlroom.ui.theme import DAY_TO_NIGHT

LOW_BATTERY = 20            # percent: below it a battery is low
ERROR, OK, PENDING, NOTE = "#c9302c", "#2d7d2d", "#8a6d00", "#555555"
STATE_ROLE = Qt.ItemDataRole.UserRole + 1      # the row's readiness: "failed", "not provisioned", ... (tests)
SORT_ROLE = Qt.ItemDataRole.UserRole + 2       # what a column sorts by (numbers as numbers)
ROLE_WORDS = {"marshal": QT_TRANSLATE_NOOP("panels", "marshal"), "tracker": QT_TRANSLATE_NOOP("panels", "tracker"),
              "gateway": QT_TRANSLATE_NOOP("panels", "gateway")}


class DeviceRow(NamedTuple):
    id: int
    role: str
    label: str
    who: str                         # the marshal, the group or the engine
    board: str
    mesh: str | None                 # a Meshtastic node: nothing to provision
    provisioned: bool
    provision_text: str              # "firmware 1.1.0, key A1B2-...", "failed: why", ""
    failed: bool
    heard: bool                      # its first authenticated frame is in (stored, or heard by the station now)
    first_t: int | None              # game ms of its first frame stored
    last_t: int | None               # game ms of its last frame (stored or heard now)
    battery: int | None
    signal: str                      # per gateway: "7: -97 dBm 7.3 dB"

    @property
    def state(self) -> str:
        if self.failed:
            return "failed"
        if self.mesh is None and not self.provisioned:
            return "not provisioned"
        return "heard" if self.heard else "waiting"


COLUMNS = (
    QT_TRANSLATE_NOOP("panels", "Device"), QT_TRANSLATE_NOOP("panels", "Role"), QT_TRANSLATE_NOOP("panels", "Label"),
    QT_TRANSLATE_NOOP("panels", "Marshal / group"), QT_TRANSLATE_NOOP("panels", "Board"),
    QT_TRANSLATE_NOOP("panels", "Provisioned"), QT_TRANSLATE_NOOP("panels", "Heard"),
    QT_TRANSLATE_NOOP("panels", "Battery (%)"), QT_TRANSLATE_NOOP("panels", "Last heard"),
    QT_TRANSLATE_NOOP("panels", "RSSI / SNR per gateway"),
)
LAST_HEARD = 8


def _t(text: str) -> str:
    return QCoreApplication.translate("panels", text)


def colour(day: str) -> QColor:
    """A message colour, its night twin when the palette is dark (night mode)."""
    dark = QGuiApplication.palette().color(QPalette.ColorRole.Base).lightness() < 128
    return QColor(DAY_TO_NIGHT.get(day, day) if dark else day)


def signal_text(by_gateway: dict) -> str:
    """Per gateway that heard the device: its RSSI and SNR ("7: -97 dBm 7.25 dB; 8: -110 dBm")."""
    parts = []
    for gateway in sorted(by_gateway, key=lambda g: (not str(g).isdigit(), int(g) if str(g).isdigit() else 0, g)):
        _t_ms, rssi, snr = by_gateway[gateway]
        text = f"{gateway}: {number(rssi)} dBm" if rssi is not None else f"{gateway}:"
        parts.append(text + (f" {number(snr)} dB" if snr is not None else ""))
    return "; ".join(parts)


def make_rows(statuses, heard: dict, signal: dict, field_heard: dict) -> list[DeviceRow]:
    """The table's rows: each device of the registry with what the deltas say of it now."""
    rows = []
    for s in statuses:
        p = s.provisioning
        live = heard.get(s.id) or heard.get(str(s.id))
        field = field_heard.get(f"{s.role}:{s.id}")
        times = [t for t in (s.last.t if s.last else None, live[0] if live else None,
                             field[0] if field else None) if t is not None]
        battery = field[1] if field and field[1] is not None else s.battery
        by_gateway = signal.get(s.id) or signal.get(str(s.id)) or {}
        if not by_gateway and s.last is not None and s.last.rssi is not None:
            by_gateway = {",".join(s.last.gateways) or "?": (s.last.t, s.last.rssi, s.last.snr)}
        if s.meshtastic:
            text = QCoreApplication.translate("panels", "Meshtastic node {0}").format(s.meshtastic)
        elif s.provisioned:
            text = QCoreApplication.translate("panels", "firmware {0}, key {1}").format(p.firmware, p.fingerprint)
        elif p is not None and p.state == "failed":
            text = QCoreApplication.translate("panels", "failed: {0}").format(p.detail)
        elif p is not None:
            text = QCoreApplication.translate("panels", "no: an older key ({0})").format(p.fingerprint)
        else:
            text = QCoreApplication.translate("panels", "no")
        rows.append(DeviceRow(s.id, s.role, s.label, s.marshal or s.group or s.engine or "", s.board or "",
                              s.meshtastic, s.provisioned, text, p is not None and p.state == "failed" and
                              not s.provisioned, s.first is not None or live is not None,
                              s.first.t if s.first else None, max(times) if times else None, battery,
                              signal_text(by_gateway)))
    return rows


class DeviceTable(RowTable):
    """One row per device; "Last heard" follows the game clock (``now``)."""

    titles = COLUMNS
    now_columns = (LAST_HEARD,)

    def set_devices(self, rows: list[DeviceRow], now: int) -> None:
        self.now = now
        self.replace_rows(rows, key=lambda r: r.id)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        r, column = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 6:
                if r.first_t is not None:
                    return QCoreApplication.translate("panels", "yes, at {0}").format(format_time(r.first_t))
                if r.heard:
                    return QCoreApplication.translate("panels", "yes")
                return QCoreApplication.translate("panels", "not yet")
            if column == LAST_HEARD:
                return "" if r.last_t is None else ago(self.now - r.last_t)
            return (str(r.id), _t(ROLE_WORDS.get(r.role, r.role)), r.label, r.who, r.board, r.provision_text, "",
                    number(r.battery), "", r.signal)[column]
        if role == STATE_ROLE:
            return r.state
        if role == SORT_ROLE:
            missing = -1 << 62
            return {0: r.id, 6: missing if r.first_t is None else r.first_t,
                    7: missing if r.battery is None else r.battery,
                    8: missing if r.last_t is None else -r.last_t}.get(column, self.data(index) or "")
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == 5:
                return QBrush(colour(ERROR if r.failed else OK if r.provisioned else PENDING if r.mesh is None
                                     else NOTE))
            if column == 6:
                return QBrush(colour(OK if r.heard else PENDING))
            if column == 7 and r.battery is not None and r.battery < LOW_BATTERY:
                return QBrush(colour(ERROR))
        if role == Qt.ItemDataRole.ToolTipRole and column == 5 and r.failed:
            return r.provision_text
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 7):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def row_of(self, device: int) -> int | None:
        return next((i for i, r in enumerate(self.rows) if r.id == device), None)


class DeviceFilter(QSortFilterProxyModel):
    """Only the devices that need a look: not provisioned, not heard for ``silent_min`` minutes, battery low
    (any of those ticked; none ticked: every device)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.not_provisioned = self.silent = self.low_battery = False
        self.silent_min = 10

    def set_filters(self, not_provisioned: bool, silent: bool, silent_min: int, low_battery: bool) -> None:
        """Filter (again: as the game's time moves on, "not heard for N minutes" may say otherwise)."""
        new = hasattr(self, "beginFilterChange")                # Qt 6.10: the change between begin and end
        if new:
            self.beginFilterChange()
        self.not_provisioned, self.silent, self.silent_min, self.low_battery = (
            not_provisioned, silent, silent_min, low_battery)
        if new:
            self.endFilterChange()
        else:
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:  # noqa: N802 - Qt's virtual method
        if not (self.not_provisioned or self.silent or self.low_battery):
            return True
        table = self.sourceModel()
        r = table.rows[source_row]
        return ((self.not_provisioned and r.mesh is None and not r.provisioned)
                or (self.silent and (r.last_t is None or table.now - r.last_t >= self.silent_min * 60_000))
                or (self.low_battery and r.battery is not None and r.battery < LOW_BATTERY))
