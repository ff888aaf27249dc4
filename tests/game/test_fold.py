"""The fold in fold order: late reports fold where they happened, and the timer owner corrects the log.
Its checkpoints: test_fold_checkpoints.py."""


from controlroom.game.devices import RadioMeta
from controlroom.game.events import SOURCE_TIMER, make_event
from controlroom.game.fold import key_of
from tests.support.fold_station import Station, same_game
from tests.support.game_helpers import ev


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
