"""The roster as a CSV file, the way a registration desk's spreadsheet exports it (no Qt).

``read_roster_csv`` checks every row against the game's ruleset and reports
every problem at once, each with its physical line in the file (the header is
line 1); it returns the members only when there is no problem at all, so an
import is never half done.  ``write_roster_csv`` writes the same columns,
UTF-8 with a byte order mark (spreadsheet programs need it to show accented
names), sorted by badge.  The format is described in docs/roster-csv.md.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from controlroom.game.roster import Member, RosterError, healer_excess
from controlroom.rules.armour import armour_points
from controlroom.rules.profile import ProfileError, RulesProfile

REQUIRED = ("badge", "name", "side", "group", "class", "paid", "helmet", "armour")
OPTIONAL = ("hp", "ap", "inadequate")
COLUMNS = REQUIRED + OPTIONAL
# Other spellings a header may use (compared lower-case, spaces trimmed): American English, and the
# Estonian registration desk's own headers (docs/roster-csv.md lists them).
ALIASES = {
    "armor": "armour",
    "märk": "badge", "märgi nr": "badge", "märgi number": "badge", "number": "badge", "nr": "badge",
    "nimi": "name",
    "pool": "side",
    "grupp": "group", "rühm": "group", "salk": "group",
    "klass": "class",
    "makstud": "paid", "tasutud": "paid",
    "kiiver": "helmet",
    "turvis": "armour", "soomus": "armour", "rüü": "armour",
    "elupunktid": "hp", "ep": "hp",
    "turvisepunktid": "ap", "soomuspunktid": "ap", "tp": "ap",
    "ebapiisav": "inadequate", "puudulik": "inadequate",
}
# Estonian names of the seed ruleset's classes, helmets and armour pieces, used when a cell is not a name the
# game's own ruleset knows (a ruleset may name its classes in Estonian itself: its names come first).
VALUE_ALIASES = {
    "class": {"sõdalane": "warrior", "ravitseja": "healer", "tervendaja": "healer"},
    "helmet": {"nahk": "leather", "nahkkiiver": "leather", "metall": "metal", "metallkiiver": "metal"},
    "armour": {"nahk": "leather", "kõvanahk": "hardened_leather", "kõvendatud nahk": "hardened_leather",
               "ahel": "chain", "rõngasrüü": "chain", "ahel vammusel": "chain_on_gambeson",
               "ahel_vammusel": "chain_on_gambeson", "plaat": "plate", "plaatrüü": "plate",
               "brigantiin": "brigandine"},
}
# Longest texts the game file keeps (controlroom/store/models.py).
MAX_LEN = {"name": 200, "side": 100, "group": 100}

YES = frozenset({"yes", "true", "1", "jah"})
NO = frozenset({"no", "false", "0", "ei"})
YES_NO = "yes, no, true, false, 1, 0, jah, ei"
_WHOLE = re.compile(r"[0-9]+")
_LINE = re.compile(r"line ([0-9]+): ")


def header_key(cell: str) -> str:
    """A header cell as it is compared: lower case, spaces trimmed and single."""
    return " ".join(cell.strip().lower().split())


def value_key(cell: str) -> str:
    return " ".join(cell.strip().lower().split())


@dataclass
class RosterMapping:
    """What a user said by hand about a desk's file: its columns, and its class, helmet and armour names.

    ``columns`` maps a header (as ``header_key`` gives it) to one of
    COLUMNS, or to "" to leave that column out; ``values`` maps, per column
    ("class", "helmet", "armour"), a cell (as ``value_key`` gives it; an
    armour cell's pieces one by one) to the ruleset's name.  The window
    remembers it for the next file (JSON: ``to_json``/``from_json``).
    """

    columns: dict[str, str] = field(default_factory=dict)
    values: dict[str, dict[str, str]] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"columns": dict(self.columns), "values": {k: dict(v) for k, v in self.values.items()}}

    @classmethod
    def from_json(cls, data) -> "RosterMapping":
        """A mapping from what ``to_json`` gave; anything malformed is left out (a remembered mapping is a help)."""
        if not isinstance(data, Mapping):
            return cls()
        columns = {str(k): str(v) for k, v in (data.get("columns") or {}).items()
                   if isinstance(k, str) and (v == "" or v in COLUMNS)} if isinstance(data.get("columns"), Mapping) else {}
        values = {}
        raw = data.get("values")
        if isinstance(raw, Mapping):
            for column, names in raw.items():
                if column in VALUE_ALIASES and isinstance(names, Mapping):
                    values[column] = {str(k): str(v) for k, v in names.items() if isinstance(k, str) and isinstance(v, str)}
        return cls(columns, values)

    def value(self, column: str, cell: str) -> str | None:
        return self.values.get(column, {}).get(value_key(cell))


NO_MAPPING = RosterMapping()


class RosterImportError(RosterError):
    """Every problem of a roster file, one sentence each; nothing was imported."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))

    def __str__(self) -> str:
        return "\n".join(self.problems)


def _load_text(path_or_text: str | os.PathLike | bytes) -> str:
    """The file's text: a path (or a str without a line break) is read; bytes or a str with a line break is content."""
    if isinstance(path_or_text, str) and ("\n" in path_or_text or "\r" in path_or_text):
        return path_or_text.removeprefix("\ufeff")
    if isinstance(path_or_text, bytes):
        data, name = path_or_text, "the roster"
    else:
        path = Path(path_or_text)
        name = str(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise RosterImportError([f"cannot read {name}: no such file"]) from None
        except IsADirectoryError:
            raise RosterImportError([f"cannot read {name}: it is a folder, not a CSV file"]) from None
        except OSError as exc:
            raise RosterImportError([f"cannot read {name}: {exc.strerror or exc}"]) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RosterImportError([
            f"line {line}: {name} is not UTF-8 text; save it from the spreadsheet as "
            "'CSV UTF-8' (comma or semicolon separated) and import it again"
        ]) from None


def _delimiter(header_line: str) -> str:
    """Comma, semicolon (European spreadsheets) or tab: whichever the header line has most of."""
    return max(",;\t", key=header_line.count)


def _yes_no(value: str) -> bool | None:
    v = value.strip().lower()
    return True if v in YES else False if v in NO else None


class _Row:
    """One data row: its cells by column name, what was read of it, and the problems found in it."""

    def __init__(self, line: int, cells: dict[str, str], problems: list[str]) -> None:
        self.line, self.cells, self.problems = line, cells, problems
        self.ok = True
        self.badge: int | None = None

    def bad(self, message: str) -> None:
        self.problems.append(f"line {self.line}: {message}")
        self.ok = False

    def raw(self, key: str) -> str:
        value = self.cells.get(key, "").strip()
        if "\n" in value or "\r" in value:
            self.bad(f"{key} runs over several lines (is a closing quote missing?)")
        elif any(c < " " or c == "\x7f" for c in value):
            self.bad(f"{key} {value!r} contains a control character")
        return value

    def text(self, key: str) -> str:
        value = self.raw(key)
        if not value:
            self.bad(f"missing {key}")
        elif key in MAX_LEN and len(value) > MAX_LEN[key]:
            self.bad(f"{key} is longer than {MAX_LEN[key]} characters")
        return value

    def flag(self, key: str, default: bool | None) -> bool:
        raw = self.raw(key)
        if not raw and default is not None:
            return default
        if not raw:
            self.bad(f"missing {key} (write yes or no)")
            return False
        value = _yes_no(raw)
        if value is None:
            self.bad(f"{key} {raw!r} is not yes or no (accepted: {YES_NO})")
            return False
        return value

    def number(self, key: str, low: int) -> int | None:
        raw = self.raw(key)
        if not raw:
            if key == "badge":
                self.bad("missing badge")
            return None
        if not _WHOLE.fullmatch(raw) or int(raw) < low:
            what = "above 0" if low == 1 else "(0 or more)"
            self.bad(f"{key} {raw!r} is not a whole number {what}")
            return None
        return int(raw)


def column_of(cell: str, mapping: RosterMapping = NO_MAPPING) -> str | None:
    """The column a header cell names: the user's mapping first, then the format's names and aliases; None:
    a column the import leaves out."""
    key = header_key(cell)
    if key in mapping.columns:
        return mapping.columns[key] or None
    key = ALIASES.get(key, key)
    return key if key in COLUMNS else None


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
                problems.append(f"line {line}: column {key!r} appears twice")
                ok = False
            seen.add(key)
            names.append(key)
        else:
            names.append(None)
    for key in REQUIRED:
        if key not in seen:
            problems.append(f"line {line}: missing column {key!r}")
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


def _member(row: _Row, profile: RulesProfile, mapping: RosterMapping = NO_MAPPING) -> Member | None:
    row.badge = row.number("badge", 1)
    name, side, group = row.text("name"), row.text("side"), row.text("group")
    raw_cls = row.raw("class") or "warrior"   # "All characters are Warriors, if not expressly told otherwise"
    if raw_cls.lower() not in profile.classes:
        mapped = mapping.value("class", raw_cls)
        raw_cls = mapped if mapped is not None else VALUE_ALIASES["class"].get(raw_cls.lower(), raw_cls)
    try:
        cls = profile.character_class(raw_cls).name
    except ProfileError as exc:
        row.bad(str(exc))
        cls = raw_cls.lower()
    paid = row.flag("paid", None)
    helmet = _known(row.raw("helmet").lower(), profile.helmet_points, "helmet", mapping) or None
    pieces = tuple(_known(p.strip().lower(), profile.body_points, "armour", mapping)
                   for p in row.raw("armour").split("+") if p.strip())
    checks = [(helmet, ())] if helmet else []
    checks += [(None, (piece,)) for piece in pieces]     # each piece on its own: every unknown one is named
    for h, ps in checks:
        try:
            armour_points(profile, h, ps)
        except ProfileError as exc:
            row.bad(str(exc))
    hp = row.number("hp", 1)
    ap = row.number("ap", 0)
    inadequate = row.flag("inadequate", False)
    if not row.ok or row.badge is None:
        return None
    return Member(badge=row.badge, name=name, side=side, group=group, cls=cls, paid=paid,
                  helmet=helmet, armour=pieces, hp=hp, ap=ap, inadequate=inadequate)


def _rows(text: str, problems: list[str], mapping: RosterMapping = NO_MAPPING) -> list[_Row]:
    """The data rows under the header; header problems end the reading (RosterImportError)."""
    first = next((s for s in re.split(r"\r\n|\r|\n", text) if s.strip()), None)
    if first is None:
        raise RosterImportError([f"the file is empty; its first line must name the columns: {', '.join(REQUIRED)}"])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    columns: list[str | None] | None = None
    rows: list[_Row] = []
    last = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problems.append(f"line {last + 1}: {exc}")
            break
        line, last = last + 1, reader.line_num
        if not any(c.strip() for c in cells):
            continue                          # empty lines, and lines of empty cells (,,,,,,)
        if columns is None:
            columns = _header(cells, problems, line, mapping)
            if columns is None:
                raise RosterImportError(problems)
            continue
        if any(c.strip() for c in cells[len(columns):]):
            problems.append(f"line {line}: {len(cells)} cells but the header names {len(columns)} columns")
            continue
        rows.append(_Row(line, {k: v for k, v in zip(columns, cells) if k}, problems))
    return rows


def read_roster_csv(path_or_text: str | os.PathLike | bytes, profile: RulesProfile,
                    mapping: RosterMapping = NO_MAPPING) -> list[Member]:
    """The members of a roster CSV, in file order, checked against ``profile``.

    ``path_or_text`` is a path, the file's bytes, or its text (a str with a
    line break); ``mapping`` what the user said of its columns and names.
    Raises RosterImportError listing every problem.
    """
    problems: list[str] = []
    rows = _rows(_load_text(path_or_text), problems, mapping)
    members: list[Member] = []
    line_of: dict[int, int] = {}
    group_side: dict[str, tuple[str, int]] = {}
    for row in rows:
        m = _member(row, profile, mapping)
        if row.badge is not None:
            if row.badge in line_of:
                row.bad(f"badge {row.badge} is already on line {line_of[row.badge]}")
                continue
            line_of[row.badge] = row.line
        if m is None:
            continue
        side, at = group_side.setdefault(m.group, (m.side, row.line))
        if side != m.side:
            row.bad(f"group {m.group!r} is on side {side!r} on line {at}, not {m.side!r}")
            continue
        members.append(m)
    if not rows and not problems:
        problems.append("the file has a header row but no players")
    healer_lines: dict[str, list[int]] = defaultdict(list)
    for m in members:
        if profile.character_class(m.cls).healer_touches > 0:
            healer_lines[m.group].append(line_of[m.badge])
    for excess in healer_excess(members, profile):
        at = healer_lines[excess.group]
        where = f"healer on line {at[0]}" if len(at) == 1 else f"healers on lines {', '.join(map(str, at))}"
        problems.append(f"{excess.message()}: {where}")
    if problems:
        raise RosterImportError(sorted(problems, key=_line_of))
    return members


@dataclass
class RosterPreview:
    """A desk's file as a mapping dialog shows it: its headers, the column each is read as, the required
    columns no header gives, and per name column the cells the ruleset does not know (with what it knows)."""

    headers: list[str]
    columns: list[str | None]
    missing: list[str]
    unknown: dict[str, list[str]]           # "class" / "helmet" / "armour" -> cells (value_key) not known
    choices: dict[str, list[str]]           # the same columns -> the ruleset's names


def preview_roster_csv(path_or_text: str | os.PathLike | bytes, profile: RulesProfile,
                       mapping: RosterMapping = NO_MAPPING) -> RosterPreview:
    """What a mapping dialog needs of a file (RosterImportError when it cannot be read at all)."""
    text = _load_text(path_or_text)
    first = next((s for s in re.split(r"\r\n|\r|\n", text) if s.strip()), None)
    if first is None:
        raise RosterImportError([f"the file is empty; its first line must name the columns: {', '.join(REQUIRED)}"])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    headers: list[str] | None = None
    seen: dict[str, set[str]] = {"class": set(), "helmet": set(), "armour": set()}
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            if headers is None:
                headers = [c.strip() for c in cells]
                columns = [column_of(c, mapping) for c in headers]
                continue
            for key, cell in zip(columns, cells):
                if key == "armour":
                    seen[key].update(value_key(p) for p in cell.split("+") if p.strip())
                elif key in seen and cell.strip():
                    seen[key].add(value_key(cell))
    except csv.Error as exc:
        raise RosterImportError([f"line {reader.line_num}: {exc}"]) from None
    headers = headers or []
    columns = [column_of(c, mapping) for c in headers]
    choices = {"class": sorted(profile.classes), "helmet": sorted(profile.helmet_points),
               "armour": sorted(profile.body_points)}
    unknown = {}
    for key, cells in seen.items():
        names = set(choices[key])
        left = sorted(c for c in cells if c not in names and mapping.value(key, c) is None
                      and VALUE_ALIASES[key].get(c) not in names)
        if left:
            unknown[key] = left
    missing = [c for c in REQUIRED if c not in columns]
    return RosterPreview(headers, columns, missing, unknown, choices)


def _line_of(problem: str) -> float:
    found = _LINE.match(problem)
    return int(found.group(1)) if found else float("inf")


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
        raise RosterError(f"cannot write {path}: {exc.strerror or exc}") from None
