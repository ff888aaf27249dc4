"""The report's tables (casualties, players, STOPPs) and their CSV files (UTF-8 with a byte-order mark).

The mark makes spreadsheet programs on game masters' laptops read accented
names right.  Times are given twice: as game time (HH:MM:SS, what the rules
count) and as the laptop's wall-clock time.  The cells are separated by
commas, or by what the organisers' spreadsheets expect (a semicolon where the
decimal separator is a comma, as in Estonian: ``controlroom.i18n``).  The
same tables go into the ``.xlsx`` workbook (``report/xlsx_out.py``).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from controlroom.game.clock import format_time
from controlroom.report.model import FIGURES, Report, duration_text, reporter, wall_text, what_happened

CASUALTY_COLUMNS = ("seq", "game_time", "wall_time", "badge", "name", "side", "group", "scenario", "event",
                    "what_happened", "reported_by", "source", "counted", "rule_warning")
PLAYER_COLUMNS = ("badge", "name", "side", "group", "class", *FIGURES, "condition_at_end")
STOPP_COLUMNS = ("stopp", "called", "wall_time", "lifted", "duration", "duration_s", "where", "place", "lat", "lon",
                 "caller_badge", "caller", "reason", "ruled_trivial", "players_covered", "overdue", "reported_by")


def _write(path: Path, header, rows, delimiter: str = ",") -> None:
    """Write to a temporary file, then rename: a full disk never leaves a half file behind."""
    tmp = path.with_name(path.name + ".part")
    try:
        # The mark written by hand: the utf-8-sig codec encodes in Python, row by row (slow).
        with open(tmp, "w", encoding="utf-8", newline="", buffering=1 << 20) as f:
            f.write("\ufeff")
            w = csv.writer(f, delimiter=delimiter)
            w.writerow(header)
            w.writerows(rows)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _casualty_rows(report: Report):
    """The casualty list's rows; the texts that repeat (wall times, reporters) are made once each."""
    players = {p.badge: p for p in report.players}
    names = {b: p.name for b, p in players.items()}
    walls: dict[int, str] = {}
    seconds: dict[int, str] = {}
    reporters: dict[str, str] = {}
    for c in report.casualties:
        p = players[c.badge]
        second = c.wall // 1000
        wall = walls.get(second)
        if wall is None:
            wall = walls[second] = wall_text(second * 1000)
        second, ms = divmod(c.t, 1000)
        game_time = seconds.get(second)
        if game_time is None:
            game_time = seconds[second] = format_time(second * 1000)
        if ms:
            game_time = f"{game_time}.{ms:03d}"
        who = reporters.get(c.source)
        if who is None:
            who = reporters[c.source] = reporter(c.source, report.marshals)
        yield (c.seq, game_time, wall, c.badge, p.name, p.side, p.group, c.scenario, c.type,
               what_happened(c.type, c.data, names), who, c.source, "yes" if c.counted else "no", c.note)


TABLES = ("casualties", "players", "stopps")


def tables(report: Report):
    """The report's tables: (name, columns, rows) for casualties, players and STOPPs, rows made as they are read."""
    yield "casualties", CASUALTY_COLUMNS, _casualty_rows(report)
    yield "players", PLAYER_COLUMNS, (
        (p.badge, p.name, p.side, p.group, p.cls, *(getattr(p, f) for f in FIGURES), p.condition)
        for p in report.players
    )
    yield "stopps", STOPP_COLUMNS, (
        (s.id, format_time(s.called), wall_text(s.wall),
         format_time(s.lifted) if s.lifted is not None else "", duration_text(s.duration),
         "" if s.duration is None else f"{s.duration / 1000:.3f}", s.where, s.place,
         "" if s.lat is None else s.lat, "" if s.lon is None else s.lon,
         "" if s.caller is None else s.caller, s.caller_name, s.reason,
         "yes" if s.trivial else "no", s.covered, "yes" if s.overdue else "no", s.reported_by)
        for s in report.stopps
    )


def write_csv(report: Report, out_dir: Path, stem: str, delimiter: str = ",") -> list[Path]:
    """Write ``STEM-casualties.csv``, ``STEM-players.csv`` and ``STEM-stopps.csv``; return their paths."""
    if len(delimiter) != 1 or delimiter in "\"\r\n":
        raise ValueError(f"a CSV delimiter is one character other than a quote or a line break, not {delimiter!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, columns, rows in tables(report):
        path = out_dir / f"{stem}-{name}.csv"
        _write(path, columns, rows, delimiter)
        paths.append(path)
    return paths
