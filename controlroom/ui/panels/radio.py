"""RadioPanel ("Radio"): gateway links, frame counters with rejections by reason, devices heard, TAK phones heard,
the raw frame log.

Fed by ``delta.radio`` (the station's radio view: links, counts, heard, TAK phones, recent)
and ``delta.field["heard"]`` (batteries, by source "marshal:N" / "tracker:N").
Only what the station reports is shown; there are no keys in these data and
none are ever displayed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from controlroom.game.clock import format_time
from controlroom.game.views import StateDelta, merge_field
from controlroom.ui.panels.radio_links import LinkModel
from controlroom.ui.panels.radio_tak import TakPhoneModel
from controlroom.ui.panels.radio_words import (  # noqa: F401 - re-exported: the panel's words, its tests'
    AGE_ROLE,
    ALARM_COLOUR,
    ALARM_ROLE,
    BAD_LINK_STATES,
    COUNT_COLUMNS,
    FORGED,
    LINK_STATES,
    TOTAL,
    VERDICTS,
    _alignment,
    ago,
    link_detail,
    number,
)
from controlroom.ui.panels.table import RowTable, hidden_in_shown_window, read_only_view
from controlroom.ui.panels.words import word


# -- counters ------------------------------------------------------------------
def _gateway_order(key: str) -> tuple:
    if key == TOTAL:
        return (2, 0, key)
    return (0, int(key), key) if key.lstrip("-").isdigit() else (1, 0, key)


def total_of(counts: dict, what: str) -> int:
    """The total count of ``what`` in the station's counts per gateway (0 when not reported)."""
    for key, c in counts.items():
        if str(key) == TOTAL:
            return int(c.get(what, 0))
    return sum(int(c.get(what, 0)) for c in counts.values())


class CountModel(RowTable):
    """Frame counters per gateway and in total, rejections by reason; forged frames in red."""

    titles = tuple(title for _key, title in COUNT_COLUMNS)

    def set_counts(self, counts: dict) -> None:
        self.replace_rows([(str(k), dict(counts[k])) for k in sorted(counts, key=lambda k: _gateway_order(str(k)))],
                          key=lambda row: row[0])

    def total(self, what: str) -> int:
        """The total count of ``what`` (0 when not reported)."""
        return total_of(dict(self.rows), what)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        key, counts = self.rows[index.row()]
        column = COUNT_COLUMNS[index.column()][0]
        alarm = column == FORGED and counts.get(FORGED, 0) > 0
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "gateway":
                return self.tr("Total") if key == TOTAL else key
            return str(counts.get(column, 0))
        if role == ALARM_ROLE:
            return alarm
        if role == Qt.ItemDataRole.ForegroundRole and alarm:
            return QBrush(ALARM_COLOUR)
        if role == Qt.ItemDataRole.FontRole and (alarm or key == TOTAL):
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and alarm:
            return self.tr("Security alarm: frames with a wrong authentication tag (forged?) were received.")
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _alignment(column != "gateway")
        return None


# -- devices -------------------------------------------------------------------
class DeviceRow(NamedTuple):
    device: int
    source: str          # "marshal:1003" when the field reports know it, else ""
    t: int               # game ms of the last good frame
    rssi: float | None
    snr: float | None
    battery: int | None
    counter: int | None
    gateway: int | str | None


DEVICE_COLUMNS = (
    ("device", QT_TRANSLATE_NOOP("panels", "Device")),
    ("source", QT_TRANSLATE_NOOP("panels", "Source")),
    ("heard", QT_TRANSLATE_NOOP("panels", "Last heard")),
    ("rssi", QT_TRANSLATE_NOOP("panels", "RSSI (dBm)")),
    ("snr", QT_TRANSLATE_NOOP("panels", "SNR (dB)")),
    ("battery", QT_TRANSLATE_NOOP("panels", "Battery (%)")),
    ("counter", QT_TRANSLATE_NOOP("panels", "Counter")),
    ("gateway", QT_TRANSLATE_NOOP("panels", "Gateway")),
)


def sources_by_device(field_heard: dict) -> dict[int, tuple[str, object]]:
    """Device id -> (source, battery) from the field reports' "role:N" sources."""
    out: dict[int, tuple[str, object]] = {}
    for source, heard in field_heard.items():
        _role, _, tail = str(source).rpartition(":")
        if _role and tail.isdigit():
            battery = heard[1] if len(heard) > 1 else None
            out[int(tail)] = (str(source), battery)
    return out


class DeviceModel(RowTable):
    """Per device: last heard (age from ``now``), RSSI, SNR, battery, last counter, gateway."""

    titles = tuple(title for _key, title in DEVICE_COLUMNS)
    now_columns = (2,)                  # "Last heard": "12 s ago"

    def set_devices(self, heard: dict, field_heard: dict, now: int) -> None:
        known = sources_by_device(field_heard)
        rows = []
        for device, entry in heard.items():
            t, rssi, snr, counter, gateway = entry
            source, battery = known.get(int(device), ("", None))
            rows.append(DeviceRow(int(device), source, t, rssi, snr, battery, counter, gateway))
        self.now = now
        self.replace_rows(sorted(rows, key=lambda r: r.device), key=lambda r: r.device)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        column = DEVICE_COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "heard":
                return ago(self.now - row.t)
            return number(getattr(row, column))
        if role == AGE_ROLE:
            return self.now - row.t
        if role == Qt.ItemDataRole.ToolTipRole and column == "heard":
            return self.tr("at {0}").format(format_time(row.t))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _alignment(column not in ("source", "heard"))
        return None


# -- the raw frame log ---------------------------------------------------------
FRAME_COLUMNS = (
    QT_TRANSLATE_NOOP("panels", "Time"),
    QT_TRANSLATE_NOOP("panels", "Gateway"),
    QT_TRANSLATE_NOOP("panels", "Device"),
    QT_TRANSLATE_NOOP("panels", "Counter"),
    QT_TRANSLATE_NOOP("panels", "Verdict"),
    QT_TRANSLATE_NOOP("panels", "RSSI (dBm)"),
    QT_TRANSLATE_NOOP("panels", "SNR (dB)"),
    QT_TRANSLATE_NOOP("panels", "Detail"),
)
VERDICT_COLUMN = 4
VERDICT_ROLE = Qt.ItemDataRole.UserRole + 3   # the verdict code ("accepted", "rejected_auth", ...)


class FrameModel(RowTable):
    """The last frames the station received, newest first: a bounded ring.

    Each delta brings the station's recent frames (oldest first); the frames
    not shown yet are inserted at the top and as many of the oldest removed
    at the bottom, so that a view keeps its place and measures only new rows.
    """

    titles = FRAME_COLUMNS
    #: The most frames kept (the station sends its last 200).
    MAX_ROWS = 200

    def set_frames(self, recent) -> None:
        recent = [tuple(r) for r in recent][-self.MAX_ROWS:]
        new = self._new_frames(recent)
        if new is None:                         # nothing shown yet, or no frame in common: start again
            self.beginResetModel()
            self.rows = list(reversed(recent))
            self.endResetModel()
            return
        if not new:
            return
        self.beginInsertRows(QModelIndex(), 0, len(new) - 1)
        self.rows[:0] = reversed(new)
        self.endInsertRows()
        over = len(self.rows) - self.MAX_ROWS
        if over > 0:
            self.beginRemoveRows(QModelIndex(), self.MAX_ROWS, len(self.rows) - 1)
            del self.rows[self.MAX_ROWS:]
            self.endRemoveRows()

    def _new_frames(self, recent: list[tuple]) -> list[tuple] | None:
        """The frames of ``recent`` after the newest one shown (oldest first); None when they cannot be told."""
        if not self.rows:
            return None if recent else []
        newest = self.rows[0]
        shown = len(self.rows)
        for j in range(len(recent) - 1, -1, -1):
            # The newest frame shown, found where the frames before it match what is shown too.
            if recent[j] == newest and all(recent[j - k] == self.rows[k] for k in range(1, min(j + 1, shown, 4))):
                return recent[j + 1:]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        t, gateway, device, counter, verdict, rssi, snr, detail = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return format_time(t)
            if column == VERDICT_COLUMN:
                return word(VERDICTS, verdict)
            if column == 7:
                return "" if detail is None else str(detail)
            return number((None, gateway, device, counter, None, rssi, snr)[column])
        if role == VERDICT_ROLE:
            return verdict
        if role == Qt.ItemDataRole.ForegroundRole and verdict == FORGED:
            return QBrush(ALARM_COLOUR)
        return None


# -- the panel -----------------------------------------------------------------


class RadioPanel(QWidget):
    """Radio: gateway links, counters (forged frames in red), devices heard (live ages), the frame log.

    ``now_ms`` gives the game clock (the clock the station stamps frames
    with); the "last heard" ages follow it every second between deltas.
    """

    REFRESH_MS = 1000

    def __init__(self, now_ms: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.now_ms = now_ms
        self.links = LinkModel(self)
        self.counts = CountModel(self)
        self.devices = DeviceModel(self)
        self.frames = FrameModel(self)
        self.tak_phones = TakPhoneModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.frames)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._field_heard: dict = {}
        self._heard: dict = {}
        self._recent = ()
        self._links: dict = {}
        self._link_stats: dict = {}
        self._mesh: dict = {}
        self._counts: dict = {}
        self._tak: dict = {}
        # What changed while the panel was behind another tab: shown when it is seen again.
        self._frames_due = self._devices_due = self._links_due = self._counts_due = self._tak_due = False
        self._shown_at = -float("inf")      # time.monotonic() of the last showing

        self.title = QLabel(self.tr("Radio"), self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.alarm = QLabel(self)
        self.alarm.setStyleSheet(f"color: {ALARM_COLOUR.name()}; font-weight: bold;")
        self.alarm.setVisible(False)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Filter frames (device, verdict, detail...)"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.set_filter)

        self.link_view = read_only_view(self, self.links)
        self.count_view = read_only_view(self, self.counts)
        self.device_view = read_only_view(self, self.devices)
        self.frame_view = read_only_view(self, self.proxy)
        self.tak_view = read_only_view(self, self.tak_phones)

        split = QSplitter(Qt.Orientation.Vertical, self)
        for caption, view in ((self.tr("Gateway links"), self.link_view),
                              (self.tr("Frames per gateway"), self.count_view),
                              (self.tr("Devices heard"), self.device_view),
                              (self.tr("TAK phones (not authenticated)"), self.tak_view)):
            box = QWidget(split)
            box_layout = QVBoxLayout(box)
            box_layout.setContentsMargins(0, 0, 0, 0)
            box_layout.addWidget(QLabel(caption, box))
            box_layout.addWidget(view)
            split.addWidget(box)
        self.tak_box = box                  # shown once a TAK phone has been heard (radio.tak_ingest)
        self.tak_box.setVisible(False)
        log = QWidget(split)
        log_layout = QVBoxLayout(log)
        log_layout.setContentsMargins(0, 0, 0, 0)
        log_layout.addWidget(QLabel(self.tr("Frame log"), log))
        log_layout.addWidget(self.filter)
        log_layout.addWidget(self.frame_view)
        split.addWidget(log)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.alarm)
        layout.addWidget(split)

        self.timer = QTimer(self)
        self.timer.setInterval(self.REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()

    def apply_delta(self, delta: StateDelta) -> None:
        """Take the radio view and the batteries from ``delta`` (an empty radio or field keeps what is shown)."""
        radio = delta.radio or {}
        field = delta.field or {}
        if field.get("heard") is not None:
            self._field_heard = merge_field({"heard": self._field_heard}, field, ("heard",))["heard"]
        if radio:
            if "links" in radio:
                self._links = radio["links"] or {}
                self._links_due = True
            if "link_stats" in radio or "mesh" in radio:
                self._link_stats = radio.get("link_stats") or self._link_stats
                self._mesh = radio.get("mesh") or self._mesh
                self._links_due = True
            if "counts" in radio:
                self._counts = radio["counts"] or {}
                self._counts_due = self._links_due = True
            if "heard" in radio:
                self._heard = dict(radio["heard"] or {})
            if "recent" in radio:
                self._recent = radio["recent"] or ()
                self._frames_due = True
            if "tak" in radio:
                self._tak = radio["tak"] or {}
                self._tak_due = True
                self.tak_box.setVisible(True)
        if radio or field:
            self._devices_due = True
        # At 200 frames a second every delta (ten a second) changes the device list and the frame log; no one
        # reads them that fast, and laying out their tables kept the window busy (bench_map): they are shown
        # at most once a :attr:`REFRESH_MS` (the timer shows what waits).  The forged-frame alarm is at once.
        if not self._behind() and time.monotonic() - self._shown_at >= self.REFRESH_MS / 1000:
            self._show_due()
        self._update_alarm()

    def _behind(self) -> bool:
        """Whether the panel is in a shown window but not seen (a tab behind another): its device list and
        frame log then wait until it is shown (at 200 frames a second they change at each delta)."""
        return self.window() is not self and hidden_in_shown_window(self)

    def _show_due(self) -> None:
        self._shown_at = time.monotonic()
        if self._links_due:
            self._links_due = False
            self.links.set_links(self._links, self._link_stats, self._counts, self._mesh)
        if self._counts_due:
            self._counts_due = False
            self.counts.set_counts(self._counts)
        if self._frames_due:
            self._frames_due = False
            self.frames.set_frames(self._recent)
        if self._devices_due:
            self._devices_due = False
            self.devices.set_devices(self._heard, self._field_heard, self.now_ms())
        if self._tak_due:
            self._tak_due = False
            self.tak_phones.set_phones(self._tak, self.now_ms())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._show_due()

    def set_filter(self, text: str) -> None:
        """Show only the frames with ``text`` in any column (case-insensitive)."""
        if self.filter.text() != text:
            self.filter.setText(text)       # comes back here through textChanged
            return
        self.proxy.setFilterFixedString(text)

    def refresh(self) -> None:
        """Show what the deltas brought since the last refresh, and the "last heard" ages at the game clock's time."""
        if self._behind():
            return
        if self._links_due or self._counts_due or self._frames_due or self._devices_due or self._tak_due:
            self._show_due()         # the devices' ages are read at the clock's time there
        else:
            self.devices.set_now(self.now_ms())
            self.tak_phones.set_now(self.now_ms())

    def forged_count(self) -> int:
        """Frames with a wrong authentication tag, in total."""
        return total_of(self._counts, FORGED)    # (the counts as received: the table may wait behind a tab)

    def _update_alarm(self) -> None:
        forged = self.forged_count()
        self.alarm.setVisible(forged > 0)
        if forged:
            self.alarm.setText(self.tr("Security alarm: {0} forged frame(s) received").format(forged))
