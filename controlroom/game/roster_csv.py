"""The roster as a CSV file, the way a registration desk's spreadsheet exports it (no Qt, no store).

``read_roster_csv`` checks every row against the game's ruleset and reports
every problem at once, each with its physical line in the file (the header is
line 1); it returns the members only when there is no problem at all, so an
import is never half done.  ``write_roster_csv`` writes the same columns,
UTF-8 with a byte order mark (spreadsheet programs need it to show accented
names), sorted by badge.  The format is described in docs/roster-csv.md.

It lives in the game layer, below the store and the window: the window's
import dialog reads and previews a file itself (the window does not use the
store), and hands the members read to the core, which stores them.
``roster_addition.plan_addition`` says what adding a file's players to a
game that is already open would do, and what stands in its way, line by line.

Every problem is a sentence in the language spoken (``controlroom.i18n``,
context ``roster``); the English ones are those of docs/roster-csv.md.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from controlroom.game.roster import Member, RosterError, healer_excess
from controlroom.game.roster_columns import (  # noqa: F401 - re-exported: the import dialog's and the tests' words
    ALIASES,
    COLUMN_WORDS,
    COLUMNS,
    FLAGS,
    HELMET_NONE,
    HELMET_SOME,
    MAPPABLE,
    NO_MAPPING,
    OPTIONAL,
    REQUIRED,
    VALUE_ALIASES,
    YES_NO,
    RosterMapping,
    column_of,
    column_word,
    header_key,
    value_key,
    yes_no,
)
from controlroom.game.roster_sheet import RosterImportError, at_line, read_sheet  # (also imported from here)
from controlroom.game.table_file import problem_line, problem_order  # noqa: F401 - the import dialog's words
from controlroom.i18n import translate
from controlroom.rules.profile import RulesProfile

# Longest texts the game file keeps (controlroom/store/models.py).
MAX_LEN = {"name": 200, "side": 100, "group": 100}

_WHOLE = re.compile(r"[0-9]+")
class _Row:
    """One data row: its cells by column name, what was read of it, and the problems found in it."""

    def __init__(self, line: int, cells: dict[str, str], problems: list[str]) -> None:
        self.line, self.cells, self.problems = line, cells, problems
        self.ok = True
        self.faults = 0                         # this row's problems so far
        self.badge: int | None = None
        self.asks: str | None = None            # a helmet word that says "a helmet" but not which kind
        self.quota: tuple[str, str, bool] | None = None     # (group, class, paid), when all three were read

    def bad(self, message: str) -> None:
        self.problems.append(at_line(self.line, message))
        self.ok = False
        self.faults += 1

    def raw(self, key: str) -> str:
        value = self.cells.get(key, "").strip()
        if "\n" in value or "\r" in value:
            self.bad(translate("roster", "{column} runs over several lines (is a closing quote missing?)").format(
                column=column_word(key)))
        elif any(c < " " or c == "\x7f" for c in value):
            self.bad(translate("roster", "{column} {value} contains a control character").format(
                column=column_word(key), value=repr(value)))
        return value

    def text(self, key: str) -> str:
        value = self.raw(key)
        if not value:
            self.bad(translate("roster", "missing {column}").format(column=column_word(key)))
        elif key in MAX_LEN and len(value) > MAX_LEN[key]:
            self.bad(translate("roster", "{column} is longer than {count} characters").format(
                column=column_word(key), count=MAX_LEN[key]))
        return value

    def flag(self, key: str, default: bool | None, mapping: RosterMapping) -> bool:
        raw = self.raw(key)
        if not raw and default is not None:
            return default
        if not raw:
            self.bad(translate("roster", "missing {column} (write yes or no)").format(column=column_word(key)))
            return False
        value = yes_no(raw)
        if value is None:
            value = yes_no(mapping.value(key, raw) or "")
        if value is None:
            self.bad(translate("roster", "{column} {value} is not yes or no (accepted: {accepted})").format(
                column=column_word(key), value=repr(raw), accepted=YES_NO))
            return False
        return value

    def number(self, key: str, low: int) -> int | None:
        raw = self.raw(key)
        if not raw:
            if key == "badge":
                self.bad(translate("roster", "missing badge"))
            return None
        if not _WHOLE.fullmatch(raw) or int(raw) < low:
            what = (translate("roster", "{column} {value} is not a whole number above 0") if low == 1
                    else translate("roster", "{column} {value} is not a whole number (0 or more)"))
            self.bad(what.format(column=column_word(key), value=repr(raw)))
            return None
        return int(raw)


def _header(cells: list[str], problems: list[str], line: int,
            mapping: RosterMapping = NO_MAPPING) -> list[str | None] | None:
    """Column names of the header (None for a column this format ignores), or None on a problem."""
    names: list[str | None] = []
    seen: set[str] = set()
    ok = True
    for cell in cells:
        key = column_of(cell, mapping) or ""
        if key in COLUMNS:
            if key in seen:
                problems.append(at_line(line, translate("roster", "column {column} appears twice").format(
                    column=repr(column_word(key)))))
                ok = False
            seen.add(key)
            names.append(key)
        else:
            names.append(None)
    for key in REQUIRED:
        if key not in seen:
            problems.append(at_line(line, translate("roster", "missing column {column}").format(
                column=repr(column_word(key)))))
            ok = False
    return names if ok else None


def _known(value: str, names, column: str, mapping: RosterMapping = NO_MAPPING) -> str:
    """A ruleset's own name as it is; else the user's mapping of it; else its English name for an Estonian one."""
    if value in names:
        return value
    mapped = mapping.value(column, value)
    if mapped is not None:
        return mapped
    return VALUE_ALIASES[column].get(" ".join(value.split()), value)


def _helmet(row: _Row, profile: RulesProfile, mapping: RosterMapping) -> str | None:
    """The helmet of a row: the ruleset's name, the user's mapping, none (``ei``, empty), or, for a word that
    says only that there is one (``jah``), None with the question kept on the row (asked once per file)."""
    raw = row.raw("helmet")
    key = value_key(raw)
    if key in profile.helmet_points:
        return key
    mapped = mapping.value("helmet", raw)
    if mapped is not None:
        return value_key(mapped) or None
    if key in HELMET_NONE:
        return None
    if key in HELMET_SOME:
        row.asks = key
        return None
    return VALUE_ALIASES["helmet"].get(key, key)


def _member(row: _Row, profile: RulesProfile, mapping: RosterMapping = NO_MAPPING) -> Member | None:
    row.badge = row.number("badge", 1)
    name, side, group = row.text("name"), row.text("side"), row.text("group")
    raw_cls = row.raw("class") or "warrior"   # "All characters are Warriors, if not expressly told otherwise"
    key = raw_cls.strip().lower()
    if key not in profile.classes:
        mapped = mapping.value("class", raw_cls)
        key = (mapped if mapped is not None else VALUE_ALIASES["class"].get(key, key)).strip().lower()
    if key in profile.classes:
        cls = profile.classes[key].name
    else:
        row.bad(translate("roster", "unknown class {name} (this ruleset knows: {known})").format(
            name=repr(raw_cls), known=", ".join(sorted(profile.classes))))
        cls = key
    faults = row.faults
    paid = row.flag("paid", None, mapping)
    if group and key in profile.classes and row.faults == faults:
        row.quota = (group, cls, paid)         # counts for the group's healers whatever else the row lacks
    helmet = _helmet(row, profile, mapping)
    pieces = tuple(_known(p.strip().lower(), profile.body_points, "armour", mapping)
                   for p in row.raw("armour").split("+") if p.strip())
    if helmet is not None and helmet not in profile.helmet_points:
        row.bad(translate("roster", "unknown helmet {name} (known: {known})").format(
            name=repr(helmet), known=", ".join(sorted(profile.helmet_points))))
    for piece in pieces:                # each piece on its own: every unknown one is named
        if piece not in profile.body_points:
            row.bad(translate("roster", "unknown armour piece {name} (known: {known})").format(
                name=repr(piece), known=", ".join(sorted(profile.body_points))))
    hp = row.number("hp", 1)
    ap = row.number("ap", 0)
    inadequate = row.flag("inadequate", False, mapping)
    if not row.ok or row.badge is None:
        return None
    return Member(badge=row.badge, name=name, side=side, group=group, cls=cls, paid=paid,
                  helmet=helmet, armour=pieces, hp=hp, ap=ap, inadequate=inadequate)


def _rows(path_or_text, problems: list[str], mapping: RosterMapping = NO_MAPPING) -> list[_Row]:
    """The data rows under the header; header problems end the reading (RosterImportError)."""
    sheet = read_sheet(path_or_text)
    columns: list[str | None] | None = None
    rows: list[_Row] = []
    for line, cells in sheet.rows:
        if columns is None:
            columns = _header(cells, problems, line, mapping)
            if columns is None:
                raise RosterImportError(problems)
            continue
        if any(c.strip() for c in cells[len(columns):]):
            problems.append(at_line(line, translate(
                "roster", "{cells} cells but the header names {columns} columns").format(
                cells=len(cells), columns=len(columns))))
            continue
        rows.append(_Row(line, {k: v for k, v in zip(columns, cells) if k}, problems))
    if sheet.broken:
        problems.append(sheet.broken)
    return rows


def healer_problem(excess, lines: list[int]) -> str:
    if len(lines) == 1:
        where = translate("roster", "healer on line {line}").format(line=lines[0])
    else:
        where = translate("roster", "healers on lines {lines}").format(lines=", ".join(map(str, lines)))
    return f"{excess.message()}: {where}"


def read_roster_entries(path_or_text: str | os.PathLike | bytes, profile: RulesProfile,
                        mapping: RosterMapping = NO_MAPPING, kept: Iterable[Member] = ()) -> list[tuple[int, Member]]:
    """(line, member) of every player of a roster CSV, in file order, checked against ``profile``.

    ``path_or_text`` is a path, the file's bytes, or its text (a str with a
    line break); ``mapping`` what the user said of its columns and names;
    ``kept``: the players the game keeps beside the file's (late registrations
    added to a game: ``roster import --keep-missing``), counted in the groups'
    healer quota with the file's, unless the file names their badge.
    Raises RosterImportError listing every problem.
    """
    problems: list[str] = []
    rows = _rows(path_or_text, problems, mapping)
    entries: list[tuple[int, Member]] = []
    line_of: dict[int, int] = {}
    group_side: dict[str, tuple[str, int]] = {}
    quota: list[tuple[int, Member]] = []        # every player whose group, class and paid were read
    asked: dict[str, list[int]] = {}            # helmet word -> its lines
    for row in rows:
        m = _member(row, profile, mapping)
        if row.badge is not None:
            if row.badge in line_of:
                row.bad(translate("roster", "badge {badge} is already on line {line}").format(
                    badge=row.badge, line=line_of[row.badge]))
                continue
            line_of[row.badge] = row.line
        if row.asks is not None:
            asked.setdefault(row.asks, []).append(row.line)
        if row.quota is not None:
            group, cls, paid = row.quota
            quota.append((row.line, Member(badge=row.line, name="", side="", group=group, cls=cls, paid=paid)))
        if m is None:
            continue
        side, at = group_side.setdefault(m.group, (m.side, row.line))
        if side != m.side:
            row.bad(translate("roster", "group {group} is on side {side} on line {line}, not {other}").format(
                group=repr(m.group), side=repr(side), line=at, other=repr(m.side)))
            continue
        entries.append((row.line, m))
    if not rows and not problems:
        problems.append(translate("roster", "the file has a header row but no players"))
    questions = [HelmetQuestion(word, lines) for word, lines in asked.items()]
    problems.extend(q.message(profile) for q in questions)
    healer_lines: dict[str, list[int]] = defaultdict(list)
    for line, m in quota:
        if profile.character_class(m.cls).healer_touches > 0:
            healer_lines[m.group].append(line)
    in_file = {m.badge for _line, m in entries}
    others = [m for m in kept if m.badge not in in_file]
    for excess in healer_excess([m for _line, m in quota] + others, profile):
        problems.append(healer_problem(excess, healer_lines[excess.group]))
    if problems:
        raise RosterImportError(sorted(problems, key=problem_order), questions)
    return entries


def read_roster_csv(path_or_text: str | os.PathLike | bytes, profile: RulesProfile,
                    mapping: RosterMapping = NO_MAPPING, kept: Iterable[Member] = ()) -> list[Member]:
    """The members of a roster CSV, in file order, checked against ``profile`` (``read_roster_entries``)."""
    return [m for _line, m in read_roster_entries(path_or_text, profile, mapping, kept)]


@dataclass(frozen=True)
class HelmetQuestion:
    """A helmet word of the file that says there is a helmet but not which kind (``jah``), and its lines: one
    question per file, answered by a mapping (``RosterMapping.values["helmet"]``)."""

    word: str
    lines: list[int]

    def message(self, profile: RulesProfile) -> str:
        where = (translate("roster", "helmet {word} on 1 line") if len(self.lines) == 1
                 else translate("roster", "helmet {word} on {count} lines")).format(
            word=repr(self.word), count=len(self.lines))
        return translate("roster", "{where}: which kind? (known: {known})").format(
            where=where, known=", ".join(sorted(profile.helmet_points)))


@dataclass
class RosterPreview:
    """A desk's file as a mapping dialog shows it: its headers, the column each is read as, the required
    columns no header gives, per mappable column the cells the ruleset does not know (with what it knows),
    and the file's first rows as they are (line, cells)."""

    headers: list[str]
    columns: list[str | None]
    missing: list[str]
    unknown: dict[str, list[str]]           # "class" / "helmet" / "armour" / "paid" / ... -> cells (value_key)
    choices: dict[str, list[str]]           # the same columns -> the ruleset's names (yes, no for flags)
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    players: int = 0                        # the rows under the header that are not empty (all, not only ``rows``)


def preview_roster_csv(path_or_text: str | os.PathLike | bytes, profile: RulesProfile,
                       mapping: RosterMapping = NO_MAPPING, rows: int = 2000) -> RosterPreview:
    """What a mapping dialog needs of a file (RosterImportError when it cannot be read at all); ``rows``:
    how many of its lines to keep as they are, for a preview table."""
    sheet = read_sheet(path_or_text)
    if sheet.broken:
        raise RosterImportError([sheet.broken])
    headers: list[str] | None = None
    columns: list[str | None] = []
    seen: dict[str, set[str]] = {key: set() for key in MAPPABLE}
    kept: list[tuple[int, list[str]]] = []
    players = 0
    for line, cells in sheet.rows:
        if headers is None:
            headers = [c.strip() for c in cells]
            columns = [column_of(c, mapping) for c in headers]
            continue
        players += 1
        if len(kept) < rows:
            kept.append((line, list(cells)))
        for key, cell in zip(columns, cells):
            if key == "armour":
                seen[key].update(value_key(p) for p in cell.split("+") if p.strip())
            elif key in seen and cell.strip():
                seen[key].add(value_key(cell))
    headers = headers or []
    columns = [column_of(c, mapping) for c in headers]
    choices = {"class": sorted(profile.classes), "helmet": sorted(profile.helmet_points),
               "armour": sorted(profile.body_points), "paid": ["yes", "no"], "inadequate": ["yes", "no"]}
    unknown = {}
    for key, found in seen.items():
        names = set(choices[key])
        if key in FLAGS:
            left = sorted(c for c in found if yes_no(c) is None and yes_no(mapping.value(key, c) or "") is None)
        elif key == "helmet":
            left = sorted(c for c in found if c not in names and mapping.value(key, c) is None
                          and c not in HELMET_NONE and VALUE_ALIASES[key].get(c) not in names)
        else:
            left = sorted(c for c in found if c not in names and mapping.value(key, c) is None
                          and VALUE_ALIASES[key].get(c) not in names)
        if left:
            unknown[key] = left
    missing = [c for c in REQUIRED if c not in columns]
    return RosterPreview(headers, columns, missing, unknown, choices, kept, players)


def _cells(m: Member) -> list[str]:
    return [
        str(m.badge), m.name, m.side, m.group, m.cls, "yes" if m.paid else "no", m.helmet or "",
        "+".join(m.armour), "" if m.hp is None else str(m.hp), "" if m.ap is None else str(m.ap),
        "yes" if m.inadequate else "no",
    ]


def roster_csv_text(members: Iterable[Member]) -> str:
    """The roster as CSV text (comma separated, CRLF line ends, sorted by badge), without the BOM."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for m in sorted(members, key=lambda m: m.badge):
        writer.writerow(_cells(m))
    return out.getvalue()


def write_roster_csv(members: Iterable[Member], path: str | os.PathLike) -> None:
    """Write the roster as UTF-8 with BOM; the file is replaced whole (never left half written)."""
    path = Path(path)
    data = ("\ufeff" + roster_csv_text(members)).encode("utf-8")
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise RosterError(translate("roster", "cannot write {path}: {error}").format(
            path=path, error=exc.strerror or exc)) from None
