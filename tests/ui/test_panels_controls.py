"""GameControls: scenario, STOPP and manual-entry commands emitted as validated signals."""

import pytest

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.game.views import make_delta
from controlroom.ui.panels.controls import ERROR_STYLE, MANUAL_TYPES, GameControls


@pytest.fixture
def controls(qtbot):
    c = GameControls()
    qtbot.addWidget(c)
    return c


def choose(combo, code):
    i = combo.findData(code)
    assert i >= 0, code
    combo.setCurrentIndex(i)


def test_start_scenario_with_respawn_minutes(controls, qtbot):
    controls.scenario_name.setText("  Bridge at dawn ")
    controls.respawn.setChecked(True)
    controls.respawn_minutes.setValue(15)
    with qtbot.waitSignal(controls.scenario_start, timeout=1000) as blocker:
        controls.start_button.click()
    assert blocker.args == ["Bridge at dawn", True, 900.0]


def test_start_scenario_without_respawn_sends_no_time(controls, qtbot):
    controls.scenario_name.setText("Siege")
    controls.respawn_minutes.setValue(15)     # ignored: respawn is off
    with qtbot.waitSignal(controls.scenario_start, timeout=1000) as blocker:
        controls.start_button.click()
    assert blocker.args == ["Siege", False, 0.0]


def test_start_scenario_needs_a_name(controls, qtbot):
    with qtbot.assertNotEmitted(controls.scenario_start):
        controls.start_button.click()
    assert controls.scenario_message.text() == "Give the scenario a name first."
    assert controls.scenario_message.styleSheet() == ERROR_STYLE


def test_end_scenario_asks_first(controls, qtbot):
    answers = []
    controls.confirm = lambda question: answers.append(question) or False
    with qtbot.assertNotEmitted(controls.scenario_end):
        controls.end_button.click()
    assert "End the scenario?" in answers[0]
    controls.confirm = lambda question: True
    with qtbot.waitSignal(controls.scenario_end, timeout=1000):
        controls.end_button.click()


def test_global_stopp_reasons(controls, qtbot):
    assert [controls.stopp_reason.itemText(i) for i in range(3)] == [
        "out-of-game unpleasant", "injury or medical", "danger"]
    assert controls.stopp_reason.currentData() == "danger"
    choose(controls.stopp_reason, "injury")
    with qtbot.waitSignal(controls.stopp_call, timeout=1000) as blocker:
        controls.stopp_button.click()
    assert blocker.args == ["injury"]


def test_lift_offers_active_stopps_from_deltas(controls, qtbot):
    state = GameState([Member(1, "Aldo", "North", "Wolves", "warrior"),
                       Member(2, "Gerd", "South", "Ravens", "warrior")])
    assert not controls.lift_button.isEnabled()
    state.apply(make_event(1000, "stopp_called", "marshal:M1", stopp="S1", caller=2, reason="unpleasant"))
    state.apply(make_event(2000, "stopp_called", "gm", stopp="GM1"))
    controls.apply_delta(make_delta(state, (), ("S1", "GM1")))
    assert [controls.lift_choice.itemData(i) for i in range(controls.lift_choice.count())] == ["S1", "GM1"]
    assert controls.lift_choice.itemText(0) == "S1 (called by badge 2)"
    assert controls.lift_button.isEnabled()
    controls.trivial.setChecked(True)
    with qtbot.waitSignal(controls.stopp_lift, timeout=1000) as blocker:
        controls.lift_button.click()
    assert blocker.args == ["S1", True]
    assert not controls.trivial.isChecked()
    state.apply(make_event(3000, "stopp_lifted", "gm", stopp="S1", trivial=True))
    controls.apply_delta(make_delta(state, (), ("S1",)))
    assert [controls.lift_choice.itemData(i) for i in range(controls.lift_choice.count())] == ["GM1"]
    controls.apply_delta(make_delta(GameState([]), (), (), full=True))
    assert controls.lift_choice.count() == 0 and not controls.lift_button.isEnabled()


def test_manual_entry_types():
    assert {"strike", "big_stone", "knocked_out", "down", "bound", "cared_for", "healer_touch", "died",
            "permanent_kill", "valhalla_checkin", "respawned"} <= set(MANUAL_TYPES)


def test_manual_entry_emits_validated_fields(controls, qtbot):
    choose(controls.entry_type, "down")
    assert controls.second_badge.isHidden()
    controls.badge.setText(" 12 ")
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["down", {"badge": 12}]
    assert controls.badge.text() == ""
    assert controls.entry_message.text() == "Sent: down (0 hit points), badge 12."


def test_manual_entry_fills_defaults(controls, qtbot):
    choose(controls.entry_type, "strike")
    assert not controls.count.isHidden()
    controls.badge.setText("3")
    controls.count.setValue(2)
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["strike", {"badge": 3, "count": 2, "on_armour": True}]
    choose(controls.entry_type, "died")
    controls.badge.setText("4")
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["died", {"badge": 4, "cause": "reported"}]


def test_manual_entry_refuses_a_missing_badge(controls, qtbot):
    choose(controls.entry_type, "knocked_out")
    with qtbot.assertNotEmitted(controls.manual_entry):
        controls.submit_button.click()
    assert controls.entry_message.text() == "Enter the badge number of the player."
    assert controls.entry_message.styleSheet() == ERROR_STYLE
    controls.badge.setText("x7")
    with qtbot.assertNotEmitted(controls.manual_entry):
        controls.submit_button.click()
    assert "\u201cx7\u201d is not a badge number" in controls.entry_message.text()


def test_healer_touch_needs_the_healer(controls, qtbot):
    choose(controls.entry_type, "healer_touch")
    assert not controls.second_badge.isHidden()
    assert controls.second_label.text() == "Healer"
    controls.badge.setText("2")
    with qtbot.assertNotEmitted(controls.manual_entry):
        controls.submit_button.click()
    assert controls.entry_message.text() == "Enter the badge number of the healer."
    controls.second_badge.setText("12")
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["healer_touch", {"badge": 2, "healer": 12}]


def test_optional_second_badge(controls, qtbot):
    choose(controls.entry_type, "permanent_kill")
    controls.badge.setText("5")
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["permanent_kill", {"badge": 5}]
    controls.badge.setText("5")
    controls.second_badge.setText("11")
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["permanent_kill", {"badge": 5, "by": 11}]


def test_the_care_form_shows_the_carers_conditions(controls):
    choose(controls.entry_type, "cared_for")
    assert not controls.rule_note.isHidden()
    note = controls.rule_note.text()
    assert "within 1 m" in note and "wears no weapons" in note and "does nothing else" in note
    assert "A healer cares for at most 2 at a time." in note
    choose(controls.entry_type, "down")
    assert controls.rule_note.isHidden()


def test_the_kill_form_offers_the_count_and_sends_it(controls, qtbot):
    choose(controls.entry_type, "strike")
    assert controls.counted.isHidden()
    choose(controls.entry_type, "permanent_kill")
    assert not controls.counted.isHidden()
    assert controls.counted.text() == "not reported"
    assert "at least 10 s, counted aloud" in controls.rule_note.text()
    controls.badge.setText("5")
    controls.second_badge.setText("11")
    controls.counted.setValue(12)
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["permanent_kill", {"badge": 5, "by": 11, "counted": 12}]
    assert controls.counted.text() == "not reported"          # cleared for the next report
    controls.badge.setText("6")
    controls.counted.setValue(4)
    with qtbot.waitSignal(controls.manual_entry, timeout=1000) as blocker:
        controls.submit_button.click()
    assert blocker.args == ["permanent_kill", {"badge": 6, "counted": 4}]
    assert "Counted 4 s, less than the rules' 10 s" in controls.entry_message.text()


def test_the_notes_quote_the_games_ruleset(controls, tmp_path):
    from importlib import resources

    from controlroom.rules.profile import load_profile

    text = resources.files("controlroom.resources").joinpath("rules", "default.toml").read_text()
    path = tmp_path / "slow.toml"
    path.write_text(text.replace("permanent_kill_count_seconds = 10", "permanent_kill_count_seconds = 20")
                    .replace("max_cared = 2", "max_cared = 3"))
    controls.set_profile(load_profile(path))
    choose(controls.entry_type, "permanent_kill")
    assert "at least 20 s" in controls.rule_note.text()
    choose(controls.entry_type, "cared_for")
    assert "at most 3 at a time" in controls.rule_note.text()
