"""A roster file's rows as they are, from a CSV text or an .xlsx workbook (``game.table_file``), and the error
that lists every problem of a roster file.  ``roster_csv`` checks the rows against the ruleset; the format is
described in docs/roster-csv.md."""

from __future__ import annotations

import os
from collections.abc import Sequence

from controlroom.game.roster import RosterError
from controlroom.game.roster_columns import REQUIRED
from controlroom.game.table_file import Sheet, TableError
from controlroom.game.table_file import at_line as at_line  # (the roster's words: "line 4: ...")
from controlroom.game.table_file import read_sheet as _read
from controlroom.i18n import translate


class RosterImportError(RosterError):
    """Every problem of a roster file, one sentence each; nothing was imported.  ``questions``: those of them
    that a mapping answers (``roster_csv.HelmetQuestion``: a helmet of a kind the file does not say)."""

    def __init__(self, problems: list[str], questions: Sequence = ()) -> None:
        self.problems = list(problems)
        self.questions = list(questions)
        super().__init__("\n".join(self.problems))

    def __str__(self) -> str:
        return "\n".join(self.problems)


def read_sheet(path_or_text: str | os.PathLike | bytes) -> Sheet:
    """The rows of a roster file (CSV or .xlsx) that are not blank; RosterImportError when it cannot be read."""
    empty = translate("roster", "the file is empty; its first line must name the columns: {columns}").format(
        columns=", ".join(REQUIRED))
    try:
        return _read(path_or_text, empty, translate("roster", "the roster"))
    except TableError as exc:
        raise RosterImportError(exc.problems) from None
