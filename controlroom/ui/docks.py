"""The docks around the map: which panel goes where, on a laptop and on a big screen, and how wide.

``Panels`` builds every panel of the window from one explicit list, puts them
in docks (``Dock``: a title drawn in the window's font) and arranges them:
on a large screen game controls and Events on the left, the dying list on the
right; on a laptop one column beside the map, the dying list on top and the
other panels as tabs under it.  The map keeps at least half the window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QScrollArea,
    QStyle,
    QStyleOptionDockWidget,
    QStylePainter,
    QTabBar,
    QWidget,
)

from controlroom.core.thread import CoreThread

if TYPE_CHECKING:
    from controlroom.ui.main_window import MainWindow


class Dock(QDockWidget):
    """A dock whose title is drawn in the window's font, large text included.

    QDockWidget keeps the title font it was made with (the platform's, before
    View, Large text) and draws with it while its own font is the
    application's: here the title is drawn with the dock's current font.
    A floating dock keeps Qt's own drawing (its frame may be the system's).
    """

    def paintEvent(self, event) -> None:
        if self.isFloating() or self.titleBarWidget() is not None:
            super().paintEvent(event)
            return
        painter = QStylePainter(self)
        option = QStyleOptionDockWidget()
        self.initStyleOption(option)
        painter.setFont(self.font())
        option.fontMetrics = self.fontMetrics()
        painter.drawControl(QStyle.ControlElement.CE_DockWidgetTitle, option)


class Panels:
    """The docks around the map, each built from the explicit list below: a panel that fails to build is an error."""

    def __init__(self, window: MainWindow, core: CoreThread) -> None:
        from controlroom.ui.panels.alarms import AlarmBanner
        from controlroom.ui.panels.controls import GameControls
        from controlroom.ui.panels.deadlines import DeadlinePanel
        from controlroom.ui.panels.radio import RadioPanel
        from controlroom.ui.panels.siege import SiegePanel
        from controlroom.ui.panels.timeline import LIVE_HOLD_MS, TimelinePanel
        from controlroom.ui.panels.valhalla import ValhallaPanel

        self.apply_to: list = []
        self.docks: dict = {}
        self.compact = False
        self.arranging = False              # True while arrange moves the docks (not the game master)
        self.panels: dict = {}
        self.window = window
        # Alarms across the whole top of the window, above map and panels.
        top = QDockWidget(QCoreApplication.translate("MainWindow", "Alarms"), window)
        top.setObjectName("dock_alarms")
        top.setTitleBarWidget(QWidget())
        top.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        self.alarms = AlarmBanner(top)
        top.setWidget(self.alarms)
        window.addDockWidget(Qt.DockWidgetArea.TopDockWidgetArea, top)
        self.apply_to.append(self.alarms)
        now = core.game_time
        # Short titles: on a laptop they are the tabs of one column, and must be read whole.
        for name, panel, title in (
            ("deadlines", DeadlinePanel(now_ms=now), QCoreApplication.translate("MainWindow", "Dying and waking")),
            ("timeline", TimelinePanel(hold_ms=LIVE_HOLD_MS), QCoreApplication.translate("MainWindow", "Events")),
            ("controls", GameControls(), QCoreApplication.translate("MainWindow", "Controls")),
            ("valhalla", ValhallaPanel(now_ms=now), QCoreApplication.translate("MainWindow", "Valhalla")),
            ("siege", SiegePanel(), QCoreApplication.translate("MainWindow", "Siege")),
            ("radio", RadioPanel(now_ms=now), QCoreApplication.translate("MainWindow", "Radio")),
        ):
            self._dock(name, panel, title)
        self.arrange(compact=False)

    def _dock(self, name: str, panel: QWidget, title: str) -> None:
        window = self.window
        dock = Dock(title, window)
        dock.setObjectName(f"dock_{name}")
        if getattr(panel, "scrolls_itself", False):
            dock.setWidget(panel)           # a table: it scrolls its rows, and keeps the room it needs
        else:
            scroll = QScrollArea()          # a dock may be made smaller than its panel would like
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(panel)
            dock.setWidget(scroll)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        if hasattr(panel, "shown"):         # a panel that leaves its tables undrawn while behind a tab
            dock.visibilityChanged.connect(panel.shown)
        self.docks[name] = dock
        self.panels[name] = panel
        self.apply_to.append(panel)

    def arrange(self, compact: bool) -> None:
        """Put the docks where a game master wants them first (the window's own layout, until moved).

        ``compact`` (a laptop): the dying list on top of one column on the
        right, Events and the others as tabs under it.  Otherwise: game
        controls and siege engines on top of the left column, Events and Radio
        under them; the dying list and Valhalla on the right.  Nothing goes
        under the map: it keeps the window's whole height, and so at least
        half its area (the columns leave it MAP_SHARE of the width or the
        layout is the compact one).
        """
        w, d = self.window, self.docks
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.arranging = True
        w.setCorner(Qt.Corner.BottomLeftCorner, left)
        w.setCorner(Qt.Corner.BottomRightCorner, right)
        if compact:
            w.addDockWidget(right, d["deadlines"])
            w.splitDockWidget(d["deadlines"], d["timeline"], Qt.Orientation.Vertical)
            for name in ("controls", "valhalla", "siege", "radio"):
                w.tabifyDockWidget(d["timeline"], d[name])
            d["timeline"].raise_()
        else:
            w.addDockWidget(left, d["controls"])
            w.splitDockWidget(d["controls"], d["timeline"], Qt.Orientation.Vertical)    # before any tab
            w.tabifyDockWidget(d["controls"], d["siege"])
            w.tabifyDockWidget(d["timeline"], d["radio"])
            w.addDockWidget(right, d["deadlines"])
            w.tabifyDockWidget(d["deadlines"], d["valhalla"])
            for name in ("controls", "deadlines", "timeline"):
                d[name].raise_()
        self.compact = compact
        self.fit()
        QTimer.singleShot(0, self._arranged)          # the docks' own signals of this move come first

    def _arranged(self) -> None:
        self.arranging = False

    def side_widths(self) -> tuple[int, int]:
        """The widths the right column (the dying list whole) and the left one (game controls) need."""
        width = self.window.width()
        right = min(max(self.panels["deadlines"].needed_width(), int(width * 0.2)), int(width * 0.4))
        left = max(self.panels["controls"].minimumSizeHint().width() + 24, int(width * 0.2))
        return right, left

    def tabs_width(self) -> int:
        """The width the docks' tab bars need to show every title whole (the widest bar; 0 without tabs)."""
        return max((sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
                    for bar in self.window.findChildren(QTabBar) if bar.parent() is self.window), default=0)

    def column_for_half(self) -> int:
        """The widest the one column of a laptop may be while the map keeps half the window's area."""
        w = self.window
        separator = w.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, w)
        map_height = max(1, w.centralWidget().height())
        return w.width() - separator - -(-w.width() * w.height() // (2 * map_height))

    def fit(self) -> None:
        """Size the docks for the window: the dying list wide enough for its names, the map the rest."""
        w, d = self.window, self.docks
        right, left = self.side_widths()
        if self.compact:
            right = max(right, self.tabs_width())          # every tab's title read whole, as room allows
            w.resizeDocks([d["deadlines"]], [min(right, self.column_for_half())], Qt.Orientation.Horizontal)
            column = w.height() - w.menuBar().height() - w.statusBar().height()
            w.resizeDocks([d["deadlines"], d["timeline"]], [int(column * 0.4), int(column * 0.6)],
                          Qt.Orientation.Vertical)
        else:
            w.resizeDocks([d["deadlines"], d["controls"]], [right, left], Qt.Orientation.Horizontal)
            column = w.height() - w.menuBar().height() - w.statusBar().height()
            controls = self.panels["controls"].sizeHint().height() + 64          # title and tabs too: no scrolling
            w.resizeDocks([d["controls"], d["timeline"]], [controls, max(1, column - controls)],
                          Qt.Orientation.Vertical)

    def apply(self, delta) -> None:
        for panel in self.apply_to:
            panel.apply_delta(delta)
