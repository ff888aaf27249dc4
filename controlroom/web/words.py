"""The web page's words, in English and Estonian (resources/i18n/controlroom_et.ts, context ``web``).

The page asks for them in the phone's language (Accept-Language, or the
switch on the page); a text without a finished translation stays English.
"""

from __future__ import annotations

from controlroom.i18n import DEFAULT, LANGUAGES, QT_TRANSLATE_NOOP, catalogue

WORDS = {
    "title": QT_TRANSLATE_NOOP("web", "Control room"),
    "viewer": QT_TRANSLATE_NOOP("web", "Viewer"),
    "safety": QT_TRANSLATE_NOOP("web", "Safety"),
    "valhalla": QT_TRANSLATE_NOOP("web", "Valhalla gate"),
    "marshal": QT_TRANSLATE_NOOP("web", "Marshal"),
    "live": QT_TRANSLATE_NOOP("web", "live"),
    "stale": QT_TRANSLATE_NOOP("web", "stale since {time}: reconnecting…"),
    "no_access": QT_TRANSLATE_NOOP("web", "This link is not valid (any more). Ask the game master for a new invite."),
    "joining": QT_TRANSLATE_NOOP("web", "Opening the control room…"),
    "sides": QT_TRANSLATE_NOOP("web", "Sides"),
    "side": QT_TRANSLATE_NOOP("web", "Side"),
    "active": QT_TRANSLATE_NOOP("web", "active"),
    "down": QT_TRANSLATE_NOOP("web", "down"),
    "dead": QT_TRANSLATE_NOOP("web", "dead"),
    "in_valhalla": QT_TRANSLATE_NOOP("web", "in Valhalla"),
    "stopps": QT_TRANSLATE_NOOP("web", "STOPPs"),
    "no_stopps": QT_TRANSLATE_NOOP("web", "No STOPP in force"),
    "dying": QT_TRANSLATE_NOOP("web", "Dying"),
    "no_dying": QT_TRANSLATE_NOOP("web", "Nobody is dying"),
    "held": QT_TRANSLATE_NOOP("web", "held by a STOPP"),
    "map": QT_TRANSLATE_NOOP("web", "Map"),
    "no_map": QT_TRANSLATE_NOOP("web", "The game keeps no map: positions only"),
    "alarms": QT_TRANSLATE_NOOP("web", "Safety alarms"),
    "no_alarms": QT_TRANSLATE_NOOP("web", "No safety alarm waiting"),
    "acknowledge": QT_TRANSLATE_NOOP("web", "Acknowledge"),
    "caller": QT_TRANSLATE_NOOP("web", "caller"),
    "place": QT_TRANSLATE_NOOP("web", "place"),
    "square": QT_TRANSLATE_NOOP("web", "square"),
    "due": QT_TRANSLATE_NOOP("web", "Dead and due at the gate"),
    "nobody_due": QT_TRANSLATE_NOOP("web", "Nobody is due"),
    "check_in": QT_TRANSLATE_NOOP("web", "Check in"),
    "badge": QT_TRANSLATE_NOOP("web", "Badge"),
    "by": QT_TRANSLATE_NOOP("web", "By (badge)"),
    "kind": QT_TRANSLATE_NOOP("web", "What happened"),
    "send": QT_TRANSLATE_NOOP("web", "Send"),
    "resend": QT_TRANSLATE_NOOP("web", "Send again"),
    "report": QT_TRANSLATE_NOOP("web", "Report a casualty"),
    "call_stopp": QT_TRANSLATE_NOOP("web", "Call STOPP"),
    "lift_stopp": QT_TRANSLATE_NOOP("web", "Lift STOPP"),
    "reason": QT_TRANSLATE_NOOP("web", "Reason"),
    "danger": QT_TRANSLATE_NOOP("web", "danger"),
    "injury": QT_TRANSLATE_NOOP("web", "injury"),
    "unpleasant": QT_TRANSLATE_NOOP("web", "unpleasant"),
    "sending": QT_TRANSLATE_NOOP("web", "sending…"),
    "stored": QT_TRANSLATE_NOOP("web", "Stored"),
    "stored_again": QT_TRANSLATE_NOOP("web", "Stored before (sent twice): kept once"),
    "not_counted": QT_TRANSLATE_NOOP("web", "Stored, but it does not count"),
    "not_stored": QT_TRANSLATE_NOOP("web", "Not stored"),
    "no_answer": QT_TRANSLATE_NOOP("web", "No answer yet: send it again (it is stored once)"),
    "theme": QT_TRANSLATE_NOOP("web", "Night"),
    "k_down": QT_TRANSLATE_NOOP("web", "down"),
    "k_knocked_out": QT_TRANSLATE_NOOP("web", "knocked out"),
    "k_big_stone_on_shield": QT_TRANSLATE_NOOP("web", "big stone on shield"),
    "k_bound": QT_TRANSLATE_NOOP("web", "bound"),
    "k_cared_for": QT_TRANSLATE_NOOP("web", "cared for"),
    "k_strenuous": QT_TRANSLATE_NOOP("web", "strenuous"),
    "k_healer_touch": QT_TRANSLATE_NOOP("web", "healer's touch"),
    "k_died": QT_TRANSLATE_NOOP("web", "dead"),
    "k_permanent_kill": QT_TRANSLATE_NOOP("web", "permanent kill"),
    "k_respawned": QT_TRANSLATE_NOOP("web", "respawned"),
    "k_valhalla": QT_TRANSLATE_NOOP("web", "checked in at Valhalla"),
    "more": QT_TRANSLATE_NOOP("web", "and {n} more"),
}


def choose_language(accept: str | None, asked: str | None = None) -> str:
    """The page's language: the one asked for (the switch), else the phone's first known one, else English."""
    if asked in LANGUAGES:
        return asked
    best, best_q = DEFAULT, -1.0
    for i, part in enumerate((accept or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if code in LANGUAGES and q - i * 1e-6 > best_q:
            best, best_q = code, q - i * 1e-6
    return best


def words(code: str) -> dict[str, str]:
    """Every word of the page in ``code``."""
    known = catalogue("controlroom", code) if code != DEFAULT else {}
    return {key: known.get(("web", text), text) for key, text in WORDS.items()}
