"""The marshal cards as an A4 PDF, four cards (A6) to a page with cut lines (QPdfWriter; QR codes by segno).

Everything on a card is text in the PDF (pdftotext finds every marshal)
but the QR code, drawn as squares.  A card's words are set at the largest
size that fits the card, never below ``SMALLEST_PT``.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen

from controlroom import __version__
from controlroom.report.cards import Card, Cards
from controlroom.report.pdf_listing import report_font

RESOLUTION = 300                    # dots per inch of the layout
SMALLEST_PT, LARGEST_PT = 6.0, 9.0
CARD_MARGIN_MM = 6.0
QR_MM = 30.0
WRAP = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignTop)
LEFT = int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignTop)


def mm(value: float) -> float:
    return value * RESOLUTION / 25.4


def _mono(point_size: float) -> QFont:
    font = QFont("DejaVu Sans Mono")
    font.setPointSizeF(point_size)
    return font


class CardPainter:
    """Lays out and draws one card in a rectangle of the page, at a point size."""

    def __init__(self, painter: QPainter, cards: Cards, point_size: float) -> None:
        self.p, self.cards, self.size = painter, cards, point_size
        self.text, self.bold, self.mono = report_font(point_size), report_font(point_size, True), _mono(point_size)
        self.name = report_font(point_size * 1.7, True)
        self.gap = mm(1.2)

    def _block(self, x: float, y: float, width: float, text: str, font: QFont, draw: bool, flags: int = WRAP) -> float:
        """The height ``text`` takes at ``width`` (drawn when ``draw``)."""
        self.p.setFont(font)
        rect = QRectF(x, y, width, mm(200))
        used = self.p.boundingRect(rect, flags, text)
        if draw:
            self.p.drawText(rect, flags, text)
        return used.height()

    def _rows(self, x: float, y: float, width: float, rows: list[tuple[str, str]], split: float, first: QFont,
              draw: bool) -> float:
        top = y
        for left, right in rows:
            h = max(self._block(x, y, width * split - mm(1), left, first, draw),
                    self._block(x + width * split, y, width * (1 - split), right, self.text, draw))
            y += h
        return y - top

    def layout(self, card: Card, box: QRectF, draw: bool) -> float:
        """The height the card's words take in ``box`` (the QR code beside its head); draws them when ``draw``."""
        c, x, y, w = self.cards, box.left(), box.top(), box.width()
        head_w = w - mm(QR_MM) - mm(2)
        y += self._block(x, y, head_w, f"{c.word('title')} · {c.game}", self.text, draw)
        y += self._block(x, y, head_w, card.marshal or "—", self.name, draw)
        if card.badge is not None:
            y += self._block(x, y, head_w, c.word("badge", badge=card.badge), self.text, draw)
        device = c.word("device", device=card.device) + (f" · {card.label}" if card.label else "")
        y += self._block(x, y, head_w, device, self.bold, draw)
        y += self._block(x, y, head_w, f"{c.word('group')}: {card.group or c.word('no group')}", self.text, draw)
        y = max(y, box.top() + mm(QR_MM) + mm(4)) + self.gap
        for title, rows, split, first in ((c.word("keys"), c.keys(), 0.48, self.mono),
                                          (c.word("grammar"), c.grammar(), 0.30, self.mono)):
            y += self._block(x, y, w, title, self.bold, draw)
            y += self._rows(x, y, w, rows, split, first, draw) + self.gap
        y += self._block(x, y, w, c.word("stopp"), self.bold, draw)
        for line in c.stopp_rule():
            h = self._block(x + mm(2.5), y, w - mm(2.5), line, self.text, draw)
            if draw:
                self.p.drawText(QRectF(x, y, mm(2.5), h), LEFT, "•")
            y += h
        return y - box.top()

    def qr(self, card: Card, box: QRectF) -> None:
        import segno

        matrix = segno.make(card.qr, error="m").matrix
        n = len(matrix)
        side = mm(QR_MM)
        cell = side / (n + 8)                      # a quiet zone of four modules all round
        left, top = box.right() - side + 4 * cell, box.top() + 4 * cell
        self.p.save()
        self.p.setPen(Qt.PenStyle.NoPen)
        self.p.setBrush(QColor("#000000"))
        for r, row in enumerate(matrix):
            for col, dark in enumerate(row):
                if dark:
                    self.p.drawRect(QRectF(left + col * cell, top + r * cell, cell * 1.001, cell * 1.001))
        self.p.restore()
        self.p.setFont(report_font(self.size * 0.8))
        self.p.drawText(QRectF(box.right() - side, box.top() + side, side, mm(4)),
                        int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop), self.cards.word("qr"))


def _fitting_size(painter: QPainter, cards: Cards, card: Card, box: QRectF) -> float:
    size = LARGEST_PT
    while size > SMALLEST_PT and CardPainter(painter, cards, size).layout(card, box, False) > box.height():
        size -= 0.25
    return size


def write_cards(cards: Cards, path: Path) -> int:
    """Write the cards as an A4 PDF (four to a page, cut lines between them); return its page count.

    Needs a Qt application object (QGuiApplication) in this thread.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    writer = QPdfWriter(str(tmp))
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter))
    writer.setTitle(f"{cards.word('title')}: {cards.game}")
    writer.setCreator(f"controlroom {__version__}")
    width, height = writer.width(), writer.height()
    pages = max(1, (len(cards.cards) + 3) // 4)
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"cannot write the PDF {path}")
    try:
        cut = QPen(QColor("#999999"))
        cut.setStyle(Qt.PenStyle.DashLine)
        cut.setWidthF(mm(0.2))
        for page in range(pages):
            if page:
                writer.newPage()
            painter.setPen(cut)
            painter.drawLine(int(width / 2), 0, int(width / 2), height)
            painter.drawLine(0, int(height / 2), width, int(height / 2))
            painter.setPen(QPen(QColor("#000000")))
            for i, card in enumerate(cards.cards[page * 4:page * 4 + 4]):
                box = QRectF((i % 2) * width / 2, (i // 2) * height / 2, width / 2, height / 2)
                box = box.adjusted(mm(CARD_MARGIN_MM), mm(CARD_MARGIN_MM), -mm(CARD_MARGIN_MM), -mm(CARD_MARGIN_MM))
                drawer = CardPainter(painter, cards, _fitting_size(painter, cards, card, box))
                drawer.layout(card, box, True)
                drawer.qr(card, box)
    except BaseException:
        painter.end()
        tmp.unlink(missing_ok=True)
        raise
    if not painter.end() or not tmp.exists() or tmp.stat().st_size == 0:
        tmp.unlink(missing_ok=True)
        raise OSError(f"the PDF {path} could not be written (is the disk full?)")
    os.replace(tmp, path)
    return pages
