"""The weapon-check desk on a real core and game file: verdicts live, inspections and armour recorded as events."""

import pytest

from controlroom.rules.profile import default_profile
from controlroom.ui.desks.common import ERROR_STYLE, OK_STYLE
from controlroom.ui.desks.weapons import WeaponDesk
from tests.support.desk_game import folded, new_game, running, stored

SWORD = {"length_cm": 85, "former": "fiberglass", "former_width_mm": 9, "padding": "polyethylene_foam",
         "covering": "latex", "striking_padding_mm": 15, "tip_padding_mm": 60}
BAD_SWORD = dict(SWORD, former="pvc_tube", former_width_mm=35, striking_padding_mm=5)


@pytest.fixture
def desk(qtbot):
    d = WeaponDesk()
    qtbot.addWidget(d)
    return d


def rows(model):
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def inspections(path):
    return [dict(e.data) for e in stored(path) if e.type == "weapon_inspected"]


def test_a_failing_weapon_shows_every_failed_criterion_and_its_rule(desk):
    desk.inspection.set_kind("weapon")
    desk.inspection.set_measures(SWORD)
    assert desk.inspection.verdict_label.text() == "PASSES Appendix 1 \u00b7 one-handed"
    assert desk.inspection.verdict_label.styleSheet() == OK_STYLE
    desk.inspection.set_measures(BAD_SWORD)
    text = desk.inspection.verdict_label.text()
    assert text.startswith("FAILS Appendix 1 on 3 criteria:")
    assert "PVC tube former width 35 mm is over the 30 mm maximum" in text
    assert "pvc_tube" not in text                       # no profile codes in what a game master reads
    assert "striking-surface padding 5 mm is below the 10 mm minimum" in text
    assert "has no stopper" in text and 'Appendix 1, Requirements on padding: "When using hollow' in text
    assert desk.inspection.verdict_label.styleSheet() == ERROR_STYLE
    assert not desk.record_button.isEnabled()          # no player, no tag yet


def test_every_kind_has_a_form_the_rules_can_judge(desk):
    for i in range(desk.inspection.kind.count()):
        desk.inspection.kind.setCurrentIndex(i)
        assert not isinstance(desk.inspection.verdict(), str), desk.inspection.kind.currentData()
    desk.inspection.set_kind("siege_engine")
    desk.inspection.set_measures({"pull_kg": 45})
    assert "siege engine pull 45 kg is over the 40 kg maximum" in desk.inspection.verdict_label.text()


def test_an_inspection_is_recorded_with_tag_and_verdict_and_survives_reopening(qtbot, desk, game_db):
    game = new_game(game_db)            # a SQLite file, then a PostgreSQL database (when a server is given)
    with running(qtbot, game, desk):
        desk.badge_field.setText("11")
        assert desk.who.text().startswith("Gerd (badge 11) \u00b7 South / Ravens")
        desk.inspection.set_kind("weapon")
        desk.inspection.set_measures(BAD_SWORD)
        desk.tag.setText("W-17")
        assert desk.record_button.isEnabled()
        desk.record_button.click()
        assert desk.inspection_message.text() == "Recorded tag W-17 for Gerd: FAILED."
        assert desk.tag.text() == ""
        qtbot.waitUntil(lambda: desk.model.rowCount() == 1, timeout=5000)
        assert rows(desk.model)[0] == ["00:02:00", "W-17", "Gerd (11)", "melee weapon or javelin", "FAILED",
                                       "former width, striking padding, stopper"]
        assert "failed tags: W-17" in desk.who.text()
    (event,) = inspections(game)
    assert event["tag"] == "W-17" and event["passed"] is False and event["badge"] == 11
    assert event["failed"] == ["former_width", "striking_padding", "stopper"]
    assert event["measures"]["former"] == "pvc_tube" and event["category"] == "one_handed"
    state = folded(game)
    assert state.failed_tags(11) == ["W-17"] and state.warnings == []

    again = WeaponDesk()
    qtbot.addWidget(again)
    with running(qtbot, game, again):            # the game opened again: the inspection is there
        assert [r[1] for r in rows(again.model)] == ["W-17"]
        again.badge_field.setText("11")
        again.inspection.set_kind("weapon")
        again.inspection.set_measures(SWORD)       # mended, inspected again under the same tag
        again.tag.setText("W-17")
        again.record_button.click()
        qtbot.waitUntil(lambda: again.model.rowCount() == 2, timeout=5000)
        assert [r[4] for r in rows(again.model)] == ["passed", "FAILED"]
        assert "failed tags" not in again.who.text()
    assert folded(game).failed_tags(11) == []


def test_armour_recorded_changes_the_characters_armour_points(qtbot, desk, tmp_path):
    game = new_game(tmp_path / "w.crgame")
    with running(qtbot, game, desk):
        desk.badge_field.setText("1")
        assert desk.character().max_ap == 0 and "Armour points 0 of 0" in desk.who.text()
        desk.armour.set_armour(helmet="metal", pieces=("chain", "plate"))
        assert desk.armour.points_label.text() == "Armour points: 5 (body 3 + helmet 2)"
        desk.armour_button.click()
        assert desk.armour_message.text() == "Recorded armour for Aldo: 5 armour points."
        qtbot.waitUntil(lambda: desk.character().max_ap == 5, timeout=5000)
        assert "Armour points 5 of 5" in desk.who.text()
    (event,) = [e for e in stored(game) if e.type == "armour_set"]
    assert event.source == "gm:weapons" and event.data["helmet"] == "metal"
    assert tuple(folded(game).characters[1].full_ap) == (3, 2)


def test_inadequate_armour_is_capped_and_nothing_is_sent_without_a_player(qtbot, desk):
    desk.set_profile(default_profile())
    desk.armour.set_armour(pieces=("plate",), inadequate=True, ap=5)
    assert desk.armour.points_label.text() == "Armour points: 3 (body 3 + helmet 0)"
    assert not desk.armour_button.isEnabled()
    with qtbot.assertNotEmitted(desk.entry):
        desk.record_armour()
        desk.record_inspection()
    assert desk.armour_message.text() == "Choose the player (badge) first."
    assert desk.inspection_message.styleSheet() == ERROR_STYLE


def test_no_verdict_in_red_before_anything_is_entered(desk):
    for i in range(desk.inspection.kind.count()):
        desk.inspection.kind.setCurrentIndex(i)
        assert desk.inspection.verdict_label.styleSheet() != ERROR_STYLE
        assert desk.inspection.verdict_label.text() == "Enter the measurements: the verdict follows each one."
    desk.armour.set_armour(helmet="leather", pieces=("chain",))
    assert desk.armour.material_label.styleSheet() != ERROR_STYLE
    assert desk.armour.material_label.text().startswith("Measure the material of what is worn (Appendix 2):")
    assert "chain armour: not measured (wire over 1 mm)" in desk.armour.material_label.text()
    assert "leather helmet: not measured (at least 5 mm leather)" in desk.armour.material_label.text()


def test_armour_material_is_inspected_against_appendix_2(desk):
    desk.armour.set_armour(helmet="metal", pieces=("chain", "plate"),
                           measures={"helmet_mm": 1.5, "chain_mm": 1.2, "plate_mm": 1.0})
    assert desk.armour.material_label.text().startswith("The material meets Appendix 2.")
    assert desk.armour.material_label.styleSheet() == OK_STYLE
    assert desk.armour.points_label.text() == "Armour points: 5 (body 3 + helmet 2)"
    assert not desk.armour.inadequate.isChecked()
    desk.armour.thickness["chain"].setValue(0.8)          # thin wire: inadequate material
    text = desk.armour.material_label.text()
    assert text.startswith("Inadequate material (Appendix 2): at most 3 armour points.")
    assert "\u2717 chain armour: wire 0.8 mm is below Appendix 2's wire over 1 mm" in text
    assert desk.armour.material_label.styleSheet() == ERROR_STYLE
    assert desk.armour.inadequate.isChecked() and not desk.armour.inadequate.isEnabled()
    assert desk.armour.points_label.text() == "Armour points: 3 (body 1 + helmet 2)"
    desk.armour.thickness["chain"].setValue(1.1)          # mended: the game master's own choice is back
    assert not desk.armour.inadequate.isChecked() and desk.armour.inadequate.isEnabled()
    desk.armour.helmet_mm.setValue(4)                      # a metal helmet of 4 mm is fine...
    assert desk.armour.material_label.styleSheet() == OK_STYLE
    desk.armour.helmet.setCurrentIndex(desk.armour.helmet.findData("leather"))
    assert "leather helmet: thickness 4 mm is below Appendix 2's at least 5 mm leather" in \
        desk.armour.material_label.text()                  # ...a leather one is not


def test_measured_armour_is_recorded_with_its_measures(qtbot, desk, tmp_path):
    game = new_game(tmp_path / "m.crgame")
    with running(qtbot, game, desk):
        desk.badge_field.setText("1")
        desk.armour.set_armour(helmet="leather", pieces=("leather",), measures={"helmet_mm": 3, "leather_mm": 2.5})
        desk.armour_button.click()
        assert desk.armour_message.text() == "Recorded armour for Aldo: 2 armour points."
        qtbot.waitUntil(lambda: desk.character().max_ap == 2, timeout=5000)
    (event,) = [e for e in stored(game) if e.type == "armour_set"]
    assert event.data["measures"] == {"helmet_mm": 3.0, "leather_mm": 2.5}
    assert event.data["inadequate"] is True
    state = folded(game)
    assert state.warnings == [] and state.characters[1].full_ap.total == 2


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_the_desks_fields_stay_put_as_the_verdicts_grow(qtbot, desk):
    from PySide6.QtCore import QPoint

    desk.resize(1400, 900)
    desk.show()
    qtbot.waitExposed(desk)
    watched = [desk.tag, desk.record_button, desk.armour_button, desk.armour.gm_points, desk.armour.inadequate,
               desk.armour.thickness["plate"], desk.view]

    def places():
        QApplication.processEvents()
        return [w.mapTo(desk, QPoint(0, 0)) for w in watched] + [w.size() for w in watched]

    from PySide6.QtWidgets import QApplication

    desk.inspection.set_kind("weapon")
    before = places()
    desk.inspection.set_measures(SWORD)
    assert places() == before
    desk.inspection.set_measures(dict(BAD_SWORD, tip_padding_mm=5, covering="paper", added_weights=True))
    assert len(desk.inspection.verdict_label.text().splitlines()) > 8         # more than its box shows
    desk.armour.set_armour(helmet="leather", pieces=tuple(desk.armour.pieces),
                           measures={f"{p}_mm": 0.5 for p in desk.armour.pieces} | {"helmet_mm": 1})
    assert len(desk.armour.material_label.text().splitlines()) == 8
    assert places() == before


def test_the_armour_form_shows_the_players_stored_armour(qtbot, desk, tmp_path):
    """Choosing a player fills the armour form with their armour as recorded: Record armour never wipes it."""
    game = new_game(tmp_path / "w.crgame")
    with running(qtbot, game, desk):
        desk.badge_field.setText("1")
        desk.armour.set_armour(helmet="metal", pieces=("chain", "plate"), measures={"helmet_mm": 1.5})
        desk.armour_button.click()
        qtbot.waitUntil(lambda: desk.character().max_ap == 5, timeout=5000)
        desk.badge_field.setText("2")                     # another player: their own (none)
        assert desk.armour.helmet.currentData() is None and not any(b.isChecked() for b in desk.armour.pieces.values())
        desk.badge_field.setText("1")                     # back: Aldo's armour as recorded
        assert desk.armour.helmet.currentData() == "metal"
        assert {n for n, b in desk.armour.pieces.items() if b.isChecked()} == {"chain", "plate"}
        assert desk.armour.helmet_mm.value() == 1.5
        assert desk.armour.points_label.text() == "Armour points: 5 (body 3 + helmet 2)"
        desk.armour_button.click()                       # recorded again unchanged: still 5
        qtbot.waitUntil(lambda: len([e for e in stored(game) if e.type == "armour_set"]) == 2, timeout=5000)
    first, second = [e.data for e in stored(game) if e.type == "armour_set"]
    assert first == second
    assert tuple(folded(game).characters[1].full_ap) == (3, 2)
