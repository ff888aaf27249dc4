"""The one who binds, cares, heals, kills or loots must be conscious; a permanent kill takes a 10 s count."""

import pytest

from controlroom.game.events import EventError, make_event
from controlroom.game.state import ACTIVE, DEAD, UNCONSCIOUS
from controlroom.rules.profile import load_profile
from tests.support.game_helpers import Game

RULE = "an unconscious or dead character cannot interact with others in any way"


def _down(g, badge, t="00:00:00"):
    g.at(t, "down", badge=badge)
    assert g.ch(badge).condition == UNCONSCIOUS


def test_an_unconscious_binder_binds_nothing():
    g = Game()
    _down(g, 2)
    _down(g, 4, "00:00:30")
    warnings = g.at("00:01:00", "bound", badge=2, by=4)
    assert [w.code for w in warnings] == ["binder_not_conscious"]
    assert "binder Dagmar (badge 4) is unconscious: " + RULE in warnings[0].message
    assert g.ch(2).condition == UNCONSCIOUS and not g.ch(2).bound
    assert g.at("00:02:00", "bound", badge=2, by=6) == []      # a conscious one does
    assert g.ch(2).condition == ACTIVE and g.ch(2).bound


def test_unconscious_cannot_bind_their_own_wounds_but_the_conscious_may():
    g = Game()
    _down(g, 2)
    assert [w.code for w in g.at("00:01:00", "bound", badge=2, by=2)] == ["binder_not_conscious"]
    g.at("00:02:00", "strike", badge=4)
    assert g.at("00:02:30", "bound", badge=4, by=4) == []


def test_a_binder_missing_from_the_roster_is_named():
    g = Game()
    _down(g, 2)
    assert [w.code for w in g.at("00:01:00", "bound", badge=2, by=999)] == ["unknown_badge"]


def test_a_knocked_out_or_dead_carer_cares_for_nobody():
    g = Game()
    g.at("00:00:00", "strike", badge=2)
    g.at("00:00:10", "bound", badge=2, by=4)
    g.at("00:00:20", "knocked_out", badge=12)
    warnings = g.at("00:00:30", "cared_for", badge=2, carer=12)
    assert [w.code for w in warnings] == ["carer_not_conscious"]
    assert "is knocked out: " + RULE in warnings[0].message
    g.at("00:01:00", "permanent_kill", badge=3)
    assert [w.code for w in g.at("00:01:10", "cared_for", badge=2, carer=3)] == ["carer_not_conscious"]
    assert g.ch(2).carer is None


def test_an_unconscious_healer_heals_nobody_and_keeps_the_touch():
    g = Game()
    _down(g, 2)
    _down(g, 3, "00:00:10")
    warnings = g.at("00:01:00", "healer_touch", badge=2, healer=3)
    assert [w.code for w in warnings] == ["healer_not_conscious"]
    assert RULE in warnings[0].message
    assert g.ch(2).condition == UNCONSCIOUS and g.ch(3).touches_used == 0


def test_a_dead_or_unconscious_killer_kills_nobody():
    g = Game()
    _down(g, 2)
    _down(g, 11, "00:00:10")
    warnings = g.at("00:01:00", "permanent_kill", badge=2, by=11)
    assert [w.code for w in warnings] == ["killer_not_conscious"]
    assert g.ch(2).condition == UNCONSCIOUS and g.ch(2).deaths == 0
    g.at("00:02:00", "permanent_kill", badge=14)
    assert [w.code for w in g.at("00:02:10", "permanent_kill", badge=2, by=14)] == ["killer_not_conscious"]
    assert g.at("00:03:00", "permanent_kill", badge=2, by=15) == []
    assert g.ch(2).condition == DEAD


def test_a_permanent_kill_counted_too_short_is_not_a_kill():
    g = Game()
    _down(g, 2)
    warnings = g.at("00:01:00", "permanent_kill", badge=2, by=11, counted=6)
    assert [w.code for w in warnings] == ["kill_count_short"]
    assert "hacked for 6 s counted aloud: a permanent kill takes at least 10 s" in warnings[0].message
    assert g.ch(2).condition == UNCONSCIOUS
    assert g.at("00:01:30", "permanent_kill", badge=2, by=11, counted=10) == []
    assert g.ch(2).condition == DEAD


def test_the_count_a_permanent_kill_takes_comes_from_the_ruleset(tmp_path):
    from importlib import resources

    text = resources.files("controlroom.resources").joinpath("rules", "default.toml").read_text()
    path = tmp_path / "quick.toml"
    path.write_text(text.replace("permanent_kill_count_seconds = 10", "permanent_kill_count_seconds = 5"))
    g = Game(profile=load_profile(path))
    assert g.at("00:01:00", "permanent_kill", badge=2, counted=6) == []
    assert g.ch(2).condition == DEAD


def test_a_kill_report_without_a_count_is_taken_as_counted():
    g = Game()
    assert g.at("00:01:00", "permanent_kill", badge=2) == []


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "ten", True])
def test_a_bad_count_is_refused(bad):
    with pytest.raises(EventError, match="counted"):
        make_event(0, "permanent_kill", badge=2, counted=bad)


def test_an_unconscious_looter_is_warned_but_still_owes_what_was_taken():
    g = Game()
    _down(g, 2)
    _down(g, 11, "00:00:10")
    warnings = g.at("00:01:00", "looted", badge=2, by=11, items=["sword"], consent=True)
    assert [w.code for w in warnings] == ["looter_not_conscious"]
    assert [(o.looter, o.owner, o.items) for o in g.state.owed()] == [(11, 2, ("sword",))]


def test_every_rule_warning_names_its_rule():
    """Each warning code the fold can raise has the seed's rule named for the report's appendix."""
    import re
    from pathlib import Path

    import controlroom.game as game
    from controlroom.game.warning_rules import RULE_OF_WARNING

    source = "\n".join(p.read_text(encoding="utf-8") for p in Path(game.__file__).parent.glob("*.py"))
    codes = set(re.findall(r'_warn\("([a-z_]+)"', source))
    codes |= {f"{role}_not_conscious" for role in re.findall(r'_actor\([^,]+, "([a-z]+)"\)', source)}
    assert {"binder_not_conscious", "killer_not_conscious", "kill_count_short", "looter_not_conscious"} <= codes
    assert sorted(codes - set(RULE_OF_WARNING)) == []
