"""The report as one ``.xlsx`` workbook: a sheet per table (casualties, players, STOPPs), read back by openpyxl.

Written by openpyxl (MIT, pure Python, the library most spreadsheet code in
Python reads and writes with) in write-only mode, so a long game's casualty
list streams to the file row by row.  Numbers stay numbers (badges, counts,
seconds, coordinates); the header row is bold and frozen.
"""

from __future__ import annotations

import os
from pathlib import Path

from controlroom.report.csv_out import tables
from controlroom.report.model import Report

# Columns whose cells are numbers in the tables (some are written as text there, e.g. "12.345").
NUMBERS = frozenset({"seq", "badge", "duration_s", "lat", "lon", "caller_badge", "players_covered"})


def _number(value):
    if value == "" or value is None or isinstance(value, (int, float)):
        return value
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


def write_xlsx(report: Report, path: Path) -> Path:
    """Write the workbook (to a temporary file first, then renamed: a full disk leaves no half file)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    book = Workbook(write_only=True)
    bold = Font(bold=True)
    try:
        for name, columns, rows in tables(report):
            sheet = book.create_sheet(name)
            sheet.freeze_panes = "A2"
            header = []
            for title in columns:
                cell = WriteOnlyCell(sheet, value=title)
                cell.font = bold
                header.append(cell)
            sheet.append(header)
            numeric = [c in NUMBERS for c in columns]
            for row in rows:
                sheet.append([_number(v) if n else v for v, n in zip(row, numeric)])
        book.save(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
