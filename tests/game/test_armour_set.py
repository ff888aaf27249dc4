"""Armour recorded with its measured thickness: too thin for Appendix 2 is folded as inadequate material."""

from tests.support.game_helpers import Game


def test_armour_reported_too_thin_is_folded_as_inadequate_with_a_warning():
    g = Game()
    warnings = g.at("00:00:10", "armour_set", source="gm:weapons", badge=2, helmet="metal",
                    armour=["plate", "chain"], measures={"helmet_mm": 1.5, "plate_mm": 1.2, "chain_mm": 0.7})
    assert [w.code for w in warnings] == ["armour_material"]
    assert "chain armour: wire 0.7 mm is below" in warnings[0].message
    assert "at most 3 armour points" in warnings[0].message
    assert g.ch(2).full_ap.total == 3                  # not 5: inadequate material
    assert g.at("00:00:20", "armour_set", source="gm:weapons", badge=4, helmet="metal", armour=["plate", "chain"],
                measures={"helmet_mm": 1.5, "plate_mm": 1.2, "chain_mm": 1.2}) == []
    assert g.ch(4).full_ap.total == 5
