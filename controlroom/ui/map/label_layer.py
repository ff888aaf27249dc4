"""The map's group labels, all drawn by one graphics item (one paint, cached as one picture until they change).

A pyqtgraph TextItem per label ran Python for each move, show and colour
(itemChange), and making 400 of them took about a second: with 400 groups
that kept the window late.  Here each distinct text is laid out once (a
QStaticText), the item is a child of the ViewBox drawn in its pixels, and
Qt keeps its picture (DeviceCoordinateCache) until the labels are placed
again, so a repaint of the markers does not draw the labels again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen, QStaticText, QTransform
from PySide6.QtWidgets import QGraphicsItem

#: Space between a label's text and the edge of its box (pixels): across, and up and down.
PAD_X, PAD_Y = 4.0, 1.0

#: (text, fill) by day and at night.
DAY_COLOURS = (QColor(0, 0, 0), QColor(255, 255, 255, 200))
NIGHT_COLOURS = (QColor(230, 230, 230), QColor(0, 0, 0, 190))


class ShownLabel(NamedTuple):
    """A label on the map: its text and the rectangle of its box, in scene coordinates."""

    text: str
    scene_rect: QRectF


class LabelLayer(QGraphicsItem):
    """All group labels, drawn by one item in its parent's (the ViewBox's) pixel coordinates.

    It takes no mouse or hover events and has no shape: clicks and tooltips go
    to the markers and the view beneath it.
    """

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self._rect = QRectF()
        self._font = QFont()
        self._texts: dict[str, tuple[QStaticText, float, float]] = {}     # text -> laid out, box w, h
        self._boxes: list[tuple[QRectF, QStaticText, str]] = []
        self.night = False
        self._pen = QPen(DAY_COLOURS[0])
        self._fill = QBrush(DAY_COLOURS[1])

    # ---- what is drawn -----------------------------------------------------------------

    def set_font(self, font: QFont) -> bool:
        """Draw in ``font`` (the map's: large text included); True when it changed (the sizes change too)."""
        if font == self._font:
            return False
        self._font = QFont(font)
        self._texts.clear()
        return True

    def set_night(self, night: bool) -> None:
        """Light text on a dark box at night, dark text on a light box by day."""
        if night == self.night:
            return
        self.night = night
        text, fill = NIGHT_COLOURS if night else DAY_COLOURS
        self._pen = QPen(text)
        self._fill = QBrush(fill)
        self.update()

    def _layout(self, text: str) -> tuple[QStaticText, float, float]:
        known = self._texts.get(text)
        if known is None:
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
            static.prepare(QTransform(), self._font)
            size = static.size()
            known = self._texts[text] = (static, size.width() + 2 * PAD_X, size.height() + 2 * PAD_Y)
        return known

    def size_of(self, text: str) -> tuple[float, float]:
        """The width and height of ``text``'s box in pixels (the text laid out once, then kept)."""
        _static, w, h = self._layout(text)
        return w, h

    def sizes(self, texts: Sequence[str]) -> list[tuple[float, float]]:
        """:meth:`size_of` for each text; texts no longer asked for are forgotten when many have gathered."""
        if len(self._texts) > 2 * len(texts) + 256:
            wanted = set(texts)
            self._texts = {t: v for t, v in self._texts.items() if t in wanted}
        return [self.size_of(t) for t in texts]

    def show_boxes(self, area: QRectF, boxes: Sequence[tuple[float, float, float, float, str]]) -> None:
        """Draw these labels (x, y, w, h of each box in the parent's pixels, and its text) and no others."""
        if area != self._rect:
            self.prepareGeometryChange()
            self._rect = QRectF(area)
        self._boxes = [(QRectF(x, y, w, h), self._layout(text)[0], text) for x, y, w, h, text in boxes]
        self.update()

    def clear(self) -> None:
        """No label drawn."""
        if self._boxes:
            self._boxes = []
            self.update()

    def shown(self) -> list[ShownLabel]:
        """The labels drawn now, with their boxes in scene coordinates."""
        return [ShownLabel(text, self.mapRectToScene(rect)) for rect, _static, text in self._boxes]

    # ---- QGraphicsItem -----------------------------------------------------------------

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        return QPainterPath()               # nothing to hit: the markers under the labels stay clickable

    def paint(self, painter, _option, _widget=None) -> None:
        if not self._boxes:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._fill)
        painter.drawRects([rect for rect, _static, _text in self._boxes])
        painter.setPen(self._pen)
        painter.setFont(self._font)
        for rect, static, _text in self._boxes:
            painter.drawStaticText(QPointF(rect.x() + PAD_X, rect.y() + PAD_Y), static)
