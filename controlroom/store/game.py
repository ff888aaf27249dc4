"""GameStore: open a game (migrating it), its roster and rules, and rebuild its state from the log."""

from __future__ import annotations

import gc
import json
import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from importlib import resources
from pathlib import Path
from typing import Callable, Iterable, Iterator

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session, select

from controlroom.game import snapshot, snapshot_json
from controlroom.game.events import Event
from controlroom.game.fold import CHECKPOINT_EVERY, KEEP, Fold
from controlroom.game.roster import Member, Roster
from controlroom.game.state import GameState
from controlroom.rules.profile import ProfileError, RulesProfile, profile_from_dict
from controlroom.store.checkpoint import Checkpointer
from controlroom.store.engine import database_url, describe, make_engine, read_only_engine
from controlroom.store.errors import SchemaTooNew, StoreError, explain
from controlroom.store.eventlog import EVENTS, EventLog
from controlroom.store.migrations import LATEST, migrate, schema_version
from controlroom.store.models import CharacterRow, GameMeta, Group, Side

log = logging.getLogger(__name__)
# The fold snapshot kept with the game (game_meta): a line of JSON saying what it holds, then the snapshot.
FOLD_SNAPSHOT_KEY = "fold_snapshot"
# That first line again, on its own (written in the same transaction): what the snapshot's upkeep
# (update_saved_fold) reads every few minutes, instead of the whole snapshot (megabytes in a big game).
FOLD_POINT_KEY = "fold_snapshot_point"


def _existing_game_file(path: Path, where: str) -> None:
    """Refuse a game file that is not there, or is empty (SQLite would quietly make it a new, empty game)."""
    if not path.exists():
        raise StoreError(f"{where} does not exist")
    if path.is_file() and path.stat().st_size == 0:
        raise StoreError(f"{where} is empty (0 bytes): it is not a game. Check that you chose the right file; "
                         "a copy interrupted before it finished leaves such a file.")


@dataclass(frozen=True, slots=True)
class RosterChange:
    added: int
    updated: int
    removed: int
    unchanged: int


class GameStore:
    """One game: a SQLite file or a PostgreSQL database, upgraded to the current schema when opened."""

    def __init__(self, engine: Engine, where: str) -> None:
        self.engine = engine
        self.where = where
        self.log = EventLog(engine, where)
        self._checkpointer: Checkpointer | None = None
        self.fold_unkeepable = False        # a fold snapshot could not be written (see _store_fold)

    def checkpoint_in_background(self, interval: float = 1.0) -> None:
        """For a long-running writer (the core): WAL checkpoints move to a thread of their own."""
        if self.log.path is None or self._checkpointer is not None:
            return

        def no_autocheckpoint(dbapi_conn, _record) -> None:
            dbapi_conn.execute("PRAGMA wal_autocheckpoint = 0")

        sa.event.listen(self.engine, "connect", no_autocheckpoint)
        self.engine.dispose()           # connections opened from now on take the setting
        self._checkpointer = Checkpointer(self.log.path, interval)
        self._checkpointer.start()

    @classmethod
    def open(cls, db: str | Path | None, create: bool = True, read_only: bool = False) -> "GameStore":
        """Open (or, with ``create``, start) a game; StoreError says what is wrong, in words.

        ``read_only`` (for reports and replays): a game file is opened without
        writing to it, also on a write-protected disk.  Only a game of an older
        controlroom is written to, to upgrade it, and only where the disk allows.
        """
        if read_only:
            store = cls._open_read_only(db)
            if store is not None:
                return store
            create = False
        engine = make_engine(db)
        where = describe(str(engine.url))
        if engine.url.get_backend_name() == "sqlite" and not create:
            try:
                _existing_game_file(Path(engine.url.database), where)
            except StoreError:
                engine.dispose()
                raise
        try:
            before, _after = migrate(engine, where=where)
        except DBAPIError as exc:
            engine.dispose()
            path = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
            raise StoreError(explain(exc, where, path)) from exc
        except StoreError:
            engine.dispose()
            raise
        store = cls(engine, where)
        if before == 0:
            store.set_meta("created", time.strftime("%Y-%m-%dT%H:%M:%S%z"))
        return store

    @classmethod
    def _open_read_only(cls, db: str | Path | None) -> "GameStore | None":
        """A game file opened only to read; None for a database server, or a file that needs upgrading first."""
        url = make_url(database_url(db))
        if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
            return None
        path, where = Path(url.database), describe(str(url))
        _existing_game_file(path, where)
        engine = read_only_engine(path, where)
        try:
            with engine.connect() as conn:
                version = schema_version(conn)
        except DBAPIError as exc:
            engine.dispose()
            raise StoreError(explain(exc, where, str(path))) from exc
        if version == LATEST:
            store = cls(engine, where)
            store.log.path = str(path)
            return store
        engine.dispose()
        if version == 0:
            raise StoreError(f"{where} is not a controlroom game file (it holds no game)")
        if version > LATEST:
            raise SchemaTooNew(f"{where} was written by a newer controlroom (schema {version}; this version knows "
                               f"up to {LATEST}). Open it with that version or a newer one; the file was not changed.")
        try:
            return cls.open(db, create=False)       # an older game: upgraded in place, where the disk allows
        except StoreError as exc:
            raise StoreError(f"{where} was written by an older controlroom and must be upgraded before it can be "
                             f"read, which needs to write to it ({exc}). Copy it to a folder you can write to and "
                             "open it there.") from None

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        self.engine.dispose()

    def __enter__(self) -> "GameStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- facts of the game -------------------------------------------------
    def meta(self, key: str, default: str | None = None) -> str | None:
        with Session(self.engine) as s:
            row = s.get(GameMeta, key)
            return row.value if row else default

    def set_meta(self, key: str, value: str) -> None:
        try:
            with Session(self.engine) as s:
                row = s.get(GameMeta, key) or GameMeta(key=key, value=value)
                row.value = value
                s.add(row)
                s.commit()
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.log.path)) from exc

    def meta_once(self, key: str, value: str) -> str:
        """The stored value of ``key``, storing ``value`` first if there is none (another station may race)."""
        for _ in range(3):
            found = self.meta(key)
            if found is not None:
                return found
            try:
                with self.engine.begin() as conn:
                    conn.execute(sa.insert(GameMeta.__table__).values(key=key, value=value))
                return value
            except IntegrityError:
                continue
            except DBAPIError as exc:
                raise StoreError(explain(exc, self.where, self.log.path)) from exc
        raise StoreError(f"{self.where}: cannot store {key}")

    def reserve_block(self, key: str, size: int) -> int:
        """Add ``size`` to the number kept in ``key`` (0 when unset) in one statement, and return the new value.

        The block ``value - size + 1 .. value`` is then this caller's alone: stations opening one shared game
        at the same moment each get their own (a read and a write would give both the same block).
        """
        table = GameMeta.__table__
        self.meta_once(key, "0")
        bumped = sa.cast(sa.cast(table.c.value, sa.BigInteger) + int(size), sa.String)
        try:
            with self.engine.begin() as conn:
                value = conn.execute(sa.update(table).where(table.c.key == key).values(value=bumped)
                                     .returning(table.c.value)).scalar_one()
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.log.path)) from exc
        return int(value)

    @property
    def name(self) -> str:
        return self.meta("name") or Path(str(self.log.path or self.engine.url.database or "game")).stem

    def profile(self) -> RulesProfile:
        """The ruleset this game is played under (stored with the game; the seed's by default)."""
        import tomllib

        text = self.meta("rules_toml")
        if text is None:
            text = resources.files("controlroom.resources").joinpath("rules", "default.toml").read_text("utf-8")
        source = self.meta("rules_source") or "default.toml"
        try:
            return profile_from_dict(tomllib.loads(text), source)
        except tomllib.TOMLDecodeError as exc:
            raise ProfileError(f"the ruleset stored with {self.where} ({source}) is not valid TOML: {exc}") from None

    def set_rules(self, toml_text: str, source: str) -> None:
        """Keep a ruleset profile with the game (checked before it is stored)."""
        import tomllib

        profile_from_dict(tomllib.loads(toml_text), source)
        self.set_meta("rules_toml", toml_text)
        self.set_meta("rules_source", source)

    # -- roster -----------------------------------------------------------
    def roster(self) -> list[Member]:
        """Every registered character, by badge (a plain query: opening a game reads thousands)."""
        c, g, sd = CharacterRow.__table__.c, Group.__table__.c, Side.__table__.c
        q = (
            sa.select(c.badge, c.name, sd.name, g.name, c["class"], c.paid, c.helmet, c.armour, c.hp, c.ap, c.inadequate)
            .join_from(CharacterRow.__table__, Group.__table__, c.group_id == g.id)
            .join(Side.__table__, g.side_id == sd.id)
            .order_by(c.badge)
        )
        with self.engine.connect() as conn:
            return [
                Member(badge, name, side, group, cls, bool(paid), helmet,
                       tuple(a for a in armour.split("+") if a), hp, ap, bool(inadequate))
                for badge, name, side, group, cls, paid, helmet, armour, hp, ap, inadequate in conn.execute(q)
            ]

    def badges_with_events(self) -> set[int]:
        """Badges named by any event (they cannot leave the roster without losing history)."""
        out: set[int] = set()
        for _seq, ev in self.log.events():
            for key in ("badge", "healer", "carer", "caller", "by"):
                value = ev.data.get(key)
                if isinstance(value, int):
                    out.add(value)
            out.update(b for b in ev.data.get("badges", ()) if isinstance(b, int))
        return out

    def save_roster(self, members: Iterable[Member], remove_missing: bool = True) -> RosterChange:
        """Make the stored roster equal ``members`` in one transaction, updating in place by badge."""
        members = list(members)
        Roster.of(members)          # duplicate badges refused before anything is written
        added = updated = unchanged = removed = 0
        try:
            with Session(self.engine) as s:
                sides = {x.name: x for x in s.exec(select(Side))}
                groups = {x.name: x for x in s.exec(select(Group))}
                for m in members:
                    if m.side not in sides:
                        sides[m.side] = Side(name=m.side)
                        s.add(sides[m.side])
                s.flush()
                for m in members:
                    g = groups.get(m.group)
                    if g is None:
                        g = groups[m.group] = Group(name=m.group, side_id=sides[m.side].id)
                        s.add(g)
                    elif g.side_id != sides[m.side].id:
                        g.side_id = sides[m.side].id
                        s.add(g)
                s.flush()
                existing = {row.badge: row for row in s.exec(select(CharacterRow))}
                for m in members:
                    values = dict(
                        name=m.name, group_id=groups[m.group].id, char_class=m.cls, paid=m.paid, helmet=m.helmet,
                        armour="+".join(m.armour), hp=m.hp, ap=m.ap, inadequate=m.inadequate,
                    )
                    row = existing.pop(m.badge, None)
                    if row is None:
                        s.add(CharacterRow(badge=m.badge, **values))
                        added += 1
                    elif any(getattr(row, k) != v for k, v in values.items()):
                        for k, v in values.items():
                            setattr(row, k, v)
                        s.add(row)
                        updated += 1
                    else:
                        unchanged += 1
                if remove_missing and existing:
                    kept = sorted(set(existing) & self.badges_with_events())
                    if kept:
                        listed = ", ".join(map(str, kept[:10])) + (" ..." if len(kept) > 10 else "")
                        which = f"badges {listed} are" if len(kept) > 1 else f"badge {listed} is"
                        appear = "appear" if len(kept) > 1 else "appears"
                        raise StoreError(
                            f"{which} missing from the new roster but {appear} in the game's "
                            "events; keep them in the file (the roster was not changed)"
                        )
                    for row in existing.values():
                        s.delete(row)
                        removed += 1
                s.flush()
                # Groups and sides nobody belongs to any more (a renamed group) go too,
                # unless a radio device or a siege engine still names them.
                s.exec(sa.text(
                    "DELETE FROM groups WHERE id NOT IN (SELECT group_id FROM characters) "
                    "AND id NOT IN (SELECT group_id FROM devices WHERE group_id IS NOT NULL)"
                ))
                s.exec(sa.text(
                    "DELETE FROM sides WHERE id NOT IN (SELECT side_id FROM groups) "
                    "AND id NOT IN (SELECT side_id FROM siege_engines WHERE side_id IS NOT NULL)"
                ))
                s.commit()
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.log.path)) from exc
        return RosterChange(added, updated, removed, unchanged)

    # -- the game as a fold of its log ------------------------------------
    def retracted(self) -> set[int]:
        """Seqs of events a later correction retracted."""
        q = sa.select(EVENTS.c.payload).where(EVENTS.c.type == "retracted")
        with self.engine.connect() as conn:
            return {json.loads(p)["seq"] for (p,) in conn.execute(q)}

    def events(self) -> Iterator[tuple[int, Event]]:
        """(seq, event) of the game in log order, leaving out retracted events."""
        gone = self.retracted()
        for seq, event in self.log.events():
            if seq not in gone:
                yield seq, event

    def load_state(self, profile: RulesProfile | None = None) -> tuple[GameState, int]:
        """Rebuild the game state, with every pending deadline, by folding the whole log."""
        with _no_cyclic_gc():
            state = GameState(self.roster(), profile or self.profile())
            apply = state.apply
            last = 0
            for last, event in self.events():
                apply(event)
        return state, last

    def open_fold(self, profile: RulesProfile | None = None, saved: bool = True, complete: bool = True,
                  **options) -> Fold:
        """The game folded from its whole log, with what the core needs to fold on and fold again.

        With ``saved``, the fold snapshot kept with the game (``save_fold``),
        if it still holds, stands for the log up to its point: only the events
        after it are folded.  Without ``complete``, the index of the log up to
        that point is read only when ``Fold.complete`` is called (the core
        shows the game first); nothing may fold on before.
        """
        def history() -> tuple[GameState, list]:
            return GameState(self.roster(), profile or self.profile()), list(self.log.rows())

        members = self.roster()
        profile = profile or self.profile()
        with _no_cyclic_gc():
            kept = self.saved_fold(members, profile) if saved else None
            # Every correction up to here is in the set read next (appends commit in seq order): what a
            # snapshot of this fold must be checked against is what was stored after it.
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

                fold.load(self.log.rows(after_key=key), gone, self.log.count(), skip=upto, index_head=head)
                if complete:
                    fold.complete()
            else:
                fold = Fold(GameState(members, profile), history=history, **options)
                fold.load(self.log.rows(), gone, self.log.count())
        fold.saved_point = (kept[0], kept[1]) if kept is not None else None
        fold.retractions_known = known
        return fold

    def saved_fold(self, members: list[Member], profile: RulesProfile) -> tuple[tuple[float, int], int, GameState] | None:
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
        with _no_cyclic_gc():
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
            with self.engine.begin() as conn:
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
        known = fold.retractions_known
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
            with self.engine.begin() as conn:           # the snapshot and its point: one transaction
                _put_meta(conn, FOLD_SNAPSHOT_KEY, info + "\n" + body)
                _put_meta(conn, FOLD_POINT_KEY, info)
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.log.path)) from exc
        return True

    def integrity_ok(self) -> bool:
        """SQLite's own check of the file (always true on other databases)."""
        if self.engine.url.get_backend_name() != "sqlite":
            return True
        with self.engine.connect() as conn:
            return conn.execute(sa.text("PRAGMA integrity_check")).scalar_one() == "ok"


def _point(info: dict) -> dict:
    """A snapshot's point from the JSON of its first line: key, rows, last_seq, fingerprint."""
    return {"key": (float(info["key"][0]), int(info["key"][1])), "rows": int(info["rows"]),
            "last_seq": int(info["last_seq"]), "fingerprint": str(info["fingerprint"])}


def _put_meta(conn, key: str, value: str, replace: bool = True) -> None:
    """Set ``key`` in game_meta in one statement (an insert, or an update of the row there): stations doing it
    at the same moment do not fail.  Without ``replace``, a row already there is left as it is."""
    table = GameMeta.__table__
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    stmt = insert(table).values(key=key, value=value)
    if replace:
        stmt = stmt.on_conflict_do_update(index_elements=[table.c.key], set_={"value": stmt.excluded.value})
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=[table.c.key])
    conn.execute(stmt)


@contextmanager
def _no_cyclic_gc():
    """The cyclic garbage collector off while a game is folded (as it was found afterwards).

    Folding makes hundreds of thousands of small objects that live on (the
    characters, the events kept for folding again, the checkpoints): the
    collector would walk them, and every other live object, again and again.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
