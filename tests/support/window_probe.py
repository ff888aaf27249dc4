"""Run ``controlroom demo`` and, after a while, write the window's geometry as JSON and a screenshot.

Used by test_window_layout.py under Xvfb:

    python window_probe.py OUT.json SHOT.png SECONDS [night] [large]

It measures what a game master sees: where each panel's key widgets lie on
the screen, how much room the map has, which columns of the dying list are
shown whole, how many rows Events shows, whether a button's or a tab's text
is cut.  Nothing here decides pass or fail: the test does.
"""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import QRect, QTimer
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QAbstractButton, QApplication, QDockWidget, QLabel, QTabBar, QToolTip


def rect(widget, r: QRect | None = None) -> list[int]:
    """A widget's rectangle (or ``r`` in its coordinates) in screen coordinates: x, y, w, h."""
    r = widget.rect() if r is None else r
    top_left = widget.mapToGlobal(r.topLeft())
    return [top_left.x(), top_left.y(), r.width(), r.height()]


def shown(widget) -> bool:
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def title_ink(dock) -> int:
    """How many pixel rows of a docked dock's title bar hold its title's text (the drawn letters' height)."""
    image = dock.grab().toImage()
    top = dock.widget().geometry().top() if dock.widget() is not None else 0
    background = image.pixelColor(1, 1)
    text_right = 4 + dock.fontMetrics().horizontalAdvance(dock.windowTitle())     # the title, not its buttons
    rows = 0
    for y in range(max(1, top)):
        if any(abs(image.pixelColor(x, y).lightness() - background.lightness()) > 60
               for x in range(2, min(image.width() - 40, text_right))):
            rows += 1
    return rows


def text_ink(text: str, font) -> int:
    """How many pixel rows ``text`` drawn in ``font`` covers (black on white)."""
    metrics = QFontMetrics(font)
    image = QImage(metrics.horizontalAdvance(text) + 8, metrics.height() + 8, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    painter.drawText(4, 4 + metrics.ascent(), text)
    painter.end()
    return sum(1 for y in range(image.height())
               if any(image.pixelColor(x, y).lightness() < 195 for x in range(image.width())))


def buttons(window) -> list[dict]:
    """The game controls' buttons: where they are, and whether their text fits."""
    out = []
    for b in window.panels.panels["controls"].findChildren(QAbstractButton):
        if b.isVisible():
            out.append({"text": b.text(), "rect": rect(b), "width": b.width(),
                        "needs": b.fontMetrics().horizontalAdvance(b.text()) + 8, "shown": shown(b)})
    return out


LONG_SCENARIO = "The siege of Castle Northwatch, second assault, the night before the peace"


def message(window) -> dict:
    """The status bar's last message: the whole text, what is shown of it, the room and what the shown part needs."""
    label = window.status
    return {"text": label.text(), "shown": label.shown(), "tooltip": label.toolTip(),
            "popup": QToolTip.text() if QToolTip.isVisible() else "",
            "width": label.contentsRect().width(), "needs": label.fontMetrics().horizontalAdvance(label.shown())}


def measure(window) -> dict:
    app = QApplication.instance()
    screen = window.screen().availableGeometry()
    panels = window.panels.panels
    out = {
        "screen": [screen.x(), screen.y(), screen.width(), screen.height()],
        "window": rect(window),
        "frame": [window.frameGeometry().x(), window.frameGeometry().y(), window.frameGeometry().width(),
                  window.frameGeometry().height()],
        "minimum": [window.minimumSizeHint().width(), window.minimumSizeHint().height()],
        "map": rect(window.map),
        "status": rect(window.statusBar()) if shown(window.statusBar()) else None,
        "alarms": rect(window.panels.alarms) if shown(window.panels.alarms) else None,
        "font_pt": app.font().pointSizeF(),
        "average_char": window.status.fontMetrics().averageCharWidth(),
        "docks": {d.objectName(): (rect(d) if shown(d) else None) for d in window.findChildren(QDockWidget)},
    }
    # The dying list: its viewport, and the columns it shows with the width each needs.
    deadlines = panels["deadlines"]
    view = deadlines.view
    fitter = view.fitter
    if fitter._timer.isActive():
        fitter.fit()                # a fit due within the second (its texts changed): as the user sees it then
    header = view.horizontalHeader()
    columns = {}
    for c in range(view.model().columnCount()):
        key = ("countdown", "what", "who", "group", "side")[c]
        columns[key] = {
            "hidden": header.isSectionHidden(c),
            "x": header.sectionViewportPosition(c),
            "width": header.sectionSize(c),
            "needs": max(view.sizeHintForColumn(c), header.sectionSizeHint(c)),
        }
    out["dying"] = {"viewport": rect(view.viewport()) if shown(view.viewport()) else None,
                    "rows": view.model().rowCount(), "columns": columns}
    timeline = panels["timeline"].view
    out["events"] = {"viewport": rect(timeline.viewport()) if shown(timeline.viewport()) else None,
                     "row_height": timeline.verticalHeader().defaultSectionSize()}
    out["buttons"] = buttons(window)
    # The status bar's side counts: where, what it shows and what that needs, and each side's counts.
    sides = window.sides
    out["sides"] = {"rect": rect(sides) if shown(sides) else None, "text": sides.text(),
                    "needs": sides.fontMetrics().horizontalAdvance(sides.text()), "width": sides.contentsRect().width(),
                    "counts": {s: list(c) for s, c in sides.counts.items()}}
    out["message"] = message(window)
    # Each shown dock's title: the height of its letters as drawn, and as the window's font draws them.
    out["dock_titles_ink"] = {d.objectName(): [title_ink(d), text_ink(d.windowTitle(), app.font())]
                              for d in window.findChildren(QDockWidget) if shown(d) and d.titleBarWidget() is None}
    out["menus"] = [a.text() for a in window.menuBar().actions()]
    out["dock_titles"] = {d.objectName(): d.windowTitle() for d in window.findChildren(QDockWidget)}
    tabs = []
    for bar in window.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for i in range(bar.count()):
            tabs.append({"text": bar.tabText(i), "rect": rect(bar, bar.tabRect(i)),
                         # what the tab needs for its whole title (Qt elides it, "Valha…", when given less)
                         "needs": bar.tabSizeHint(i).width(),
                         "width": bar.tabRect(i).width()})
    out["tabs"] = tabs
    out["minimums"] = {w.objectName() or type(w).__name__: [w.minimumSizeHint().width(), w.minimumSizeHint().height(),
                                                            w.minimumSize().width(), w.minimumSize().height()]
                       for w in [*window.findChildren(QDockWidget), window.centralWidget(), window.map,
                                 window.statusBar(), window.menuBar()]}
    return out


def main() -> int:
    out_json, shot, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    night, large = "night" in sys.argv[4:], "large" in sys.argv[4:]
    import controlroom.ui.app as app_module

    original = app_module.run_window

    def run_window(*args, before_start=None, **kwargs):
        def prepare(core, window):
            if before_start is not None:
                before_start(core, window)
            window.night_action.setChecked(night)
            window.large_action.setChecked(large)

            def probe():
                data = measure(window)
                window.grab().save(shot)
                window.panels.docks["controls"].raise_()        # a tab in front on a laptop: bring it up

                def controls():
                    data["controls_buttons"] = buttons(window)
                    # A message longer than any status bar (after the screenshot): cut with an ellipsis.
                    window.status.setText("The map field.png is kept with the game. " * 8)
                    data["long_message"] = message(window)
                    # A scenario with a long name (after the screenshot): the window can still be as narrow
                    # as the screen (the name is cut, the clocks are not).
                    clocks = window.clocks
                    scenario = clocks.scenario
                    clocks.scenario = LONG_SCENARIO
                    clocks.refresh()
                    QApplication.processEvents()
                    sides = window.sides
                    data["long_scenario"] = {"minimum": window.minimumSizeHint().width(), "shown": QLabel.text(clocks),
                                             "text": clocks.text(), "width": clocks.contentsRect().width(),
                                             "needs": clocks.fontMetrics().horizontalAdvance(QLabel.text(clocks)),
                                             "sides_text": sides.text(),
                                             "sides_counts": [list(c) for c in sides.counts.values()],
                                             "sides_width": sides.contentsRect().width(),
                                             "sides_needs": sides.fontMetrics().horizontalAdvance(sides.text())}
                    clocks.scenario = scenario
                    with open(out_json, "w", encoding="utf-8") as f:
                        json.dump(data, f, indent=1)
                    window.close()

                QTimer.singleShot(300, controls)

            QTimer.singleShot(int(seconds * 1000), probe)
        return original(*args, before_start=prepare, **kwargs)

    app_module.run_window = run_window
    from controlroom.cli import main as cli_main

    return cli_main(["demo", "--speed", "30", "--duration", "30"])


if __name__ == "__main__":
    sys.exit(main())
