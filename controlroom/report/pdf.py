"""The report as an A4 PDF for organisers (QPdfWriter and QTextDocument; the chart by pyqtgraph).

Qt lives here and in the window only: the figures come from ``model``.  The
document is one QTextDocument laid out at the PDF's resolution and drawn page
by page, with the game's name, date and page number on every page.
"""

from __future__ import annotations

import os
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen,
                           QTextDocument)

from controlroom import __version__
from controlroom.game.clock import format_time
from controlroom.game.warning_rules import rule_of
from controlroom.report.model import Report, ReportCancelled, Tally, deaths_per_side
from controlroom.report.pdf_listing import Column, Listing, ListingPainter, report_font

SIDE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
RESOLUTION = 300            # dots per inch of the PDF's layout
CHART_URL = QUrl("controlroom:deaths-over-time.png")
STYLE = """
body { font-size: 9pt; }
h1 { font-size: 17pt; margin-bottom: 2pt; }
h2 { font-size: 13pt; margin-top: 14pt; margin-bottom: 4pt; }
p.small { font-size: 8pt; color: #444; }
table { border-collapse: collapse; margin-bottom: 6pt; }
th { background-color: #e4e4e4; font-weight: bold; text-align: left; }
td.n, th.n { text-align: right; }
tr.total td { font-weight: bold; border-top: 1px solid #000; }
td.warn { color: #a00000; }
"""


def clock(ms: int) -> str:
    """A game time to the second (the report's tables have no room for milliseconds)."""
    return format_time(ms - ms % 1000)


def _mm_to_px(mm: float) -> float:
    return mm / 25.4 * RESOLUTION


def deaths_chart(report: Report, width: int = 2100, aspect: float = 0.42) -> QImage:
    """Cumulative deaths over game time, one line per side (rendered by pyqtgraph's exporter).

    The plot is laid out as on a 96 dpi screen (680 pixels wide, the width of
    the page) and the exporter scales it up to ``width`` pixels.
    """
    import pyqtgraph as pg
    from pyqtgraph.exporters import ImageExporter

    width_96 = 680
    k = width / width_96            # the exporter's scale: the legend and pens do not scale with it
    height = int(width_96 * aspect)
    plot = pg.PlotWidget(background="w")
    try:
        plot.resize(width_96, height)
        item = plot.getPlotItem()
        item.setGeometry(QRectF(0, 0, width_96, height))
        item.showGrid(x=True, y=True, alpha=0.25)
        font = QFont("DejaVu Sans")
        font.setPixelSize(11)
        legend = item.addLegend(offset=(12, 8), labelTextColor="k",
                                labelTextSize=f"{int(11 * k)}px", verSpacing=int(-2 * k))
        for i, (side, steps) in enumerate(deaths_per_side(report).items()):
            xs = [t / 3_600_000 for t, _ in steps]
            ys = [n for _, n in steps[:-1]]
            pen = pg.mkPen(SIDE_COLOURS[i % len(SIDE_COLOURS)], width=2.5 * k)
            item.plot(xs, ys, stepMode="center", pen=pen, name=f"{side}: {steps[-1][1]} deaths")
        for axis in ("bottom", "left"):
            ax = item.getAxis(axis)
            ax.setPen(pg.mkPen("k", width=k * 0.8))
            ax.setTextPen("k")
            ax.setTickFont(font)
        item.getAxis("left").setWidth(40)
        item.getAxis("bottom").setHeight(26)
        legend.setBrush(pg.mkBrush(255, 255, 255, 230))
        legend.setPen(pg.mkPen("#888", width=k))
        exporter = ImageExporter(item)
        exporter.parameters()["width"] = width
        return exporter.export(toBytes=True)
    finally:
        plot.close()
        plot.deleteLater()


def _table(headers: list[str], rows, numeric: set[int] = frozenset(), total=None, row_class=None,
           width: str = "100%") -> str:
    head = "".join(f'<th class="n">{escape(h)}</th>' if i in numeric else f"<th>{escape(h)}</th>"
                   for i, h in enumerate(headers))
    out = [f'<table border="1" cellspacing="0" cellpadding="3" width="{width}"><thead><tr>{head}</tr></thead>']
    for r in rows:
        cls = f' class="{row_class(r)}"' if row_class and row_class(r) else ""
        cells = "".join(f'<td class="n">{escape(str(v))}</td>' if i in numeric else f"<td>{escape(str(v))}</td>"
                        for i, v in enumerate(r))
        out.append(f"<tr{cls}>{cells}</tr>")
    if total is not None:
        cells = "".join(f'<td class="n">{escape(str(v))}</td>' if i in numeric else f"<td>{escape(str(v))}</td>"
                        for i, v in enumerate(total))
        out.append(f'<tr class="total">{cells}</tr>')
    out.append("</table>")
    return "".join(out)


def _figures(t: Tally) -> list[int]:
    return [t.players, t.deaths, t.knockouts, t.fell, t.healed, t.touches_used, t.valhalla]


FIGURE_HEADERS = ["Players", "Deaths", "Knock-outs", "Fell (0 HP)", "Healed", "Healer touches", "Valhalla check-ins"]


def report_html(report: Report, chart_width: float) -> str:
    """The whole report as HTML for QTextDocument (the chart is the resource CHART_URL)."""
    r = report
    total = r.totals()
    loot_items = sum(len(x.items) for x in r.loot)
    parts = [f"<html><head><style>{STYLE}</style></head><body>"]
    parts.append(f"<h1>Casualty report: {escape(r.game)}</h1>")
    parts.append(
        f"<p>{escape(r.scope[:1].upper() + r.scope[1:])} &middot; {escape(r.date)} &middot; rules: {escape(r.rules)} &middot; "
        f"game time 00:00:00 to {clock(r.t_end)} &middot; {r.events} events</p>"
    )
    if r.scenarios:
        parts.append(f"<p class='small'>Scenarios played: {escape(', '.join(r.scenarios))}</p>")
    parts.append("<h2>Key figures</h2>")
    parts.append(_table(["Figure", "Count"], [
        ("Deaths", total.deaths), ("Knock-outs", total.knockouts), ("Fell to 0 hit points", total.fell),
        ("Healed by a healer", total.healed), ("Valhalla check-ins", total.valhalla),
        ("STOPP calls", len(r.stopps)), ("STOPP calls ruled trivial", sum(s.trivial for s in r.stopps)),
        ("Siege engines lost", len(r.siege_losses)), ("Unreturned loot items", loot_items),
        ("Rule warnings", len(r.warnings)),
    ], numeric={1}, width="50%"))

    parts.append("<h2>Summary per side</h2>")
    parts.append(_table(["Side", *FIGURE_HEADERS], [[t.side, *_figures(t)] for t in r.sides()],
                        numeric=set(range(1, 8)), total=["All sides", *_figures(total)]))
    parts.append("<h2>Deaths over game time</h2>")
    parts.append("<p class='small'>Deaths so far per side (up), by game time in hours (across).</p>")
    # QTextDocument sizes images in pixels of a 96 dpi screen, scaled to the PDF's resolution.
    parts.append(f'<p><img src="{CHART_URL.toString()}" width="{int(chart_width * 96 / RESOLUTION)}"></p>')
    if r.scenario is None and r.end_counts:
        parts.append("<h2>At the end of the game</h2>")
        parts.append(_table(["Side", "Active", "Unconscious", "Knocked out", "Dead", "In Valhalla"], [
            [side, c.get("active", 0), c.get("unconscious", 0), c.get("knocked_out", 0), c.get("dead", 0),
             c.get("in_valhalla", 0)] for side, c in r.end_counts.items()
        ], numeric=set(range(1, 6))))
    parts.append("<h2>Summary per group</h2>")
    parts.append(_table(["Side", "Group", *FIGURE_HEADERS], [[t.side, t.group, *_figures(t)] for t in r.groups()],
                        numeric=set(range(2, 9))))


    parts.append("<h2>Safety report</h2>")
    stopped = sum(s.duration or 0 for s in r.stopps)
    parts.append(f"<p>{len(r.stopps)} STOPP calls, {sum(s.trivial for s in r.stopps)} of them ruled trivial; "
                 f"the game stood still for {clock(stopped)} in all.</p>")
    if r.stopps:
        parts.append(_table(
            ["STOPP", "Called", "Where", "Called by", "Reason", "Duration", "Trivial", "Players", "Reported by"],
            [[s.id, clock(s.called), s.where,
              f"{s.caller_name} ({s.caller})" if s.caller is not None else "not reported", s.reason,
              "not lifted" if s.duration is None else clock(s.duration), "yes" if s.trivial else "no", s.covered, s.reported_by]
             for s in r.stopps],
            numeric={7}, row_class=lambda row: "warn" if row[6] == "yes" else "",
        ))

    parts.append("<h2>Siege engine losses</h2>")
    if r.siege_losses:
        parts.append(_table(["Game time", "Engine", "Side", "Lost as", "Where", "Reported by"], [
            [clock(s.t), s.engine, s.side or "not known", s.status,
             f"{s.lat:.5f}, {s.lon:.5f}" if s.lat is not None and s.lon is not None else "", s.reported_by]
            for s in r.siege_losses
        ]))
    else:
        parts.append("<p>No siege engine was destroyed or captured.</p>")

    parts.append("</body></html>")
    return "".join(parts)


def listings(report: Report) -> list[Listing]:
    """The long lists of the report, each starting on a page of its own."""
    r = report
    warn_intro = (f"{len(r.warnings)} reports the rules did not apply, for the game masters' review (a sixth "
                  "healer's touch, a strike on the dead, a loot without consent, a binding, care, healing or kill "
                  "by someone unconscious or dead, a permanent kill not counted long enough), each with the "
                  "rule it breaks.")
    return [
        Listing("Valhalla roster",
                "Every player who reported to Valhalla: name, side and number of deaths, as the rules require "
                "Valhalla to record.",
                [Column("Name", 3.2), Column("Badge", 1.1, True), Column("Side", 1.8), Column("Group", 2.2),
                 Column("Deaths", 1.1, True), Column("Check-ins", 1.3, True), Column("First", 1.4),
                 Column("Last", 1.4)],
                [(v.name, v.badge, v.side, v.group, v.deaths, v.checkins, clock(v.first), clock(v.last))
                 for v in r.valhalla],
                empty="Nobody checked in at Valhalla."),
        Listing("Unreturned loot",
                "The looter is responsible for what they took until it is returned, even if they were looted "
                "in turn. Consent NOT GIVEN: taken without the player's permission.",
                [Column("Looter", 2.6), Column("Side", 1.4), Column("Owes to", 2.6), Column("Side", 1.4),
                 Column("Consent", 1.3), Column("Items", 3.2)],
                [(f"{x.looter_name} ({x.looter})", x.looter_side, f"{x.owner_name} ({x.owner})", x.owner_side,
                  "NOT GIVEN" if x.without_consent else "given", ", ".join(x.items)) for x in r.loot],
                empty="All loot has been returned."),
        Listing("Corrections",
                "Reports a game master took back as wrong (a wrong badge, a report never made), with the reason. "
                "The figures of this report leave them out.",
                [Column("Log #", 0.9, True), Column("Game time", 1.2), Column("Wrong report", 5.0),
                 Column("Reason", 3.4), Column("By", 1.7)],
                [(c.seq, clock(c.t), c.what or f"log #{c.retracted}", c.reason, c.by) for c in r.corrections],
                empty="No report was corrected."),
        Listing("Appendix: rule warnings", warn_intro if r.warnings else "",
                [Column("Log #", 0.9, True), Column("Game time", 1.2), Column("Event", 1.5),
                 Column("Badge", 0.8, True), Column("Rule", 2.0), Column("Warning", 6.1)],
                [(w.seq, clock(w.t), w.type.replace("_", " "), "" if w.badge is None else w.badge, rule_of(w.code),
                  w.message) for w in r.warnings],
                empty="No rule warnings."),
    ]


def write_pdf(report: Report, path: Path, progress: Callable[[int, int], bool] | None = None) -> int:
    """Write the report as an A4 PDF; return its page count.  ``progress(page, pages)`` may cancel."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    writer = QPdfWriter(str(tmp))
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 12, 15, 12), QPageLayout.Unit.Millimeter))
    writer.setTitle(f"Casualty report: {report.game} ({report.scope})")
    writer.setCreator(f"controlroom {__version__}")
    width, height = writer.width(), writer.height()
    header_h, footer_h = _mm_to_px(10), _mm_to_px(8)
    body = QRectF(0, 0, width, height - header_h - footer_h)

    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    doc.setDefaultFont(report_font(9))
    doc.setDocumentMargin(0)
    doc.setPageSize(QSizeF(body.width(), body.height()))
    doc.addResource(QTextDocument.ResourceType.ImageResource, CHART_URL, deaths_chart(report))
    doc.setHtml(report_html(report, body.width()))
    doc_pages = doc.pageCount()
    lister = ListingPainter(body.width(), body.height(), writer)
    lists = listings(report)
    list_pages = [lister.layout(x) for x in lists]
    map_pages = 1 if report.field_map is not None else 0      # casualties on the field map, after the document
    pages = doc_pages + map_pages + sum(list_pages)
    # Which listing and which of its pages each page after the document's (and the map's) shows.
    later = [(x, k) for x, n in zip(lists, list_pages) for k in range(n)]

    stamp = f"{report.game} · {report.scope} · {report.date}"
    made = datetime.now().strftime("%Y-%m-%d %H:%M")
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"cannot write the PDF {path}")
    try:
        small = report_font(7.5)
        for page in range(pages):
            if progress is not None and not progress(page, pages):
                raise ReportCancelled()
            if page:
                writer.newPage()
            painter.setFont(small)
            painter.setPen(QPen(QColor("#333333")))
            top = QRectF(0, 0, width, header_h * 0.7)
            painter.drawText(top, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, stamp)
            painter.drawText(top, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, "Casualty report")
            painter.drawLine(0, int(header_h * 0.75), width, int(header_h * 0.75))
            bottom = QRectF(0, height - footer_h * 0.8, width, footer_h * 0.8)
            painter.drawText(bottom, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             f"controlroom {__version__}, made {made}")
            painter.drawText(bottom, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             f"Page {page + 1} of {pages}")
            painter.save()
            if page < doc_pages:
                painter.translate(0, header_h - page * body.height())
                doc.drawContents(painter, QRectF(0, page * body.height(), body.width(), body.height()))
            elif page < doc_pages + map_pages:
                from controlroom.report.pdf_field_map import draw_field_map

                painter.translate(0, header_h)
                painter.setClipRect(body)
                draw_field_map(painter, report.field_map, body.width(), body.height(), SIDE_COLOURS, RESOLUTION)
            else:
                painter.translate(0, header_h)
                painter.setClipRect(body)
                listing, k = later[page - doc_pages - map_pages]
                lister.draw_page(painter, listing, k)
            painter.restore()
    except BaseException:
        painter.end()
        tmp.unlink(missing_ok=True)
        raise
    if not painter.end():
        tmp.unlink(missing_ok=True)
        raise OSError(f"cannot finish the PDF {path} (is the disk full?)")
    if not tmp.exists() or tmp.stat().st_size == 0:
        raise OSError(f"the PDF {path} could not be written (is the disk full?)")
    os.replace(tmp, path)
    return pages

