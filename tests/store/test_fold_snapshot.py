"""The fold snapshot kept with a game: a snapshot and the log after it fold to exactly the game the whole log folds to.

On SQLite and on PostgreSQL.  Opening from the kept snapshot must give the
same state, index of the log, devices' frames, kept entries and checkpoints
as folding the whole log (``open_fold(saved=False)``), and fold on the same
afterwards (a late report, a late frame).  The snapshot is not used once it
no longer holds: a late report stored before its point, a correction of an
event before it, another roster, another ruleset, another fold code or
format, a damaged text.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import sqlalchemy as sa

from controlroom.game import snapshot, snapshot_json
from controlroom.game.devices import RadioMeta
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.game import FOLD_POINT_KEY, FOLD_SNAPSHOT_KEY, GameStore
from tests.support.played_game import played_game, roster
from tests.support.reference_game import EXPECTED, _game, digest

RULES = Path(__file__).resolve().parents[2] / "resources" / "rules" / "default.toml"
SMALL = {"checkpoint_every": 100, "keep": 4}        # a tail of 400 events: small games have a snapshot
TAIL = 400


def _small_items(n: int = 3000, players: int = 200, seed: int = 4):
    """A battle with trackers' frames, late reports placed a few events back and corrections."""
    members = roster(players)
    rng = random.Random(seed)
    items, counters = [], {}
    for i, ev in enumerate(played_game(members, n, seed=seed)):
        if i % 3 == 0:
            device = rng.randint(1, 30)
            counters[device] = counters.get(device, 0) + 1
            items.append((make_event(ev.t, "position", f"tracker:{device}", device=device, battery=50, fix=1,
                                     sats=8, lat=58.38 + rng.random() / 100, lon=26.72 + rng.random() / 100),
                          RadioMeta(device, counters[device]), None))
        if i % 500 == 499:
            items.append((make_event(ev.t, "note", "gm", text=f"late {i}"), None, len(items) - 2.5))
        if i % 700 == 699:
            items.append((make_event(ev.t, "retracted", "gm", seq=len(items) - 3, reason="wrong badge"), None, None))
        items.append((ev, None, None))
    return members, items


def _store_game(path: str, members, items) -> None:
    with GameStore.open(path) as store:
        store.save_roster(members)
        for i in range(0, len(items), 2000):
            store.log.append(items[i:i + 2000])


def assert_same_fold(a, b) -> None:
    """Two folds that will fold on alike: state, log index, frames, entries and checkpoints."""
    assert digest(a.state) == digest(b.state)
    assert (list(a.index.pos), list(a.index.seq), list(a.index.t)) == (list(b.index.pos), list(b.index.seq),
                                                                       list(b.index.t))
    assert a.frames == b.frames
    assert a.last_key == b.last_key
    assert a.retracted == b.retracted
    assert a.entries == b.entries
    assert [k for k, _s in a.checkpoints] == [k for k, _s in b.checkpoints]
    for (_k, snap_a), (_k2, snap_b) in zip(a.checkpoints, b.checkpoints):
        assert digest(snapshot.restore(snap_a)) == digest(snapshot.restore(snap_b))
    assert a.schedule.next_due() == b.schedule.next_due()


def test_the_reference_game_opened_from_its_snapshot_is_the_game_folded_in_full(game_db):
    """tests/store/test_fold_reference.py's game (late reports, corrections, frames), with the core's own options."""
    members, items = _game()
    _store_game(game_db, members, items)
    with GameStore.open(game_db, create=False) as store:
        full = store.open_fold()
        assert full.saved_point is None and full.opened is not None
        assert store.save_fold(full)
        again = store.open_fold()
        assert again.saved_point == full.opened[:2]
        assert not store.save_fold(again)               # the same point: nothing new to keep
        assert_same_fold(again, full)
        assert digest(again.state) == EXPECTED


def test_a_snapshot_cut_into_short_lines_is_the_same_game(game_db, monkeypatch):
    """Long lists are written on lines of their own (``LINE_ITEMS`` items at most, so that no single call into
    the json module holds the GIL for long): cut into lines of 7, the reference game reads back the same."""
    monkeypatch.setattr(snapshot_json, "LINE_ITEMS", 7)
    members, items = _game()
    _store_game(game_db, members, items)
    with GameStore.open(game_db, create=False) as store:
        full = store.open_fold()
        assert store.save_fold(full)
        lines = store.meta(FOLD_SNAPSHOT_KEY).split("\n")[2:]      # (the point, the rest of the snapshot, ...)
        assert len(lines) > len(members) // 7
        assert all(len(json.loads(line)) <= 7 for line in lines)
        again = store.open_fold()
        assert again.saved_point == full.opened[:2]
        assert_same_fold(again, full)
        assert digest(again.state) == EXPECTED


def test_a_snapshot_and_the_log_stored_after_it_fold_to_the_whole_log(game_db):
    members, items = _small_items()
    _store_game(game_db, members, items[:2500])
    with GameStore.open(game_db, create=False) as store:
        assert store.save_fold(store.open_fold(**SMALL))
        point = json.loads(store.meta(FOLD_SNAPSHOT_KEY).partition("\n")[0])["key"]
        # More of the game: frames, late reports placed after the snapshot's point, corrections of events after it.
        store.log.append(items[2500:])
        last = store.log.last_seq()
        store.log.append([(make_event(10**9, "note", "gm", text="late, after the point"), None, last - 1.5),
                          make_event(10**9, "retracted", "gm", seq=last - 10, reason="wrong")])
        assert last - 10 > point[1]
        kept = store.open_fold(**SMALL)
        assert kept.saved_point is not None
        assert_same_fold(kept, store.open_fold(saved=False, **SMALL))


def test_the_index_before_the_snapshot_read_later_completes_the_same_fold(game_db):
    """What the core does: the game shown first, the index of the log before the snapshot read after."""
    members, items = _small_items()
    _store_game(game_db, members, items)
    with GameStore.open(game_db, create=False) as store:
        assert store.save_fold(store.open_fold(**SMALL))
        later = store.open_fold(complete=False, **SMALL)
        assert later.saved_point is not None and len(later.index) < store.log.count()
        later.complete()
        assert_same_fold(later, store.open_fold(saved=False, **SMALL))
        # A late report stored before the snapshot's point in between: the index is not that fold's.
        again = store.open_fold(complete=False, **SMALL)
        key = again.saved_point[0]
        store.log.append([(make_event(10**9, "note", "gm", text="late"), None, key[0] - 0.5)])
        again.complete()            # read up to the seq known at opening: the late report is not in it
        assert len(again.index) == len(later.index)
        assert store.open_fold(**SMALL).saved_point is None


def test_a_fold_opened_from_its_snapshot_folds_a_late_report_and_a_late_frame_alike(game_db):
    members, items = _small_items()
    _store_game(game_db, members, items)
    with GameStore.open(game_db, create=False) as store:
        assert store.save_fold(store.open_fold(**SMALL))
        kept, full = store.open_fold(**SMALL), store.open_fold(saved=False, **SMALL)
        assert kept.saved_point is not None and full.saved_point is None
        # A frame of a device heard late: placed alike.
        device = 7
        counter = kept.frames[device][-3][0]
        assert kept.place(device, counter, 10**9) is not None
        assert kept.place(device, counter, 10**9) == full.place(device, counter, 10**9)
        # A late report placed inside the tail, then one before every checkpoint (the whole log folds again).
        for back in (150, 2000):
            target = kept.index.key(len(kept.index) - back)
            before = kept.index.pos[len(kept.index) - back - 1]
            pos = (before + target[0]) / 2
            victim = next(b for b, c in kept.state.characters.items() if c.condition == "active")
            stored = store.log.append([(make_event(kept.index.t[len(kept.index) - back], "down", "marshal:1",
                                                   badge=victim), None, pos)]).stored
            a = kept.confirm([(s, None) for s in stored], may_fire=True)
            b = full.confirm([(s, None) for s in stored], may_fire=True)
            assert a.refolded and b.refolded
            assert [c.event for c in a.corrections] == [c.event for c in b.corrections]
            assert digest(kept.state) == digest(full.state)
            assert kept.entries == full.entries


@pytest.mark.parametrize("change", ["late report", "correction", "roster", "ruleset", "fold code", "format",
                                    "damaged"])
def test_a_snapshot_that_no_longer_holds_is_not_used(game_db, change, monkeypatch, caplog):
    members, items = _small_items()
    _store_game(game_db, members, items)
    with GameStore.open(game_db, create=False) as store:
        assert store.save_fold(store.open_fold(**SMALL))
        assert store.open_fold(**SMALL).saved_point is not None
        head = json.loads(store.meta(FOLD_SNAPSHOT_KEY).partition("\n")[0])
        key = tuple(head["key"])
        if change == "late report":         # stored now, placed before the snapshot's point
            store.log.append([(make_event(10**9, "down", "marshal:1", badge=members[5].badge), None, key[0] - 0.5)])
        elif change == "correction":        # a correction, stored now, of an event before the point
            store.log.append([make_event(10**9, "retracted", "gm", seq=int(key[1]) - 5, reason="wrong badge")])
        elif change == "roster":
            m = members[3]
            store.save_roster([*members[:3], Member(m.badge, m.name, m.side, m.group, m.cls, helmet="metal"),
                               *members[4:]])
        elif change == "ruleset":          # one healer for every 6 members instead of 5
            text = RULES.read_text(encoding="utf-8")
            assert "members_per_healer = 5 " in text
            store.set_rules(text.replace("members_per_healer = 5 ", "members_per_healer = 6 ", 1), "mine.toml")
            assert store.profile().members_per_healer == 6
        elif change == "fold code":
            monkeypatch.setattr(snapshot_json, "code_digest", lambda: "another fold")
        elif change == "format":
            monkeypatch.setattr(snapshot_json, "FORMAT", snapshot_json.FORMAT + 1)
        elif change == "damaged":
            text = store.meta(FOLD_SNAPSHOT_KEY)
            store.set_meta(FOLD_SNAPSHOT_KEY, text.replace('"characters"', '"charactres"', 1)[:len(text) // 2])
        opened = store.open_fold(**SMALL)
        assert opened.saved_point is None
        assert_same_fold(opened, store.open_fold(saved=False, **SMALL))
        if change == "damaged":
            assert "not used" in caplog.text
        # Kept again, the new snapshot holds.
        assert store.save_fold(opened)
        assert store.open_fold(**SMALL).saved_point is not None


def test_a_snapshot_is_brought_up_to_date_and_still_folds_to_the_whole_log(game_db):
    members, items = _small_items(n=4000)
    _store_game(game_db, members, items[:1500])
    with GameStore.open(game_db, create=False) as store:
        assert store.update_saved_fold(min_advance=100, tail=TAIL)             # from nothing
        first = store.open_fold(**SMALL).saved_point
        store.log.append(items[1500:])
        assert not store.update_saved_fold(min_advance=10**6, tail=TAIL)       # not far enough past it
        assert store.update_saved_fold(min_advance=100, tail=TAIL)
        kept = store.open_fold(**SMALL)
        assert kept.saved_point[1] == store.log.count() - TAIL > first[1]
        assert_same_fold(kept, store.open_fold(saved=False, **SMALL))


class SnapshotReads:
    """Counts what parses a kept snapshot (``snapshot_json.loads``) and the statements naming its key."""

    def __init__(self, store: GameStore, monkeypatch) -> None:
        self.parsed = 0
        self.statements: list[str] = []
        loads = snapshot_json.loads

        def counted(*args, **kwargs):
            self.parsed += 1
            return loads(*args, **kwargs)

        def seen(_conn, _cursor, statement, parameters, _context, _many) -> None:
            values = parameters.values() if isinstance(parameters, dict) else parameters or ()
            if FOLD_SNAPSHOT_KEY in values:
                self.statements.append(statement)

        monkeypatch.setattr(snapshot_json, "loads", counted)
        sa.event.listen(store.engine, "before_cursor_execute", seen)

    def reset(self) -> None:
        self.parsed, self.statements = 0, []


def _head(store: GameStore) -> dict:
    return json.loads(store.meta(FOLD_SNAPSHOT_KEY).partition("\n")[0])


def test_the_upkeep_decides_from_the_snapshots_point_without_reading_the_snapshot(game_db, monkeypatch):
    members, items = _small_items(n=4000)
    _store_game(game_db, members, items[:1500])
    with GameStore.open(game_db, create=False) as store:
        assert store.update_saved_fold(min_advance=100, tail=TAIL)
        # The point, stored with the snapshot, is the snapshot's first line.
        assert json.loads(store.meta(FOLD_POINT_KEY)) == _head(store)
        assert store.saved_point()["rows"] == store.log.count() - TAIL
        reads = SnapshotReads(store, monkeypatch)
        text = store.meta(FOLD_SNAPSHOT_KEY)
        reads.reset()
        # An idle game, then one that moved on less than min_advance: nothing to do, and the snapshot not read.
        for more in ([], items[1500:1550]):
            store.log.append(more)
            assert not store.update_saved_fold(min_advance=100, tail=TAIL)
            assert (reads.parsed, reads.statements) == (0, [])
        assert store.meta(FOLD_SNAPSHOT_KEY) == text
        # Far enough past it: brought up to date from it (read once), to the fold of the whole log.
        store.log.append(items[1550:1700])
        reads.reset()
        assert store.update_saved_fold(min_advance=100, tail=TAIL)
        assert reads.parsed == 1
        point = store.saved_point()
        assert point["rows"] == store.log.count() - TAIL and json.loads(store.meta(FOLD_POINT_KEY)) == _head(store)
        kept = store.open_fold(**SMALL)
        assert kept.saved_point == (point["key"], point["rows"])
        assert_same_fold(kept, store.open_fold(saved=False, **SMALL))


@pytest.mark.parametrize("change", ["late report", "correction", "players added"])
def test_the_upkeep_sees_from_the_point_a_snapshot_that_no_longer_holds(game_db, change, monkeypatch):
    """What no longer holds is made again from the start at once (as when the upkeep read the snapshot itself),
    though the log has not moved on by ``min_advance``."""
    members, items = _small_items(n=4000)
    _store_game(game_db, members[:-1], items[:2500])
    with GameStore.open(game_db, create=False) as store:
        assert store.update_saved_fold(min_advance=100, tail=TAIL)
        before = store.saved_point()
        key = before["key"]
        reads = SnapshotReads(store, monkeypatch)
        # Players added by name only (a roster_added event of badges already in the game): still holds.
        store.log.append([make_event(10**9, "roster_added", "gm", added=[members[0].badge])])
        assert not store.update_saved_fold(min_advance=100, tail=TAIL)
        assert (reads.parsed, reads.statements) == (0, [])
        if change == "late report":         # stored now, placed before the snapshot's point
            store.log.append([(make_event(10**9, "down", "marshal:1", badge=members[5].badge), None, key[0] - 0.5)])
        elif change == "correction":        # a correction, stored now, of an event before the point
            store.log.append([make_event(10**9, "retracted", "gm", seq=int(key[1]) - 5, reason="wrong badge")])
        else:                               # a new player, as the core adds one: the roster, then the event
            store.save_roster([members[-1]], remove_missing=False)
            store.log.append([make_event(10**9, "roster_added", "gm", added=[members[-1].badge])])
        assert store.update_saved_fold(min_advance=100, tail=TAIL)
        after = store.saved_point()
        assert after["rows"] == store.log.count() - TAIL and after != before
        kept = store.open_fold(**SMALL)
        assert kept.saved_point == (after["key"], after["rows"])
        assert_same_fold(kept, store.open_fold(saved=False, **SMALL))


def test_a_snapshot_kept_without_its_point_is_read_once_and_its_point_kept(game_db, monkeypatch):
    """A game whose snapshot an older controlroom kept: the upkeep reads it once (it must hold to be trusted),
    keeps its point, and from then on reads only that."""
    members, items = _small_items(n=4000)
    _store_game(game_db, members, items[:1500])
    with GameStore.open(game_db, create=False) as store:
        assert store.update_saved_fold(min_advance=100, tail=TAIL)
        with store.engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM game_meta WHERE key = :k"), {"k": FOLD_POINT_KEY})
        assert store.saved_point() is None
        store.log.append(items[1500:1550])
        reads = SnapshotReads(store, monkeypatch)
        assert not store.update_saved_fold(min_advance=100, tail=TAIL)
        assert reads.parsed == 1
        assert json.loads(store.meta(FOLD_POINT_KEY)) == _head(store)
        reads.reset()
        assert not store.update_saved_fold(min_advance=100, tail=TAIL)
        assert (reads.parsed, reads.statements) == (0, [])
        # A point that is not the snapshot's (an older controlroom kept another since): put right when read.
        store.set_meta(FOLD_POINT_KEY, json.dumps({**_head(store), "rows": 10}))
        assert not store.update_saved_fold(min_advance=100, tail=TAIL)      # 10 rows: does not hold, read
        assert json.loads(store.meta(FOLD_POINT_KEY)) == _head(store)


def test_the_snapshot_and_its_point_are_stored_in_one_transaction(game_db):
    members, items = _small_items()
    _store_game(game_db, members, items)
    with GameStore.open(game_db, create=False) as store:
        fold = store.open_fold(**SMALL)

        def refuse(_conn, _cursor, _statement, parameters, _context, _many) -> None:
            values = parameters.values() if isinstance(parameters, dict) else parameters or ()
            if FOLD_POINT_KEY in values:
                raise RuntimeError("the point cannot be written")

        sa.event.listen(store.engine, "before_cursor_execute", refuse)
        with pytest.raises(RuntimeError):
            store.save_fold(fold)
        sa.event.remove(store.engine, "before_cursor_execute", refuse)
        assert store.meta(FOLD_SNAPSHOT_KEY) is None and store.meta(FOLD_POINT_KEY) is None
        assert store.save_fold(fold)
        assert json.loads(store.meta(FOLD_POINT_KEY)) == _head(store)


def test_bringing_it_up_to_date_stops_when_cancelled(tmp_path):
    members, items = _small_items()
    path = str(tmp_path / "g.crgame")
    _store_game(path, members, items)
    with GameStore.open(path) as store:
        assert not store.update_saved_fold(min_advance=1, tail=TAIL, cancelled=lambda: True)
        assert store.meta(FOLD_SNAPSHOT_KEY) is None


def test_a_state_holding_a_value_the_format_does_not_know_is_not_kept(tmp_path, caplog):
    members, items = _small_items()
    path = str(tmp_path / "g.crgame")
    _store_game(path, members, items)
    with GameStore.open(path) as store:
        fold = store.open_fold(**SMALL)
        key, upto, snap = fold.opened
        snap.attrs["messages"].append((1, "gm", object(), "x"))       # not a value of a game
        assert not store.save_fold(fold)
        assert "no fold snapshot kept" in caplog.text and store.fold_unkeepable
        assert store.meta(FOLD_SNAPSHOT_KEY) is None


def test_the_json_format_refuses_what_it_does_not_know():
    members = roster(3)
    from controlroom.game.roster import Roster
    from controlroom.rules.profile import default_profile
    r, p = Roster.of(members), default_profile()
    for bad in ('{"attrs": {"t": ["x", 1]}, "members": [], "columns": []}',          # an unknown tag
                '{"attrs": {"t": ["r", "Popen", 1]}, "members": [], "columns": []}',  # an unknown record type
                '{"attrs": {"t": {"a": 1}}, "members": [], "columns": []}',            # a bare object
                '{"attrs": {}, "members": {"$": [1, 2]}, "columns": []}\n[1]',          # lines it does not have
                '{"attrs": {}, "members": {"$": [1, 1]}, "columns": []}\n{"a": 1}',     # a line not a list
                '{"attrs": {}, "members": {"$": [0, 1]}, "columns": []}',               # itself, again
                '{"attrs": {"t": ["l", {"$": [1, 1]}]}, "members": [], "columns": []}\n[{"$": [1, 1]}]'):
        with pytest.raises((ValueError, KeyError)):
            snapshot_json.loads(bad, r, p)
    other = Member(1, "Someone else", "North", "G1")
    with pytest.raises(TypeError):
        snapshot_json._Encoder(r).enc(other)          # a member not the roster's own
