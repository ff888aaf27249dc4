"""The radio panel's words and small helpers: link states, verdicts, counter columns, ages and numbers as text."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor

ALARM_COLOUR = QColor("#d9534f")
FORGED = "rejected_auth"
TOTAL = "total"
AGE_ROLE = Qt.ItemDataRole.UserRole + 1      # ms since last heard (int), for sorting and tests
ALARM_ROLE = Qt.ItemDataRole.UserRole + 2    # True on a cell that is a security alarm

LINK_STATES = {
    "connecting": QT_TRANSLATE_NOOP("panels", "connecting"),
    "identifying": QT_TRANSLATE_NOOP("panels", "identifying"),
    "identified": QT_TRANSLATE_NOOP("panels", "identified"),
    "connected": QT_TRANSLATE_NOOP("panels", "connected"),
    "unidentified": QT_TRANSLATE_NOOP("panels", "unidentified"),
    "lost": QT_TRANSLATE_NOOP("panels", "lost"),
    "retrying": QT_TRANSLATE_NOOP("panels", "retrying"),
    "stopped": QT_TRANSLATE_NOOP("panels", "stopped"),
}
BAD_LINK_STATES = ("lost", "retrying", "stopped")

VERDICTS = {
    "accepted": QT_TRANSLATE_NOOP("panels", "accepted"),
    "duplicates": QT_TRANSLATE_NOOP("panels", "duplicate"),
    "rejected_corrupt": QT_TRANSLATE_NOOP("panels", "corrupt"),
    "rejected_auth": QT_TRANSLATE_NOOP("panels", "forged (wrong tag)"),
    "rejected_replay": QT_TRANSLATE_NOOP("panels", "replayed"),
    "rejected_unknown_device": QT_TRANSLATE_NOOP("panels", "unknown device"),
    "rejected_role": QT_TRANSLATE_NOOP("panels", "not allowed for its role"),
    "downlink_heard": QT_TRANSLATE_NOOP("panels", "our ack, heard back"),
}

COUNT_COLUMNS = (
    ("gateway", QT_TRANSLATE_NOOP("panels", "Gateway")),
    ("frames_total", QT_TRANSLATE_NOOP("panels", "Frames")),
    ("accepted", QT_TRANSLATE_NOOP("panels", "Accepted")),
    ("duplicates", QT_TRANSLATE_NOOP("panels", "Duplicates")),
    ("rejected_corrupt", QT_TRANSLATE_NOOP("panels", "Corrupt")),
    ("rejected_auth", QT_TRANSLATE_NOOP("panels", "Forged")),
    ("rejected_replay", QT_TRANSLATE_NOOP("panels", "Replayed")),
    ("rejected_unknown_device", QT_TRANSLATE_NOOP("panels", "Unknown device")),
    ("rejected_role", QT_TRANSLATE_NOOP("panels", "Wrong role")),
    # The station's own acks that a gateway heard on the air (another gateway's transmission): they went out.
    ("downlink_heard", QT_TRANSLATE_NOOP("panels", "Acks heard")),
)


def number(value) -> str:
    """A measurement as short text ('' when unknown)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return str(value)


def ago(ms: int) -> str:
    """How long ago, coarse: 'just now', '42 s ago', '2 min ago', '1 h 5 min ago'."""
    seconds = max(0, ms) // 1000
    if seconds < 5:
        return QCoreApplication.translate("panels", "just now")
    if seconds < 60:
        return QCoreApplication.translate("panels", "{0} s ago").format(seconds)
    minutes = seconds // 60
    if minutes < 60:
        return QCoreApplication.translate("panels", "{0} min ago").format(minutes)
    return QCoreApplication.translate("panels", "{0} h {1} min ago").format(minutes // 60, minutes % 60)


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


def _alignment(right: bool):
    if right:
        return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return None
