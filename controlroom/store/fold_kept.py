"""The fold snapshot kept with a game: the game folded up to a point, so that opening it folds only the log after.

``FoldKeeping`` is a part of ``store.game.GameStore`` (a mixin): opening the
game's fold from its snapshot (``open_fold``), keeping one (``save_fold``,
``update_saved_fold``), and the snapshot's point kept on its own
(``FOLD_POINT_KEY``) so that its upkeep need not read it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from controlroom import pacing
from controlroom.collecting import no_collection
from controlroom.game import snapshot, snapshot_json
from controlroom.game.fold import CHECKPOINT_EVERY, KEEP, Fold
from controlroom.game.roster import Member, Roster
from controlroom.game.state import GameState
from controlroom.rules.profile import RulesProfile
from controlroom.store.engine import writing
from controlroom.store.errors import StoreError, explain
from controlroom.store.eventlog import EVENTS
from controlroom.store.models import GameMeta, table_of

if TYPE_CHECKING:
    from sqlalchemy.dialects.postgresql import Insert as PgInsert
    from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
    from sqlalchemy.engine import Engine

    from controlroom.store.eventlog import EventLog

log = logging.getLogger(__name__)
# The fold snapshot kept with the game (game_meta): a line of JSON saying what it holds, then the snapshot.
FOLD_SNAPSHOT_KEY = "fold_snapshot"
# That first line again, on its own (written in the same transaction): what the snapshot's upkeep
# (update_saved_fold) reads every few minutes, instead of the whole snapshot (megabytes in a big game).
FOLD_POINT_KEY = "fold_snapshot_point"


class FoldKeeping:
    """The fold snapshot's part of ``GameStore``.

    It uses the store's ``engine``, ``where``, ``log`` and ``fold_unkeepable``
    and its ``meta``, ``roster``, ``profile`` and ``retracted`` (GameStore's own).
    """

    engine: Engine
    where: str
    log: EventLog
    fold_unkeepable: bool

    if TYPE_CHECKING:           # GameStore's own, named here for the type checker
        def meta(self, key: str, default: str | None = None) -> str | None: ...

        def roster(self) -> list[Member]: ...

        def profile(self) -> RulesProfile: ...

        def retracted(self) -> set[int]: ...

    def open_fold(self, profile: RulesProfile | None = None, saved: bool = True, complete: bool = True,
                  pause: Callable[[], None] | None = None, **options) -> Fold:
        """The game folded from its whole log, with what the core needs to fold on and fold again.

        With ``saved``, the fold snapshot kept with the game (``save_fold``),
        if it still holds, stands for the log up to its point: only the events
        after it are folded.  Without ``complete``, the index of the log up to
        that point is read, and the checkpoints of the last events taken,
        only when ``Fold.complete`` is called (the core shows the game
        first); nothing may fold on before.  ``pause`` is called every few hundred events, also when the fold
        reads the log again (a background refold rests there for the station's live work: pacing.py).
        """
        def history(rest: Callable[[], None] | None = None) -> tuple[GameState, list]:
            if rest is not None:
                rest()
            state = GameState(self.roster(), profile or self.profile())
            if rest is None:
                return state, list(self.log.rows())
            rows = []
            for i, row in enumerate(self.log.rows(batch=256)):     # (a batch's payloads are read in one call)
                if not i & 255:
                    rest()
                rows.append(row)
            return state, rows

        members = self.roster()
        profile = profile or self.profile()
        batch = 10_000 if pause is None else 256
        with no_collection():
            kept = self.saved_fold(members, profile) if saved else None
            # The log is read up to here (appends commit in seq order): every event and correction up to it,
            # none after, though more are stored while it is read.  Whoever folds on reads from here (the
            # opening's storage writer: one reading on from a later seq missed what came meanwhile), and a
            # snapshot of this fold is checked against what was stored after it.
            known = self.log.last_seq()
            gone = self.retracted()
            if kept is not None:
                key, upto, state = kept
                dirty = state._dirty, state._dirty_stopps
                fold = Fold(state, key, history=history, **options)
                state._dirty, state._dirty_stopps = dirty   # as a fold from the start has them (its schedule took none)
                upto_seq = known

                def head() -> tuple:
                    return self.log.index_upto(key, upto_seq)

                fold.load(self.log.rows(after_key=key, upto=known, batch=batch), gone, self.log.count(),
                          skip=upto, index_head=head, pause=pause)
            else:
                fold = Fold(GameState(members, profile), history=history, **options)
                fold.load(self.log.rows(upto=known, batch=batch), gone, self.log.count(), pause=pause)
            if complete:
                fold.complete(pause)
        fold.saved_point = (kept[0], kept[1]) if kept is not None else None
        fold.read_upto = known
        return fold

    def saved_fold(self, members: list[Member],
                   profile: RulesProfile) -> tuple[tuple[float, int], int, GameState] | None:
        """The fold snapshot kept with the game, as (key, events up to it, state), if it still holds.

        It holds when it was made by this fold code for this roster and rules
        profile (``snapshot_json.fingerprint``), the log still has exactly the
        events up to its key that it had when it was made (no late report was
        stored before its point since), and no correction stored since then
        retracts one of them.  Anything else (or a snapshot that cannot be
        read) is None: the whole log is folded.
        """
        kept = self._kept_fold(members, profile)
        return kept[1:] if kept is not None else None

    def _kept_fold(self, members: list[Member], profile: RulesProfile
                   ) -> tuple[dict, tuple[float, int], int, GameState] | None:
        """``saved_fold``, with the first line of the snapshot (what ``FOLD_POINT_KEY`` holds) first."""
        text = self.meta(FOLD_SNAPSHOT_KEY)
        if text is None:
            return None
        try:
            head, _, body = text.partition("\n")
            info = json.loads(head)
            if info.get("fingerprint") != snapshot_json.fingerprint(members, profile):
                return None
            key = (float(info["key"][0]), int(info["key"][1]))
            upto, last_seq = int(info["rows"]), int(info["last_seq"])
            if self.log.count_upto(key) != upto:
                return None         # a late report stored before its point since (or the log is not that log)
            if self._retracts_before(key, last_seq):
                return None
            roster = Roster.of(members)
            state = snapshot.restore(snapshot_json.loads(body, roster, profile))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            log.warning("%s: the fold snapshot kept with the game is not used (%s)", self.where, exc)
            return None
        return info, key, upto, state

    def saved_point(self) -> dict | None:
        """What the snapshot kept with the game says of itself (``FOLD_POINT_KEY``: its key, the number of
        events it folds, the last seq its corrections were checked to, its fingerprint), without reading it.

        None when there is none to read, or it cannot be read; a snapshot
        kept by an older controlroom has none until its upkeep has read it once.
        """
        text = self.meta(FOLD_POINT_KEY)
        if text is None:
            return None
        try:
            return _point(json.loads(text))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            log.warning("%s: the fold snapshot's point is not used (%s)", self.where, exc)
            return None

    def _point_holds(self, point: dict, profile: RulesProfile | None) -> bool:
        """Whether the snapshot whose point is ``point`` still holds, by counting and looking up events only.

        The log must still have the events up to its key it had (no late
        report stored before it since), and no correction stored since may
        retract one of them.  Should players have been added since
        (``roster_added``), the roster and the ruleset are read to see whether
        it was made for them (the fingerprint); the snapshot itself is not read.
        """
        key, last_seq = point["key"], point["last_seq"]
        if self.log.count_upto(key) != point["rows"] or self._retracts_before(key, last_seq):
            return False
        q = (sa.select(sa.func.count()).select_from(EVENTS)
             .where(EVENTS.c.type == "roster_added", EVENTS.c.seq > int(last_seq)))
        with self.engine.connect() as conn:
            added = conn.execute(q).scalar_one()
        if added:
            return point["fingerprint"] == snapshot_json.fingerprint(self.roster(), profile or self.profile())
        return True

    def _retracts_before(self, key: tuple[float, int], after_seq: int) -> bool:
        """Whether a correction stored after ``after_seq`` retracts an event whose fold key is ``key`` or before."""
        q = sa.select(EVENTS.c.payload).where(EVENTS.c.type == "retracted", EVENTS.c.seq > int(after_seq))
        with self.engine.connect() as conn:
            targets = [json.loads(p)["seq"] for (p,) in conn.execute(q)]
        if not targets:
            return False
        keys = self.log.keys_of(targets)
        return any(k <= key for k in keys.values())

    def update_saved_fold(self, min_advance: int = 10_000, profile: RulesProfile | None = None,
                          cancelled: Callable[[], bool] = lambda: False, tail: int = CHECKPOINT_EVERY * KEEP) -> bool:
        """Keep with the game the fold of its log up to where an opening's tail starts, if that is new enough.

        Folds (on this store's own connection) from the snapshot kept, if it
        holds, else from the start, the events up to the last ``tail``
        (``CHECKPOINT_EVERY * KEEP``: what ``open_fold`` folds one by one
        anyway), and stores it when it is ``min_advance`` events or more past
        the one kept.  What a station calls now and then while a game is
        played, so that opening it again folds only the end of its log.
        Whether there is anything to do is decided from the snapshot's point
        (``saved_point``) and counts of events: a game that has not moved on
        costs no reading of its snapshot.  ``cancelled`` is asked every few
        thousand events (True: stop, nothing stored).  Returns whether one was stored.
        """
        count = self.log.count()
        if count - tail < min_advance:
            return False                # a log this short: no snapshot could be far enough ahead to keep
        point = self.saved_point()
        if point is not None and count - tail - point["rows"] < min_advance and self._point_holds(point, profile):
            return False                # the snapshot kept is recent enough, and still holds
        members = self.roster()
        profile = profile or self.profile()
        with no_collection():
            kept = self._kept_fold(members, profile)
            known = self.log.last_seq()
            gone = self.retracted()
            target = self.log.count() - tail
            upto = kept[2] if kept is not None else 0
            if target - upto < min_advance:
                if kept is not None and _point(kept[0]) != point:
                    # Kept without its point (by an older controlroom): read once, its point is kept for the
                    # next time.  (A point not this snapshot's is put right the same way.)
                    self._keep_point(kept[0], replace=point is not None)
                return False
            if kept is not None:
                _info, key, upto, state = kept
                rows = self.log.rows(after_key=key)
            else:
                key, state, rows = (0.0, 0), GameState(members, profile), self.log.rows()
            apply = state.apply
            for row in islice(rows, target - upto):      # as Fold.load folds the rows before its tail
                if row.seq not in gone:
                    apply(row.event)
                key = (row.pos if row.pos is not None else float(row.seq), row.seq)
                upto += 1
                if not upto & 255:
                    pacing.breathe()            # a thread of its own, while the window draws
                    if not upto % 4096 and cancelled():
                        break
            rows.close()
            if upto != target or cancelled():
                return False
            return self._store_fold(key, upto, snapshot.take(state), known, state.roster, profile)

    def _keep_point(self, info: dict, replace: bool) -> None:
        """Store the point of the snapshot kept (read from its first line, ``info``); without ``replace``, only
        if there is none (a station storing a new snapshot meanwhile stores its point with it)."""
        point = _point(info)
        text = json.dumps({"fingerprint": point["fingerprint"], "key": list(point["key"]), "rows": point["rows"],
                           "last_seq": point["last_seq"]})
        try:
            with writing(self.engine).begin() as conn:
                _put_meta(conn, FOLD_POINT_KEY, text, replace=replace)
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.log.path)) from exc

    def save_fold(self, fold: Fold) -> bool:
        """Keep the fold of the log up to the tail of ``fold`` (``Fold.opened``) with the game, if it is new.

        Opening the game again then folds only the events after it.  A
        snapshot this format cannot hold is not kept (logged); so is one
        not newer than the one kept.  Returns whether one was stored.
        """
        opened = fold.opened
        if opened is None:
            return False
        key, upto, snap = opened
        if fold.saved_point == (key, upto):
            return False
        state = fold.state
        known = fold.read_upto
        if known is None:
            return False
        return self._store_fold(key, upto, snap, known, state.roster, state.profile)

    def _store_fold(self, key: tuple[float, int], upto: int, snap, known: int, roster: Roster,
                    profile: RulesProfile) -> bool:
        """Store the fold ``snap`` of the log's first ``upto`` events (to ``key``), folded without the
        corrections stored after seq ``known``, if the log still says so."""
        try:
            body = snapshot_json.dumps(snap, roster)
        except TypeError as exc:
            log.warning("%s: no fold snapshot kept (%s)", self.where, exc)
            self.fold_unkeepable = True         # the state holds what the format cannot: no use trying again
            return False
        if self.log.count_upto(key) != upto or self._retracts_before(key, known):
            return False            # the log changed before its point since it was folded: not that fold
        info = json.dumps({"fingerprint": snapshot_json.fingerprint(roster.members.values(), profile),
                           "key": [key[0], key[1]], "rows": upto, "last_seq": known})
        try:
            with writing(self.engine).begin() as conn:           # the snapshot and its point: one transaction
                _put_meta(conn, FOLD_SNAPSHOT_KEY, info + "\n" + body)
                _put_meta(conn, FOLD_POINT_KEY, info)
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.log.path)) from exc
        return True


def _point(info: dict) -> dict:
    """A snapshot's point from the JSON of its first line: key, rows, last_seq, fingerprint."""
    return {"key": (float(info["key"][0]), int(info["key"][1])), "rows": int(info["rows"]),
            "last_seq": int(info["last_seq"]), "fingerprint": str(info["fingerprint"])}


def _put_meta(conn, key: str, value: str, replace: bool = True) -> None:
    """Set ``key`` in game_meta in one statement (an insert, or an update of the row there): stations doing it
    at the same moment do not fail.  Without ``replace``, a row already there is left as it is."""
    table = table_of(GameMeta)
    stmt: PgInsert | SqliteInsert
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        stmt = pg_insert(table)
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        stmt = sqlite_insert(table)
    stmt = stmt.values(key=key, value=value)
    if replace:
        stmt = stmt.on_conflict_do_update(index_elements=[table.c.key], set_={"value": stmt.excluded.value})
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=[table.c.key])
    conn.execute(stmt)
