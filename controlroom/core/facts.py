"""The facts the core tells, one list: the worker's signals and their mirror in the window's thread are made from it."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

#: (name, argument types, what it carries), past tense: each is one fact.
FACTS: tuple[tuple[str, tuple[type, ...], str], ...] = (
    ("opened", (object,), "GameInfo, once the game is open"),
    ("loaded", (object,), "StateDelta(full=True), once the game is folded (again, should it be folded anew)"),
    ("delta_published", (object,), "StateDelta, at most every publish interval"),
    ("stopp_called", (object,), "StoppView, as soon as it is stored"),
    ("characters_died", (object,), "tuple of CharacterView, as soon as the deaths are stored (a burst at once)"),
    ("alarm_raised", (object,), "Alarm"),
    ("events_stored", (int,), "the last seq folded (this station's or another's)"),
    ("timers_changed", (str,), "who runs the rule timers: alone, owner, standby, offline"),
    ("input_rejected", (str,), "a command or report that could not become an event"),
    ("devices_known", (object,), "{source: {role, label, group, engine, tak}}: no keys"),
    ("stats_reported", (object,), "counters and health, when the core stops"),
    ("stopped", (), "everything that could be stored is stored; the thread may end"),
    ("roster_answered", (object,), "RosterAnswer, to players offered (AddPlayers)"),
    ("link_changed", (str, str, str), "a link's name, its state (connecting, identified, up, lost...) and detail"),
    ("report_answered", (object,), "FormAnswer, to a phone's report (FormReport), once stored and folded"),
)
NAMES = tuple(name for name, _args, _doc in FACTS)


def facts_class(name: str, doc: str) -> type[QObject]:
    """A QObject class with one signal per fact (the worker's, and the mirror the window connects to)."""
    namespace: dict = {"__doc__": doc + "\n\nIts signals (core.facts.FACTS):\n" + "\n".join(
        f"- ``{n}``: {d}" for n, _a, d in FACTS)}
    namespace.update({n: Signal(*args) for n, args, _d in FACTS})
    return type(name, (QObject,), namespace)


WorkerFacts = facts_class("WorkerFacts", "The facts as the core worker tells them, in its own thread.")
Facts = facts_class("Facts", "The facts mirrored into the thread that made the CoreThread (the window's).")
