"""The report's chart: each side's deaths over game time, drawn by pyqtgraph and exported as an image."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QImage

from controlroom.i18n import translate
from controlroom.report.model import Report, deaths_per_side

SIDE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")

# Steps of the time axis, in minutes: the first that gives at most eight labels.
TIME_STEPS = (1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 240, 360, 720, 1440)


def hhmm(minutes: float) -> str:
    """A game time in minutes as the clock shows it: HH:MM."""
    m = int(round(minutes))
    return f"{m // 60:02d}:{m % 60:02d}"


def time_ticks(end_minutes: float, most: int = 8) -> list[float]:
    """Round game times (minutes) from 00:00 to past ``end_minutes``, at most ``most`` + 1 of them."""
    step = next((s for s in TIME_STEPS if end_minutes / s <= most), TIME_STEPS[-1])
    n = max(1, int(-(-end_minutes // step)))
    return [float(i * step) for i in range(n + 1)]


def deaths_plot(report: Report, width_96: int = 680, aspect: float = 0.42, k: float = 1.0):
    """The chart as a pyqtgraph PlotWidget laid out as on a 96 dpi screen, ``width_96`` pixels wide.

    Cumulative deaths per side up, game time across in minutes, labelled
    HH:MM at round steps; ``k`` scales the pens and the legend for an export
    ``k`` times larger.  The caller closes it.
    """
    import pyqtgraph as pg

    height = int(width_96 * aspect)
    plot = pg.PlotWidget(background="w")
    plot.resize(width_96, height)
    item = plot.getPlotItem()
    item.setGeometry(QRectF(0, 0, width_96, height))
    item.showGrid(x=True, y=True, alpha=0.25)
    font = QFont("DejaVu Sans")
    font.setPixelSize(11)
    legend = item.addLegend(offset=(12, 8), labelTextColor="k",
                            labelTextSize=f"{int(11 * k)}px", verSpacing=int(-2 * k))
    series = deaths_per_side(report)
    for i, (side, steps) in enumerate(series.items()):
        xs = [t / 60_000 for t, _ in steps]           # game time in minutes
        ys = [n for _, n in steps[:-1]]
        pen = pg.mkPen(SIDE_COLOURS[i % len(SIDE_COLOURS)], width=2.5 * k)
        item.plot(xs, ys, stepMode="center", pen=pen,
                  name=translate("report", "{side}: {deaths} deaths").format(side=side, deaths=steps[-1][1]))
    end = max([1.0] + [steps[-1][0] / 60_000 for steps in series.values()])
    ticks = time_ticks(end)
    margin = (ticks[1] - ticks[0]) * 0.35      # room for the first and last labels, centred on their ticks
    item.setXRange(-margin, ticks[-1] + margin, padding=0)
    item.getAxis("bottom").setTicks([[(t, hhmm(t)) for t in ticks], []])
    for axis in ("bottom", "left"):
        ax = item.getAxis(axis)
        ax.setPen(pg.mkPen("k", width=k * 0.8))
        ax.setTextPen("k")
        ax.setTickFont(font)
    item.getAxis("left").setWidth(40)
    item.getAxis("bottom").setHeight(26)
    legend.setBrush(pg.mkBrush(255, 255, 255, 230))
    legend.setPen(pg.mkPen("#888", width=k))
    return plot


def deaths_chart(report: Report, width: int = 2100, aspect: float = 0.42) -> QImage:
    """The chart as an image ``width`` pixels wide (rendered by pyqtgraph's exporter).

    The plot is laid out as on a 96 dpi screen (680 pixels wide, the width of
    the page) and the exporter scales it up; its texts are 11 pixels of that
    screen, 8.25 pt on the page.
    """
    from pyqtgraph.exporters import ImageExporter

    width_96 = 680
    plot = deaths_plot(report, width_96, aspect, k=width / width_96)
    try:
        exporter = ImageExporter(plot.getPlotItem())
        exporter.parameters()["width"] = width
        return exporter.export(toBytes=True)
    finally:
        plot.close()
        plot.deleteLater()
