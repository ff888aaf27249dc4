"""A roster file's rows as they are, from a CSV text or an .xlsx workbook (no Qt, no store).

``read_sheet`` takes a path, the file's bytes or its text and gives every
row that is not blank, each with its line: the physical line of a CSV file
(a quoted cell over several lines counts them all; the header is line 1
when it is the first line), the row number of the workbook's first sheet.
A workbook is told by its content (a zip archive), not by its name, so a
desk's file renamed by hand reads as what it is.  ``roster_csv`` checks the
rows against the ruleset; the format is described in docs/roster-csv.md.
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

from controlroom.game.roster import RosterError
from controlroom.game.roster_columns import REQUIRED
from controlroom.i18n import translate

_ZIP = b"PK\x03\x04"                      # an .xlsx (and an .ods) is a zip archive
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the old binary .xls


class RosterImportError(RosterError):
    """Every problem of a roster file, one sentence each; nothing was imported.  ``questions``: those of them
    that a mapping answers (``roster_csv.HelmetQuestion``: a helmet of a kind the file does not say)."""

    def __init__(self, problems: list[str], questions: list = ()) -> None:
        self.problems = list(problems)
        self.questions = list(questions)
        super().__init__("\n".join(self.problems))

    def __str__(self) -> str:
        return "\n".join(self.problems)


def at_line(line: int, problem: str) -> str:
    """A problem of one line of the file, as every message gives it ("line 4: ...")."""
    return translate("roster", "line {line}: {problem}").format(line=line, problem=problem)


@dataclass
class Sheet:
    """The rows of a file that are not blank, (line, cells), the header first; ``broken``: a problem that ended
    the reading (a CSV quote the reader could not follow), with its line, or None."""

    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    broken: str | None = None


def _load(path_or_text: str | os.PathLike | bytes) -> tuple[str | bytes, str]:
    """The file's text (a str with a line break is the content itself) or bytes, and its name for messages."""
    if isinstance(path_or_text, str) and ("\n" in path_or_text or "\r" in path_or_text):
        return path_or_text.removeprefix("\ufeff"), translate("roster", "the roster")
    if isinstance(path_or_text, bytes):
        return path_or_text, translate("roster", "the roster")
    path = Path(path_or_text)
    name = str(path)
    try:
        return path.read_bytes(), name
    except FileNotFoundError:
        raise RosterImportError([translate("roster", "cannot read {name}: no such file").format(
            name=name)]) from None
    except IsADirectoryError:
        raise RosterImportError([translate("roster", "cannot read {name}: it is a folder, not a CSV file").format(
            name=name)]) from None
    except OSError as exc:
        raise RosterImportError([translate("roster", "cannot read {name}: {error}").format(
            name=name, error=exc.strerror or exc)]) from None


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RosterImportError([at_line(line, translate("roster",
            "{name} is not UTF-8 text; save it from the spreadsheet as 'CSV UTF-8' (comma or semicolon separated) "
            "and import it again").format(name=name))]) from None


def _delimiter(header_line: str) -> str:
    """Comma, semicolon (European spreadsheets) or tab: whichever the header line has most of."""
    return max(",;\t", key=header_line.count)


def _empty() -> RosterImportError:
    return RosterImportError([translate(
        "roster", "the file is empty; its first line must name the columns: {columns}").format(
        columns=", ".join(REQUIRED))])


def _csv_rows(text: str) -> Sheet:
    first = next((s for s in re.split(r"\r\n|\r|\n", text) if s.strip()), None)
    if first is None:
        raise _empty()
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
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


def _cell(value) -> str:
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


def _xlsx_rows(data: bytes, name: str) -> Sheet:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise RosterImportError([translate(
            "roster", "cannot read {name}: it is neither a CSV file nor an Excel workbook (.xlsx) that can be "
                      "read ({error}); save it from the spreadsheet as .xlsx or 'CSV UTF-8'").format(
            name=name, error=exc)]) from None
    try:
        sheet = Sheet()
        ws = book.worksheets[0] if book.worksheets else None
        if ws is not None:
            for line, values in enumerate(ws.iter_rows(values_only=True), start=1):
                cells = [_cell(v) for v in values]
                if any(c.strip() for c in cells):
                    sheet.rows.append((line, cells))
    finally:
        book.close()
    if not sheet.rows:
        raise _empty()
    return sheet


def read_sheet(path_or_text: str | os.PathLike | bytes) -> Sheet:
    """The rows of a roster file (CSV or .xlsx) that are not blank; RosterImportError when it cannot be read."""
    content, name = _load(path_or_text)
    if isinstance(content, str):
        return _csv_rows(content)
    if content.startswith(_ZIP):
        return _xlsx_rows(content, name)
    if content.startswith(_OLE):
        raise RosterImportError([translate(
            "roster", "cannot read {name}: it is an old Excel workbook (.xls); save it as .xlsx or 'CSV UTF-8' "
                      "and import it again").format(name=name)])
    return _csv_rows(_text(content, name))
