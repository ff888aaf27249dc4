"""The loot ledger: the looter stays responsible for what they took."""

from tests.support.game_helpers import Game


def test_looter_looted_in_turn_still_owes_the_first_owner():
    g = Game()
    g.at("00:01:00", "permanent_kill", badge=2)
    g.at("00:02:00", "looted", badge=2, by=1, items=["sword", "purse"], consent=True)     # A loots B
    g.at("00:03:00", "down", badge=1)
    g.at("00:04:00", "looted", badge=1, by=11, items=["sword"], consent=True)             # C loots A
    owed = {(o.looter, o.owner): o.items for o in g.state.owed()}
    assert owed == {(1, 2): ("sword", "purse"), (11, 1): ("sword",)}


def test_loot_without_consent_is_flagged_and_still_owed():
    g = Game()
    warnings = g.at("00:02:00", "looted", badge=2, by=1, items=["helmet"])
    assert [w.code for w in warnings] == ["loot_without_consent"]
    (owed,) = g.state.owed()
    assert owed.without_consent and owed.items == ("helmet",)


def test_relics_and_flags_need_no_consent():
    g = Game()
    assert not g.at("00:02:00", "looted", badge=2, by=1, items=["Ravens' flag"], relic=True)


def test_returning_clears_what_is_owed():
    g = Game()
    g.at("00:02:00", "looted", badge=2, by=1, items=["sword", "purse"], consent=True)
    g.at("01:00:00", "returned", badge=2, by=1, items=["purse"])
    assert [o.items for o in g.state.owed()] == [("sword",)]
    g.at("01:10:00", "returned", badge=2, by=1)          # everything
    assert g.state.owed() == []
    warnings = g.at("01:20:00", "returned", badge=2, by=1, items=["sword"])
    assert [w.code for w in warnings] == ["nothing_owed"]
