"""The text grammar a marshal types on a phone (the Meshtastic app): parsed into reports, answered in words.

Pure: no radio, no Qt.  docs/meshtastic.md documents the grammar; in short
(case does not matter, Estonian words and letters are taken too):

    D 123        down              (also: DOWN, MAAS)
    K 123        dead              (also: DEAD, SURNUD, SURN)
    B 123 [45]   bound [by 45]     (also: BOUND, SEOTUD)
    V 123        Valhalla check-in (also: VALHALLA)
    STOPP [reason] [group]         (also: STOP; reasons: danger/oht, injury/vigastus, unpleasant/ebameeldiv)
    LIFT [id]    lift your last STOPP, or the one named (also: LÕPP, LOPP, JÄTKA, JATKA)
    H 12 [3 [1]] [group]  headcount: up [down [dead]] (also: HEADCOUNT, PEALUGU, LOEND)
    ? or HELP    the grammar in one line (also: ABI)

A badge may be written ``#123``.  Anything after the fields is refused, so
that a typo never becomes a different report.

The answers are in words a marshal reads (context ``textreport`` of the
translations): ``to_report`` says them in the language it is given (the
game's marshals' language, ``radio.mesh_ingest``), a TextError's answer is a
Text said in any language (``TextError.said``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from controlroom.game.clock import format_time
from controlroom.i18n import QT_TRANSLATE_NOOP, Text, wording

HELP = wording("textreport", "D/K/B/V 123 = down/dead/bound/Valhalla; STOPP [reason] [group]; LIFT; H 12 = headcount")
MAX_REPLY = 200          # bytes a Meshtastic text carries comfortably (its limit is 233)

# Command words, without diacritics and in lower case (see ``_fold``).
_WORDS = {
    "down": ("d", "down", "maas"),
    "died": ("k", "dead", "kill", "surnud", "surn"),
    "bound": ("b", "bound", "seotud"),
    "valhalla": ("v", "valhalla"),
    "stopp": ("stopp", "stop"),
    "lift": ("lift", "lopp", "jatka"),
    "headcount": ("h", "headcount", "pealugu", "loend"),
    "help": ("?", "help", "abi"),
}
ACTION_OF = {w: action for action, words in _WORDS.items() for w in words}
REASONS = {
    "danger": "danger", "oht": "danger", "ohtlik": "danger",
    "injury": "injury", "vigastus": "injury", "vigastatud": "injury", "haiget": "injury",
    "unpleasant": "unpleasant", "ebameeldiv": "unpleasant",
}
# How a reply names each report, and each reason of a STOPP.
SAID = {"down": QT_TRANSLATE_NOOP("textreport", "down"), "died": QT_TRANSLATE_NOOP("textreport", "dead"),
        "bound": QT_TRANSLATE_NOOP("textreport", "bound"), "valhalla": QT_TRANSLATE_NOOP("textreport", "in Valhalla")}
REASON_SAID = {"danger": QT_TRANSLATE_NOOP("textreport", "danger"),
               "injury": QT_TRANSLATE_NOOP("textreport", "injury"),
               "unpleasant": QT_TRANSLATE_NOOP("textreport", "unpleasant")}


class Command(NamedTuple):
    """One parsed message: what the marshal asked for, with its fields."""

    action: str                        # down, died, bound, valhalla, stopp, lift, headcount, help
    badge: int | None = None
    by: int | None = None              # bound: the binder
    reason: str = "danger"             # stopp
    group: str | None = None           # stopp, headcount: as typed (matched to the roster later)
    stopp: str | None = None           # lift: the STOPP named
    counts: tuple[int, int, int] = (0, 0, 0)     # headcount: up, down, dead


class TextError(ValueError):
    """A message that is not a report; ``said(language)`` is the answer to send (``? ...``), ``str()`` the same
    in the language spoken."""

    def __init__(self, message: Text) -> None:
        self.text = message
        super().__init__(message)

    def said(self, code: str | None = None) -> str:
        return f"? {self.text.render(code)}"

    def __str__(self) -> str:
        return self.said()


def _fold(word: str) -> str:
    """Lower case without diacritics: ``LÕPP`` and ``lopp`` are one word (Š, Ž, Õ, Ä, Ö, Ü too)."""
    word = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in word if not unicodedata.combining(ch))


def looks_like_command(text: str) -> bool:
    """Whether a message on a shared channel is meant for the station (else it is chat, left alone)."""
    words = text.split()
    return bool(words) and _fold(words[0]) in ACTION_OF


def _badge(token: str, binder: bool = False) -> int:
    digits = token[1:] if token.startswith("#") else token
    if not re.fullmatch(r"[0-9]{1,7}", digits):
        raise TextError(wording("textreport", "the binder's badge must be a number, not '{token}'", token=token)
                        if binder else wording("textreport", "badge must be a number, not '{token}'", token=token))
    value = int(digits)
    if value < 1:
        raise TextError(wording("textreport", "badge must be a number above 0, not '{token}'", token=token))
    return value


def parse(text: str) -> Command:
    """The command a message gives; raises TextError with the answer to send back."""
    if not isinstance(text, str):
        raise TextError(wording("textreport", "a text message, please"))
    words = text.replace(",", " ").split()
    if not words:
        raise TextError(wording("textreport", "empty message. {help}", help=HELP))
    head, rest = _fold(words[0]), words[1:]
    action = ACTION_OF.get(head)
    if action is None:
        m = re.fullmatch(r"([a-z])#?([0-9]+)", head)          # "D123" written without the space
        if m and ACTION_OF.get(m.group(1)) in SAID:
            action, rest = ACTION_OF[m.group(1)], [m.group(2)] + rest
        else:
            raise TextError(wording("textreport", "unknown command '{word}'. {help}", word=words[0][:20], help=HELP))
    if action == "help":
        return Command("help")
    if action in SAID:
        if not rest:
            raise TextError(wording("textreport", "a badge number is missing: {word} 123", word=words[0].upper()))
        badge = _badge(rest[0])
        by = None
        extra = rest[1:]
        if action == "bound" and extra:
            if len(extra) == 2 and _fold(extra[0]) in ("by", "poolt"):     # "B 123 by 45"
                extra = extra[1:]
            by, extra = _badge(extra[0], binder=True), extra[1:]
        if extra:
            raise TextError(wording("textreport", "one badge per message; '{extra}' is too much",
                                    extra=" ".join(extra)[:20]))
        return Command(action, badge, by)
    if action == "stopp":
        reason = "danger"
        if rest and _fold(rest[0]) in REASONS:
            reason = REASONS[_fold(rest[0])]
            rest = rest[1:]
        return Command("stopp", reason=reason, group=" ".join(rest) or None)
    if action == "lift":
        if len(rest) > 1:
            raise TextError(wording("textreport", "LIFT takes one STOPP id at most, e.g. LIFT 12-ab01"))
        return Command("lift", stopp=rest[0] if rest else None)
    # headcount: H up [down [dead]] [group]
    counts: list[int] = []
    while rest and re.fullmatch(r"[0-9]{1,5}", rest[0]) and len(counts) < 3:
        counts.append(int(rest.pop(0)))
    if not counts:
        raise TextError(wording("textreport", "a headcount is a number: H 12 (up), H 12 3 1 (up, down, dead)"))
    counts += [0] * (3 - len(counts))
    return Command("headcount", counts=(counts[0], counts[1], counts[2]), group=" ".join(rest) or None)


def match_group(typed: str, groups: Iterable[str]) -> str:
    """The roster's group a typed name means (case and diacritics aside); TextError if none or several."""
    groups = list(groups)
    for exact in (True, False):
        key = typed.casefold() if exact else _fold(typed)
        found = [g for g in groups if (g.casefold() if exact else _fold(g)) == key]
        if len(found) == 1:
            return found[0]
    starts = [g for g in groups if _fold(g).startswith(_fold(typed))]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise TextError(wording("textreport", "group '{group}' could be {groups}", group=typed[:20],
                                groups=", ".join(sorted(starts)[:3])))
    raise TextError(wording("textreport", "group '{group}' unknown", group=typed[:20]))


class Report(NamedTuple):
    """What a command becomes: an event to store, or nothing (help); and the answer once it is stored."""

    type: str | None
    fields: dict
    reply: str


def to_report(cmd: Command, *, badges: Mapping[int, object] | Iterable[int], groups: Iterable[str],
              device: int, device_group: str | None, tag: str, now_ms: int,
              active_stopps: Iterable[str] = (), mine: Iterable[str] = (), language: str | None = None) -> Report:
    """The event a command reports (checked against the roster), and its confirmation in ``language`` (None:
    the language spoken).

    ``tag``: what makes this message's STOPP id unique (the Meshtastic packet
    id); ``mine``: the STOPPs this device called, oldest first; ``now_ms`` the
    game time the confirmation names.
    """
    type_, fields, reply = _report(cmd, badges, groups, device, device_group, tag, format_time(now_ms)[:5],
                                   active_stopps, mine)
    return Report(type_, fields, reply.render(language))


def _report(cmd: Command, badges, groups, device: int, device_group: str | None, tag: str, at: str,
            active_stopps: Iterable[str], mine: Iterable[str]) -> tuple[str | None, dict, Text]:
    if cmd.action == "help":
        return None, {}, HELP
    if cmd.action in SAID:
        for badge in (cmd.badge, cmd.by):
            if badge is not None and badge not in badges:
                raise TextError(wording("textreport", "badge {badge} unknown", badge=badge))
        type_ = {"valhalla": "valhalla_checkin"}.get(cmd.action, cmd.action)
        fields: dict = {"badge": cmd.badge}
        said = wording("textreport", SAID[cmd.action])
        if cmd.by is None:
            return type_, fields, wording("textreport", "OK: {badge} {said} {at}", badge=cmd.badge, said=said, at=at)
        fields["by"] = cmd.by
        return type_, fields, wording("textreport", "OK: {badge} {said} by {by} {at}", badge=cmd.badge, said=said,
                                      by=cmd.by, at=at)
    if cmd.action == "stopp":
        stopp = f"{device}-{tag}"
        fields = {"stopp": stopp, "reason": cmd.reason}
        reason = wording("textreport", REASON_SAID.get(cmd.reason, cmd.reason))
        if cmd.group is None:
            return "stopp_called", fields, wording("textreport", "OK: STOPP {stopp} ({reason}) {at}. LIFT to end it",
                                                   stopp=stopp, reason=reason, at=at)
        fields["groups"] = [match_group(cmd.group, groups)]
        return "stopp_called", fields, wording("textreport", "OK: STOPP {stopp} ({reason}) for {group} {at}. LIFT "
                                                             "to end it", stopp=stopp, reason=reason,
                                               group=fields["groups"][0], at=at)
    if cmd.action == "lift":
        active = list(active_stopps)
        if cmd.stopp is not None:
            named = [s for s in active if s.casefold() == cmd.stopp.casefold()]
            if not named:
                raise TextError(wording("textreport", "no STOPP {stopp} is on", stopp=cmd.stopp[:20]))
            stopp = named[0]
        else:
            own = [s for s in mine if s in active]
            if not own:
                raise TextError(wording("textreport", "no STOPP of yours is on: LIFT <id>"))
            stopp = own[-1]
        return "stopp_lifted", {"stopp": stopp}, wording("textreport", "OK: STOPP {stopp} lifted {at}", stopp=stopp,
                                                         at=at)
    group = match_group(cmd.group, groups) if cmd.group is not None else device_group
    if group is None:
        raise TextError(wording("textreport", "whose headcount? H 12 GROUP"))
    up, down, dead = cmd.counts
    return "headcount", {"group": group, "up": up, "down": down, "dead": dead}, wording(
        "textreport", "OK: {group} {up} up {down} down {dead} dead {at}", group=group, up=up, down=down, dead=dead,
        at=at)


def clip(text: str, limit: int = MAX_REPLY) -> str:
    """A reply cut to what one Meshtastic text carries (UTF-8 bytes; Estonian letters take two)."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit - 3].decode("utf-8", "ignore") + "..."
