"""A rule warning is said in the language spoken when it was folded, the first time it is read; its wording is
kept packed, for a marshal's answer in another language; one read back from a fold snapshot is the same."""

import gc

from controlroom import i18n
from controlroom.game import snapshot, snapshot_json
from controlroom.game.character import RuleWarning
from tests.support.game_helpers import Game

DEAD_STRIKE_EN = "Dagmar (badge 4) is dead: strike does not apply"
DEAD_STRIKE_ET = "Dagmar (märk 4) on surnud: „löök” ei kehti"


def _dead_struck(g: Game) -> RuleWarning:
    g.at("00:00:00", "died", badge=4)
    (warning,) = g.at("00:01:00", "strike", badge=4)
    return warning


def test_a_warning_is_said_in_the_language_of_its_fold_when_first_read():
    i18n.choose("et")
    try:
        warning = _dead_struck(Game())
    finally:
        i18n.choose(None)
    assert warning.said is None and warning.language == "et"        # not said yet: most are never read
    assert warning.message == DEAD_STRIKE_ET                         # said in the fold's language, now English
    assert warning.said == DEAD_STRIKE_ET
    assert warning.wording.render("en") == DEAD_STRIKE_EN
    assert warning.code == "target_dead" and warning.badge == 4


def test_a_warnings_wording_costs_the_collector_one_object():
    """Its wording is one flat tuple of plain values (untracked); a fold of many warnings holds one object each."""
    warning = _dead_struck(Game())
    gc.collect()
    assert not gc.is_tracked(warning.words)
    assert [x for x in warning.words if type(x) not in (str, int, bool)] == []


def test_a_warning_read_back_from_a_snapshot_equals_the_one_folded():
    g = Game()
    folded = _dead_struck(g)
    state = g.state
    text = snapshot_json.dumps(snapshot.take(state), state.roster)
    back = snapshot.restore(snapshot_json.loads(text, state.roster, state.profile))
    (read,) = back.warnings
    assert read.said == DEAD_STRIKE_EN and read.words is None and read.wording is None
    assert read == folded and hash(read) == hash(folded)
    assert read != RuleWarning(folded.index, folded.t, folded.type, 4, folded.code, "another text")
