"""The report's radio coverage page (QPainter): the cells coloured by their margin, on the map when there is one."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QPolygonF

from controlroom.geo.coverage_cells import MARGIN_STOPS, margin_rgba
from controlroom.i18n import translate
from controlroom.report.coverage_page import CoveragePage
from controlroom.report.pdf_listing import SMALLEST, report_font


def _colour(margin: float) -> QColor:
    r, g, b, a = (int(v) for v in margin_rgba([margin], alpha=200)[0])
    return QColor(r, g, b, a) if a else QColor(0, 0, 0, 0)


def draw_coverage(painter: QPainter, page: CoveragePage, width: float, height: float, dpi: float,
                  map_image: str | None = None, map_size: tuple[int, int] | None = None) -> None:
    """Draw the page into (0, 0, width, height): title, what it shows, the cells, the legend, per gateway."""
    mm = dpi / 25.4
    painter.save()
    try:
        painter.setPen(QPen(QColor("#000000")))
        painter.setFont(report_font(15))
        painter.drawText(QRectF(0, 0, width, 10 * mm), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         translate("report", "Radio coverage observed"))
        painter.setFont(report_font(8.5))
        note = translate(
            "report", "Each cell of {cell} m is coloured by the best gateway's mean SNR margin over the SF{sf} "
                      "demodulation floor, from {frames} frames sent from {cells} cells; crossed cells are where "
                      "frames needed retries ({retried}) or went missing ({missed}). {weak} cells have less than "
                      "5 dB of margin.").format(cell=25, sf=page.sf, frames=page.frames, cells=page.cells,
                                                retried=page.retried, missed=page.missed, weak=page.weak)
        painter.drawText(QRectF(0, 11 * mm, width, 16 * mm), int(Qt.TextFlag.TextWordWrap), note)
        top, legend_h = 29 * mm, 8 * mm
        table_h = (len(page.gateways) + 2) * 5 * mm
        box = QRectF(0, top, width, max(20 * mm, height - top - legend_h - table_h - 4 * mm))
        bottom = _cells(painter, page, box, mm, map_image, map_size)
        _legend(painter, QRectF(0, bottom + 2 * mm, width, legend_h), mm)
        _gateways(painter, page, QRectF(0, bottom + legend_h + 4 * mm, width, table_h), mm)
    finally:
        painter.restore()


def _cells(painter: QPainter, page: CoveragePage, box: QRectF, mm: float, map_image, map_size) -> float:
    """The cells (on the map when there is one) in ``box``, their proportions kept; where the drawing ends."""
    xs = [x for quad, _m, _k in page.polygons for x, _y in quad]
    ys = [y for quad, _m, _k in page.polygons for _x, y in quad]
    if page.on_map and map_size is not None:
        x0, y0, x1, y1 = 0.0, 0.0, float(map_size[0]), float(map_size[1])
    else:
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    w, h = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
    scale = min(box.width() / w, box.height() / h)
    frame = QRectF(box.x(), box.y(), w * scale, h * scale)
    down = page.on_map               # map pixels count rows down; the grid's metres count north up

    def at(x: float, y: float) -> QPointF:
        return QPointF(frame.x() + (x - x0) * scale, frame.y() + ((y - y0) if down else (y1 - y)) * scale)

    if page.on_map and map_image:
        image = QImage(map_image)
        if not image.isNull():
            painter.drawImage(frame, image)
    else:
        painter.fillRect(frame, QColor("#f4f4f4"))
    painter.setPen(Qt.PenStyle.NoPen)
    cross = QPen(QColor("#000000"), 0.25 * mm)
    for quad, margin, marked in page.polygons:
        polygon = QPolygonF([at(x, y) for x, y in quad])
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(_colour(margin) if math.isfinite(margin) else QColor(90, 90, 90, 200)))
        painter.drawPolygon(polygon)
        if marked:
            painter.setPen(cross)
            painter.drawLine(polygon[0], polygon[2])
            painter.drawLine(polygon[1], polygon[3])
    painter.setPen(QPen(QColor("#444444"), 0.25 * mm))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(frame)
    return frame.bottom()


def _legend(painter: QPainter, box: QRectF, mm: float) -> None:
    painter.setFont(report_font(SMALLEST))
    x = box.x()
    words = {-10.0: translate("report", "not heard"), 0.0: "0 dB", 5.0: "5 dB", 10.0: "10 dB", 20.0: "20 dB"}
    for value, _rgb in MARGIN_STOPS:
        painter.fillRect(QRectF(x, box.y() + 1 * mm, 5 * mm, 4 * mm), _colour(value))
        painter.setPen(QPen(QColor("#000000")))
        text = words.get(value, f"{value:g} dB")
        painter.drawText(QRectF(x + 6 * mm, box.y(), 30 * mm, 6 * mm),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        x += 32 * mm


def _gateways(painter: QPainter, page: CoveragePage, box: QRectF, mm: float) -> None:
    painter.setFont(report_font(8.5))
    painter.setPen(QPen(QColor("#000000")))
    line = 5 * mm
    heads = (translate("report", "Gateway"), translate("report", "Cells heard"), translate("report", "Frames heard"),
             translate("report", "Mean margin"))
    cols = (0.0, 0.3, 0.55, 0.8)
    for k, text in enumerate(heads):
        painter.drawText(QRectF(box.x() + cols[k] * box.width(), box.y(), box.width() * 0.25, line),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
    for i, g in enumerate(page.gateways, start=1):
        margin = f"{g.mean_margin:.1f} dB" if math.isfinite(g.mean_margin) else "-"
        for k, text in enumerate((g.name, str(g.cells), str(g.frames), margin)):
            painter.drawText(QRectF(box.x() + cols[k] * box.width(), box.y() + i * line, box.width() * 0.25, line),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
