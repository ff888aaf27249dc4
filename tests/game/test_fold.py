"""The fold in fold order: late reports fold where they happened, and the timer owner corrects the log."""

from typing import NamedTuple

from controlroom.game.devices import RadioMeta
from controlroom.game.events import SOURCE_TIMER, make_event
from controlroom.game.fold import Fold, key_of
from controlroom.game.state import GameState
from tests.support.game_helpers import ROSTER, ev, fingerprint


class Rec(NamedTuple):
    seq: int
    pos: float | None
    event: object
    radio: RadioMeta | None = None


class Station:
    """A log (append-only, seqs in order) and one station folding it, as the core worker does."""

    def __init__(self, checkpoint_every=3, keep=4):
        self.log: list[Rec] = []
        self.fold = Fold(GameState(ROSTER), history=self.history, checkpoint_every=checkpoint_every, keep=keep)
        self.notes = []

    def history(self, pause=None):
        return GameState(ROSTER), sorted(self.log, key=key_of)

    def _append(self, event, pos=None, radio=None):
        rec = Rec(len(self.log) + 1, pos, event, radio)
        self.log.append(rec)
        return rec

    def tick(self, now):
        """Fire due deadlines (folded now), store them; then store and fold the reports of this tick."""
        before = set(self.fold.state.deaths)
        fired = self.fold.fire(now)
        assert fired.deaths == [d for d in self.fold.state.deaths if d not in before]
        self.notes += fired.corrections
        items = [(self._append(c.event, c.pos), c.token) for c in fired.corrections]
        items += [(self._append(e), tok) for tok, e in fired.fired]
        return self.confirm(items)

    def report(self, event, device=None, counter=None, happened=None):
        self.tick(event.t)
        radio = RadioMeta(device, counter) if device is not None else None
        place = self.fold.place(device, counter, event.t, happened)
        if place is not None:
            event = event._replace(t=place.t)
        rec = self._append(event, place.pos if place else None, radio)
        return self.confirm([(rec, None)])

    def confirm(self, items):
        first = out = self.fold.confirm(items, may_fire=True)
        while out.corrections:          # the owner stores its corrections (folded already)
            self.notes += out.corrections
            stored = [(self._append(c.event, c.pos), c.token) for c in out.corrections]
            out = self.fold.confirm(stored, may_fire=True)
            assert not out.refolded, "the corrections were folded where they belong"
        return first

    def plain_fold(self, upto=None):
        """What any station gets by folding the log (no timers; up to the fold key ``upto``): must equal the
        owner's game."""
        state = GameState(ROSTER)
        gone = {r.event.data["seq"] for r in self.log if r.event.type == "retracted"}
        for rec in sorted(self.log, key=key_of):
            if rec.seq not in gone and (upto is None or key_of(rec) <= upto):
                state.apply(rec.event)
        return state


def same_game(a, b):
    fa, fb = fingerprint(a), fingerprint(b)
    for k in ("_dirty", "_dirty_stopps", "events_applied"):
        fa.pop(k), fb.pop(k)
    return fa == fb


def test_reports_in_order_fold_on_without_folding_again():
    s = Station()
    for t, badge in ((1000, 1), (2000, 2), (3000, 11)):
        out = s.report(ev(t, "down", badge=badge), device=7, counter=t)
        assert not out.refolded and [e.type for e in out.applied] == ["down"]
    assert s.fold.state.characters[11].condition == "unconscious"
    assert same_game(s.fold.state, s.plain_fold())


def test_a_retried_down_arriving_after_the_same_marshals_bound_folds_before_it():
    s = Station()
    s.report(ev(60_000, "strike", badge=2), device=7, counter=1)
    s.report(ev(120_000, "bound", badge=2), device=7, counter=3)          # counter 2 ("down") was lost
    assert [w.code for w in s.fold.state.warnings] == ["no_wounds"] or s.fold.state.characters[2].bound
    out = s.report(ev(125_000, "down", badge=2), device=7, counter=2)     # the retry
    assert out.refolded
    b = s.fold.state.characters[2]
    assert b.condition == "active" and b.bound and b.hp == 0 and b.regen_at is not None
    assert s.fold.state.warnings == [], [w.message for w in s.fold.state.warnings]
    assert same_game(s.fold.state, s.plain_fold())


def test_a_late_bind_undoes_the_death_it_prevented_with_a_correction():
    s = Station()
    s.report(ev(0, "down", badge=1), device=7, counter=10)
    s.report(ev(590_000, "note", text="busy"), device=9, counter=1)
    s.tick(600_000)                                                         # dies
    assert s.fold.state.characters[1].condition == "dead"
    s.report(ev(650_000, "note", text="later"), device=7, counter=12)
    # Bound at 590 s (the time of the key press, protocol version 2), heard only now.
    out = s.report(ev(700_000, "bound", badge=1), device=7, counter=11, happened=590_000)
    assert out.refolded
    assert [d[1] for d in out.undone] == [1]
    assert s.fold.state.characters[1].condition == "active"
    kinds = [(c.kind, c.about.type) for c in s.notes]
    assert ("retract", "died") in kinds
    assert s.fold.state.warnings == []
    assert same_game(s.fold.state, s.plain_fold())


def test_a_late_down_brings_a_death_forward_to_its_own_time():
    s = Station()
    s.report(ev(10_000, "heartbeat", device=7), device=7, counter=1)
    for t in range(60_000, 900_000, 60_000):
        s.report(ev(t, "note", text=f"t{t}"), device=9, counter=t)
    s.report(ev(890_000, "heartbeat", device=7), device=7, counter=3)
    out = s.report(ev(900_000, "down", badge=2), device=7, counter=2, happened=100_000)
    assert out.refolded
    (died,) = [c for c in s.notes if c.kind == "fire" and c.about.type == "died"]
    assert died.about.t == 700_000 and died.about.data["badge"] == 2
    order = [r.event.t for r in sorted(s.log, key=key_of) if r.event.type in ("died", "note")]
    assert order == sorted(order), "the death folds at 700 s, among the notes"
    assert same_game(s.fold.state, s.plain_fold())


def test_a_report_with_its_key_press_time_folds_at_that_time():
    s = Station()
    s.report(ev(100_000, "down", badge=3), device=8, counter=1)
    s.report(ev(150_000, "healer_touch", badge=3, healer=12), device=8, counter=2)
    assert s.fold.state.characters[3].condition == "active"
    # Marshal 7 saw badge 3 killed outright at 140 s; the frame came through only now.
    out = s.report(ev(160_000, "permanent_kill", badge=3), device=7, counter=1, happened=140_000)
    assert out.refolded
    c = s.fold.state.characters[3]
    assert c.condition == "dead"
    assert [w.code for w in s.fold.state.warnings] == ["target_dead"]      # the touch came too late
    assert same_game(s.fold.state, s.plain_fold())


def test_late_events_older_than_every_checkpoint_fold_the_whole_log_again():
    s = Station(checkpoint_every=2, keep=2)
    s.report(ev(1_000, "strike", badge=4), device=7, counter=1)
    s.report(ev(2_000, "bound", badge=4), device=7, counter=5)
    for i in range(20):
        s.report(ev(3_000 + i * 1000, "note", text=str(i)), device=9, counter=i)
    out = s.report(ev(30_000, "down", badge=4), device=7, counter=2)
    assert out.refolded and s.fold.state.characters[4].bound
    assert s.fold.state.warnings == []
    assert same_game(s.fold.state, s.plain_fold())


def test_a_game_masters_retraction_folds_the_game_again_without_the_event():
    s = Station()
    s.report(ev(1_000, "down", badge=5))
    wrong = s.log[-1].seq
    s.report(ev(2_000, "note", text="x"))
    out = s.report(make_event(3_000, "retracted", "gm", seq=wrong, reason="wrong badge"))
    assert out.refolded and s.fold.state.characters[5].condition == "active"
    assert same_game(s.fold.state, s.plain_fold())


def test_timer_events_fired_before_reports_of_the_same_tick_need_no_refold():
    s = Station()
    s.report(ev(0, "knocked_out", badge=2, helmet=False), device=7, counter=1)
    out = s.report(ev(300_000, "strike", badge=2), device=7, counter=2)    # woke at 300 s, then struck
    assert not out.refolded
    assert [e.type for e in s.plain_fold().characters and [r.event for r in s.log]] [-2:] == ["woke", "strike"]
    assert s.fold.state.characters[2].hp == 1
    assert s.log[-2].event.source == SOURCE_TIMER


def test_checkpoints_share_the_rows_of_characters_that_did_not_change_and_restore_exactly():
    from controlroom.game import snapshot

    rows = [_Row(i + 1, None, e) for i, e in enumerate(
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


class _Row(NamedTuple):             # what Fold.load reads of a stored event (the store's LogRow)
    seq: int
    pos: float | None
    event: object
    device: int | None = None
    counter: int | None = None


def _battle(n):
    """n stored rows of strikes, downs and bindings over both sides, one a second."""
    kinds = [("strike", {}), ("down", {}), ("strike", {}), ("bound", {"by": 3}), ("strike", {})]
    badges = [1, 2, 4, 5, 6, 11, 13, 14, 15]
    rows = []
    for i in range(n):
        kind, extra = kinds[i % len(kinds)]
        rows.append(_Row(i + 1, None, ev(1000 * (i + 1), kind, badge=badges[(i * 7) % len(badges)], **extra)))
    return rows


def _plain(rows, gone=()):
    state = GameState(ROSTER)
    for row in sorted(rows, key=lambda r: (r.pos if r.pos is not None else float(r.seq), r.seq)):
        if row.seq not in gone:
            state.apply(row.event)
    return state


def test_the_tails_checkpoints_taken_after_the_opening_are_the_states_the_fold_passed_through(monkeypatch):
    """load folds the tail fast and notes where its checkpoints are due; they are taken later, by folding the
    tail's entries again from the first, and each is the state after the log up to its key (batches of 4
    rows, so the count of the next checkpoint crosses batch boundaries, and a retracted row in the tail)."""
    from controlroom.game import fold_load as fold_module
    from controlroom.game import snapshot

    monkeypatch.setattr(fold_module, "_LOAD_BATCH", 4)
    rows = _battle(41)
    gone = {33}
    fold = Fold(GameState(ROSTER), checkpoint_every=3, keep=4)
    fold.load(rows, gone, len(rows))            # the tail: the last 12 rows (30-41), one of them retracted
    assert same_game(fold.state, _plain(rows, gone))
    assert len(fold._checkpoints) == 1          # only the tail's first, taken as it was reached
    fold.complete()
    keys = [k for k, _s in fold.checkpoints]
    # after row 29 (the tail's start), then every 3 rows folded: 30, 31, 32 | 34, 35, 36 | 37, 38, 39 | 40, 41
    assert keys == [(29.0, 29), (32.0, 32), (36.0, 36), (39.0, 39)]
    for key, snap in fold.checkpoints:
        assert same_game(snapshot.restore(snap), _plain(rows[:key[1]], gone)), key
    assert fold._since_checkpoint == 2          # rows 40 and 41: the next checkpoint after one more


def test_a_late_report_before_the_checkpoints_are_taken_folds_again_from_the_right_one():
    """A report that lands inside the tail, confirmed before complete(): the checkpoints are taken from the
    log as loaded first, then the fold goes back to the one before the report."""
    rows = _battle(40)
    fold = Fold(GameState(ROSTER), checkpoint_every=3, keep=4)
    fold.load(rows, (), len(rows))
    late = Rec(41, 33.5, ev(33_500, "down", badge=2))
    out = fold.confirm([(late, None)], may_fire=False)
    assert out.refolded
    assert same_game(fold.state, _plain(rows + [_Row(41, 33.5, late.event)]))
    from controlroom.game import snapshot

    everything = rows + [_Row(41, 33.5, late.event)]
    keys = [k for k, _s in fold.checkpoints]
    # the tail's (28) is past the reach of 4 once those after it are taken; those after the report taken again
    assert keys[:2] == [(31.0, 31), (33.5, 41)]
    for key, snap in fold.checkpoints:
        upto = [r for r in everything if (r.pos if r.pos is not None else float(r.seq), r.seq) <= key]
        assert same_game(snapshot.restore(snap), _plain(upto)), key


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
    rows = [_Row(r.seq, r.pos, r.event) for r in sorted(s.log, key=key_of)]
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
    rows = [_Row(i + 1, None, e) for i, e in enumerate(played_game(members, 3000))]
    fold = Fold(GameState(members), checkpoint_every=50, keep=20)
    fold.load(rows, (), len(rows))
    fold.complete()
    assert len(taken) >= 15


def test_no_checkpoint_is_taken_between_another_stations_report_and_a_deadline_folded_ahead_of_it():
    """The owner fires a deadline (folded at once, ahead of the log); another station's position lands before it
    in the log.  A checkpoint due at that position would hold the deadline's effect before the deadline:
    folding again from it, the owner took the deadline back as one the rules no longer fire (the game day's
    missing ``hp_regained``).  The checkpoint waits until the batch's own events are passed."""
    from controlroom.game import snapshot

    s = Station(checkpoint_every=2, keep=8)
    s.report(ev(0, "down", badge=1), device=7, counter=1)           # dies at 600 s unless bound
    s.report(ev(1_000, "note", text="a"), device=9, counter=1)
    s.report(ev(2_000, "note", text="b"), device=9, counter=2)      # one event since the last checkpoint
    fired = s.fold.fire(600_000)                                     # the death, folded ahead
    assert [e.type for _tok, e in fired.fired] == ["died"]
    position = s._append(ev(599_000, "position", device=5, lat=58.0, lon=25.0))
    died = [(s._append(e), tok) for tok, e in fired.fired]
    assert not s.fold.confirm([(position, None), *died], may_fire=True).refolded
    for key, snap in s.fold.checkpoints:        # none holds the death before the death's place in the log
        assert key >= key_of(died[0][0]) or snapshot.restore(snap).characters[1].condition != "dead", key
    # A late report between the position and the death: the owner folds again from its last checkpoint.
    assert s.report(ev(610_000, "note", text="late"), device=9, counter=3, happened=599_500).refolded
    assert [c.kind for c in s.notes if c.about.type == "died"] == [], "the death was not taken back"
    assert same_game(s.fold.state, s.plain_fold())


def test_an_owners_correction_placed_far_back_is_not_folded_again_from_its_place(monkeypatch):
    """A deadline the owner fired late is folded where it fell due; stored with another station's late report,
    the refold starts at that report, not hours back at the correction (the owner's 4 s steps of a game day)."""
    from controlroom.game import fold_rerun

    s = Station(checkpoint_every=3, keep=50)
    s.report(ev(10_000, "heartbeat", device=7), device=7, counter=1)
    for t in range(60_000, 900_000, 60_000):
        s.report(ev(t, "note", text=f"t{t}"), device=9, counter=t)
    # A late down: its death (700 s) is fired in its place, folded, provisional, not stored yet.
    place = s.fold.place(7, 2, 900_000, 100_000)
    down = s._append(ev(900_000, "down", badge=2)._replace(t=place.t), place.pos, RadioMeta(7, 2))
    out = s.fold.confirm([(down, None)], may_fire=True)
    (died,) = [c for c in out.corrections if c.kind == "fire"]
    assert died.pos < key_of(s.log[-3])[0], "placed far back"
    # Stored with another station's late note, folded before the last note the fold has.
    late = s._append(ev(839_000, "note", text="late"), pos=key_of(s.log[-2])[0] - 0.5)
    starts = []
    real = fold_rerun.refold
    monkeypatch.setattr(fold_rerun, "refold", lambda f, first, may: starts.append(first) or real(f, first, may))
    out = s.fold.confirm([(s._append(died.event, died.pos), died.token), (late, None)], may_fire=True)
    assert out.refolded and starts == [key_of(late)]
    assert s.fold.state.characters[2].condition == "dead"
    assert same_game(s.fold.state, s.plain_fold())


def test_deaths_fired_late_behind_a_rule_event_are_named_by_the_firing():
    """A death that fell due before a rule event folded already (no station fired it then) is fired in its place
    (a refold): the firing names it among the deaths it recorded, as it names those fired at the end."""
    s = Station()
    s.report(ev(0, "down", badge=1), device=7, counter=1)               # dies at 600 s unless bound
    s.report(ev(1_000, "down", badge=2), device=7, counter=2)           # dies at 601 s
    other = s._append(ev(600_500, "strike", badge=11))                  # stored by a station not firing
    assert not s.fold.confirm([(other, None)], may_fire=False).refolded
    fired = s.fold.fire(700_000)
    assert fired.refolded
    assert sorted(b for _t, b, _c, _s in fired.deaths) == [1, 2]
    assert [c.event.t for c in fired.corrections if c.kind == "fire" and c.event.type == "died"] == [600_000]


def test_the_first_rule_report_after_a_time_is_found_with_or_without_walking_back():
    """``_first_rule_after`` answers at once when every rule report folded is older (a deadline on time), and
    otherwise as the walk back through the entries does: the same answer for every time asked."""
    from controlroom.game.fold import FIELD_TYPES as FIELD
    from controlroom.game.fold import LOOK_BACK_MS

    def walked(fold, t):
        first = None
        for entry in reversed(fold.entries):
            e = entry.event
            if e.source == SOURCE_TIMER or e.type in FIELD or entry.seq in fold.retracted:
                continue
            if e.t >= t:
                first = entry.key
            elif e.t < t - LOOK_BACK_MS:
                break
        return first

    s = Station(checkpoint_every=5, keep=3)
    counter = 0
    for t in range(0, 1_800_000, 60_000):
        counter += 1
        s.report(ev(t + 500, "position", device=5, lat=58.0, lon=25.0), device=5, counter=counter)
        if t % 240_000 == 0:
            s.report(ev(t, "strike", badge=1 + (t // 240_000) % 3), device=7, counter=counter)
    times = range(-1, 1_900_000, 7_919)
    assert [s.fold._first_rule_after(t) for t in times] == [walked(s.fold, t) for t in times]
    assert s.fold.rule_t == 1_680_000                     # found from the entries when first asked
    s.report(ev(1_700_000, "strike", badge=2), device=7, counter=99)
    assert s.fold.rule_t == 1_700_000                     # kept as reports are folded in
    s.report(ev(1_000_000, "note", text="late"), device=9, counter=1, happened=900_000)      # placed back
    assert [s.fold._first_rule_after(t) for t in times] == [walked(s.fold, t) for t in times]
    s.fold.rule_t = None                                  # as after an opening
    assert [s.fold._first_rule_after(t) for t in times] == [walked(s.fold, t) for t in times]
    assert s.fold._first_rule_after(s.fold.rule_t + 1) is None
