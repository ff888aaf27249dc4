"""``controlroom report``: the post-game casualty report of a stored game, as PDF and CSV."""

from __future__ import annotations

import argparse
import os
import sys

from controlroom.i18n import translate

NAME = "report"
HELP = "Export the casualty report of a game: deaths per side and group, Valhalla, STOPPs, loot (PDF, CSV, XLSX)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="GAME", required=True, help="the game (a game file or a database URL)")
    parser.add_argument("--out", metavar="DIR", required=True, help="the folder to write the report into")
    parser.add_argument("--scenario", metavar="NAME", help="report one scenario only (default: the whole game)")
    parser.add_argument("--format", default="pdf,csv", metavar="pdf,csv,xlsx",
                        help="which files to write, joined with commas: pdf, csv (three tables), xlsx (one workbook "
                             "with a sheet per table); default pdf,csv")
    parser.add_argument("--delimiter", metavar="CHAR",
                        help="the CSV files' cell separator (default: what a spreadsheet in your language reads, "
                             "';' for Estonian, ',' for English; 'tab' for tabs)")


def _qt_application():
    """The PDF is drawn by Qt: make the application object, off screen where there is no display."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(sys.argv[:1])


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controlroom.commands.errors import CliError, UsageError
    from controlroom.i18n import csv_delimiter
    from controlroom.report.export import export_report, parse_formats
    from controlroom.report.gather import load_report
    from controlroom.report.model import UnknownScenario
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        formats = parse_formats(args.format)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    delimiter = csv_delimiter() if args.delimiter is None else "\t" if args.delimiter == "tab" else args.delimiter
    if len(delimiter) != 1 or delimiter in "\"\r\n":
        raise UsageError(f"--delimiter takes one character (or 'tab'), not {args.delimiter!r}")
    app = _qt_application() if "pdf" in formats else None
    try:
        with GameStore.open(args.db, create=False, read_only=True) as store:
            report = load_report(store, args.scenario)
        written = export_report(report, Path(args.out), formats, delimiter=delimiter)
    except (StoreError, UnknownScenario) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(translate("errors", "the report could not be written to {folder}: {problem}").format(
            folder=args.out, problem=exc.strerror or exc)) from None
    finally:
        del app
    total = report.totals()
    print(translate("report", "{game} ({scope}, {date}): {deaths} deaths, {valhalla} in the Valhalla roster, "
                              "{stopps} STOPPs, {warnings} rule warnings").format(
        game=report.game, scope=report.scope, date=report.date, deaths=total.deaths, valhalla=len(report.valhalla),
        stopps=len(report.stopps), warnings=len(report.warnings)))
    for path in written:
        print(f"  {path}")
    return 0
