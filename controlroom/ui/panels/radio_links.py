"""The radio panel's gateway links: each one's state, its TX queue, the acks heard back and its Meshtastic packets.

A link's state and detail come from the core's radio view (``links``); its
TX queue from the link itself (``link_stats``: the station hands the core
its links' counters, and the core puts them in the delta); the acks a
gateway heard on the air from the counts per gateway (``downlink_heard``);
a Meshtastic node's packets from the Meshtastic path's counts per link
(``mesh``).  A column a link has nothing for stays empty.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from controlroom.ui.panels.table import RowTable
from controlroom.ui.panels.words import word

ALARM_COLOUR = QColor("#d9534f")
LINK_STATES = {
    "connecting": QT_TRANSLATE_NOOP("panels", "connecting"),
    "identifying": QT_TRANSLATE_NOOP("panels", "identifying"),
    "identified": QT_TRANSLATE_NOOP("panels", "identified"),
    "unidentified": QT_TRANSLATE_NOOP("panels", "unidentified"),
    "lost": QT_TRANSLATE_NOOP("panels", "lost"),
    "retrying": QT_TRANSLATE_NOOP("panels", "retrying"),
    "stopped": QT_TRANSLATE_NOOP("panels", "stopped"),
}
BAD_LINK_STATES = ("lost", "retrying", "stopped")

def number(value) -> str:
    """A measurement as short text ('' when unknown)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return str(value)


def link_detail(detail) -> str:
    """A link's state detail as text: a note, a retry delay (s) or the gateway's identity line."""
    if detail is None or detail == "":
        return ""
    if isinstance(detail, dict):
        # The ID line of a gateway; never show anything that looks like key material.
        return ", ".join(f"{k} {v}" for k, v in detail.items() if "key" not in str(k).lower())
    if isinstance(detail, (int, float)) and not isinstance(detail, bool):
        return QCoreApplication.translate("panels", "next attempt in {0} s").format(number(detail))
    return str(detail)



LINK_COLUMNS = (
    QT_TRANSLATE_NOOP("panels", "Link"), QT_TRANSLATE_NOOP("panels", "State"),
    QT_TRANSLATE_NOOP("panels", "TX queue"), QT_TRANSLATE_NOOP("panels", "Acks heard"),
    QT_TRANSLATE_NOOP("panels", "Meshtastic packets"), QT_TRANSLATE_NOOP("panels", "Detail"),
)


def link_row(name: str, state: str, detail, stats: dict, counts: dict, mesh: dict) -> tuple:
    """(name, state, detail, TX frames waiting, acks heard back, Meshtastic packets) of one link."""
    gateway = stats.get("gateway")
    if gateway is None and isinstance(detail, dict):
        gateway = detail.get("gateway")
    heard_back = counts.get(str(gateway), {}).get("downlink_heard") if gateway is not None else None
    packets = mesh.get(name, {}).get("packets_total")
    return (name, state, detail, stats.get("tx_pending"), heard_back, packets)


class LinkModel(RowTable):
    """One row per link: name, state, TX queue, acks heard back, Meshtastic packets, detail."""

    titles = LINK_COLUMNS

    def set_links(self, links: dict, link_stats: dict | None = None, counts: dict | None = None,
                  mesh: dict | None = None) -> None:
        link_stats, counts, mesh = link_stats or {}, counts or {}, mesh or {}
        rows = [link_row(str(name), state, detail, link_stats.get(name) or {}, counts, mesh)
                for name, (state, detail) in links.items()]
        self.replace_rows(sorted(rows, key=lambda row: row[0]), key=lambda row: row[0])

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        name, state, detail, tx, heard_back, packets = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (name, word(LINK_STATES, state), number(tx), number(heard_back), number(packets),
                    link_detail(detail))[column]
        if role == Qt.ItemDataRole.ForegroundRole and state in BAD_LINK_STATES and column == 1:
            return QBrush(ALARM_COLOUR)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (2, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
