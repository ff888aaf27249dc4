"""A table a spreadsheet wrote, read row by row with its line numbers: CSV or an .xlsx workbook (no Qt, no store).

The roster (``roster_csv`` through ``roster_sheet``) and the device list
(``device_list``) are read through it.  ``read_sheet`` takes a path, the
file's bytes or its text and gives every row with a cell written, each with
its line: the physical line of a CSV file (a quoted cell over several lines
counts them all), the row number of the workbook's first sheet.  A workbook
is told by its content (a zip archive), not by its name, so a desk's file
renamed by hand reads as what it is.  A CSV file is UTF-8 (a byte order mark
is fine), its cells separated by commas, semicolons or tabs (whichever its
first line has most of).  Every problem is a sentence that starts with its
line ("line 4: ..."), in the language spoken.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from controlroom.i18n import translate

_LINE = re.compile(r"^[^0-9:]*?([0-9]+): ")       # "line 4: ..." in any language: the first number, then ": "
_ZIP = b"PK\x03\x04"                               # an .xlsx (and an .ods) is a zip archive
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"          # the old binary .xls


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
    """The line of the file a problem names (None: a problem of the file as a whole, or of a group)."""
    found = _LINE.match(problem)
    return int(found.group(1)) if found else None


def problem_order(problem: str) -> float:
    """A problem's line, to sort problems by (one without a line goes last)."""
    line = problem_line(problem)
    return float("inf") if line is None else line


@dataclass
class Sheet:
    """The rows of a file with a cell written, (line, cells), the header first; ``broken``: a problem that ended
    the reading (a CSV quote the reader could not follow), with its line, or None."""

    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    broken: str | None = None


def _load(path_or_text: str | os.PathLike | bytes, name: str) -> tuple[str | bytes, str]:
    """The file's text (a str with a line break is the content itself) or bytes, and its name for messages."""
    if isinstance(path_or_text, str) and ("\n" in path_or_text or "\r" in path_or_text):
        return path_or_text.removeprefix("\ufeff"), name
    if isinstance(path_or_text, bytes):
        return path_or_text, name
    name = str(path_or_text)
    try:
        return Path(path_or_text).read_bytes(), name
    except FileNotFoundError:
        raise TableError([translate("roster", "cannot read {name}: no such file").format(name=name)]) from None
    except IsADirectoryError:
        raise TableError([translate("roster", "cannot read {name}: it is a folder, not a CSV file").format(
            name=name)]) from None
    except OSError as exc:
        raise TableError([translate("roster", "cannot read {name}: {error}").format(
            name=name, error=exc.strerror or exc)]) from None


def _text(data: bytes, name: str) -> str:
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


def _csv_rows(text: str, empty: str) -> Sheet:
    first = next((s for s in re.split(r"\r\n|\r|\n", text) if s.strip()), None)
    if first is None:
        raise TableError([empty])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(first))
    sheet = Sheet()
    last = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            sheet.broken = at_line(last + 1, str(exc))
            break
        line, last = last + 1, reader.line_num
        if any(c.strip() for c in cells):       # empty lines, and lines of empty cells (,,,,,,) are skipped
            sheet.rows.append((line, cells))
    return sheet


def cell_text(value) -> str:
    """A workbook cell as the desk would have typed it: 101 (not 101.0), TRUE/FALSE as yes/no, a date as a date."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _xlsx_rows(data: bytes, name: str, empty: str) -> Sheet:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise TableError([_not_readable(name, exc)]) from None
    try:
        sheet = Sheet()
        ws = book.worksheets[0] if book.worksheets else None
        if ws is not None:
            for line, values in enumerate(ws.iter_rows(values_only=True), start=1):
                cells = [cell_text(v) for v in values]
                if any(c.strip() for c in cells):
                    sheet.rows.append((line, cells))
    finally:
        book.close()
    if not sheet.rows:
        raise TableError([empty])
    return sheet


def read_sheet(path_or_text: str | os.PathLike | bytes, empty: str, name: str) -> Sheet:
    """The written rows of a file (CSV or .xlsx); TableError when it cannot be read.  ``empty`` is what an empty
    file is told; ``name`` names content given as text or bytes."""
    content, name = _load(path_or_text, name)
    if isinstance(content, str):
        return _csv_rows(content, empty)
    if content.startswith(_ZIP):
        return _xlsx_rows(content, name, empty)
    if content.startswith(_OLE):
        raise TableError([translate(
            "roster", "cannot read {name}: it is an old Excel workbook (.xls); save it as .xlsx or 'CSV UTF-8' "
                      "and import it again").format(name=name)])
    if name.lower().endswith((".xlsx", ".xlsm")):
        try:
            text = _text(content, name)
        except TableError:
            raise TableError([_not_readable(name, "not a zip archive")]) from None
        return _csv_rows(text, empty)                   # a CSV file renamed by hand: read as what it is
    return _csv_rows(_text(content, name), empty)


def _not_readable(name: str, error) -> str:
    return translate("roster", "cannot read {name}: it is neither a CSV file nor an Excel workbook (.xlsx) that can "
                               "be read ({error}); save it from the spreadsheet as .xlsx or 'CSV UTF-8'").format(
        name=name, error=error)


def table_rows(path: str | os.PathLike, problems: list[str], empty: str) -> list[tuple[int, list[str]]]:
    """(line, cells) of every written row of a CSV file or an .xlsx workbook; a CSV row the reader cannot
    follow ends the rows with a problem in ``problems``."""
    sheet = read_sheet(path, empty, str(path))
    if sheet.broken:
        problems.append(sheet.broken)
    return sheet.rows
