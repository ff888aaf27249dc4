"""``controlroom roster``: import the registration desk's roster CSV into a game, or export it."""

from __future__ import annotations

import argparse

from controlroom.i18n import translate

NAME = "roster"
HELP = "Import the registration desk's roster (CSV or .xlsx) into a game, or export a game's roster as CSV."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="roster_action", metavar="ACTION", required=True)
    imp = sub.add_parser(
        "import", help="check a roster (CSV or .xlsx) against the game's rules and store it (all or nothing)",
        description="Check every row of a roster CSV or workbook against the game's ruleset and store the roster "
                    "in one transaction; any problem is reported with its line and nothing is stored. "
                    "Players are updated in place by badge; the game's events are never touched. "
                    "The format: docs/roster-csv.md.",
    )
    imp.add_argument("file", metavar="FILE.csv",
                     help="the roster: CSV (UTF-8, comma, semicolon or tab separated) or an .xlsx workbook (its "
                          "first sheet), with a header row")
    imp.add_argument("--mapping", metavar="FILE.json",
                     help="what the file's own headers and words mean: the JSON the window's import dialog "
                          "remembers, e.g. {\"values\": {\"helmet\": {\"jah\": \"metal\"}}} (docs/roster-csv.md)")
    imp.add_argument("--db", required=True, metavar="GAME", help="game file (created if missing) or database URL")
    imp.add_argument("--keep-missing", action="store_true",
                     help="keep stored players that are not in the file (default: remove them)")
    exp = sub.add_parser(
        "export", help="write the game's roster as CSV (UTF-8 with BOM, sorted by badge)",
        description="Write the game's roster as CSV in the import format (UTF-8 with BOM, comma "
                    "separated, sorted by badge); the file imports back to the same roster.",
    )
    exp.add_argument("--db", required=True, metavar="GAME", help="game file or database URL")
    exp.add_argument("file", metavar="FILE.csv", help="the CSV file to write (replaced if it exists)")


def _count(n: int, word: str) -> str:
    """``n`` of a word, in the language spoken (each word's singular and plural are translated whole)."""
    one, many = {
        "player": (translate("roster", "1 player"), translate("roster", "{count} players")),
        "group": (translate("roster", "1 group"), translate("roster", "{count} groups")),
        "side": (translate("roster", "1 side"), translate("roster", "{count} sides")),
        "problem": (translate("roster", "1 problem"), translate("roster", "{count} problems")),
        "stored player": (translate("roster", "1 stored player"), translate("roster", "{count} stored players")),
    }[word]
    return one if n == 1 else many.format(count=n)


def summary_line(members, change) -> str:
    """The one line ``roster import`` prints."""
    groups = {m.group for m in members}
    sides = {m.side for m in members}
    return translate("roster", "Roster imported: {players} ({added} added, {updated} updated, {removed} removed, "
                               "{unchanged} unchanged) in {groups} on {sides}").format(
        players=_count(len(members), "player"), added=change.added, updated=change.updated, removed=change.removed,
        unchanged=change.unchanged, groups=_count(len(groups), "group"), sides=_count(len(sides), "side"))


def read_mapping(path: str):
    """The ``--mapping`` file as a RosterMapping; CliError naming every part of it that means nothing."""
    import json

    from controlroom.commands.errors import CliError
    from controlroom.game.roster_columns import RosterMapping

    try:
        with open(path, encoding="utf-8-sig") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise CliError(translate("roster", "cannot read the mapping {file}: no such file").format(file=path)) from None
    except OSError as exc:
        raise CliError(translate("roster", "cannot read the mapping {file}: {error}").format(
            file=path, error=exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise CliError(translate("roster", "the mapping {file} is not UTF-8 text").format(file=path)) from None
    except json.JSONDecodeError as exc:
        raise CliError(translate("roster", "the mapping {file} is not JSON: {error} (line {line}, column {column})"
                                 ).format(file=path, error=exc.msg, line=exc.lineno, column=exc.colno)) from None
    wrong = RosterMapping.left_out(data)
    if wrong:
        head = translate("roster", "the mapping {file} means nothing here (docs/roster-csv.md):").format(file=path)
        raise CliError("\n  ".join([head, *wrong]))
    return RosterMapping.from_json(data)


def _answer_hint(questions) -> str:
    """How to answer the file's helmet questions on the command line: a mapping file to write."""
    import json

    example = {"values": {"helmet": {q.word: "…" for q in questions}}}
    return translate("roster", "Say which kind with --mapping FILE.json, a file like {example} "
                               "(the ruleset's helmets are named above).").format(
        example=json.dumps(example, ensure_ascii=False))


def _hold(store) -> None:
    """A game file is changed only while no station has it open (it could not hear the change): its lock is
    held until the store is closed.  A shared game (PostgreSQL) is open at its stations meanwhile."""
    from controlroom.commands.errors import CliError
    from controlroom.store.station_lock import StationBusyError, StationLock

    if store.log.shared or not store.log.path:
        return
    try:
        store.station_lock = StationLock.take(store.log.path)
    except StationBusyError as exc:
        where = f" ({exc.holder})" if exc.holder else ""
        raise CliError(translate("roster", "{game} is open at a station{where}, which would not see a new roster: "
                                           "add the players in its window (Game, Import roster…), or close the "
                                           "game there and import again; nothing was imported").format(
            game=exc.game, where=where)) from None


def _announce(store, before: set[int], members, change) -> None:
    """A ``roster_added`` event when the roster changed: the log says when, and every station that has the game
    open folds it again over the new roster (engine/roster.py).  Its time is the game's now: the game clock's,
    once a station has started it, else the game's last event's."""
    import time

    import sqlalchemy as sa

    from controlroom.engine.opening import EPOCH_KEY
    from controlroom.game.events import SOURCE_GM, make_event
    from controlroom.store.eventlog import EVENTS

    if not (change.added or change.updated or change.removed):
        return
    with store.engine.connect() as conn:
        t = conn.execute(sa.select(sa.func.max(EVENTS.c.t))).scalar() or 0
    epoch = store.meta(EPOCH_KEY)
    if epoch is not None and epoch.lstrip("-").isdigit():
        t = max(t, int(time.time() * 1000) - int(epoch))
    added = sorted({m.badge for m in members} - before)
    store.log.append([make_event(t, "roster_added", SOURCE_GM, added=added)])


def _import(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.game.roster_csv import NO_MAPPING, RosterImportError, read_roster_csv
    from controlroom.rules.profile import ProfileError
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    mapping = read_mapping(args.mapping) if args.mapping else None
    try:
        with GameStore.open(args.db) as store:
            _hold(store)
            try:
                profile = store.profile()
            except (ProfileError, ValueError) as exc:
                raise CliError(translate("errors", "{game}: the game's ruleset cannot be read: {problem}").format(
                    game=store.where, problem=exc)) from None
            try:
                kept = store.roster() if args.keep_missing else []      # counted in the healer quota too
                members = read_roster_csv(args.file, profile, mapping or NO_MAPPING, kept)
            except RosterImportError as exc:
                n = len(exc.problems)
                head = translate("roster", "{file}: {problems}, nothing was imported:").format(
                    file=args.file, problems=_count(n, "problem"))
                hint = [_answer_hint(exc.questions)] if exc.questions else []
                raise CliError("\n  ".join([head, *exc.problems]) + "".join("\n" + h for h in hint)) from None
            before = {m.badge for m in store.roster()}
            change = store.save_roster(members, remove_missing=not args.keep_missing)
            kept = len(store.roster()) - len(members) if args.keep_missing else 0
            _announce(store, before, members, change)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    line = summary_line(members, change)
    if kept > 0:
        line += translate("roster", "; {players} not in the file kept").format(players=_count(kept, "stored player"))
    print(line)
    return 0


def _export(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.game.roster import RosterError
    from controlroom.game.roster_csv import write_roster_csv
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        with GameStore.open(args.db, create=False) as store:
            members = store.roster()
        write_roster_csv(members, args.file)
    except (StoreError, RosterError) as exc:
        raise CliError(str(exc)) from None
    groups = {m.group for m in members}
    print(translate("roster", "Roster exported: {players} in {groups} to {file}").format(
        players=_count(len(members), "player"), groups=_count(len(groups), "group"), file=args.file))
    return 0


def run(args: argparse.Namespace) -> int:
    return _import(args) if args.roster_action == "import" else _export(args)
