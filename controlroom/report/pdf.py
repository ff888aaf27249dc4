"""The report as an A4 PDF for organisers (QPdfWriter and QTextDocument; the chart by pyqtgraph).

Qt lives here and in the window only: the figures come from ``model``.  The
document is one QTextDocument laid out at the PDF's resolution and drawn page
by page, with the game's name, date and page number on every page.  The map
page and the long listings follow it on the same page where there is room
(``plan_pages``): no page but the last is left mostly empty.  Table cells wrap
between words only (a word is never split), no text is smaller than 8 pt,
and every text is in the language spoken (``controlroom.i18n``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from html import escape
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (
    QColor,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QTextDocument,
    QTextOption,
)

from controlroom import __version__
from controlroom.game.clock import format_time
from controlroom.game.warning_rules import rule_of
from controlroom.i18n import QT_TRANSLATE_NOOP, translate
from controlroom.report.model import Report, ReportCancelled, Tally
from controlroom.report.pdf_chart import (  # noqa: F401  (deaths_plot, hhmm, time_ticks: read by the tests)
    SIDE_COLOURS,
    deaths_chart,
    deaths_plot,
    hhmm,
    time_ticks,
)
from controlroom.report.pdf_listing import SMALLEST, Column, Listing, ListingPainter, report_font

RESOLUTION = 300            # dots per inch of the PDF's layout
MAP_ROOM = 0.8              # the maps go below the document when they are at least this share of a page's size
CHART_URL = QUrl("controlroom:deaths-over-time.png")
STYLE = """
body { font-size: 9pt; }
h1 { font-size: 17pt; margin-bottom: 2pt; }
h2 { font-size: 13pt; margin-top: 14pt; margin-bottom: 4pt; }
p.small { font-size: 8.1pt; color: #333; }
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


def figure_headers() -> list[str]:
    return [translate("report", "Players"), translate("report", "Deaths"), translate("report", "Knock-outs"),
            translate("report", "Fell (0 HP)"), translate("report", "Healed"), translate("report", "Healer touches"),
            translate("report", "Valhalla check-ins")]


NBSP = "\u00a0"            # a space a line never breaks at

# A STOPP's reason (the event's code, PROTOCOL.md) in words, as the ruleset names them.
STOPP_REASONS = {
    "unpleasant": QT_TRANSLATE_NOOP("report", "unpleasant"),
    "injury": QT_TRANSLATE_NOOP("report", "injury"),
    "danger": QT_TRANSLATE_NOOP("report", "danger"),
}


def reason_text(code: str) -> str:
    """A STOPP's reason in the language spoken (an unknown code as it is)."""
    return translate("report", STOPP_REASONS[code]) if code in STOPP_REASONS else code


def _yes(flag: bool) -> str:
    return translate("report", "yes") if flag else translate("report", "no")


def where_text(place: str, lat: float | None, lon: float | None, extra: str = "") -> str:
    """A place for the PDF: in the field map's words when it has them, else the coordinates (the CSV has both).

    A narrow cell breaks it only between its phrases, after a semicolon ("Ford, 200 m north-west; / square D3"),
    never inside one ("200 / m"): the spaces inside a phrase do not break, so the table gives the column the
    width of its longest phrase.  Coordinates, and the groups of a STOPP (``extra``), break as any text."""
    phrases = [p.replace(" ", NBSP) for p in place.split("; ") if p]
    if not phrases and lat is not None and lon is not None:
        phrases.append(f"{lat:.5f}, {lon:.5f}")
    return "; ".join([*phrases, extra] if extra else phrases)


def report_html(report: Report, chart_width: float, breaks: frozenset[int] = frozenset()) -> str:
    """The whole report as HTML for QTextDocument (the chart is the resource CHART_URL).

    The section headings numbered in ``breaks`` (0: the first) start a new page.
    """
    r = report
    numbered = iter(range(1000))

    def h2(text: str) -> str:
        style = ' style="page-break-before: always"' if next(numbered) in breaks else ""
        return f"<h2{style}>{escape(text)}</h2>"

    total = r.totals()
    loot_items = sum(len(x.items) for x in r.loot)
    headers = figure_headers()
    parts = [f"<html><head><style>{STYLE}</style></head><body>"]
    parts.append("<h1>" + escape(translate("report", "Casualty report: {game}").format(game=r.game)) + "</h1>")
    parts.append("<p>" + escape(translate(
        "report", "{scope} · {date} · rules: {rules} · game time 00:00:00 to {end} · {events} events").format(
        scope=r.scope[:1].upper() + r.scope[1:], date=r.date, rules=r.rules, end=clock(r.t_end), events=r.events))
        + "</p>")
    if r.scenarios:
        parts.append("<p class='small'>" + escape(translate("report", "Scenarios played: {names}").format(
            names=", ".join(r.scenarios))) + "</p>")
    parts.append(h2(translate("report", "Key figures")))
    parts.append(_table([translate("report", "Figure"), translate("report", "Count")], [
        (translate("report", "Deaths"), total.deaths), (translate("report", "Knock-outs"), total.knockouts),
        (translate("report", "Fell to 0 hit points"), total.fell),
        (translate("report", "Healed by a healer"), total.healed),
        (translate("report", "Valhalla check-ins"), total.valhalla),
        (translate("report", "STOPP calls"), len(r.stopps)),
        (translate("report", "STOPP calls ruled trivial"), sum(s.trivial for s in r.stopps)),
        (translate("report", "Siege engines lost"), len(r.siege_losses)),
        (translate("report", "Unreturned loot items"), loot_items),
        (translate("report", "Rule warnings"), len(r.warnings)),
    ], numeric={1}, width="60%"))

    parts.append(h2(translate("report", "Summary per side")))
    parts.append(_table([translate("report", "Side"), *headers], [[t.side, *_figures(t)] for t in r.sides()],
                        numeric=set(range(1, 8)), total=[translate("report", "All sides"), *_figures(total)]))
    parts.append(h2(translate("report", "Deaths over game time")))
    parts.append("<p class='small'>" + escape(translate(
        "report", "Deaths so far per side (up), by game time in hours and minutes (across).")) + "</p>")
    # QTextDocument sizes images in pixels of a 96 dpi screen, scaled to the PDF's resolution.
    parts.append(f'<p><img src="{CHART_URL.toString()}" width="{int(chart_width * 96 / RESOLUTION)}"></p>')
    if r.scenario is None and r.end_counts:
        parts.append(h2(translate("report", "At the end of the game")))
        parts.append(_table([translate("report", "Side"), translate("report", "Active"),
                             translate("report", "Unconscious"), translate("report", "Knocked out"),
                             translate("report", "Dead"), translate("report", "In Valhalla")], [
            [side, c.get("active", 0), c.get("unconscious", 0), c.get("knocked_out", 0), c.get("dead", 0),
             c.get("in_valhalla", 0)] for side, c in r.end_counts.items()
        ], numeric=set(range(1, 6))))
    parts.append(h2(translate("report", "Summary per group")))
    parts.append(_table([translate("report", "Side"), translate("report", "Group"), *headers],
                        [[t.side, t.group, *_figures(t)] for t in r.groups()], numeric=set(range(2, 9))))

    parts.append(h2(translate("report", "Safety report")))
    stopped = sum(s.duration or 0 for s in r.stopps)
    parts.append("<p>" + escape(translate(
        "report", "{calls} STOPP calls, {trivial} of them ruled trivial; the game stood still for {stopped} in all.")
        .format(calls=len(r.stopps), trivial=sum(s.trivial for s in r.stopps), stopped=clock(stopped))) + "</p>")
    if r.stopps:
        parts.append(_table(
            [translate("report", "STOPP"), translate("report", "Called"), translate("report", "Where"),
             translate("report", "Called by"), translate("report", "Reason"), translate("report", "Duration"),
             translate("report", "Trivial"), translate("report", "Players"), translate("report", "Reported by")],
            [[s.id, clock(s.called), where_text(s.place, s.lat, s.lon, s.where if s.lat is None else
                                                 _groups_of(s)),
              f"{s.caller_name} ({s.caller})" if s.caller is not None else translate("report", "not reported"),
              reason_text(s.reason), translate("report", "not lifted") if s.duration is None else clock(s.duration),
              _yes(s.trivial), s.covered, s.reported_by]
             for s in r.stopps],
            numeric={7}, row_class=lambda row: "warn" if row[6] == translate("report", "yes") else "",
        ))

    parts.append(h2(translate("report", "Siege engine losses")))
    if r.siege_losses:
        parts.append(_table([translate("report", "Game time"), translate("report", "Engine"),
                             translate("report", "Side"), translate("report", "Lost as"), translate("report", "Where"),
                             translate("report", "Reported by")], [
            [clock(s.t), s.engine, s.side or translate("report", "not known"), _loss(s.status),
             where_text(s.place, s.lat, s.lon), s.reported_by]
            for s in r.siege_losses
        ]))
    else:
        parts.append("<p>" + escape(translate("report", "No siege engine was destroyed or captured.")) + "</p>")

    parts.append("</body></html>")
    return "".join(parts)


def _groups_of(s) -> str:
    return translate("report", "groups {groups}").format(groups=", ".join(s.groups)) if s.groups else ""


def _loss(status: str) -> str:
    words = {"destroyed": translate("report", "destroyed"), "captured": translate("report", "captured")}
    return words.get(status, status)


def listings(report: Report) -> list[Listing]:
    """The long lists of the report, each following what comes before it (on a new page when it must)."""
    r = report
    warn_intro = translate(
        "report", "{count} reports the rules did not apply, for the game masters' review (a sixth healer's touch, "
                  "a strike on the dead, a loot without consent, a binding, care, healing or kill by someone "
                  "unconscious or dead, a permanent kill not counted long enough), each with the rule it breaks."
    ).format(count=len(r.warnings))
    side, badge, log_no, game_time = (translate("report", "Side"), translate("report", "Badge"),
                                      translate("report", "Log #"), translate("report", "Game time"))
    return [
        Listing(translate("report", "Valhalla roster"),
                translate("report", "Every player who reported to Valhalla: name, side and number of deaths, as the "
                                    "rules require Valhalla to record."),
                [Column(translate("report", "Name"), 3.2), Column(badge, 1.1, True), Column(side, 1.8),
                 Column(translate("report", "Group"), 2.2), Column(translate("report", "Deaths"), 1.1, True),
                 Column(translate("report", "Check-ins"), 1.3, True), Column(translate("report", "First"), 1.4),
                 Column(translate("report", "Last"), 1.4)],
                [(v.name, v.badge, v.side, v.group, v.deaths, v.checkins, clock(v.first), clock(v.last))
                 for v in r.valhalla],
                empty=translate("report", "Nobody checked in at Valhalla.")),
        Listing(translate("report", "Unreturned loot"),
                translate("report", "The looter is responsible for what they took until it is returned, even if they "
                                    "were looted in turn. Consent NOT GIVEN: taken without the player's permission."),
                [Column(translate("report", "Looter"), 2.6), Column(side, 1.4),
                 Column(translate("report", "Owes to"), 2.6), Column(side, 1.4),
                 Column(translate("report", "Consent"), 1.7), Column(translate("report", "Items"), 2.8)],
                [(f"{x.looter_name} ({x.looter})", x.looter_side, f"{x.owner_name} ({x.owner})", x.owner_side,
                  translate("report", "NOT GIVEN") if x.without_consent else translate("report", "given"),
                  ", ".join(x.items)) for x in r.loot],
                empty=translate("report", "All loot has been returned.")),
        Listing(translate("report", "Corrections"),
                translate("report", "Reports a game master took back as wrong (a wrong badge, a report never made), "
                                    "with the reason. The figures of this report leave them out."),
                [Column(log_no, 0.9, True), Column(game_time, 1.5),
                 Column(translate("report", "Wrong report"), 4.7), Column(translate("report", "Reason"), 3.4),
                 Column(translate("report", "By"), 1.7)],
                [(c.seq, clock(c.t), c.what or translate("report", "log #{seq}").format(seq=c.retracted), c.reason,
                  c.by) for c in r.corrections],
                empty=translate("report", "No report was corrected.")),
        Listing(translate("report", "Appendix: rule warnings"), warn_intro if r.warnings else "",
                [Column(log_no, 0.8, True), Column(game_time, 1.3), Column(translate("report", "Event"), 1.4),
                 Column(badge, 0.8, True), Column(translate("report", "Rule"), 1.6),
                 Column(translate("report", "Warning"), 6.6)],
                [(w.seq, clock(w.t), translate("events", w.type.replace("_", " ")), "" if w.badge is None else w.badge,
                  rule_of(w.code), w.message) for w in r.warnings],
                empty=translate("report", "No rule warnings.")),
    ]


def plan_pages(doc_pages: int, doc_bottom: float, body_h: float,
               map_size: Callable[[float], tuple[float, float]] | None,
               lister: ListingPainter, lists: list[Listing]) -> list[list[tuple]]:
    """What each page shows, in order: the document's pages, the map page, then the listings.

    Each page is a list of parts: ("doc", page), ("map", top, height) and
    ("listing", listing, part); a part below another on the same page starts
    where that one ended.  ``map_size(room)`` is the height the map page's
    drawing takes of that room, and its maps' scale: the maps go below the
    document when they are at least MAP_ROOM of their size on a page of their
    own.  Each listing starts below what came before it when its title,
    introduction and first rows fit.
    """
    pages: list[list[tuple]] = [[("doc", i)] for i in range(doc_pages)] or [[]]
    y = doc_bottom
    if map_size is not None:
        gap = body_h * 0.03
        room = body_h - (y + gap)
        if room > 0 and map_size(room)[1] >= MAP_ROOM * map_size(body_h)[1]:
            y += gap
            pages[-1].append(("map", y, room))
        else:
            y = 0.0
            pages.append([("map", y, body_h)])
        y += map_size(body_h - y)[0]
    for listing in lists:
        n = lister.layout(listing, y if y < body_h else body_h)
        if listing.fresh:
            pages.append([])
        pages[-1].append(("listing", listing, 0))
        for k in range(1, n):
            pages.append([("listing", listing, k)])
        y = listing.bottom
    return pages


def heading_at_foot(doc: QTextDocument, page_h: float, breaks: frozenset[int]) -> int | None:
    """The first section heading (by number) that stands at the foot of a page, or None."""
    layout = doc.documentLayout()
    layout.blockBoundingRect(doc.lastBlock())           # the whole document laid out
    number = -1
    block = doc.begin()
    while block.isValid():
        if block.blockFormat().headingLevel() == 2:
            number += 1
            r = layout.blockBoundingRect(block)
            room = page_h - (r.bottom() % page_h)
            if number not in breaks and room < 3 * r.height():
                return number
        block = block.next()
    return None


def _coverage_page(painter: QPainter, report: Report, body: QRectF, header_h: float) -> None:
    from controlroom.report.pdf_coverage import draw_coverage

    fm = report.field_map
    painter.translate(0, header_h)
    painter.setClipRect(body)
    draw_coverage(painter, report.coverage, body.width(), body.height(), RESOLUTION,
                  str(fm.path) if fm is not None else None, (fm.width, fm.height) if fm is not None else None)


def write_pdf(report: Report, path: Path, progress: Callable[[int, int], bool] | None = None) -> int:
    """Write the report as an A4 PDF; return its page count.  ``progress(page, pages)`` may cancel."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    writer = QPdfWriter(str(tmp))
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 12, 15, 12), QPageLayout.Unit.Millimeter))
    title = translate("report", "Casualty report")
    writer.setTitle(f"{title}: {report.game} ({report.scope})")
    writer.setCreator(f"controlroom {__version__}")
    width, height = writer.width(), writer.height()
    header_h, footer_h = _mm_to_px(10), _mm_to_px(8)
    body = QRectF(0, 0, width, height - header_h - footer_h)

    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    doc.setDefaultFont(report_font(9))
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)     # table cells wrap between words, never inside one
    doc.setDefaultTextOption(option)
    doc.setDocumentMargin(0)
    doc.setPageSize(QSizeF(body.width(), body.height()))
    doc.addResource(QTextDocument.ResourceType.ImageResource, CHART_URL, deaths_chart(report))
    breaks: frozenset[int] = frozenset()
    doc.setHtml(report_html(report, body.width()))
    for _ in range(12):         # a heading at the foot of a page goes to the next with its section
        foot = heading_at_foot(doc, body.height(), breaks)
        if foot is None:
            break
        breaks |= {foot}
        doc.setHtml(report_html(report, body.width(), breaks))
    doc_pages = doc.pageCount()
    bottom = doc.documentLayout().blockBoundingRect(doc.lastBlock()).bottom() - (doc_pages - 1) * body.height()
    lister = ListingPainter(body.width(), body.height(), writer)
    map_size = None
    if report.field_map is not None:
        from controlroom.report.pdf_field_map import used_height

        def map_size(room: float) -> tuple[float, float]:
            return used_height(report.field_map, body.width(), room, RESOLUTION)
    plan = plan_pages(doc_pages, bottom, body.height(), map_size, lister, listings(report))
    if getattr(report, "coverage", None) is not None:
        plan.append([("coverage",)])            # the radio coverage observed: a page of its own, last
    pages = len(plan)

    stamp = f"{report.game} · {report.scope} · {report.date}"
    made = datetime.now().strftime("%Y-%m-%d %H:%M")
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"cannot write the PDF {path}")
    try:
        small = report_font(SMALLEST)
        for page, parts in enumerate(plan):
            if progress is not None and not progress(page, pages):
                raise ReportCancelled()
            if page:
                writer.newPage()
            painter.setFont(small)
            painter.setPen(QPen(QColor("#333333")))
            top = QRectF(0, 0, width, header_h * 0.7)
            painter.drawText(top, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, stamp)
            painter.drawText(top, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, title)
            painter.drawLine(0, int(header_h * 0.75), width, int(header_h * 0.75))
            bottom_line = QRectF(0, height - footer_h * 0.8, width, footer_h * 0.8)
            painter.drawText(bottom_line, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             translate("report", "controlroom {version}, made {made}").format(
                                 version=__version__, made=made))
            painter.drawText(bottom_line, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             translate("report", "Page {page} of {pages}").format(page=page + 1, pages=pages))
            for part in parts:
                painter.save()
                if part[0] == "doc":
                    k = part[1]
                    painter.translate(0, header_h - k * body.height())
                    doc.drawContents(painter, QRectF(0, k * body.height(), body.width(), body.height()))
                elif part[0] == "map":
                    from controlroom.report.pdf_field_map import draw_field_map

                    _kind, y, h = part
                    painter.translate(0, header_h + y)
                    painter.setClipRect(QRectF(0, 0, body.width(), h))
                    draw_field_map(painter, report.field_map, body.width(), h, SIDE_COLOURS, RESOLUTION)
                elif part[0] == "coverage":
                    _coverage_page(painter, report, body, header_h)
                else:
                    painter.translate(0, header_h)
                    painter.setClipRect(body)
                    lister.draw_page(painter, part[1], part[2])
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
