"""Players added to an open game: checked by line against the stored roster, stored, folded over, published.

Through the core's thread (``CoreThread.send(AddPlayers(...))``, answered by
``roster_answered``): the one way the window changes the roster of a game
under way.  The engine's tests (tests/engine/test_engine_roster.py) cover the
order of additions, batches and the refold in the background.  A check
stores nothing; an addition with a problem stores nothing; a clean one is in
the game file (a restart and a replay see it) and in the next full delta.
"""

import threading
import weakref

import pytest

from controlroom.core import worker as worker_module
from controlroom.core.thread import CoreThread
from controlroom.engine.commands import AddPlayers
from controlroom.game.clock import VirtualClock
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.roster_csv import read_roster_entries
from controlroom.rules.profile import default_profile
from controlroom.store.game import GameStore

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(3, "Carl", "North", "Wolves", "healer"), Member(4, "Dora", "North", "Wolves"),
          Member(5, "Eero", "North", "Wolves"), Member(11, "Gerd", "South", "Ravens")]
BADGES = [1, 2, 3, 4, 5, 11]


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "players.crgame"
    with GameStore.open(path) as store:
        store.save_roster(ROSTER)
        # A late registration's badge was already killed on the field before the desk's file came in.
        store.log.append([make_event(0, "scenario_started", name="Morning"),
                          make_event(5_000, "permanent_kill", "marshal:3", badge=150)])
    return str(path)


@pytest.fixture
def core(qtbot, game):
    ct = CoreThread(game, VirtualClock(60_000), publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    yield ct
    assert ct.shutdown(), "the core thread did not stop"


def ask(qtbot, core, request, entries, store):
    with qtbot.waitSignal(core.roster_answered, timeout=10_000,
                          check_params_cb=lambda a: a.request == request) as blocker:
        core.send(AddPlayers(request, tuple(entries), store))
    return blocker.args[0]


FILE = ("Nr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n"
        "1;Aldo;North;Wolves;Sõdalane;jah;;\r\n"          # in the game already, exactly so: fine
        "150;Õie Tamm;North;Wolves;Sõdalane;jah;nahk;ahel\r\n"
        "151;Jüri Kask;Lõuna;Karud;;ei;;\r\n")


def test_a_check_stores_nothing_and_an_addition_is_stored_folded_and_published(qtbot, core, game):
    entries = read_roster_entries(FILE, default_profile())
    answer = ask(qtbot, core, 1, entries, False)
    assert (answer.stored, answer.problems, answer.unchanged) == (False, (), 1)
    assert [m.badge for m in answer.added] == [150, 151]
    with GameStore.open(game, create=False) as store:
        assert [m.badge for m in store.roster()] == BADGES              # a check stores nothing
    with qtbot.waitSignal(core.delta_published, timeout=10_000,
                          check_params_cb=lambda d: d.full and any(c.badge == 151 for c in d.characters)) as blocker:
        answer = ask(qtbot, core, 2, entries, True)
    assert answer.stored and answer.problems == () and [m.badge for m in answer.added] == [150, 151]
    delta = blocker.args[0]
    views = {c.badge: c for c in delta.characters}
    assert set(views) == {*BADGES, 150, 151}
    # The kill reported before badge 150 was registered counts now, as it does when the game is folded again.
    assert views[150].condition == "dead" and views[150].cls == "warrior" and views[150].name == "Õie Tamm"
    assert delta.sides["Lõuna"]["active"] == 1
    assert (delta.sides["North"]["active"], delta.sides["North"]["dead"]) == (5, 1)
    assert core.shutdown()
    # Durable: the game file has them, and folding its log (a restart, a replay) gives the same game.
    with GameStore.open(game, create=False) as store:
        assert [(m.badge, m.name, m.side, m.group, m.cls, m.paid) for m in store.roster()][-3:] == [
            (11, "Gerd", "South", "Ravens", "warrior", True), (150, "Õie Tamm", "North", "Wolves", "warrior", True),
            (151, "Jüri Kask", "Lõuna", "Karud", "warrior", False)]
        state, _last = store.load_state()
    assert state.characters[150].condition == "dead" and 151 in state.characters
    assert not [w for w in state.warnings if w.code == "unknown_badge"]


def test_nothing_is_added_while_a_line_has_a_problem(qtbot, core, game):
    text = ("badge,name,side,group,class,paid,helmet,armour\r\n"
            "2,Birgit,North,Foxes,warrior,no,,\r\n"             # in the game in Wolves, paid
            "160,Mart,South,Wolves,warrior,yes,,\r\n"           # Wolves fight for North in this game
            "161,Liis,South,Ravens,warrior,yes,,\r\n")          # fine on its own
    answer = ask(qtbot, core, 7, read_roster_entries(text, default_profile()), True)
    assert not answer.stored and answer.added == ()
    assert answer.problems == (
        "line 2: badge 2 is already in the game as 'Birgit' (Wolves), and this line differs in: group, paid; "
        "a game under way only takes new players",
        "line 3: group 'Wolves' is on side 'North' in the game, not 'South'",
    )
    with GameStore.open(game, create=False) as store:
        assert [m.badge for m in store.roster()] == BADGES


def test_healers_are_counted_with_the_players_already_in_the_game(qtbot, core):
    # The desk's whole list again, with one healer more: five paid Wolves in the file allow its one healer,
    # but the game has a healer among its Wolves already (Carl), and six paid members allow one.
    text = ("badge,name,side,group,class,paid,helmet,armour\r\n"
            "1,Aldo,North,Wolves,warrior,yes,,\r\n2,Birgit,North,Wolves,warrior,yes,,\r\n"
            "4,Dora,North,Wolves,warrior,yes,,\r\n5,Eero,North,Wolves,warrior,yes,,\r\n"
            "170,Kai,North,Wolves,healer,yes,,\r\n")
    answer = ask(qtbot, core, 3, read_roster_entries(text, default_profile()), True)
    assert not answer.stored and answer.problems == (
        "group 'Wolves' has 2 healers but 6 paid members allow at most 1 (one healer per five paid members): "
        "healer on line 6 (and 1 already in the game)",)


def test_the_fold_a_refold_replaced_is_let_go_of_in_another_thread(qtbot, core):
    """Its snapshot not kept yet (10 s after the opening), the fold the game opened with is forgotten by the
    fold saver and emptied in a thread of its own once the refold is swapped in: nothing holds it any more."""
    opened = weakref.ref(core.worker.fold)
    emptied = []
    real = worker_module.let_go

    def let_go(fold, pause):
        real(fold, pause)
        emptied.append(threading.current_thread())

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(worker_module, "let_go", let_go)
        with qtbot.waitSignal(core.delta_published, timeout=10_000, check_params_cb=lambda d: d.full):
            ask(qtbot, core, 2, read_roster_entries(FILE, default_profile()), True)
        qtbot.waitUntil(lambda: bool(emptied), timeout=10_000)
    assert emptied[0] is not threading.main_thread() and emptied[0].name == "fold-let-go"
    assert core.worker._fold_saver._first is None
    qtbot.waitUntil(lambda: opened() is None, timeout=10_000)
