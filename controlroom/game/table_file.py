"""A table a spreadsheet wrote, read row by row with its line numbers: CSV or an .xlsx workbook (no Qt, no store).

The roster (``roster_csv``) and the device list (``device_list``) are read
through it.  A CSV file is UTF-8 (a byte order mark is fine), its cells
separated by commas, semicolons or tabs (whichever its first line has most
of); an .xlsx workbook's first sheet is read, its row numbers the lines.
Rows without a single cell written are left out; every problem is a
sentence that starts with its line ("line 4: ..."), in the language spoken.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterator
from datetime import date, datetime, time
from pathlib import Path

from controlroom.i18n import translate

_LINE = re.compile(r"^[^0-9:]*?([0-9]+): ")       # "line 4: ..." in any language: the first number, then ": "
XLSX_SUFFIXES = (".xlsx", ".xlsm")


class TableError(ValueError):
    """Every problem that stopped a table from being read, one sentence each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))

    def __str__(self) -> str:
        return "\n".join(self.problems)


def at_line(line: int, problem: str) -> str:
    """A problem of one line of the file, as every message gives it ("line 4: ...")."""
    return translate("roster", "line {line}: {problem}").format(line=line, problem=problem)


def problem_line(problem: str) -> int | None:
    """The line of the file a problem names (None: a problem of the file as a whole)."""
    found = _LINE.match(problem)
    return int(found.group(1)) if found else None


def problem_order(problem: str) -> float:
    """A problem's line, to sort problems by (one without a line goes last)."""
    line = problem_line(problem)
    return float("inf") if line is None else line


def read_bytes(path: str | os.PathLike) -> bytes:
    """A file's bytes; TableError in words when it cannot be read."""
    name = str(path)
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise TableError([translate("roster", "cannot read {name}: no such file").format(name=name)]) from None
    except IsADirectoryError:
        raise TableError([translate("roster", "cannot read {name}: it is a folder, not a CSV file").format(
            name=name)]) from None
    except OSError as exc:
        raise TableError([translate("roster", "cannot read {name}: {error}").format(
            name=name, error=exc.strerror or exc)]) from None


def load_text(path_or_text: str | os.PathLike | bytes, name: str) -> str:
    """A CSV file's text: a path (or a str without a line break) is read; bytes or a str with a line break is
    the content itself (``name`` names it in messages).  TableError when it is not UTF-8 text."""
    if isinstance(path_or_text, str) and ("\n" in path_or_text or "\r" in path_or_text):
        return path_or_text.removeprefix("\ufeff")
    if isinstance(path_or_text, bytes):
        data = path_or_text
    else:
        data, name = read_bytes(path_or_text), str(path_or_text)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TableError([at_line(line, translate("roster",
            "{name} is not UTF-8 text; save it from the spreadsheet as 'CSV UTF-8' (comma or semicolon separated) "
            "and import it again").format(name=name))]) from None


def delimiter(header_line: str) -> str:
    """Comma, semicolon (European spreadsheets) or tab: whichever the header line has most of."""
    return max(",;\t", key=header_line.count)


def first_line(text: str, empty: str) -> str:
    """The file's first line that is not blank; TableError ``empty`` when there is none."""
    first = next((s for s in re.split(r"\r\n|\r|\n", text) if s.strip()), None)
    if first is None:
        raise TableError([empty])
    return first


def csv_rows(text: str, problems: list[str], empty: str) -> Iterator[tuple[int, list[str]]]:
    """(line, cells) of every row of a CSV text that has a cell written; a row the CSV reader cannot read ends
    the reading with a problem."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(first_line(text, empty)))
    last = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.append(at_line(last + 1, str(exc)))
            return
        line, last = last + 1, reader.line_num
        if any(c.strip() for c in cells):
            yield line, cells


def cell_text(value) -> str:
    """A workbook cell as the text a CSV export of it would have (a whole number without ".0")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)


def xlsx_rows(path: str | os.PathLike) -> list[tuple[int, list[str]]]:
    """(row number, cells) of the first sheet of an .xlsx workbook, rows with a cell written only."""
    from zipfile import BadZipFile

    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    read_bytes(path)                 # a missing file or a folder: the same words as for a CSV file
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except (BadZipFile, InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise TableError([translate("roster", "cannot read {name}: it is not an .xlsx workbook ({error})").format(
            name=path, error=exc)]) from None
    try:
        sheet = book.worksheets[0]
        rows = []
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            cells = [cell_text(v) for v in values]
            if any(c.strip() for c in cells):
                rows.append((number, cells))
        return rows
    finally:
        book.close()


def table_rows(path: str | os.PathLike, problems: list[str], empty: str) -> list[tuple[int, list[str]]]:
    """(line, cells) of every written row of a CSV file or an .xlsx workbook (by the file's suffix)."""
    if str(path).lower().endswith(XLSX_SUFFIXES):
        rows = xlsx_rows(path)
        if not rows:
            raise TableError([empty])
        return rows
    return list(csv_rows(load_text(path, str(path)), problems, empty))
