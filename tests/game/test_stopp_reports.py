"""Reports during a STOPP that covers the character: folded as any other, with a rule warning (``stopp_in_force``).

The seed: "everybody present must stop what they are doing immediately",
"to avoid movement and interaction during the game stop".  A STOPP covers
everyone (no groups, no badges), its groups' members, or the badges named.
"""

from controlroom.game.warning_rules import rule_of
from tests.support.game_helpers import Game

WARNED = ("strike reported while STOPP 'S1' holds Birgit (badge 2): the game stands still for everyone a STOPP "
          "covers")


def codes(warnings):
    return [w.code for w in warnings]


def test_a_strike_during_a_group_stopp_covering_the_target_is_applied_with_a_warning():
    g = Game()
    g.at("00:05:00", "stopp_called", stopp="S1", groups=["Wolves"], caller=4, reason="injury")
    (warning,) = g.at("00:06:00", "strike", badge=2, count=1, on_armour=False)
    assert (warning.code, warning.badge, warning.type, warning.message) == ("stopp_in_force", 2, "strike", WARNED)
    assert g.state.characters[2].hp == 1                     # folded as any other strike
    assert rule_of("stopp_in_force") == "STOPP rule"


def test_outside_the_stopp_no_warning_another_group_or_after_the_lift():
    g = Game()
    g.at("00:05:00", "stopp_called", stopp="S1", groups=["Wolves"], caller=4, reason="injury")
    assert g.at("00:06:00", "strike", badge=11, count=1, on_armour=False) == []       # a Raven: not covered
    g.at("00:07:00", "stopp_lifted", stopp="S1", source="gm")
    assert g.at("00:08:00", "strike", badge=2, count=1, on_armour=False) == []        # lifted
    assert g.at("00:04:00", "strike", badge=4, count=1, on_armour=False) == []        # (older: after the lift)
    assert g.state.characters[11].hp == 1 and g.state.characters[2].hp == 1
    assert "stopp_in_force" not in codes(g.state.warnings)


def test_every_kind_of_report_a_stopp_stops_for_everyone_and_by_badge():
    g = Game()
    g.at("00:01:00", "stopp_called", stopp="ALL", caller=4, reason="danger")          # everyone
    assert codes(g.at("00:01:10", "knocked_out", badge=2, saw_attacker=False)) == ["stopp_in_force"]
    assert codes(g.at("00:01:20", "big_stone", badge=11, on_shield=False)) == ["stopp_in_force"]
    assert codes(g.at("00:01:30", "permanent_kill", badge=14, by=13)) == ["stopp_in_force"]
    assert codes(g.at("00:01:40", "down", badge=6)) == []                              # not a report it stops
    g.at("00:02:00", "stopp_lifted", stopp="ALL", source="gm")
    g.at("00:03:00", "stopp_called", stopp="B", badges=[13], caller=13, reason="injury")   # one badge
    (looted,) = g.at("00:03:10", "looted", badge=14, by=13, items=["sword"], consent=True)
    assert looted.message == ("looted reported while STOPP 'B' holds looter Ivar (badge 13): the game stands "
                              "still for everyone a STOPP covers")
    assert g.at("00:03:20", "strike", badge=12, count=1, on_armour=False) == []          # not the badge named


def test_the_warning_is_said_in_either_language():
    g = Game()
    g.at("00:05:00", "stopp_called", stopp="S1", groups=["Wolves"], caller=4, reason="injury")
    (warning,) = g.at("00:06:00", "strike", badge=2, count=1, on_armour=False)
    assert warning.wording.render("en") == WARNED
    assert warning.wording.render("et") == ("löök teatatud ajal, mil STOPP 'S1' hoiab kinni: Birgit (märk 2); "
                                            "mäng seisab kõigi jaoks, keda STOPP hõlmab")

