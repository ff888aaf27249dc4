"""The final state of a game as one JSON-ready dict (``controlroom replay --json``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controlroom.game.character import DEAD, Deadline
from controlroom.game.clock import format_time
from controlroom.game.state import GameState
from controlroom.game.views import side_counts


def _deadline(d: Deadline) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": d.kind, "in": format_time(d.remaining)}
    out["at"] = format_time(d.due) if d.due is not None else None
    if d.due is None:
        out["held_by_stopp"] = True
    if d.badge is not None:
        out["badge"] = d.badge
    if d.stopp is not None:
        out["stopp"] = d.stopp
    return out


def summarize(state: GameState, name: str = "", warning_lines: Mapping[int, int] | None = None) -> dict[str, Any]:
    """Per side the counts by condition, per character state and deadlines, and the warnings."""
    characters: dict[str, Any] = {}
    died: dict[int, list[dict[str, str]]] = {}
    for t, badge, cause, _source in state.deaths:
        died.setdefault(badge, []).append({"t": format_time(t), "cause": cause})
    for badge in sorted(state.characters):
        ch = state.characters[badge]
        m = ch.member
        entry: dict[str, Any] = {
            "name": m.name, "side": m.side, "group": m.group, "class": m.cls,
            "state": ch.condition, "hp": ch.hp, "max_hp": ch.max_hp,
            "ap": ch.ap.total, "max_ap": ch.full_ap.total,
            "deaths": ch.deaths, "died": died.get(badge, []), "in_valhalla": ch.in_valhalla,
            "bound": ch.bound, "carer": ch.carer,
            "deadlines": [_deadline(d) for d in state.deadlines_of(badge)],
        }
        touches = state.profile.character_class(m.cls).healer_touches
        if touches:
            entry["touches_left"] = touches - ch.touches_used
        characters[str(badge)] = entry
    members = state.characters
    warnings = []
    for w in state.warnings:
        item = {"t": format_time(w.t), "type": w.type, "badge": w.badge, "code": w.code, "message": w.message}
        if warning_lines and w.index in warning_lines:
            item["line"] = warning_lines[w.index]
        warnings.append(item)
    sc = state.scenario
    return {
        "game": name,
        "rules": state.profile.name,
        "time": format_time(state.t),
        "t_ms": state.t,
        "scenario": {
            "name": sc.name, "respawn": sc.respawn, "started": format_time(sc.started),
            "ended": format_time(sc.ended) if sc.ended is not None else None,
        },
        "events": state.events_applied,
        "sides": side_counts(state),
        "characters": characters,
        "deadlines": [_deadline(d) for d in state.pending_deadlines()],
        "stopps": [
            {
                "id": s.id, "called": format_time(s.called),
                "lifted": format_time(s.lifted) if s.lifted is not None else None,
                "caller": s.caller, "reason": s.reason, "covered": len(s.covered),
                "groups": list(s.groups), "trivial": s.trivial,
            }
            for s in state.stopps.values()
        ],
        "valhalla": [
            {
                "t": format_time(t), "badge": b, "name": members[b].member.name,
                "side": members[b].member.side, "deaths": members[b].deaths,
            }
            for t, b in state.valhalla
        ],
        "dead_now": sum(1 for ch in members.values() if ch.condition == DEAD),
        "unreturned_loot": [
            {"looter": o.looter, "owner": o.owner, "items": list(o.items), "without_consent": o.without_consent}
            for o in state.owed()
        ],
        "warnings": warnings,
    }
