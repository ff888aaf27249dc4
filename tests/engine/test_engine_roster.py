"""Players added to an open game, through the engine: stored, announced, and the game folded again beside it."""

import dataclasses
import gc
import weakref

import pytest

from controlroom.engine import commands as cmds
from controlroom.engine import publisher
from controlroom.game.clock import VirtualClock
from controlroom.game.events import SOURCE_TIMER, make_event
from controlroom.game.roster import Member
from controlroom.game.roster_csv import read_roster_entries
from controlroom.game.views import character_view
from controlroom.radio import codec
from controlroom.radio.link import FrameAck
from controlroom.rules.profile import default_profile
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, new_game

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(3, "Carl", "North", "Wolves", "healer"), Member(4, "Dora", "North", "Wolves"),
          Member(5, "Eero", "North", "Wolves"), Member(11, "Gerd", "South", "Ravens")]
BADGES = [1, 2, 3, 4, 5, 11]
FILE = ("Nr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n"
        "1;Aldo;North;Wolves;Sõdalane;jah;;\r\n"          # in the game already, exactly so: fine
        "150;Õie Tamm;North;Wolves;Sõdalane;jah;nahk;ahel\r\n"
        "151;Jüri Kask;Lõuna;Karud;;ei;;\r\n")


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
def pump(game):
    p = Pump(game, VirtualClock(60_000))
    yield p
    p.close()


def entries():
    return tuple(read_roster_entries(FILE, default_profile()))


def roster_of(game):
    with GameStore.open(game, create=False) as store:
        return [m.badge for m in store.roster()]


def test_an_addition_is_stored_announced_and_the_game_folded_again_over_it(pump, game):
    engine = pump.engine
    out = engine.command(cmds.AddPlayers(2, entries(), True))
    (answer,) = out.roster
    assert answer.stored and [m.badge for m in answer.added] == [150, 151]
    assert roster_of(game) == [*BADGES, 150, 151]                      # in the game file at once
    batch = engine.next_batch()
    assert [p.event.type for p in batch.items] == ["roster_added"]
    done = engine.committed(batch.id, pump.writer.write(batch.items))
    assert done.refold                                                  # folded again, in the background
    assert 150 not in engine.fold.state.characters                      # not yet: the old fold goes on meanwhile
    job = engine.refold_job()
    new_fold = job()                                                    # (the core runs it in a thread)
    engine.refolded(new_fold)
    assert engine.fold is new_fold
    delta = pump.delta()
    assert delta.full
    views = {c.badge: c for c in delta.characters}
    # The kill reported before badge 150 was registered counts now, as it does when the game is folded again.
    assert views[150].condition == "dead" and views[150].name == "Õie Tamm" and 151 in views


def test_reports_go_on_while_the_game_is_folded_again_and_are_in_the_new_fold(pump, game):
    engine = pump.engine
    pump.settle(engine.command(cmds.AddPlayers(2, entries(), True)))
    assert engine.additions.stale is False and engine.refolding is None      # the pump swapped it in
    # Again, by hand: a refold begun, then reports stored and acknowledged before it is done.
    pump.settle(engine.command(cmds.AddPlayers(3, tuple(read_roster_entries(
        "badge,name,side,group,class,paid,helmet,armour\r\n152,Mai,North,Wolves,warrior,yes,,\r\n",
        default_profile())), True)))
    engine.additions.stale = True
    job = engine.refold_job()
    new_fold = job()                      # it read the log as it stood
    out = pump.submit("down", {"badge": 2}, "marshal:7")
    assert out.stored and engine.fold is not new_fold                 # stored and folded by the old fold
    assert engine.fold.state.characters[2].condition == "unconscious"
    engine.refolded(new_fold)
    assert engine.fold is new_fold
    assert new_fold.state.characters[2].condition == "unconscious"    # what came meanwhile is in the new fold
    seqs = [e.seq for e in new_fold.entries]
    assert len(seqs) == len(set(seqs))


def test_a_refold_waits_for_the_batch_in_flight_before_it_is_swapped_in(pump):
    engine = pump.engine
    pump.settle(engine.command(cmds.AddPlayers(2, entries(), True)))
    engine.additions.stale = True
    new_fold = engine.refold_job()()
    engine.command(cmds.Submit("down", {"badge": 4}, "marshal:7"))
    batch = engine.next_batch()
    engine.refolded(new_fold)
    assert engine.fold is not new_fold                                 # a batch is on its way: not now
    engine.committed(batch.id, pump.writer.write(batch.items))
    assert engine.fold is new_fold and new_fold.state.characters[4].condition == "unconscious"


def test_a_check_stores_nothing(pump, game):
    (answer,) = pump.send(cmds.AddPlayers(1, entries(), False)).roster
    assert (answer.stored, answer.problems, answer.unchanged) == (False, (), 1)
    assert [m.badge for m in answer.added] == [150, 151] and roster_of(game) == BADGES


def test_nothing_is_added_while_a_line_has_a_problem(pump, game):
    text = ("badge,name,side,group,class,paid,helmet,armour\r\n"
            "2,Birgit,North,Foxes,warrior,no,,\r\n"             # in the game in Wolves, paid
            "160,Mart,South,Wolves,warrior,yes,,\r\n"           # Wolves fight for North in this game
            "161,Liis,South,Ravens,warrior,yes,,\r\n")          # fine on its own
    (answer,) = pump.send(cmds.AddPlayers(7, tuple(read_roster_entries(text, default_profile())), True)).roster
    assert not answer.stored and answer.added == ()
    assert answer.problems == (
        "line 2: badge 2 is already in the game as 'Birgit' (Wolves), and this line differs in: group, paid; "
        "a game under way only takes new players",
        "line 3: group 'Wolves' is on side 'North' in the game, not 'South'",
    )
    assert roster_of(game) == BADGES


def test_players_offered_while_a_batch_is_being_stored_are_added_after_it(pump, game):
    engine = pump.engine
    engine.command(cmds.Submit("down", {"badge": 2}, "marshal:7"))
    batch = engine.next_batch()
    assert not engine.command(cmds.AddPlayers(9, entries(), True)).roster      # waits for the batch
    out = pump.settle(engine.committed(batch.id, pump.writer.write(batch.items)))
    (answer,) = out.roster
    assert answer.stored and [m.badge for m in answer.added] == [150, 151]
    assert engine.fold.state.characters[2].condition == "unconscious" and 151 in engine.fold.state.characters
    types = [e.type for e in pump.events()]
    assert types[-2:] == ["down", "roster_added"]              # the report stored first; then the players


def test_events_read_before_a_refold_are_not_folded_twice(pump, game):
    """After the swap, the storage writer may still deliver events the new fold read already (another
    station's on a shared game): they stay in the fold once, and what came after them is folded on."""
    engine = pump.engine
    with GameStore.open(game, create=False) as other:         # another station's reports
        stored = other.log.append([make_event(10_000, "down", "marshal:3", badge=2),
                                   make_event(11_000, "down", "marshal:3", badge=4)]).stored
        later = other.log.append([make_event(12_000, "down", "marshal:3", badge=5)]).stored
    engine.additions.stale = True
    engine.refolded(engine.refold_job()())                    # reads all three
    engine.logged([(s, None) for s in stored])                # delivered late: already in the fold
    engine.logged([(s, None) for s in later])
    seqs = [e.seq for e in engine.fold.entries]
    assert len(seqs) == len(set(seqs)), "an event folded twice"
    assert not any(w.badge in (2, 4, 5) for w in engine.fold.state.warnings), engine.fold.state.warnings
    with GameStore.open(game, create=False) as other:
        fresh = other.log.append([make_event(13_000, "down", "marshal:3", badge=11)]).stored
    engine.logged([(s, None) for s in fresh])
    assert [e.seq for e in engine.fold.entries].count(fresh[0].seq) == 1
    assert engine.fold.state.characters[11].condition != "active"


def test_an_addition_is_answered_while_the_game_cannot_be_stored(pump, game):
    """Storage failing: an addition is refused at once with why, and one waiting for the batch that cannot be
    stored is answered too, not left waiting."""
    engine = pump.engine
    engine.command(cmds.Submit("note", {"text": "x"}))
    engine.next_batch()
    engine.command(cmds.AddPlayers(8, entries(), True))                     # waits for the batch in flight
    out = engine.storage_failed("the disk holding the game file is full")
    out.roster += engine.command(cmds.AddPlayers(9, entries(), True)).roster
    assert [(a.request, a.stored) for a in out.roster] == [(8, False), (9, False)]
    for a in out.roster:
        assert "cannot be stored now (the disk holding the game file is full)" in a.problems[0]
    assert roster_of(game) == BADGES


def test_an_event_before_the_checkpoints_of_a_refold_swapped_in_waits_for_the_next_background_one(pump, game):
    """A station not running the timers swaps in a refold; another station's event stored meanwhile lies before
    every checkpoint the new fold keeps (a correction placed hours back, on a long game): the new fold is marked
    behind and folded again in the background, not read again from the whole log in the core thread."""
    from controlroom.engine.authority import STANDBY
    from controlroom.game import snapshot

    engine = pump.engine
    engine.authority.state = STANDBY                          # another station runs the timers
    with GameStore.open(game, create=False) as other:
        other.log.append([make_event(10_000 + i, "note", "gm", text=str(i)) for i in range(6)])
    engine.additions.stale = True
    new_fold = engine.refold_job()()
    new_fold.checkpoints = [(new_fold.last_key, snapshot.take(new_fold.state))]    # as a long game's keeps
    new_fold.based_on(new_fold.checkpoints[0][1])
    with GameStore.open(game, create=False) as other:
        other.log.append([(make_event(6_000, "down", "marshal:3", badge=2), None, 2.5)])   # placed at pos 2.5

    def whole_log(_pause=None):
        raise AssertionError("the whole log read again in the core thread")
    new_fold.history = whole_log
    with GameStore.open(game, create=False) as store:         # what the storage writer read meanwhile
        engine.refolding = [(s, None) for s in store.log.fetch_after(new_fold.last_key[1])]
    out = engine.refolded(new_fold)
    assert engine.fold is new_fold and new_fold.behind
    assert out.refold or engine._refold_due(), "the next refold, in the background, folds it in its place"


def test_acks_and_deadlines_go_on_while_a_refold_runs_and_each_counts_once_after_the_swap(tmp_path, monkeypatch):
    """The refold runs in another thread: meanwhile a marshal's report is acknowledged and a deadline fires and
    is stored by the old fold.  At the swap the new fold, which read the log before either, takes both in: the
    deadline it had pending is the one stored (not fired again), and the first delta shows both."""
    path = new_game(tmp_path / "refold.crgame")
    with GameStore.open(path) as store:
        key = register_device(store, 7, "marshal", "M7").key
        store.log.append([make_event(0, "scenario_started", name="Morning")])
    clock = VirtualClock(60_000)
    pump = Pump(path, clock)
    engine = pump.engine
    knockout = default_profile().knockout_ms
    assert pump.frame(codec.encode_casualty(key, 7, 1, 1, "knocked_out")).acks      # Aldo wakes at 60 s + 5 min
    pump.settle(engine.command(cmds.AddPlayers(2, entries(), True)))           # (a first refold, swapped in)
    pauses = []
    engine.additions.stale = True
    job = engine.refold_job(lambda: pauses.append(gc.isenabled()))
    was = gc.isenabled()
    gc.enable()                          # (as in a station: another test may have left the collector off)
    try:
        new_fold = job()                 # it read the log as it stood, and waits to be swapped in
    finally:
        if not was:
            gc.disable()
    # It rested now and then, with no collection of the new fold's objects (then its 8 characters viewed).
    assert len(pauses) > 2 and not any(pauses[:-1]) and pauses[-1]
    heard = pump.frame(codec.encode_casualty(key, 7, 2, 2, "down"))
    assert [type(a) for a in heard.acks] == [FrameAck]                      # acknowledged meanwhile
    pump.at(60_000 + knockout)                                                 # Aldo wakes: fired and stored
    woke = [e for e in pump.events() if e.source == SOURCE_TIMER and e.data.get("badge") == 1]
    assert len(woke) == 1 and engine.fold is not new_fold
    engine.refolded(new_fold)
    assert engine.fold is new_fold
    pump.at(60_000 + knockout + 60_000)
    assert [e for e in pump.events() if e.source == SOURCE_TIMER and e.data.get("badge") == 1] == woke
    viewed_again = []
    monkeypatch.setattr(publisher, "character_view", lambda st, b: viewed_again.append(b) or character_view(st, b))
    views = {c.badge: c for c in pump.delta().characters}
    assert views[1].condition == "active" and views[2].condition == "unconscious" and 150 in views
    assert set(viewed_again) == {1, 2}      # the rest were viewed in the refold's thread, before the swap


def test_the_fold_a_refold_replaces_is_let_go(pump):
    """Nothing holds on to the fold the game opened with once a refold is swapped in: two whole folds of a big
    game in memory, for the rest of the day, after the first roster import."""
    opened = weakref.ref(pump.engine.fold)
    pump.game = dataclasses.replace(pump.game, fold=None)      # (the harness's own hold: a station keeps none)
    pump.settle(pump.engine.command(cmds.AddPlayers(2, entries(), True)))
    assert pump.engine.fold is not opened() and opened() is None
