"""The words the panels show for the core's codes (deadline kinds, conditions, event types), translatable."""

from __future__ import annotations

import math

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

_CTX = "panels"

DEADLINE_KINDS = {
    "dies": QT_TRANSLATE_NOOP("panels", "dies"),
    "wakes": QT_TRANSLATE_NOOP("panels", "wakes"),
    "regains_hp": QT_TRANSLATE_NOOP("panels", "+1 HP"),          # short: a column a laptop keeps whole
    "respawns": QT_TRANSLATE_NOOP("panels", "respawns"),
    "stopp_overdue": QT_TRANSLATE_NOOP("panels", "STOPP lasts too long"),
}

CONDITIONS = {
    "active": QT_TRANSLATE_NOOP("panels", "active"),
    "unconscious": QT_TRANSLATE_NOOP("panels", "unconscious"),
    "knocked_out": QT_TRANSLATE_NOOP("panels", "knocked out"),
    "dead": QT_TRANSLATE_NOOP("panels", "dead"),
}

EVENT_TYPES = {
    "strike": QT_TRANSLATE_NOOP("panels", "strike"),
    "big_stone": QT_TRANSLATE_NOOP("panels", "big stone"),
    "knocked_out": QT_TRANSLATE_NOOP("panels", "knocked out"),
    "down": QT_TRANSLATE_NOOP("panels", "down (0 hit points)"),
    "bound": QT_TRANSLATE_NOOP("panels", "wounds bound"),
    "cared_for": QT_TRANSLATE_NOOP("panels", "cared for by a healer"),
    "care_ended": QT_TRANSLATE_NOOP("panels", "care ended"),
    "strenuous": QT_TRANSLATE_NOOP("panels", "strenuous activity"),
    "bandage_removed": QT_TRANSLATE_NOOP("panels", "bandage removed"),
    "healer_touch": QT_TRANSLATE_NOOP("panels", "healer's touch"),
    "died": QT_TRANSLATE_NOOP("panels", "died"),
    "permanent_kill": QT_TRANSLATE_NOOP("panels", "permanent kill"),
    "valhalla_checkin": QT_TRANSLATE_NOOP("panels", "checked in at Valhalla"),
    "respawned": QT_TRANSLATE_NOOP("panels", "respawned"),
    "woke": QT_TRANSLATE_NOOP("panels", "woke"),
    "hp_regained": QT_TRANSLATE_NOOP("panels", "regained a hit point"),
    "stopp_overdue": QT_TRANSLATE_NOOP("panels", "STOPP lasts too long"),
    "scenario_started": QT_TRANSLATE_NOOP("panels", "scenario started"),
    "scenario_ended": QT_TRANSLATE_NOOP("panels", "scenario ended"),
    "stopp_called": QT_TRANSLATE_NOOP("panels", "STOPP called"),
    "stopp_lifted": QT_TRANSLATE_NOOP("panels", "STOPP lifted"),
    "note": QT_TRANSLATE_NOOP("panels", "note"),
    "roster_added": QT_TRANSLATE_NOOP("panels", "players added to the roster"),
    "retracted": QT_TRANSLATE_NOOP("panels", "retracted"),
    "alarm_acknowledged": QT_TRANSLATE_NOOP("panels", "alarm acknowledged"),
    "armour_set": QT_TRANSLATE_NOOP("panels", "armour recorded"),
    "weapon_inspected": QT_TRANSLATE_NOOP("panels", "weapon inspected"),
    "hp_set": QT_TRANSLATE_NOOP("panels", "hit points set"),
    "position": QT_TRANSLATE_NOOP("panels", "position"),
    "heartbeat": QT_TRANSLATE_NOOP("panels", "heartbeat"),
    "headcount": QT_TRANSLATE_NOOP("panels", "headcount"),
    "siege_status": QT_TRANSLATE_NOOP("panels", "siege engine status"),
    "message": QT_TRANSLATE_NOOP("panels", "message"),
    "radio_retried": QT_TRANSLATE_NOOP("panels", "report needed radio retries"),
    "looted": QT_TRANSLATE_NOOP("panels", "looted"),
    "returned": QT_TRANSLATE_NOOP("panels", "returned"),
}

STOPP_REASONS = {
    "unpleasant": QT_TRANSLATE_NOOP("panels", "out-of-game unpleasant"),
    "injury": QT_TRANSLATE_NOOP("panels", "injury or medical"),
    "danger": QT_TRANSLATE_NOOP("panels", "danger"),
}


def tr(text: str) -> str:
    return QCoreApplication.translate(_CTX, text)


def word(table: dict[str, str], code: str) -> str:
    """The translated word for ``code``, or the code itself with spaces when there is none."""
    text = table.get(code)
    return tr(text) if text is not None else code.replace("_", " ")


def countdown(ms: int) -> str:
    """Time left as M:SS under an hour, H:MM:SS from an hour, rounded up to the second (0:00 only when due).

    Short, as a kitchen timer reads: the rule timers run for minutes (10 to
    die, 5 to wake), and the dying list keeps its names whole on a laptop.
    """
    seconds = max(0, math.ceil(ms / 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def who(name: str, badge: int | None) -> str:
    if badge is None:
        return name
    return QCoreApplication.translate("panels", "{name} ({badge})").format(name=name, badge=badge)
