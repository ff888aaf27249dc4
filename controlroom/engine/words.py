"""The engine's alarms in the game master's words: a STOPP called or overdue, a late report that changed the game."""

from __future__ import annotations

from collections.abc import Iterable

from controlroom.game.alarms import Alarm
from controlroom.game.clock import format_time
from controlroom.game.events import SOURCE_TIMER
from controlroom.game.fold import FIELD_TYPES
from controlroom.game.fold_records import timer_id
from controlroom.i18n import QT_TRANSLATE_NOOP, translate


def stopp_alarm(state, sv, t: int) -> Alarm:
    """A STOPP's alarm: kind "injury" when it was called for an injury or medical emergency, else "stopp".

    Both are safety alarms acknowledged one by one; the id is the STOPP's either
    way (the map flashes the STOPP until ``stopp:<id>`` is acknowledged).  An
    injury is its own kind, not a second row: the game master needs one row
    that says "someone is hurt, there", with its own word and flashing.
    """
    caller = ""
    if sv.caller is not None:
        ch = state.characters.get(sv.caller)
        caller = translate("alarms", " by {name} (badge {badge}, {group})").format(
            name=ch.member.name, badge=sv.caller, group=ch.member.group) if ch is not None \
            else translate("alarms", " by badge {badge}").format(badge=sv.caller)
    where = translate("alarms", " near {groups}").format(groups=", ".join(sv.groups)) if sv.groups else ""
    if sv.reason == "injury":
        text = translate("alarms", "STOPP {stopp} called for an injury or medical emergency").format(stopp=sv.id)
        return Alarm(f"stopp:{sv.id}", "injury", text + caller + where, t)
    reason = translate("alarms", STOPP_REASON_WORDS[sv.reason]) if sv.reason in STOPP_REASON_WORDS else sv.reason
    return Alarm(f"stopp:{sv.id}", "stopp", translate("alarms", "STOPP {stopp} called ({reason})").format(
        stopp=sv.id, reason=reason) + caller + where, t)


# A STOPP's reason (the event's code) in the alarm's words.
STOPP_REASON_WORDS = {
    "unpleasant": QT_TRANSLATE_NOOP("alarms", "unpleasant"),
    "injury": QT_TRANSLATE_NOOP("alarms", "injury"),
    "danger": QT_TRANSLATE_NOOP("alarms", "danger"),
}


def late_report_alarm(state, corrections, now: int) -> Alarm:
    """A late report changed what the rule timers did (``game.fold.Correction``s): what changed, in words."""
    lines = []
    for c in corrections:
        badge = c.about.data.get("badge")
        who = translate("alarms", "{name} (badge {badge})").format(
            name=state.characters[badge].member.name, badge=badge) if badge in state.characters else \
            f"STOPP {c.about.data.get('stopp')}"
        what = translate("events", c.about.type.replace("_", " "))
        if c.kind == "retract":
            line = translate("alarms", "{who}: {what} at {time} undone")
        else:
            line = translate("alarms", "{who}: {what} at {time}")
        lines.append(line.format(who=who, what=what, time=format_time(c.about.t)))
    text = translate("alarms", "a late report changed the game: {changes}").format(
        changes="; ".join(lines[:6]) + (" …" if len(lines) > 6 else ""))
    return Alarm(f"late_report:{now}", "late_report", text, now)


def stopp_overdue_alarm(event) -> Alarm:
    """A STOPP in force for longer than the rules' limit (a ``stopp_overdue`` deadline fired)."""
    sid = event.data["stopp"]
    return Alarm(f"stopp_overdue:{sid}", "stopp_overdue",
                 translate("alarms", "STOPP {stopp} has lasted too long").format(stopp=sid), event.t)


def late_news(corrections: list, items: Iterable = ()) -> bool:
    """Whether the deadlines a fold corrected are news to a game master: one is undone (it was announced), or a
    report stored where it happened, before what was folded, changed when they fall due.  A deadline fired a
    little late (a timer's tick, a station taking the timers over, the server away) and folded where it fell
    due is not, nor one stored late and moved to where it fell due: its death or wake-up is the same.
    ``items`` are the (stored event, token) folded."""
    fired = {timer_id(c.about) for c in corrections if c.kind == "fire"}
    if any(c.kind == "retract" and timer_id(c.about) not in fired for c in corrections):
        return True
    return any(s.pos is not None and s.event.source != SOURCE_TIMER and s.event.type not in FIELD_TYPES
               for s, _tok in items)
