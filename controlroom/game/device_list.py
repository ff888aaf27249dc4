"""The list of a game's devices, as organisers keep it in a spreadsheet: CSV or .xlsx (no Qt, no store).

``read_device_list`` checks every row and reports every problem at once,
each with its line (the header is line 1 of a CSV file; an .xlsx sheet's row
numbers are its lines); it returns the devices only when there is none.
What needs the game (its groups, the devices registered already) is checked
by the store when the list is imported (``store.device_import``).  The
format, with samples in English and Estonian headers: docs/devices.md.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from controlroom.game.devices import BOARDS, DEFAULT_BOARD, ROLES, node_id
from controlroom.game.roster_columns import header_key, value_key
from controlroom.game.table_file import TableError, at_line, problem_order, table_rows
from controlroom.i18n import QT_TRANSLATE_NOOP, translate

REQUIRED = ("id", "role")
OPTIONAL = ("label", "group", "engine", "board", "marshal", "badge", "meshtastic")
COLUMNS = REQUIRED + OPTIONAL
# Other spellings of the headers (compared lower-case, spaces single): English, and Estonian.
ALIASES = {
    "device": "id", "device id": "id", "nr": "id", "number": "id", "seade": "id", "seadme nr": "id",
    "seadme number": "id", "seadme id": "id",
    "roll": "role", "liik": "role",
    "name": "label", "silt": "label", "nimetus": "label", "kirjeldus": "label",
    "grupp": "group", "rühm": "group", "salk": "group",
    "siege engine": "engine", "piiramismasin": "engine", "masin": "engine",
    "plaat": "board", "riistvara": "board",
    "marshal name": "marshal", "marssal": "marshal", "marssali nimi": "marshal", "kohtunik": "marshal",
    "marshal badge": "badge", "märk": "badge", "märgi nr": "badge", "märgi number": "badge",
    "marssali märk": "badge",
    "meshtastic node": "meshtastic", "node": "meshtastic", "node id": "meshtastic", "sõlm": "meshtastic",
}
# Estonian names of the roles.
ROLE_ALIASES = {"marssal": "marshal", "kohtunik": "marshal", "handset": "marshal", "käsiseade": "marshal",
                "jälgija": "tracker", "jälitaja": "tracker", "majakas": "tracker",
                "lüüs": "gateway", "värav": "gateway"}
# Longest texts the game file keeps (controlroom/store/models.py).
MAX_LEN = {"label": 100, "group": 100, "engine": 100, "marshal": 200}
COLUMN_WORDS = {
    "id": QT_TRANSLATE_NOOP("devices", "id"), "role": QT_TRANSLATE_NOOP("devices", "role"),
    "label": QT_TRANSLATE_NOOP("devices", "label"), "group": QT_TRANSLATE_NOOP("devices", "group"),
    "engine": QT_TRANSLATE_NOOP("devices", "engine"), "board": QT_TRANSLATE_NOOP("devices", "board"),
    "marshal": QT_TRANSLATE_NOOP("devices", "marshal"), "badge": QT_TRANSLATE_NOOP("devices", "badge"),
    "meshtastic": QT_TRANSLATE_NOOP("devices", "meshtastic"),
}
_WHOLE = re.compile(r"[0-9]+")


class DeviceEntry(NamedTuple):
    """One device of the list, as checked; ``line`` is where the file has it."""

    line: int
    id: int
    role: str
    label: str = ""
    group: str | None = None
    engine: str | None = None
    board: str | None = DEFAULT_BOARD        # None: a stock Meshtastic node (nothing to provision)
    marshal: str | None = None
    badge: int | None = None
    meshtastic: str | None = None


class DeviceListError(TableError):
    """Every problem of a device list, one sentence each, by line; nothing was imported."""


def column_word(column: str) -> str:
    return translate("devices", COLUMN_WORDS[column])


def _header(cells: list[str], line: int, problems: list[str]) -> list[str | None] | None:
    names: list[str | None] = []
    seen: set[str] = set()
    for cell in cells:
        key = header_key(cell)
        key = ALIASES.get(key, key)
        if key in COLUMNS:
            if key in seen:
                problems.append(at_line(line, translate("devices", "column {column} appears twice").format(
                    column=repr(column_word(key)))))
            seen.add(key)
            names.append(key)
        else:
            names.append(None)
    for key in REQUIRED:
        if key not in seen:
            problems.append(at_line(line, translate("devices", "missing column {column}").format(
                column=repr(column_word(key)))))
    return None if problems else names


class _Row:
    def __init__(self, line: int, cells: dict[str, str], problems: list[str]) -> None:
        self.line, self.cells, self.problems, self.ok = line, cells, problems, True

    def bad(self, message: str) -> None:
        self.problems.append(at_line(self.line, message))
        self.ok = False

    def text(self, key: str) -> str:
        value = self.cells.get(key, "").strip()
        if "\n" in value or "\r" in value:
            self.bad(translate("devices", "{column} runs over several lines (is a closing quote missing?)").format(
                column=column_word(key)))
        elif any(c < " " or c == "\x7f" for c in value):
            self.bad(translate("devices", "{column} {value} contains a control character").format(
                column=column_word(key), value=repr(value)))
        elif key in MAX_LEN and len(value) > MAX_LEN[key]:
            self.bad(translate("devices", "{column} is longer than {count} characters").format(
                column=column_word(key), count=MAX_LEN[key]))
        return value

    def number(self, key: str, low: int, high: int) -> int | None:
        raw = self.text(key)
        if not raw:
            return None
        if not _WHOLE.fullmatch(raw) or not low <= int(raw) <= high:
            self.bad(translate("devices", "{column} {value} is not a whole number from {low} to {high}").format(
                column=column_word(key), value=repr(raw), low=low, high=high))
            return None
        return int(raw)


def _entry(row: _Row) -> tuple[int | None, str | None, DeviceEntry | None]:
    """The row's id and Meshtastic node as far as they read, and its device (None when it has a problem)."""
    device = row.number("id", 1, 0xFFFE)
    if device is None and not row.text("id"):
        row.bad(translate("devices", "missing id"))
    raw_role = row.text("role")
    role = ROLE_ALIASES.get(value_key(raw_role), value_key(raw_role))
    if not raw_role:
        row.bad(translate("devices", "missing role (marshal, tracker or gateway)"))
    elif role not in ROLES:
        row.bad(translate("devices", "unknown role {role} (roles: {roles})").format(
            role=repr(raw_role), roles=", ".join(ROLES)))
    label, group, engine = row.text("label"), row.text("group") or None, row.text("engine") or None
    marshal, badge = row.text("marshal") or None, row.number("badge", 1, 65535)
    mesh = row.text("meshtastic") or None
    if mesh is not None:
        try:
            mesh = node_id(mesh)
        except ValueError as exc:
            row.bad(str(exc))
    raw_board = row.text("board")
    board = value_key(raw_board) or (None if mesh else DEFAULT_BOARD)
    if raw_board and board not in BOARDS:
        row.bad(translate("devices", "unknown board {board} (boards: {boards})").format(
            board=repr(raw_board), boards=", ".join(BOARDS)))
    elif board is not None and role in ROLES and role not in BOARDS[board][1]:
        row.bad(translate("devices", "a {board} cannot be a {role}: it has no GPS or keypad (use a T-Beam)").format(
            board=board, role=role))
    if raw_board and mesh:
        row.bad(translate("devices", "a Meshtastic node runs its own firmware: leave its board empty"))
    if role == "gateway" and (group or engine or marshal or mesh):
        row.bad(translate("devices", "a gateway belongs to no group, engine or marshal, and is no Meshtastic node"))
    if group and engine:
        row.bad(translate("devices", "a device is with a group or on a siege engine, not both"))
    if marshal and role != "marshal":
        row.bad(translate("devices", "only a marshal's handset has a marshal"))
    if badge is not None and not marshal:
        row.bad(translate("devices", "a badge without the marshal's name"))
    if not row.ok or device is None:
        return device, mesh if isinstance(mesh, str) and mesh.startswith("!") else None, None
    return device, mesh, DeviceEntry(row.line, device, role, label, group, engine, board, marshal, badge, mesh)


def read_device_list(path: str | os.PathLike) -> list[DeviceEntry]:
    """Every device of a CSV file or an .xlsx workbook, in file order; DeviceListError lists every problem."""
    problems: list[str] = []
    empty = translate("devices", "the file is empty; its first line must name the columns: {columns}").format(
        columns=", ".join(COLUMNS))
    try:
        rows = table_rows(path, problems, empty)
    except TableError as exc:
        raise DeviceListError(exc.problems) from None
    columns: list[str | None] | None = None
    entries: list[DeviceEntry] = []
    first: dict[tuple[str, object], int] = {}
    for line, cells in rows:
        if columns is None:
            columns = _header(cells, line, problems)
            if columns is None:
                raise DeviceListError(problems)
            continue
        if any(c.strip() for c in cells[len(columns):]):
            problems.append(at_line(line, translate(
                "devices", "{cells} cells but the header names {columns} columns").format(
                cells=len(cells), columns=len(columns))))
            continue
        row = _Row(line, {k: v for k, v in zip(columns, cells) if k}, problems)
        device, mesh, entry = _entry(row)
        for what, value, message in (
                ("id", device, translate("devices", "device {value} is already on line {line}")),
                ("meshtastic", mesh, translate("devices", "Meshtastic node {value} is already on line {line}"))):
            if value is None:
                continue
            if (what, value) in first:
                row.bad(message.format(value=value, line=first[(what, value)]))
            else:
                first[(what, value)] = line
        if row.ok and entry is not None:
            entries.append(entry)
    if columns is not None and not entries and not problems:
        problems.append(translate("devices", "the file has a header row but no devices"))
    if problems:
        raise DeviceListError(sorted(problems, key=problem_order))
    return entries
