"""Export a report: the CSV files and the PDF, named after the game and the scenario."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from controlroom.collecting import no_collection
from controlroom.report.csv_out import write_csv
from controlroom.report.model import Report

FORMATS = ("pdf", "csv", "xlsx")
DEFAULT_FORMATS = ("pdf", "csv")


def report_stem(report: Report) -> str:
    """A file name for the report: the game's name, and the scenario's when it is for one."""
    words = report.game if report.scenario is None else f"{report.game} {report.scenario}"
    slug = re.sub(r"[^\w.-]+", "-", words, flags=re.UNICODE).strip("-.")
    return slug or "game"


def parse_formats(text: str) -> tuple[str, ...]:
    """``pdf,csv`` to ("pdf", "csv"); a clear ValueError for anything else."""
    chosen = tuple(dict.fromkeys(f.strip().lower() for f in text.split(",") if f.strip()))
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise ValueError(f"--format takes pdf, csv and xlsx, one or more joined with commas (pdf,csv), not {text!r}")
    return chosen


def export_report(report: Report, out_dir: Path, formats=DEFAULT_FORMATS,
                  progress: Callable[[int, int], bool] | None = None, delimiter: str = ",") -> list[Path]:
    """Write the chosen formats into ``out_dir``; return the files written.

    The PDF needs a Qt application object (QApplication) in this thread.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = report_stem(report)
    written: list[Path] = []
    with no_collection():  # the rows and texts made here live until the files are written
        if "csv" in formats:
            written += write_csv(report, out_dir, stem, delimiter)
        if "xlsx" in formats:
            from controlroom.report.xlsx_out import write_xlsx

            written.append(write_xlsx(report, out_dir / f"{stem}.xlsx"))
        if "pdf" in formats:
            from controlroom.report.pdf import write_pdf

            path = out_dir / f"{stem}.pdf"
            write_pdf(report, path, progress)
            written.append(path)
    return written
