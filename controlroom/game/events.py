"""Events: every change in a game is one immutable event with a time, a type, a source and fields."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from controlroom.rules.inspection_kinds import WEAPON_KINDS

# Where an event came from.  Radio reports use "marshal:<device id>" or
# "tracker:<device id>"; a game master's entries "gm" (or "gm:<name>"); events a
# rule timer fired "timer"; scripted scenarios "script".
SOURCE_TIMER = "timer"
SOURCE_GM = "gm"
SOURCE_SCRIPT = "script"

STOPP_REASONS = ("unpleasant", "injury", "danger")
DEATH_CAUSES = ("bled_out", "reported", "permanent_kill")


class EventError(ValueError):
    """An event that does not have the fields its type needs."""


class Event(NamedTuple):
    """One fact of the game.  ``t`` is milliseconds on the game timeline.

    A named tuple: immutable, and cheap to build when a game of 200,000
    events is folded from its log.  ``data`` is never changed once made.
    """

    t: int
    type: str
    data: Mapping[str, Any] = {}
    source: str = SOURCE_GM

    @property
    def badge(self) -> int | None:
        return self.data.get("badge")

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t, "type": self.type, "source": self.source, **self.data}


# Field kinds: "badge" a positive whole number; "int" a whole number >= 0;
# "count" a whole number >= 1; "bool"; "str" non-empty text; "badges" a list of
# badges; "strs" a list of texts; "num" any finite number; "secs" seconds >= 0; "reason" one of STOPP_REASONS;
# "cause" one of DEATH_CAUSES; "kind" one of WEAPON_KINDS; "measures" a mapping of
# names to numbers, true/false or texts.  A field spec is (name, kind, default); the
# default REQUIRED marks a field that must be given; None means optional.
REQUIRED = object()

_CHAR = ("badge", "badge", REQUIRED)

SCHEMA: dict[str, tuple[tuple[str, str, Any], ...]] = {
    # Casualties reported by marshals (or entered by a game master).
    "strike": (_CHAR, ("count", "count", 1), ("on_armour", "bool", True)),
    "big_stone": (_CHAR, ("on_shield", "bool", False)),
    "knocked_out": (_CHAR, ("helmet", "bool", None), ("saw_attacker", "bool", False)),
    "down": (_CHAR,),
    "bound": (_CHAR, ("by", "badge", None)),
    "cared_for": (_CHAR, ("carer", "badge", REQUIRED)),
    "care_ended": (_CHAR,),
    "strenuous": (_CHAR,),
    "bandage_removed": (_CHAR,),
    "healer_touch": (_CHAR, ("healer", "badge", REQUIRED)),
    "died": (_CHAR, ("cause", "cause", "reported")),
    # ``counted``: the seconds of hacking counted aloud, when the report gives them (the rules want 10).
    "permanent_kill": (_CHAR, ("by", "badge", None), ("counted", "secs", None)),
    "valhalla_checkin": (_CHAR,),
    "respawned": (_CHAR,),
    # Fired by rule timers.
    "woke": (_CHAR,),
    "hp_regained": (_CHAR,),
    "stopp_overdue": (("stopp", "str", REQUIRED),),
    # A game master's rulings.
    "hp_set": (_CHAR, ("max_hp", "count", REQUIRED)),
    "armour_set": (
        _CHAR,
        ("helmet", "str", None),
        ("armour", "strs", ()),
        ("inadequate", "bool", False),
        ("ap", "int", None),
        # Appendix 2: the thickness measured at the desk, in mm: ``helmet_mm`` and ``<piece>_mm``.
        ("measures", "measures", None),
    ),
    # Appendix 1: a weapon (shield, arrow, siege engine...) inspected at the weapon-check desk.
    # ``tag`` is the number on the tag tied to it; a later inspection of the same tag supersedes.
    "weapon_inspected": (
        _CHAR,
        ("tag", "str", REQUIRED),
        ("kind", "kind", REQUIRED),
        ("passed", "bool", REQUIRED),
        ("failed", "strs", ()),
        ("category", "str", None),
        ("measures", "measures", None),
    ),
    "scenario_started": (("name", "str", REQUIRED), ("respawn", "bool", False), ("respawn_time", "num", None)),
    "scenario_ended": (),
    "stopp_called": (
        ("stopp", "str", REQUIRED),
        ("groups", "strs", ()),
        ("badges", "badges", ()),
        ("caller", "badge", None),
        ("reason", "reason", "danger"),
        ("lat", "num", None),
        ("lon", "num", None),
    ),
    "stopp_lifted": (("stopp", "str", REQUIRED), ("trivial", "bool", False)),
    "note": (("text", "str", REQUIRED),),
    # Players added to the roster of a game under way (the window's roster import): the roster is kept beside
    # the log; this says when it changed, and makes every station fold the game again over the new roster.
    "roster_added": (("added", "badges", REQUIRED),),
    # A correction: the event stored as ``seq`` was a wrong report.  The old
    # event is never edited; a game folded from its log leaves it out.
    "retracted": (("seq", "count", REQUIRED), ("reason", "str", None)),
    # What trackers and handsets report besides casualties (for the map).
    "position": (("device", "badge", REQUIRED), ("lat", "num", None), ("lon", "num", None),
                 ("battery", "int", None), ("fix", "int", 0), ("sats", "int", 0)),
    "heartbeat": (("device", "badge", REQUIRED), ("battery", "int", None), ("uptime", "int", 0)),
    "headcount": (("group", "str", REQUIRED), ("up", "int", 0), ("down", "int", 0), ("dead", "int", 0)),
    "siege_status": (("engine", "str", REQUIRED), ("status", "str", REQUIRED),
                     ("lat", "num", None), ("lon", "num", None)),
    "message": (("code", "str", REQUIRED), ("text", "str", REQUIRED)),
    # The station found that a device's frame (``counter``) needed retries: a copy heard again 3 s or more after
    # the first (the handset got no acknowledgement), or a key press heard seconds late.  ``tries``: the
    # handset's tries by then.  The coverage layer marks where it was sent from (geo/coverage.py).
    "radio_retried": (("device", "badge", REQUIRED), ("counter", "int", REQUIRED), ("tries", "count", 2)),
    # Spoils of war: ``badge`` is the player looted (the owner), ``by`` the looter.
    "looted": (_CHAR, ("by", "badge", REQUIRED), ("items", "strs", REQUIRED), ("consent", "bool", False),
               ("relic", "bool", False)),
    "returned": (_CHAR, ("by", "badge", REQUIRED), ("items", "strs", ())),
    # A game master acknowledged an alarm (a STOPP, a forged frame, a lost gateway...).
    "alarm_acknowledged": (("alarm", "str", REQUIRED), ("by", "str", None)),
}

# Events the rule timers create (never sent by a marshal as such).
TIMER_TYPES = frozenset({"woke", "hp_regained", "stopp_overdue"})


def _check(name: str, kind: str, value: Any) -> Any:
    if kind == "badge":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EventError(f"'{name}' must be a badge number (a whole number above 0), not {value!r}")
    elif kind in ("int", "count"):
        low = 1 if kind == "count" else 0
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise EventError(f"'{name}' must be a whole number of at least {low}, not {value!r}")
    elif kind in ("num", "secs"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise EventError(f"'{name}' must be a number, not {value!r}")
        if kind == "secs" and value < 0:
            raise EventError(f"'{name}' must be a number of seconds >= 0, not {value!r}")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise EventError(f"'{name}' must be true or false, not {value!r}")
    elif kind == "str":
        if not isinstance(value, str) or not value.strip():
            raise EventError(f"'{name}' must be a non-empty text, not {value!r}")
        value = value.strip()
    elif kind in ("badges", "strs"):
        if not isinstance(value, (list, tuple)):
            raise EventError(f"'{name}' must be a list, not {value!r}")
        inner = "badge" if kind == "badges" else "str"
        value = tuple(_check(name, inner, v) for v in value)
    elif kind == "reason":
        if value not in STOPP_REASONS:
            raise EventError(f"'{name}' must be one of {', '.join(STOPP_REASONS)}, not {value!r}")
    elif kind == "kind":
        if value not in WEAPON_KINDS:
            raise EventError(f"'{name}' must be one of {', '.join(WEAPON_KINDS)}, not {value!r}")
    elif kind == "measures":
        if not isinstance(value, Mapping) or not all(isinstance(k, str) and k for k in value):
            raise EventError(f"'{name}' must be a table of measurements by name, not {value!r}")
        for k, v in value.items():
            if not isinstance(v, (bool, int, float, str)):
                raise EventError(f"'{name}': measurement {k!r} must be a number, true/false or a text, not {v!r}")
        value = dict(value)
    elif kind == "cause":
        if value not in DEATH_CAUSES:
            raise EventError(f"'{name}' must be one of {', '.join(DEATH_CAUSES)}, not {value!r}")
    return value


_LEAST = {"badge": 1, "count": 1, "int": 0}     # the whole-number kinds: their least value
_FIELDS = {type_: frozenset(name for name, _, _ in spec) for type_, spec in SCHEMA.items()}


def validate(type_: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of an event of ``type_``, checked and with defaults filled in.

    Raises EventError naming the unknown type, the missing or the bad field.
    Unknown extra fields are refused too, so that a misspelt field is never
    silently ignored.
    """
    spec = SCHEMA.get(type_)
    if spec is None:
        raise EventError(f"unknown event type {type_!r} (known: {', '.join(sorted(SCHEMA))})")
    known = _FIELDS[type_]
    if not known.issuperset(fields):
        extra = sorted(set(fields) - known)
        allowed = ", ".join(sorted(known)) or "none"
        raise EventError(f"{type_}: unknown field {extra[0]!r} (fields of {type_}: {allowed})")
    out: dict[str, Any] = {}
    get = fields.get
    for name, kind, default in spec:
        value = get(name)
        if value is not None:
            # The common cases first (a whole number, a finite number), in line; _check says what is wrong.
            low = _LEAST.get(kind)
            if low is not None and type(value) is int and value >= low:
                out[name] = value
            elif kind == "num" and type(value) is float and math.isfinite(value):
                out[name] = value
            else:
                out[name] = _check(name, kind, value)
        elif default is REQUIRED:
            raise EventError(f"{type_}: missing field '{name}'")
        elif default is not None:
            out[name] = default
    if type_ == "stopp_called" and out.get("groups") and out.get("badges"):
        raise EventError("stopp_called: give 'groups' or 'badges' (or neither, for everyone), not both")
    if type_ == "weapon_inspected" and out["passed"] == bool(out["failed"]):
        raise EventError("weapon_inspected: 'passed' must be true exactly when no criterion 'failed'")
    return out


def make_event(t: int, type_: str, source: str = SOURCE_GM, **fields: Any) -> Event:
    """A checked event (the one way code outside this module builds events)."""
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise EventError(f"event time must be whole milliseconds >= 0, not {t!r}")
    return Event(t=t, type=type_, data=validate(type_, fields), source=source)
