"""The weapon_inspected event: checked fields, the ledger by tag, and the verdict checked against the measurements."""

import json

import pytest

from controlroom.game.events import Event, EventError, make_event
from controlroom.rules.inspection_kinds import WEAPON_KINDS, inspect_measures, material_choices, measures_of
from tests.support.game_helpers import Game, ev

SWORD = {"length_cm": 85, "former": "fiberglass", "former_width_mm": 9, "padding": "polyethylene_foam",
         "covering": "latex", "striking_padding_mm": 15, "tip_padding_mm": 60}
BAD_SWORD = dict(SWORD, former="pvc_tube", former_width_mm=35, striking_padding_mm=5)


def inspected(t, badge, tag, kind="weapon", measures=None, passed=True, failed=()):
    fields = {"badge": badge, "tag": tag, "kind": kind, "passed": passed, "failed": list(failed)}
    if measures is not None:
        fields["measures"] = measures
    return ev(t, "weapon_inspected", "gm:weapons", **fields)


def test_the_verdict_of_measurements_names_every_failed_criterion():
    assert inspect_measures("weapon", SWORD).passed
    verdict = inspect_measures("weapon", BAD_SWORD)
    assert verdict.criteria == ("former_width", "striking_padding", "stopper")
    assert all(f.rule.startswith("Appendix 1") for f in verdict.failures)
    assert inspect_measures("siege_engine", {"pull_kg": 41}).criteria == ("siege_engine_pull",)


@pytest.mark.parametrize("measures, message", [
    ({"pull_kg": 10, "spin": 3}, "unknown measurement 'spin'"),
    ({}, "missing measurement 'pull_kg'"),
    ({"pull_kg": -1}, "cannot be negative"),
])
def test_bad_measurements_are_named(measures, message):
    with pytest.raises(ValueError, match=message):
        inspect_measures("siege_engine", measures)


def test_every_kind_lists_its_measurements_and_materials():
    assert set(WEAPON_KINDS) == {"weapon", "ranged_weapon", "arrow", "big_stone", "shield", "siege_engine",
                                 "siege_arrow"}
    assert [m.name for m in measures_of("ranged_weapon")] == ["weight_g", "pull_kg", "wholly_padded"]
    assert "pvc_tube" in material_choices("weapon", "former")
    assert "metal" in material_choices("shield", "base_material")
    assert material_choices("weapon", "length_cm") == ()


@pytest.mark.parametrize("fields, message", [
    ({"badge": 1, "tag": "T1", "kind": "catapult", "passed": True}, "'kind' must be one of"),
    ({"badge": 1, "tag": "T1", "kind": "weapon", "passed": True, "failed": ["stopper"]}, "'passed' must be true"),
    ({"badge": 1, "tag": "T1", "kind": "weapon", "passed": False}, "'passed' must be true"),
    ({"badge": 1, "tag": " ", "kind": "weapon", "passed": True}, "'tag' must be a non-empty text"),
    ({"badge": 1, "tag": "T1", "kind": "weapon", "passed": True, "measures": {"x": [1]}}, "measurement 'x'"),
    ({"badge": 1, "kind": "weapon", "passed": True}, "missing field 'tag'"),
])
def test_bad_inspection_events_are_refused(fields, message):
    with pytest.raises(EventError, match=message):
        make_event(0, "weapon_inspected", "gm", **fields)


def test_inspections_are_kept_by_tag_and_a_later_one_supersedes():
    g = Game()
    assert g.state.apply(inspected("00:01:00", 1, "W-17", measures=BAD_SWORD, passed=False,
                             failed=("former_width", "striking_padding", "stopper"))) == []
    g.state.apply(inspected("00:02:00", 1, "W-18", "shield", passed=True))
    g.state.apply(inspected("00:03:00", 13, "A-1", "arrow", passed=True))
    assert g.state.failed_tags(1) == ["W-17"]
    assert [i.tag for i in g.state.inspections_of(1)] == ["W-17", "W-18"]
    g.state.apply(inspected("00:10:00", 1, "W-17", measures=SWORD))          # padded again, inspected again
    assert g.state.failed_tags(1) == []
    latest = g.state.inspection_of(" W-17 ")
    assert latest.passed and latest.t == 600_000 and latest.measures["former"] == "fiberglass"
    assert [i.tag for i in g.state.inspections_of(1)] == ["W-18", "W-17"]
    assert g.state.inspection_count == 4 and len(g.state.inspections) == 3
    assert g.state.inspection_of("nope") is None


def test_a_verdict_the_measurements_contradict_is_recorded_with_a_warning():
    g = Game()
    warnings = g.state.apply(inspected("00:01:00", 1, "W-1", measures=BAD_SWORD, passed=True))
    assert [w.code for w in warnings] == ["verdict_mismatch"]
    assert "former_width, striking_padding, stopper" in warnings[0].message
    assert g.state.inspection_of("W-1").passed           # the inspector's word stands
    warnings = g.state.apply(inspected("00:02:00", 1, "W-2", measures={"length_cm": 85}, passed=True))
    assert [w.code for w in warnings] == ["bad_measures"]


def test_a_tag_moved_to_another_badge_is_warned_and_unknown_badges_change_nothing():
    g = Game()
    g.state.apply(inspected("00:01:00", 1, "W-1"))
    assert [w.code for w in g.state.apply(inspected("00:02:00", 2, "W-1"))] == ["tag_reused"]
    assert g.state.inspection_of("W-1").badge == 2 and g.state.inspections_of(1) == []
    assert [w.code for w in g.state.apply(inspected("00:03:00", 999, "W-9"))] == ["unknown_badge"]
    assert g.state.inspection_of("W-9") is None


def test_a_stored_inspection_folds_the_same_after_a_trip_through_json():
    event = inspected("00:01:00", 1, "W-17", measures=BAD_SWORD, passed=False,
                      failed=("former_width", "striking_padding", "stopper"))
    stored = Event(event.t, event.type, json.loads(json.dumps(event.data)), event.source)
    first, second = Game(), Game()
    first.state.apply(event)
    second.state.apply(stored)
    assert first.state.inspections == second.state.inspections
    assert second.state.warnings == []


def test_armour_set_at_the_desk_changes_armour_points():
    g = Game()
    assert g.state.characters[2].full_ap.total == 0
    g.state.apply(ev("00:01:00", "armour_set", "gm:weapons", badge=2, helmet="metal", armour=["chain", "plate"]))
    assert tuple(g.state.characters[2].full_ap) == (3, 2)
    assert g.state.characters[2].ap.total == 5
