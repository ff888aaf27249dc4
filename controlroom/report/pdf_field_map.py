"""The report's map page: each side's deaths and falls on the field map, one map per side (QPainter)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen

from controlroom.report.field_map import FieldMap
from controlroom.report.pdf_listing import report_font

TITLE = "Casualties on the field map"


def _counts(points) -> tuple[int, int]:
    deaths = sum(1 for p in points if p[2] == "death")
    return deaths, len(points) - deaths


def draw_field_map(painter: QPainter, fm: FieldMap, width: float, height: float, colours, dpi: float) -> None:
    """Draw the page into (0, 0, width, height): a title, a legend, then one map per side with its casualties."""
    mm = dpi / 25.4
    painter.save()
    try:
        painter.setPen(QPen(QColor("#000000")))
        painter.setFont(report_font(15))
        painter.drawText(QRectF(0, 0, width, 10 * mm), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         TITLE)
        painter.setFont(report_font(8.5))
        note = (f"Deaths (filled) and falls to 0 hit points or knock-outs (rings) where they were reported, on the "
                f"map {fm.name}; a casualty without a position of its own is placed at its reporter's or its "
                f"group's last position. A casualty reported with no position near it is not on these maps "
                f"(the tables count every casualty).")
        if fm.outside:
            note += f" {fm.outside} casualties were placed off this map and are not shown."
        painter.drawText(QRectF(0, 11 * mm, width, 14 * mm), int(Qt.TextFlag.TextWordWrap), note)
        sides = list(fm.sides.items())
        if not sides:
            return
        cols = 1 if len(sides) == 1 else 2
        rows = math.ceil(len(sides) / cols)
        top = 28 * mm
        gap = 5 * mm
        cell_w = (width - gap * (cols - 1)) / cols
        cell_h = (height - top - gap * (rows - 1)) / rows
        image = QImage(str(fm.path))
        label_h = 7 * mm
        # The map fitted into a cell below its label, keeping its proportions.
        scale = min(cell_w / fm.width, (cell_h - label_h) / fm.height)
        map_w, map_h = fm.width * scale, fm.height * scale
        if not image.isNull():
            # One copy at the page's resolution (not the full image once per side).
            image = image.scaled(int(map_w), int(map_h), Qt.AspectRatioMode.IgnoreAspectRatio,
                                 Qt.TransformationMode.SmoothTransformation)
        radius = max(0.9 * mm, min(map_w, map_h) / 180)
        for i, (side, points) in enumerate(sides):
            colour = QColor(colours[i % len(colours)])
            x0 = (i % cols) * (cell_w + gap)
            y0 = top + (i // cols) * (label_h + map_h + gap)
            deaths, falls = _counts(points)
            painter.setPen(QPen(QColor("#000000")))
            painter.setFont(report_font(10))
            painter.drawText(QRectF(x0, y0, cell_w, label_h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             f"{side}: {deaths} deaths, {falls} falls placed")
            frame = QRectF(x0, y0 + label_h, map_w, map_h)
            if image.isNull():
                painter.fillRect(frame, QColor("#eeeeee"))
            else:
                painter.drawImage(frame, image)
            painter.setPen(QPen(QColor("#444444"), 0.25 * mm))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(frame)
            painter.save()
            painter.setClipRect(frame)
            ring = QPen(colour, 0.45 * mm)
            outline = QPen(QColor("#000000"), 0.2 * mm)
            fill = QBrush(colour)
            for col, row, kind in sorted(points, key=lambda p: p[2] == "death"):     # deaths drawn on top
                centre = QPointF(frame.x() + col * scale, frame.y() + row * scale)
                if kind == "death":
                    painter.setPen(outline)
                    painter.setBrush(fill)
                else:
                    painter.setPen(ring)
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawEllipse(centre, radius, radius)
            painter.restore()
    finally:
        painter.restore()
