"""The radio panel's TAK phones: registered marshals' phones and unknown uids heard, with their trust.

Fed by ``delta.radio["tak"]`` (``radio.tak_ingest.TakIngest.view``): a
registered marshal's phone shows whose it is and that its positions are
"TAK, not authenticated" (anyone on the TAK network could send them in its
name); an unknown uid is listed here only, never drawn on the map.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from controlroom.game.clock import format_time
from controlroom.ui.panels.radio_words import ago, number
from controlroom.ui.panels.table import RowTable
from controlroom.ui.panels.words import tr

UNKNOWN_COLOUR = QColor("#8a6d3b")
TRUST_TAK = QT_TRANSLATE_NOOP("panels", "TAK, not authenticated")


class TakPhoneRow(NamedTuple):
    uid: str
    callsign: str
    device: str          # "marshal:5", or "" for an unknown uid
    t: int               # game ms last heard
    lat: float | None
    lon: float | None
    battery: int | None
    link: str


TAK_COLUMNS = (
    ("uid", QT_TRANSLATE_NOOP("panels", "TAK uid")),
    ("callsign", QT_TRANSLATE_NOOP("panels", "Callsign")),
    ("device", QT_TRANSLATE_NOOP("panels", "Device")),
    ("trust", QT_TRANSLATE_NOOP("panels", "Trust")),
    ("heard", QT_TRANSLATE_NOOP("panels", "Last heard")),
    ("battery", QT_TRANSLATE_NOOP("panels", "Battery (%)")),
    ("link", QT_TRANSLATE_NOOP("panels", "Heard through")),
)


def phone_rows(view: dict) -> list[TakPhoneRow]:
    """The registered phones first (by device), then the unknown ones (newest first)."""
    known = [TakPhoneRow(uid, r.get("callsign") or "", r.get("source") or f"device {r.get('device')}",
                         int(r.get("t") or 0), r.get("lat"), r.get("lon"), r.get("battery"), r.get("link") or "")
             for uid, r in (view.get("known") or {}).items()]
    unknown = [TakPhoneRow(uid, r.get("callsign") or "", "", int(r.get("t") or 0), r.get("lat"), r.get("lon"),
                           r.get("battery"), r.get("link") or "")
               for uid, r in (view.get("unknown") or {}).items()]
    return sorted(known, key=lambda r: r.device) + sorted(unknown, key=lambda r: -r.t)


class TakPhoneModel(RowTable):
    """One row per TAK phone heard: whose it is (or unknown: not drawn), its trust, when it was last heard."""

    titles = tuple(title for _key, title in TAK_COLUMNS)
    now_columns = (4,)

    def set_phones(self, view: dict, now: int) -> None:
        self.now = now
        self.replace_rows(phone_rows(view), key=lambda r: r.uid)

    def unknown_count(self) -> int:
        return sum(1 for r in self.rows if not r.device)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        column = TAK_COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "device":
                return row.device or self.tr("unknown: not drawn")
            if column == "trust":
                return tr(TRUST_TAK) if row.device else ""
            if column == "heard":
                return ago(self.now - row.t)
            if column == "battery":
                return number(row.battery)
            return getattr(row, column)
        if role == Qt.ItemDataRole.ForegroundRole and not row.device:
            return QBrush(UNKNOWN_COLOUR)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "trust" and row.device:
                return self.tr("Anyone on the TAK network could send positions under this uid or callsign: they "
                               "are shown on the map, and no rule uses them.")
            if not row.device:
                return self.tr("A TAK phone no marshal is registered with (controlroom keys new ID --role marshal "
                               "--tak-uid {uid}): listed here, not drawn on the map.").format(uid=row.uid)
            if column == "heard":
                return self.tr("at {0}").format(format_time(row.t))
        return None
