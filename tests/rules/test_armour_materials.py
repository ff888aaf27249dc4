"""Appendix 2's material minimums: body armour 2 mm leather or 1 mm metal, helmets 5 mm leather or 1 mm metal,
chain wire over 1 mm; too thin is inadequate material (at most 3 armour points)."""

import pytest

from controlroom.rules.armour_materials import BODY, HELMET, check_armour, check_piece, failures
from controlroom.rules.profile import default_profile

P = default_profile()


@pytest.mark.parametrize(("part", "name", "mm", "passed"), [
    (BODY, "leather", 2.0, True), (BODY, "leather", 1.9, False),
    (BODY, "hardened_leather", 4.0, True),
    (BODY, "plate", 1.0, True), (BODY, "plate", 0.8, False),
    (BODY, "brigandine", 1.2, True),
    (BODY, "chain", 1.2, True), (BODY, "chain", 1.0, False),            # "over 1mm": exactly 1 mm fails
    (BODY, "chain_on_gambeson", 0.9, False),
    (HELMET, "leather", 5.0, True), (HELMET, "leather", 4.5, False),
    (HELMET, "metal", 1.0, True), (HELMET, "metal", 0.5, False),
])
def test_each_minimum_of_appendix_2(part, name, mm, passed):
    check = check_piece(P, part, name, mm)
    assert check.passed is passed
    assert ("meets" if passed else "is below") in check.message
    assert check.rule.startswith("Appendix 2")


def test_nothing_is_judged_before_it_is_measured():
    check = check_piece(P, BODY, "chain")
    assert check.passed is None
    assert check.message == "chain armour: not measured (wire over 1 mm)"
    assert failures(check_armour(P, "leather", ["plate", "chain"])) == ()


def test_the_messages_name_the_measure_and_the_minimum():
    (helmet, chain) = check_armour(P, "leather", ["chain"], {"helmet_mm": 3, "chain_mm": 0.8})
    assert helmet.message == "leather helmet: thickness 3 mm is below Appendix 2's at least 5 mm leather"
    assert chain.message == "chain armour: wire 0.8 mm is below Appendix 2's wire over 1 mm"
    assert "The thickness of the wire must be over 1mm." in chain.rule


def test_a_measure_of_something_not_worn_or_not_a_number_is_refused():
    with pytest.raises(ValueError, match="'plate_mm' is of nothing worn"):
        check_armour(P, None, ["chain"], {"plate_mm": 2})
    with pytest.raises(ValueError, match="must be a number of mm >= 0"):
        check_armour(P, None, ["chain"], {"chain_mm": -1})
    with pytest.raises(ValueError, match="must be a number of mm >= 0"):
        check_armour(P, None, ["chain"], {"chain_mm": "thick"})


def test_the_minimums_come_from_the_ruleset(tmp_path):
    from importlib import resources

    from controlroom.rules.profile import load_profile

    text = resources.files("controlroom.resources").joinpath("rules", "default.toml").read_text()
    path = tmp_path / "strict.toml"
    path.write_text(text.replace("body_metal_min_mm = 1 ", "body_metal_min_mm = 1.5 "))
    assert check_piece(load_profile(path), BODY, "plate", 1.2).passed is False
