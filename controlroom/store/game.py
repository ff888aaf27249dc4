"""GameStore: open a game (migrating it), its roster and rules, and rebuild its state from the log."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session, col, select

from controlroom.collecting import no_collection
from controlroom.game.events import Event
from controlroom.game.roster import Member, Roster
from controlroom.game.state import GameState
from controlroom.paths import private_file
from controlroom.rules.profile import ProfileError, RulesProfile, profile_from_dict
from controlroom.store.checkpoint import Checkpointer
from controlroom.store.engine import database_url, describe, make_engine, read_only_engine, writing
from controlroom.store.errors import SchemaTooNew, StoreError, explain
from controlroom.store.eventlog import EVENTS, EventLog

# The fold snapshot's keys are named from here too (the tests, the benchmarks).
from controlroom.store.fold_kept import FOLD_POINT_KEY, FOLD_SNAPSHOT_KEY, FoldKeeping  # noqa: F401 - re-exported
from controlroom.store.migrations import LATEST, migrate, schema_version
from controlroom.store.models import CharacterRow, GameMeta, Group, Side, table_of
from controlroom.store.station_lock import StationLock

log = logging.getLogger(__name__)


def _existing_game_file(path: Path, where: str) -> None:
    """Refuse a game file that is not there, or is empty (SQLite would quietly make it a new, empty game)."""
    if not path.exists():
        raise StoreError(f"{where} does not exist")
    if path.is_file() and path.stat().st_size == 0:
        raise StoreError(f"{where} is empty (0 bytes): it is not a game. Check that you chose the right file; "
                         "a copy interrupted before it finished leaves such a file.")


def _flushed_id(row: Side) -> int:
    """The id the database gave a row written by the flush before."""
    if row.id is None:
        raise StoreError(f"the database gave side {row.name!r} no id")
    return row.id


@dataclass(frozen=True, slots=True)
class RosterChange:
    added: int
    updated: int
    removed: int
    unchanged: int


class GameStore(FoldKeeping):
    """One game: a SQLite file or a PostgreSQL database, upgraded to the current schema when opened.

    Its fold snapshot (``open_fold``, ``save_fold``, ``update_saved_fold``) is ``store.fold_kept``'s part.
    """

    def __init__(self, engine: Engine, where: str) -> None:
        self.engine = engine
        self.where = where
        self.log = EventLog(engine, where)
        self._checkpointer: Checkpointer | None = None
        self.fold_unkeepable = False        # a fold snapshot could not be written (see _store_fold)
        self.station_lock: StationLock | None = None    # a station's lock on the game file, let go at close

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
    def open(cls, db: str | Path | None, create: bool = True, read_only: bool = False) -> GameStore:
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
        # A game file's path (make_engine refuses a SQLite URL without one); None for a server.
        game_file = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
        if game_file is not None and not create:
            try:
                _existing_game_file(Path(game_file), where)
            except StoreError:
                engine.dispose()
                raise
        elif game_file is not None:
            private_file(game_file)   # a new game file: its user's alone (it holds the devices' keys)
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
    def _open_read_only(cls, db: str | Path | None) -> GameStore | None:
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
        if self.station_lock is not None:
            self.station_lock.release()
            self.station_lock = None

    def __enter__(self) -> GameStore:
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
            with Session(writing(self.engine)) as s:
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
                with writing(self.engine).begin() as conn:
                    conn.execute(sa.insert(table_of(GameMeta)).values(key=key, value=value))
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
        table = table_of(GameMeta)
        self.meta_once(key, "0")
        bumped = sa.cast(sa.cast(table.c.value, sa.BigInteger) + int(size), sa.String)
        try:
            with writing(self.engine).begin() as conn:
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
        c, g, sd = table_of(CharacterRow).c, table_of(Group).c, table_of(Side).c
        q = (
            sa.select(c.badge, c.name, sd.name, g.name, c["class"], c.paid, c.helmet, c.armour, c.hp, c.ap,
                      c.inadequate)
            .join_from(table_of(CharacterRow), table_of(Group), c.group_id == g.id)
            .join(table_of(Side), g.side_id == sd.id)
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
            with Session(writing(self.engine)) as s:
                sides = {x.name: x for x in s.exec(select(Side))}
                groups = {x.name: x for x in s.exec(select(Group))}
                for m in members:
                    if m.side not in sides:
                        sides[m.side] = Side(name=m.side)
                        s.add(sides[m.side])
                s.flush()
                for m in members:
                    g = groups.get(m.group)
                    side_id = _flushed_id(sides[m.side])
                    if g is None:
                        g = groups[m.group] = Group(name=m.group, side_id=side_id)
                        s.add(g)
                    elif g.side_id != side_id:
                        g.side_id = side_id
                        s.add(g)
                s.flush()
                if remove_missing:
                    existing = {row.badge: row for row in s.exec(select(CharacterRow))}
                else:       # only the rows of these badges: 200 added to 8,000 read them all (0.15 s, core thread)
                    badges = sorted({m.badge for m in members})
                    existing = {row.badge: row for i in range(0, len(badges), 500) for row in s.exec(
                        select(CharacterRow).where(col(CharacterRow.badge).in_(badges[i:i + 500])))}
                for m in members:
                    values: dict[str, Any] = dict(     # (a column's value of each type)
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
                s.connection().execute(sa.text(
                    "DELETE FROM groups WHERE id NOT IN (SELECT group_id FROM characters) "
                    "AND id NOT IN (SELECT group_id FROM devices WHERE group_id IS NOT NULL)"
                ))
                s.connection().execute(sa.text(
                    "DELETE FROM sides WHERE id NOT IN (SELECT side_id FROM groups) "
                    "AND id NOT IN (SELECT side_id FROM siege_engines WHERE side_id IS NOT NULL)"
                ))
                s.commit()
        except DBAPIError as exc:
            raise StoreError(explain(exc, self.where, self.log.path)) from exc
        return RosterChange(added, updated, removed, unchanged)

    # -- the game as a fold of its log ------------------------------------
    def retracted(self) -> set[int]:
        """Seqs of events a later correction retracted (from the index of ``retracts``: the whole log is not read
        for the few corrections a game has)."""
        q = sa.select(EVENTS.c.retracts).where(EVENTS.c.retracts.is_not(None))
        with self.engine.connect() as conn:
            return {seq for (seq,) in conn.execute(q)}

    def events(self) -> Iterator[tuple[int, Event]]:
        """(seq, event) of the game in log order, leaving out retracted events."""
        gone = self.retracted()
        for seq, event in self.log.events():
            if seq not in gone:
                yield seq, event

    def load_state(self, profile: RulesProfile | None = None) -> tuple[GameState, int]:
        """Rebuild the game state, with every pending deadline, by folding the whole log."""
        with no_collection():  # (folding makes hundreds of thousands of objects that live on)
            state = GameState(self.roster(), profile or self.profile())
            apply = state.apply
            last = 0
            for last, event in self.events():  # noqa: B007 - the last one's seq is returned
                apply(event)
        return state, last

    def integrity_ok(self) -> bool:
        """SQLite's own check of the file (always true on other databases)."""
        if self.engine.url.get_backend_name() != "sqlite":
            return True
        with self.engine.connect() as conn:
            return conn.execute(sa.text("PRAGMA integrity_check")).scalar_one() == "ok"
