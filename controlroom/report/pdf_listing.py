"""Long listings of the PDF (the Valhalla roster, the rule warnings) drawn straight onto the page.

A game of thousands of players has thousands of rows in these lists, more
than QTextDocument's tables lay out in reasonable time.  A listing is drawn
one text run per row with tab stops (left-aligned columns and right-aligned
numbers), with its column headings repeated on every page.  Text too long
for its column is shortened with an ellipsis, except in the last column,
which wraps onto further lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPaintDevice, QPainter, QTextOption

PAD = 0.012                 # cell padding, as a share of the page width
# The report's smallest text: 8 pt on paper.  Qt sizes a font in whole pixels of the page (at 300 dpi, 8 pt
# would be 33 pixels, 7.92 pt), so a little more is asked for.
SMALLEST = 8.1
LEFT_MIDDLE = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter     # (Qt's enums are slow to look up)
ELIDE = Qt.TextElideMode.ElideRight


@dataclass
class Column:
    header: str
    weight: float           # share of the page width
    numeric: bool = False   # right-aligned


@dataclass
class Listing:
    title: str
    intro: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[object]]
    empty: str = "None."
    # Filled by layout(): per page, the (row index, row lines) it shows; where the listing starts on its
    # first page (below what came before it) and whether that is a page of its own; where it ends.
    pages: list[list[tuple[int, list[str]]]] = field(default_factory=list)
    top: float = 0.0
    fresh: bool = True
    bottom: float = 0.0


def report_font(point_size: float, bold: bool = False) -> QFont:
    """The report's font, without ligatures: "fi" stays two letters, so the PDF's text can be searched."""
    font = QFont("DejaVu Sans")
    font.setPointSizeF(point_size)
    font.setBold(bold)
    font.setFeature(QFont.Tag("liga"), 0)
    return font


class ListingPainter:
    """Lays listings out into pages for a page body of a given size, and draws those pages."""

    def __init__(self, width: float, height: float, device: QPaintDevice, point_size: float = SMALLEST) -> None:
        self.width, self.height = width, height
        self.font = report_font(point_size)
        self.bold = report_font(point_size, bold=True)
        self.title_font = report_font(point_size * 1.7, bold=True)
        self.metrics = QFontMetricsF(self.font, device)          # in the page's own pixels
        # Tab stops are given in pixels of a 96 dpi screen whatever the page's resolution.
        self.tab_scale = 96 / device.logicalDpiX()
        self.line = self.metrics.lineSpacing() * 1.15              # one line of a row
        # Wider than any letter, digit or punctuation mark (the font's own maximum is
        # set by rare, very wide glyphs and would make every text look too long).
        self.widest = max(self.metrics.horizontalAdvance(c) for c in "MW@%&mw0Õõ—")
        self.title_h = QFontMetricsF(self.title_font, device).lineSpacing() * 1.6
        self.pad = width * PAD

    def _bounds(self, columns: Sequence[Column]) -> list[tuple[float, float]]:
        total = sum(c.weight for c in columns)
        x, out = 0.0, []
        for c in columns:
            w = self.width * c.weight / total
            out.append((x, x + w))
            x += w
        return out

    def layout(self, listing: Listing, top: float = 0.0) -> int:
        """Split the rows into lines and pages; return the number of pages.

        The listing starts ``top`` below the top of the page where the text
        before it ends (after a gap), or on a page of its own when its title,
        introduction, column headings and first rows do not fit there.
        """
        bounds = self._bounds(listing.columns)
        fm = self.metrics
        widths = [b - a - 2 * self.pad for a, b in bounds]
        # Texts of at most this many characters fit without measuring them (measuring is slow).
        sure = [int(w // self.widest) for w in widths]
        advance = fm.horizontalAdvance
        last = len(listing.columns) - 1
        head = self.title_h + (self._intro_lines(listing) + 1) * self.line
        start = top + self.title_h * 0.6 if top > 0 else 0.0
        need = head + (self.line * 3 if listing.rows else 0.0)     # the headings and two rows at least
        listing.fresh = start == 0.0 or start + need > self.height
        listing.top = 0.0 if listing.fresh else start
        pages: list[list[tuple[int, list[str]]]] = [[]]
        y = listing.top + head + self.line          # below the column headings
        word_widths: dict[str, float] = {}
        fitted: dict[tuple[int, str], str | None] = {}     # (column, text) -> its elided text, None if it fits
        for index, row in enumerate(listing.rows):
            cells = ["" if v is None else str(v) for v in row]
            extra: list[str] = []
            for i, text in enumerate(cells):
                if len(text) <= sure[i]:
                    continue
                if i == last:
                    if advance(text) <= widths[i]:
                        continue
                    lines = _wrap(text, widths[i], fm, word_widths)
                    cells[i], extra = lines[0], lines[1:]
                    continue
                key = (i, text)             # (sides, groups, events and rules repeat: measured once each)
                if key not in fitted:
                    fitted[key] = None if advance(text) <= widths[i] else fm.elidedText(text, ELIDE, widths[i])
                if fitted[key] is not None:
                    cells[i] = fitted[key]
            h = self.line * (1 + len(extra))
            if y + h > self.height and pages[-1]:
                pages.append([])
                y = self.line
            pages[-1].append((index, ["\t" + "\t".join(cells), *("\t" * (last + 1) + e for e in extra)]))
            y += h
        listing.pages = pages
        listing.bottom = y if listing.rows else listing.top + head - self.line
        return len(pages)

    def _intro_lines(self, listing: Listing) -> int:
        width = self.width
        text = listing.intro if listing.rows else f"{listing.intro} {listing.empty}".strip()
        return len(_wrap(text, width, self.metrics)) if text else 0

    def _option(self, columns: Sequence[Column]) -> QTextOption:
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.NoWrap)
        tabs = []
        for (a, b), col in zip(self._bounds(columns), columns):
            if col.numeric:
                tabs.append(QTextOption.Tab((b - self.pad) * self.tab_scale, QTextOption.TabType.RightTab))
            else:
                tabs.append(QTextOption.Tab((a + self.pad) * self.tab_scale, QTextOption.TabType.LeftTab))
        option.setTabs(tabs)
        return option

    def draw_page(self, painter: QPainter, listing: Listing, page: int) -> None:
        """Draw one page of a listing, its body's top-left corner at (0, 0)."""
        option = self._option(listing.columns)
        y = listing.top if page == 0 else 0.0
        painter.setPen(QColor("#000000"))
        if page == 0:
            painter.setFont(self.title_font)
            painter.drawText(QRectF(0, y, self.width, self.title_h), LEFT_MIDDLE, listing.title)
            y += self.title_h
            text = listing.intro if listing.rows else f"{listing.intro} {listing.empty}".strip()
            if text:
                painter.setFont(self.font)
                lines = _wrap(text, self.width, self.metrics)
                for line in lines:
                    painter.drawText(QRectF(0, y, self.width, self.line), LEFT_MIDDLE, line)
                    y += self.line
                y += self.line
        if not listing.rows:
            return
        painter.fillRect(QRectF(0, y, self.width, self.line), QColor("#e4e4e4"))
        painter.setFont(self.bold)
        painter.drawText(QRectF(0, y, self.width, self.line), "\t" + "\t".join(c.header for c in listing.columns),
                         option)
        y += self.line
        painter.setFont(self.font)
        shade = QColor("#f3f3f3")
        for index, lines in listing.pages[page]:
            h = self.line * len(lines)
            if index % 2:
                painter.fillRect(QRectF(0, y, self.width, h), shade)
            for k, text in enumerate(lines):
                painter.drawText(QRectF(0, y + k * self.line, self.width, self.line), text, option)
            y += h


def _wrap(text: str, width: float, fm: QFontMetricsF, widths: dict[str, float] | None = None) -> list[str]:
    """Greedy word wrap to ``width``; a word longer than the width is cut.

    Each word is measured once and the line's width summed (thousands of
    warnings are wrapped); a finished line is measured whole once, and its
    last word moved down should kerning make it wider than the sum.
    ``widths`` keeps the words' widths from one call to the next (a listing's
    texts repeat their words).
    """
    advance = fm.horizontalAdvance
    known = {} if widths is None else widths
    space = advance(" ")
    lines: list[str] = []
    words: list[str] = []
    used = 0.0
    pending = text.split(" ")
    pending.reverse()
    while pending:
        word = pending.pop()
        w = known.get(word)
        if w is None:
            w = known[word] = advance(word)
        if w > width and len(word) > 1:                  # longer than a line: cut it
            if words:
                lines.append(" ".join(words))
                words, used = [], 0.0
            cut = len(word)
            while cut > 1 and advance(word[:cut]) > width:
                cut -= 1
            lines.append(word[:cut])
            pending.append(word[cut:])
            continue
        extra = w if not words else space + w
        if words and used + extra > width:
            line = " ".join(words)
            pending.append(word)                                 # it starts the next line ...
            while len(words) > 1 and advance(line) > width:      # ... after any moved down (kerning: rare)
                pending.append(words.pop())
                line = " ".join(words)
            lines.append(line)
            words, used = [], 0.0
        else:
            words.append(word)
            used += extra
    line = " ".join(words)
    if len(words) > 1 and advance(line) > width:
        last = words.pop()
        lines.extend([" ".join(words), last])
    else:
        lines.append(line)
    return lines
