"""The radio panel's gateway links: each one's state, its TX queue, the acks heard back and its Meshtastic packets.

A link's state and detail come from the core's radio view (``links``); its
TX queue from the link itself (``link_stats``: the station hands the core
its links' counters, and the core puts them in the delta); the acks a
gateway heard on the air from the counts per gateway (``downlink_heard``);
a Meshtastic node's packets from the Meshtastic path's counts per link
(``mesh``).  A column a link has nothing for stays empty.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush

from controlroom.ui.panels.radio_words import ALARM_COLOUR, BAD_LINK_STATES, LINK_STATES, link_detail, number
from controlroom.ui.panels.table import RowTable
from controlroom.ui.panels.words import word

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
