"""The fold's checkpoints: each is the state after the log up to its key, they share the rows of unchanged
characters, the newest keep a schedule, older ones stand further apart, and a late report folds again from the
right one."""


from controlroom.game.fold import Fold, key_of
from controlroom.game.state import GameState
from tests.support.fold_station import Rec, Row, Station, battle, plain_log, same_game
from tests.support.game_helpers import ROSTER, ev


def test_checkpoints_share_the_rows_of_characters_that_did_not_change_and_restore_exactly():
    from controlroom.game import snapshot

    rows = [Row(i + 1, None, e) for i, e in enumerate(
        [ev(1000, "down", badge=1), ev(2000, "strike", badge=2), ev(3000, "down", badge=11),
         ev(4000, "strike", badge=2), ev(5000, "bound", badge=1, by=3), ev(6000, "down", badge=12)])]
    fold = Fold(GameState(ROSTER), checkpoint_every=2, keep=8)
    fold.load(rows, (), 0)                  # a short log: every row is in the tail, a checkpoint every 2
    (k1, first), (k2, second) = fold.checkpoints[1:3]
    order = list(fold.state.characters)
    for badge, old, new in zip(order, first.characters, second.characters):
        # Between them: a strike on 2 and a down of 11; every other character's row is the same object.
        assert (old is new) == (badge not in (2, 11)), badge
    for (key, snap), upto in zip(fold.checkpoints, (0, 2, 4, 6)):
        plain = GameState(ROSTER)
        for rec in rows[:upto]:
            plain.apply(rec.event)
        assert key == ((float(upto), upto) if upto else (0.0, 0))
        assert same_game(snapshot.restore(snap), plain)


def test_the_tails_checkpoints_taken_after_the_opening_are_the_states_the_fold_passed_through(monkeypatch):
    """load folds the tail fast and notes where its checkpoints are due; they are taken later, by folding the
    tail's entries again from the first, and each is the state after the log up to its key (batches of 4
    rows, so the count of the next checkpoint crosses batch boundaries, and a retracted row in the tail)."""
    from controlroom.game import fold_load as fold_module
    from controlroom.game import snapshot

    monkeypatch.setattr(fold_module, "_LOAD_BATCH", 4)
    rows = battle(41)
    gone = {33}
    fold = Fold(GameState(ROSTER), checkpoint_every=3, keep=4)
    fold.load(rows, gone, len(rows))            # the tail: the last 12 rows (30-41), one of them retracted
    assert same_game(fold.state, plain_log(rows, gone))
    assert len(fold._checkpoints) == 1          # only the tail's first, taken as it was reached
    fold.complete()
    keys = [k for k, _s in fold.checkpoints]
    # after row 29 (the tail's start), then every 3 rows folded: 30, 31, 32 | 34, 35, 36 | 37, 38, 39 | 40, 41
    assert keys == [(29.0, 29), (32.0, 32), (36.0, 36), (39.0, 39)]
    for key, snap in fold.checkpoints:
        assert same_game(snapshot.restore(snap), plain_log(rows[:key[1]], gone)), key
    assert fold._since_checkpoint == 2          # rows 40 and 41: the next checkpoint after one more


def test_a_late_report_before_the_checkpoints_are_taken_folds_again_from_the_right_one():
    """A report that lands inside the tail, confirmed before complete(): the checkpoints are taken from the
    log as loaded first, then the fold goes back to the one before the report."""
    rows = battle(40)
    fold = Fold(GameState(ROSTER), checkpoint_every=3, keep=4)
    fold.load(rows, (), len(rows))
    late = Rec(41, 33.5, ev(33_500, "down", badge=2))
    out = fold.confirm([(late, None)], may_fire=False)
    assert out.refolded
    assert same_game(fold.state, plain_log(rows + [Row(41, 33.5, late.event)]))
    from controlroom.game import snapshot

    everything = rows + [Row(41, 33.5, late.event)]
    keys = [k for k, _s in fold.checkpoints]
    # the tail's (28) is past the reach of 4 once those after it are taken; those after the report taken again
    assert keys[:2] == [(31.0, 31), (33.5, 41)]
    for key, snap in fold.checkpoints:
        upto = [r for r in everything if (r.pos if r.pos is not None else float(r.seq), r.seq) <= key]
        assert same_game(snapshot.restore(snap), plain_log(upto)), key


def test_each_checkpoints_schedule_is_the_one_its_state_gives_so_going_back_needs_no_rebuild():
    """A checkpoint keeps the deadline schedule as it stood (a refold restores it instead of working it out
    from 8,000 characters again): through downs, deaths fired, late reports and refolds, each kept schedule
    is the one ``Schedule.rebuild`` makes from the checkpoint's state, and the game is the log's."""
    from controlroom.game import snapshot
    from controlroom.game.scheduler import Schedule

    s = Station(checkpoint_every=2, keep=6)
    counter = 0
    for i, (t, kind, badge) in enumerate([(0, "down", 1), (30_000, "down", 2), (60_000, "strike", 4),
                                           (90_000, "knocked_out", 5), (200_000, "strike", 11),
                                           (400_000, "down", 12), (650_000, "note", 0), (700_000, "down", 13),
                                           (800_000, "strike", 14), (1_300_000, "note", 0)]):
        counter += 1
        fields = {"text": str(i)} if kind == "note" else {"badge": badge}
        if kind == "knocked_out":
            fields["helmet"] = False
        s.report(ev(t, kind, **fields), device=7, counter=counter)
    out = s.report(ev(1_310_000, "bound", badge=12), device=8, counter=1, happened=500_000)   # late: a refold
    assert out.refolded
    kept = [(k, snap) for k, snap in s.fold.checkpoints if snap.schedule is not None]
    assert len(kept) >= 3
    for key, snap in kept:
        fresh = Schedule()
        fresh.rebuild(snapshot.restore(snap))
        assert list(snap.schedule) == list(fresh), key
    assert same_game(s.fold.state, s.plain_fold())


def test_only_the_newest_checkpoints_keep_a_schedule_and_going_back_further_rebuilds_it():
    """A schedule copy holds every pending deadline: 64 checkpoints held 64 (bench_memory).  The newest
    ``SCHEDULES_KEPT`` keep theirs; a refold from an older one rebuilds the schedule and folds the same game."""
    from controlroom.game.fold_trim import SCHEDULES_KEPT

    s = Station(checkpoint_every=1, keep=200)
    for i in range(60):
        s.report(ev(i * 20_000, "down" if i % 3 else "strike", badge=1 + i), device=7, counter=i + 1)
    cps = s.fold.checkpoints
    assert len(cps) > SCHEDULES_KEPT + 5
    assert all(snap.schedule is None for _k, snap in cps[:-SCHEDULES_KEPT])
    assert sum(snap.schedule is not None for _k, snap in cps[-SCHEDULES_KEPT:]) > SCHEDULES_KEPT // 2
    out = s.report(ev(1_220_000, "bound", badge=2), device=8, counter=1, happened=30_000)   # late, far back
    assert out.refolded
    assert same_game(s.fold.state, s.plain_fold())


def test_older_checkpoints_stand_further_apart_for_the_same_reach_and_a_report_that_late_folds_right(monkeypatch):
    """The newest ``DENSE`` checkpoints stand every ``checkpoint_every`` events, older ones ``SPARSE`` times as
    far apart (bench_memory: 64 checkpoints held 15 MB), reaching back as far; a late report before a thinned
    one folds again from the one before it; a game opened again keeps them the same way."""
    from controlroom.game import fold_trim, snapshot

    monkeypatch.setattr(fold_trim, "DENSE", 4)
    monkeypatch.setattr(fold_trim, "SPARSE", 3)
    s = Station(checkpoint_every=2, keep=13)                # reach: 13 x 2 events; 4 + 3 + 1 checkpoints kept
    for i in range(80):
        s.report(ev(1_000 + i * 1_000, "down" if i % 2 else "strike", badge=1 + i % 40), device=7, counter=i + 1)
    cps = s.fold.checkpoints
    assert len(cps) == fold_trim.most(13) == 8

    def apart(cps):
        at = [sum(1 for k in s.fold._keys if k <= key) for key, _snap in cps]
        return [b - a for a, b in zip(at, at[1:])]

    gaps = apart(cps)           # 4 sparse, each 6 events after the one before; then the newest 4, 2 apart
    assert gaps[:3] == [6, 6, 6] and gaps[3] in (2, 4, 6) and gaps[4:] == [2, 2, 2], gaps
    assert len(s.fold.entries) >= 2 * 13                    # the reach of 13 checkpoints at the full spacing
    for key, snap in cps:
        assert same_game(snapshot.restore(snap), s.plain_fold(upto=key)), key
    late_at = cps[1][0][1] - 2                              # a report between the 2nd and 3rd sparse ones
    out = s.report(ev(81_000, "bound", badge=3), device=8, counter=1, happened=s.log[late_at - 1].event.t)
    assert out.refolded and same_game(s.fold.state, s.plain_fold())
    again = Fold(GameState(ROSTER), checkpoint_every=2, keep=13)
    rows = [Row(r.seq, r.pos, r.event) for r in sorted(s.log, key=key_of)]
    again.load(rows, s.fold.retracted, len(rows))
    again.complete()
    gaps = apart(again.checkpoints)
    assert gaps[:3] == [6, 6, 6] and gaps[4:] == [2, 2, 2] and same_game(again.state, s.fold.state), gaps


def _checking_takes(monkeypatch):
    """Every checkpoint taken from what changed since the last (``snapshot.take_since``) is compared with one
    that reads every character: the rows must be equal (a change not noted would leave a stale row)."""
    from controlroom.game import snapshot

    taken = []
    since = snapshot.take_since

    def checked(state, base, changed):
        snap = since(state, base, changed)
        full = snapshot.take(state)
        assert snap.characters == full.characters, "a character changed that was not noted as changed"
        taken.append(len(changed))
        return snap

    monkeypatch.setattr(snapshot, "take_since", checked)
    return taken


def test_checkpoints_read_only_the_characters_changed_and_equal_a_full_read(monkeypatch):
    """A long played game (every kind of event: carers taking over patients, healers, STOPPs, loot), folded
    as stored batches with late reports among them: each checkpoint read from what changed since the last
    equals a full read of the state, and the refolds from them give the log's game."""
    from tests.support.played_game import played_game, roster

    taken = _checking_takes(monkeypatch)
    members = roster(300)
    log = played_game(members, 6000)
    fold = Fold(GameState(members), checkpoint_every=40, keep=30)
    stored, seq = [], 0
    for i in range(0, len(log), 25):
        batch = []
        for event in log[i:i + 25]:
            seq += 1
            pos = None
            if seq % 97 == 0 and stored:        # now and then a report that belongs 30 events back
                pos = key_of(stored[-30])[0] + 0.5 if len(stored) > 30 else None
            batch.append((Rec(seq, pos, event), None))
        stored += [rec for rec, _t in batch]
        fold.confirm(batch, may_fire=False)
    assert len(taken) > 100 and sorted(taken)[len(taken) // 2] < len(members) // 4    # most read a few
    plain = GameState(members)
    for rec in sorted(stored, key=key_of):
        plain.apply(rec.event)
    assert same_game(fold.state, plain)


def test_an_openings_checkpoints_read_only_what_changed_between_them(monkeypatch):
    from tests.support.played_game import played_game, roster

    taken = _checking_takes(monkeypatch)
    members = roster(300)
    rows = [Row(i + 1, None, e) for i, e in enumerate(played_game(members, 3000))]
    fold = Fold(GameState(members), checkpoint_every=50, keep=20)
    fold.load(rows, (), len(rows))
    fold.complete()
    assert len(taken) >= 15
