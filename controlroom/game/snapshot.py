"""Snapshots of a GameState: a fold restarted from one gives exactly what folding from the start gives.

A snapshot copies every mutable part of the state (8,000 characters take about
15 ms); the roster and the rules profile are immutable and shared.  Restoring
makes new copies again, so one snapshot can be restored any number of times.
``tests/game/test_snapshot.py`` fails when GameState grows an attribute that
is not listed here.
"""

from __future__ import annotations

import copy
import operator
from collections import Counter
from collections.abc import Callable
from typing import Any

from controlroom.game.character import Character
from controlroom.game.state import GameState

_SLOTS = Character.__slots__
_PATIENTS = _SLOTS.index("patients")
_NO_PATIENTS: frozenset[int] = frozenset()


def _getter(names: tuple[str, ...]):
    """The slots ``names`` of a character as one tuple (attrgetter gives a bare value for a single name)."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda c: tuple(getattr(c, n) for n in names)


_before = _getter(_SLOTS[:_PATIENTS])
_after = _getter(_SLOTS[_PATIENTS + 1:])
# One statement that sets every slot from a row (``ch.member, ch.max_hp, ... = row``): no call per slot.
_namespace: dict[str, Any] = {}
exec(f"def _set_all(ch, row):\n    {', '.join('ch.' + name for name in _SLOTS)}, = row\n", _namespace)
_set_all = _namespace["_set_all"]

# Attributes copied as they are (immutable, or shared on purpose).
SHARED = frozenset({"profile", "roster", "t", "latest", "_floor", "events_applied", "inspection_count",
                    "_inspection_limits", "_event"})
# Lists of immutable records the fold only appends to: a snapshot keeps the list and its length (``Prefix``),
# not a copy (a fold kept 64 checkpoints: copies held 64 pointers for every warning, death and check-in).
APPENDED = frozenset({"deaths", "valhalla", "warnings", "retractions", "loot_log"})
# Lists of immutable records: a shallow copy is a full copy (a late field message is inserted in place).
LISTS = frozenset({"messages"})
# Dicts of immutable values, and sets of immutable members.
FLAT = frozenset({"positions", "heard", "headcounts", "siege", "inspections", "acknowledged", "_no_consent",
                  "_dirty", "_dirty_stopps"})
# Dicts whose values are mutable containers (copied one level down).
NESTED = frozenset({"_owed", "_order"})
# Handled one by one below.
SPECIAL = frozenset({"characters", "stopps", "active_stopps", "scenario", "scenarios"})
KNOWN = SHARED | APPENDED | LISTS | FLAT | NESTED | SPECIAL


class Prefix:
    """The first ``n`` items of a list the fold only appends to: what a snapshot keeps of it.

    The snapshots of a fold share its state's list; a state restored from one gets a list of its own
    (``values``), so a list a snapshot shares is only ever appended to, never changed within its prefix.
    """

    __slots__ = ("items", "n")

    def __init__(self, items: list, n: int) -> None:
        self.items, self.n = items, n

    def values(self) -> list:
        return self.items[:self.n]


def plain(value: Any) -> Any:
    """A snapshot's attribute as a plain value (a ``Prefix`` as the list it stands for)."""
    return value.values() if type(value) is Prefix else value


def attributes(state: GameState) -> dict[str, Any]:
    """Every attribute of ``state`` by name (its slots: a GameState has no instance dict)."""
    return dict(zip(_NAMES, _get_all(state)))


def _set_attributes(state: GameState, attrs: dict[str, Any]) -> None:
    setter = object.__setattr__
    for name, value in attrs.items():
        setter(state, name, value)


_NAMES: tuple[str, ...] = tuple(name for name in GameState.__slots__ if name != "__weakref__")
_get_all = operator.attrgetter(*_NAMES)


class Snapshot:
    """The state of a fold after ``events_applied`` events (opaque; restore it with ``restore``)."""

    __slots__ = ("attrs", "characters", "schedule")

    def __init__(self, attrs: dict[str, Any], characters: list[tuple]) -> None:
        self.attrs = attrs
        self.characters = characters
        self.schedule: Any = None       # a fold's deadline schedule as it stood (a checkpoint's), or None

    @property
    def t(self) -> int:
        return self.attrs["t"]

    @property
    def events_applied(self) -> int:
        return self.attrs["events_applied"]


def _flat(value):
    return value.copy()


def _nested(value: dict) -> dict:
    return {k: (Counter(v) if isinstance(v, Counter) else list(v)) for k, v in value.items()}


def _copy_attrs(source: dict[str, Any], taking: bool = False) -> dict[str, Any]:
    """A copy of a state's attributes, to keep in a snapshot (``taking``) or to give a state made from one."""
    unknown = set(source) - KNOWN
    if unknown:
        raise TypeError(f"GameState attributes unknown to the snapshot: {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {}
    for name, value in source.items():
        if name in SHARED:
            out[name] = value
        elif name in APPENDED:
            if taking:
                out[name] = Prefix(value, len(value))
            else:
                out[name] = value.values() if type(value) is Prefix else list(value)
        elif name in LISTS:
            out[name] = list(value)
        elif name in FLAT:
            out[name] = _flat(value)
        elif name in NESTED:
            out[name] = _nested(value)
    stopps = {sid: copy.copy(s) for sid, s in source["stopps"].items()}
    out["stopps"] = stopps
    out["active_stopps"] = {sid: stopps[sid] for sid in source["active_stopps"]}
    scenarios = [copy.copy(s) for s in source["scenarios"]]
    current = source["scenario"]
    found = next((i for i, s in enumerate(source["scenarios"]) if s is current), None)
    out["scenarios"] = scenarios
    out["scenario"] = scenarios[found] if found is not None else copy.copy(current)
    return out


def take(state: GameState) -> Snapshot:
    """A snapshot of ``state`` (which goes on changing; the snapshot does not)."""
    # A carer's set of patients is the one mutable slot: the snapshot keeps a frozen copy (an empty
    # set too: the live one may get patients after the snapshot was taken).  The slots before and
    # after it are read in one call each (most characters care for nobody).
    none = _NO_PATIENTS
    chars = [_before(c) + ((frozenset(c.patients) if c.patients else none),) + _after(c)
             for c in state.characters.values()]
    return Snapshot(_copy_attrs(attributes(state), taking=True), chars)


def take_since(state: GameState, base: Snapshot, changed: set[int]) -> Snapshot:
    """A snapshot of ``state``, which equals ``base`` but for the characters ``changed``: their rows are read
    anew, every other one is ``base``'s (a fold's checkpoint after a few hundred events reads a few hundred
    characters, not 8,000).  ``state`` has ``base``'s characters in ``base``'s order (a state keeps its
    characters from its making: none is added or removed)."""
    rows = list(base.characters)
    if changed:
        where = {badge: i for i, badge in enumerate(state.characters)}
        none, characters = _NO_PATIENTS, state.characters
        for badge in changed:
            i = where.get(badge)
            if i is not None:
                c = characters[badge]
                row = _before(c) + ((frozenset(c.patients) if c.patients else none),) + _after(c)
                if row != rows[i]:
                    rows[i] = row
    return Snapshot(_copy_attrs(attributes(state), taking=True), rows)


def restore(snapshot: Snapshot, pause: Callable[[], None] | None = None) -> GameState:
    """A new GameState equal to the one the snapshot was taken of (``pause``: called every 512 characters,
    where background work may rest: pacing.py)."""
    state = GameState.__new__(GameState)
    _set_attributes(state, _copy_attrs(snapshot.attrs))
    characters = {}
    new, set_all = Character.__new__, _set_all
    for i, row in enumerate(snapshot.characters):
        if pause is not None and not i & 511:
            pause()
        ch = new(Character)
        set_all(ch, row)
        ch.patients = set(ch.patients)
        characters[ch.member.badge] = ch
    state.characters = characters
    return state


def restore_over(state: GameState, snapshot: Snapshot) -> GameState:
    """The snapshot's state, made in ``state`` itself when it is of the same characters in the same order
    (``restore_into``: a tenth of ``restore``'s time on 8,000 characters), else anew (``restore``).

    What a fold going back to a checkpoint uses: nothing holds on to the state it folded before.
    """
    rows = snapshot.characters
    if len(state.characters) == len(rows) and all(
            ch.member is row[0] for ch, row in zip(state.characters.values(), rows)):
        restore_into(state, snapshot)
        return state
    return restore(snapshot)


def restore_into(state: GameState, snapshot: Snapshot) -> None:
    """Make ``state`` equal to the snapshot again, reusing its character objects.

    ``state`` must have been restored from a snapshot of the same game (its
    characters in the same order).  A replay seeking to and fro keeps one such
    state: setting every slot of 8,000 characters in one statement each takes
    a third of the time that making them anew takes (``restore``), and less
    than finding out which of them differ would.
    """
    characters = state.characters
    rows = snapshot.characters
    if len(characters) != len(rows):
        raise ValueError("the snapshot is of another game (not the same characters)")
    _set_attributes(state, _copy_attrs(snapshot.attrs))    # all but the characters
    for ch, row in zip(characters.values(), rows):
        if ch.member is not row[0]:
            raise ValueError("the snapshot is of another game (its characters are in another order)")
        _set_all(ch, row)
        ch.patients = set(ch.patients)
