"""The report's map page: each side's deaths and falls on the field map, one map per side (QPainter).

Each map carries the field map's grid (lettered columns, numbered rows: the
squares the safety table's places name) and its named features.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen

from controlroom.i18n import translate
from controlroom.report.field_map import FieldMap
from controlroom.report.pdf_listing import SMALLEST, report_font


def _counts(points) -> tuple[int, int]:
    deaths = sum(1 for p in points if p[2] == "death")
    return deaths, len(points) - deaths


def _grid_of_maps(fm: FieldMap, width: float, height: float, dpi: float):
    """The maps' arrangement: (columns, rows, top, gap, cell width, label height, scale, map width, map height)."""
    mm = dpi / 25.4
    n = max(1, len(fm.sides))
    cols = 1 if n == 1 else 2
    rows = math.ceil(n / cols)
    top, gap, label_h = 28 * mm, 5 * mm, 7 * mm
    cell_w = (width - gap * (cols - 1)) / cols
    cell_h = (height - top - gap * (rows - 1)) / rows
    scale = min(cell_w / fm.width, (cell_h - label_h) / fm.height)
    return cols, rows, top, gap, cell_w, label_h, scale, fm.width * scale, fm.height * scale


def used_height(fm: FieldMap, width: float, height: float, dpi: float) -> tuple[float, float]:
    """How much of ``height`` the map page's drawing takes (the maps keep their proportions), and the maps' scale."""
    _c, rows, top, gap, _w, label_h, scale, _mw, map_h = _grid_of_maps(fm, width, height, dpi)
    if not fm.sides:
        return top, scale
    return top + rows * (label_h + map_h) + (rows - 1) * gap, scale


def draw_field_map(painter: QPainter, fm: FieldMap, width: float, height: float, colours, dpi: float) -> None:
    """Draw the page into (0, 0, width, height): a title, a legend, then one map per side with its casualties."""
    mm = dpi / 25.4
    painter.save()
    try:
        painter.setPen(QPen(QColor("#000000")))
        painter.setFont(report_font(15))
        painter.drawText(QRectF(0, 0, width, 10 * mm), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         translate("report", "Casualties on the field map"))
        painter.setFont(report_font(8.5))
        note = translate(
            "report", "Deaths (filled) and falls to 0 hit points or knock-outs (rings) where they were reported, on "
                      "the map {map}; a casualty without a position of its own is placed at its reporter's or its "
                      "group's last position. A casualty reported with no position near it is not on these maps "
                      "(the tables count every casualty).").format(map=fm.name)
        if fm.grid is not None:
            note += " " + translate("report", "Grid squares of {step} m.").format(step=fm.grid.step)
        if fm.outside:
            note += " " + translate("report", "{count} casualties were placed off this map and are not shown.").format(
                count=fm.outside)
        painter.drawText(QRectF(0, 11 * mm, width, 14 * mm), int(Qt.TextFlag.TextWordWrap), note)
        sides = list(fm.sides.items())
        if not sides:
            return
        cols, _rows, top, gap, cell_w, label_h, scale, map_w, map_h = _grid_of_maps(fm, width, height, dpi)
        image = QImage(str(fm.path))
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
            painter.drawText(QRectF(x0, y0, cell_w, label_h),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             translate("report", "{side}: {deaths} deaths, {falls} falls placed").format(
                                 side=side, deaths=deaths, falls=falls))
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
            if fm.grid is not None:
                _draw_grid(painter, fm, frame, scale, mm)
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


def _draw_grid(painter: QPainter, fm: FieldMap, frame: QRectF, scale: float, mm: float) -> None:
    """The map's grid over one side's map: thin lines, the columns' letters along the top, the rows' numbers
    down the left; and the named features, each a small diamond with its name."""
    grid = fm.grid
    step = grid.px * scale
    painter.setPen(QPen(QColor(0, 0, 0, 120), 0.15 * mm))
    for c in range(1, grid.columns):
        x = frame.x() + c * step
        painter.drawLine(QPointF(x, frame.top()), QPointF(x, frame.bottom()))
    for r in range(1, grid.rows):
        y = frame.y() + r * step
        painter.drawLine(QPointF(frame.left(), y), QPointF(frame.right(), y))
    font = report_font(SMALLEST)
    painter.setFont(font)
    metrics = painter.fontMetrics()
    pad = 0.5 * mm
    h = metrics.height()

    def label(x: float, y: float, text: str, bold_colour: str = "#000000") -> None:
        w = metrics.horizontalAdvance(text) + 2 * pad
        painter.fillRect(QRectF(x, y, w, h), QColor(255, 255, 255, 190))
        painter.setPen(QPen(QColor(bold_colour)))
        painter.drawText(QRectF(x + pad, y, w, h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)

    for c in range(grid.columns):          # each label in the middle of its square's visible part
        middle = min(step, frame.width() - c * step) / 2
        label(frame.x() + c * step + middle - metrics.horizontalAdvance(grid.letter(c)) / 2 - pad, frame.y(),
              grid.letter(c))
    for r in range(grid.rows):
        middle = min(step, frame.height() - r * step) / 2
        label(frame.x(), frame.y() + r * step + middle - h / 2, str(r + 1))
    if fm.source is None:
        return
    for place in fm.places:
        try:
            col, row = fm.source.locate(place.lat, place.lon)
        except Exception:  # a place the map cannot hold is left out
            continue
        if not fm.source.contains(float(col), float(row)):
            continue
        centre = QPointF(frame.x() + float(col) * scale, frame.y() + float(row) * scale)
        d = 0.9 * mm
        painter.setPen(QPen(QColor("#000000"), 0.2 * mm))
        painter.setBrush(QColor("#ffffff"))
        painter.drawPolygon([centre + QPointF(0, -d), centre + QPointF(d, 0), centre + QPointF(0, d),
                             centre + QPointF(-d, 0)])
        width = metrics.horizontalAdvance(place.name) + 2 * pad
        x = centre.x() + d * 1.3
        if x + width > frame.right():                       # near the right edge: the name on the left
            x = centre.x() - d * 1.3 - width
        label(x, centre.y() - h / 2, place.name)
