"""Immutable views of the game for readers (the window, reports): snapshots and deltas."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from controlroom.game.character import CONDITIONS, Deadline, RuleWarning
from controlroom.game.events import Event
from controlroom.game.state import GameState


class CharacterView(NamedTuple):
    badge: int
    name: str
    side: str
    group: str
    cls: str
    condition: str
    hp: int
    max_hp: int
    ap: int
    max_ap: int
    deaths: int
    in_valhalla: bool
    bound: bool
    carer: int | None
    touches_left: int | None
    deadlines: tuple[Deadline, ...]
    armour: dict = {}        # as last recorded: helmet, pieces, inadequate, ap, measures (ArmourForm.set_armour)


class StoppView(NamedTuple):
    id: str
    called: int
    lifted: int | None
    caller: int | None
    reason: str
    covered: int
    groups: tuple[str, ...]
    lat: float | None
    lon: float | None
    trivial: bool
    overdue: bool


class StoredView(NamedTuple):
    """An event as stored: its place in the log and when it was written."""

    seq: int
    wall: int
    event: Event
    via: str | None = None         # how a radio report came, if not as our own frame (game.devices.VIA_*)


class StateDelta(NamedTuple):
    """What changed since the last delta (``full``: everything, after opening or a correction)."""

    t: int
    full: bool
    characters: tuple[CharacterView, ...]
    stopps: tuple[StoppView, ...]
    events: tuple[StoredView, ...]
    warnings: tuple[RuleWarning, ...]
    sides: dict[str, dict[str, int]]
    scenario: str
    field: dict = {}         # positions, headcounts, siege engines, heard (latest of each): see FieldSent
    radio: dict = {}         # links, counters, devices heard, recent frames (from the station's radio)
    scenarios: tuple = ()    # the names of the scenarios started so far, in order, each once
    scenario_started: int | None = None     # game ms the current scenario started (None: none started)
    coverage: object = None  # geo.coverage.CoverageRows made since the last delta (None: none)
    scenario_ended: int | None = None       # ... and ended (None while it runs)


def character_view(state: GameState, badge: int) -> CharacterView:
    ch = state.characters[badge]
    m = ch.member
    touches = state.profile.character_class(m.cls).healer_touches
    return CharacterView(
        badge, m.name, m.side, m.group, m.cls, ch.condition, ch.hp, ch.max_hp, ch.ap.total, ch.full_ap.total,
        ch.deaths, ch.in_valhalla, ch.bound, ch.carer, touches - ch.touches_used if touches else None,
        tuple(state.deadlines_of(badge)),
        dict(ch.armour),
    )


def stopp_view(state: GameState, stopp_id: str) -> StoppView:
    s = state.stopps[stopp_id]
    return StoppView(
        s.id, s.called, s.lifted, s.caller, s.reason, len(s.covered), tuple(s.groups), s.lat, s.lon,
        s.trivial, s.overdue_alerted,
    )


def side_counts(state: GameState) -> dict[str, dict[str, int]]:
    """Per side: counts by condition, deaths, and who is in Valhalla."""
    out: dict[str, Counter] = {}
    for ch in state.characters.values():
        c = out.setdefault(ch.member.side, Counter(dict.fromkeys(CONDITIONS, 0)))
        c[ch.condition] += 1
        c["deaths"] += ch.deaths
        c["in_valhalla"] += ch.in_valhalla
    return {side: dict(c) for side, c in sorted(out.items())}


class SideTally:
    """Per-side counts kept up to date from the characters that changed (not a scan of thousands)."""

    def __init__(self, state: GameState) -> None:
        self.counts: dict[str, Counter] = {}
        self._last: dict[int, tuple[str, str, int, bool]] = {}
        for badge in state.characters:
            key = self._key(state, badge)
            self._add(key, 1)
            self._last[badge] = key

    @staticmethod
    def _key(state: GameState, badge: int) -> tuple[str, str, int, bool]:
        ch = state.characters[badge]
        return (ch.member.side, ch.condition, ch.deaths, ch.in_valhalla)

    def _add(self, key: tuple[str, str, int, bool], sign: int) -> None:
        side, condition, deaths, in_valhalla = key
        c = self.counts.setdefault(side, Counter(dict.fromkeys((*CONDITIONS, "deaths", "in_valhalla"), 0)))
        c[condition] += sign
        c["deaths"] += sign * deaths
        c["in_valhalla"] += sign * in_valhalla

    def update(self, state: GameState, badges) -> None:
        for badge in badges:
            key = self._key(state, badge)
            old = self._last.get(badge)
            if old != key:
                if old is not None:
                    self._add(old, -1)
                self._add(key, 1)
                self._last[badge] = key

    def snapshot(self) -> dict[str, dict[str, int]]:
        return {side: dict(c) for side, c in sorted(self.counts.items())}


#: The parts of ``StateDelta.field``: the latest report of each source, group or engine.
FIELD_PARTS = ("positions", "headcounts", "siege", "heard")


def field_of(state: GameState) -> dict:
    """Every part of the field reports, whole."""
    return {name: dict(getattr(state, name)) for name in FIELD_PARTS}


class FieldSent:
    """What of the field reports a publisher has sent: each delta then carries only what changed since.

    With 500 trackers and handsets heard, a delta ten times a second carried
    every position and battery again.  A field of changes says so
    (``"partial": True``); a reader keeps the parts with :func:`merge_field`.
    """

    def __init__(self) -> None:
        self.sent: dict[str, dict] = {name: {} for name in FIELD_PARTS}

    def changes(self, state: GameState, whole: bool = False) -> dict:
        """The field for the next delta: ``whole`` (after opening or a fold again), else what changed."""
        if whole:
            whole_field = field_of(state)
            self.sent = {name: dict(part) for name, part in whole_field.items()}
            return whole_field
        field: dict = {"partial": True}
        for name in FIELD_PARTS:
            sent = self.sent[name]
            # A report replaces its tuple: an entry not replaced since it was sent is the very same object.
            changed = {k: v for k, v in getattr(state, name).items() if sent.get(k) is not v}
            sent.update(changed)
            field[name] = changed
        return field


def merge_field(kept: dict, field: dict | None, parts: tuple[str, ...] = FIELD_PARTS) -> dict:
    """Fold a delta's ``field`` into the ``parts`` a reader ``kept`` (changed in place and returned).

    A part the field does not name stays as it was; a partial field's parts
    update the kept ones; a whole field's parts replace them.
    """
    field = field or {}
    partial = field.get("partial", False)
    for name in parts:
        part = field.get(name)
        if part is None:
            continue
        if partial and name in kept:
            kept[name].update(part)
        else:
            kept[name] = dict(part)
    return kept


def make_delta(
    state: GameState,
    badges,
    stopps,
    events=(),
    warnings=(),
    full: bool = False,
    sides: dict[str, dict[str, int]] | None = None,
    field: dict | None = None,
    characters: tuple[CharacterView, ...] | None = None,
) -> StateDelta:
    """What changed: ``badges``' characters (or their views made already: ``characters``), ``stopps``, the
    ``events`` stored; ``field`` (default: whole)."""
    if full:
        badges, stopps = state.characters.keys(), state.stopps.keys()
    if characters is None:
        characters = tuple(character_view(state, b) for b in sorted(badges) if b in state.characters)
    return StateDelta(
        t=state.t,
        full=full,
        characters=characters,
        stopps=tuple(stopp_view(state, s) for s in sorted(stopps) if s in state.stopps),
        events=tuple(events),
        warnings=tuple(warnings),
        sides=sides if sides is not None else side_counts(state),
        scenario=state.scenario.name,
        field=field_of(state) if field is None else field,
        scenarios=tuple(dict.fromkeys(s.name for s in state.scenarios)),
        scenario_started=state.scenario.started if state.scenarios else None,
        scenario_ended=state.scenario.ended if state.scenarios else None,
    )
