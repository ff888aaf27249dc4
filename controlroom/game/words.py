"""Conditions, roles and event types in words, in the language spoken (``controlroom.i18n``).

What a rule warning, a report or the window names: ``condition_word``
("knocked out"), ``role_word`` ("binder") and ``event_word`` ("big stone"),
with every such word listed for the translators (``QT_TRANSLATE_NOOP``).
"""

from __future__ import annotations

from functools import lru_cache

from controlroom.i18n import QT_TRANSLATE_NOOP, Text, translate, wording

# The words a warning names: conditions, roles and event types, in the language spoken.
_WORDS = (
    QT_TRANSLATE_NOOP("words", "active"), QT_TRANSLATE_NOOP("words", "unconscious"),
    QT_TRANSLATE_NOOP("words", "knocked out"), QT_TRANSLATE_NOOP("words", "dead"),
    QT_TRANSLATE_NOOP("words", "binder"), QT_TRANSLATE_NOOP("words", "carer"), QT_TRANSLATE_NOOP("words", "healer"),
    QT_TRANSLATE_NOOP("words", "killer"), QT_TRANSLATE_NOOP("words", "looter"),
)


def condition_word(condition: str) -> str:
    return translate("words", condition.replace("_", " "))


def role_word(role: str) -> str:
    return translate("words", role)


# The parts of a rule warning are made once each and shared (a Text is immutable, and keeps its packed form:
# a 200,000-event fold words 19,616 warnings, and making their parts anew was a fifth of its time).
@lru_cache(maxsize=256)
def condition_text(condition: str) -> Text:
    """``condition_word``, to be said in any language (a rule warning's part)."""
    return wording("words", condition.replace("_", " "))


@lru_cache(maxsize=256)
def role_text(role: str) -> Text:
    return wording("words", role)


def who_text(ch) -> Text:
    """A character as a rule warning names them: "Jüri Kask (badge 102)"."""
    member = ch.member
    return _who(member.name, member.badge)


@lru_cache(maxsize=16384)
def _who(name: str, badge: int) -> Text:
    return wording("warnings", "{name} (badge {badge})", name=name, badge=badge)


_EVENT_WORDS = (
    QT_TRANSLATE_NOOP("events", "armour set"), QT_TRANSLATE_NOOP("events", "bandage removed"),
    QT_TRANSLATE_NOOP("events", "big stone"), QT_TRANSLATE_NOOP("events", "bound"),
    QT_TRANSLATE_NOOP("events", "care ended"), QT_TRANSLATE_NOOP("events", "cared for"),
    QT_TRANSLATE_NOOP("events", "died"), QT_TRANSLATE_NOOP("events", "down"),
    QT_TRANSLATE_NOOP("events", "healer touch"), QT_TRANSLATE_NOOP("events", "hp regained"),
    QT_TRANSLATE_NOOP("events", "hp set"), QT_TRANSLATE_NOOP("events", "knocked out"),
    QT_TRANSLATE_NOOP("events", "looted"), QT_TRANSLATE_NOOP("events", "permanent kill"),
    QT_TRANSLATE_NOOP("events", "respawned"), QT_TRANSLATE_NOOP("events", "returned"),
    QT_TRANSLATE_NOOP("events", "strenuous"), QT_TRANSLATE_NOOP("events", "strike"),
    QT_TRANSLATE_NOOP("events", "valhalla checkin"), QT_TRANSLATE_NOOP("events", "weapon inspected"),
    QT_TRANSLATE_NOOP("events", "woke"),
    QT_TRANSLATE_NOOP("events", "stopp overdue"), QT_TRANSLATE_NOOP("events", "scenario started"),
    QT_TRANSLATE_NOOP("events", "scenario ended"), QT_TRANSLATE_NOOP("events", "stopp called"),
    QT_TRANSLATE_NOOP("events", "stopp lifted"), QT_TRANSLATE_NOOP("events", "note"),
    QT_TRANSLATE_NOOP("events", "roster added"), QT_TRANSLATE_NOOP("events", "retracted"),
    QT_TRANSLATE_NOOP("events", "position"), QT_TRANSLATE_NOOP("events", "heartbeat"),
    QT_TRANSLATE_NOOP("events", "headcount"), QT_TRANSLATE_NOOP("events", "siege status"),
    QT_TRANSLATE_NOOP("events", "message"), QT_TRANSLATE_NOOP("events", "alarm acknowledged"),
    QT_TRANSLATE_NOOP("events", "radio retried"),
    # inspected kinds (a reused tag names the kind it was on)
    QT_TRANSLATE_NOOP("words", "weapon"), QT_TRANSLATE_NOOP("words", "ranged weapon"),
    QT_TRANSLATE_NOOP("words", "arrow"), QT_TRANSLATE_NOOP("words", "big stone"),
    QT_TRANSLATE_NOOP("words", "shield"), QT_TRANSLATE_NOOP("words", "siege engine"),
    QT_TRANSLATE_NOOP("words", "siege arrow"),
)


def event_word(type_: str) -> str:
    """An event type in words ("big stone on shield"), in the language spoken (game/events.py lists them)."""
    return translate("events", type_.replace("_", " "))


@lru_cache(maxsize=256)
def event_text(type_: str) -> Text:
    """``event_word``, to be said in any language (a rule warning's part)."""
    return wording("events", type_.replace("_", " "))
