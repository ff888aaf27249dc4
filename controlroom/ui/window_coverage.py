"""Radio coverage in the window: the map's "Radio coverage" layer, live, and View, Plan coverage.

A part of :class:`controlroom.ui.main_window.MainWindow` (``window.coverage``).
The layer takes the rows every delta brings (the events stored since the
game was opened); what the log held before, a job reads once the layer is
first shown (``core.jobs.coverage_history``).  View, Radio coverage shows or
hides it and chooses the best gateway or one of them, and the spreading
factor its margins are over.  Its texts are translated under its own Qt
context, ``WindowCoverage``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from controlroom.geo.coverage_cells import BEST
from controlroom.geo.propagation import SF_FLOOR_DB
from controlroom.ui.map.coverage_layer import CoverageLayer


class WindowCoverage(QObject):
    """The live map's coverage layer and its menu."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.layer = CoverageLayer(window.map, self)
        self.history = None             # the job reading the log's coverage (None: not asked for yet)
        self.action = QAction(self.tr("Radio &coverage"), self, checkable=True, shortcut=QKeySequence("Ctrl+R"))
        self.action.setToolTip(self.tr("Where the gateways heard the handsets: cells coloured by the SNR margin, "
                                       "crossed where reports needed retries or went missing"))
        self.action.toggled.connect(self.show_layer)
        self.plan_dialog = None
        self._gateway_group = QActionGroup(self)
        self._menu = None

    def add_menu(self, view_menu) -> None:
        view_menu.addAction(self.action)
        self._menu = view_menu.addMenu(self.tr("Radio coverage &shows"))
        self._menu.aboutToShow.connect(self._fill_menu)
        plan = QAction(self.tr("&Plan coverage…"), self)
        plan.triggered.connect(self.open_plan)
        view_menu.addAction(plan)

    def apply(self, delta) -> None:
        """A delta of the core: its coverage rows, if any."""
        if delta.coverage is not None:
            self.layer.add(delta.coverage)

    @Slot(bool)
    def show_layer(self, on: bool) -> None:
        """Show or hide the layer; the first time, read what the log held before the game was opened."""
        if on and self.history is None:
            self._read_history()
        self.layer.show(on)
        if self.action.isChecked() != on:
            self.action.setChecked(on)

    def _read_history(self) -> None:
        core = self.window.core
        info = getattr(core, "info", None)
        jobs = getattr(core, "jobs", None)
        if info is None or jobs is None or not info.last_seq:
            self.history = False        # nothing before the opening (a new game), or no game yet
            return
        self.history = jobs.coverage_history(info.last_seq)
        self.history.finished.connect(self.layer.add)
        self.history.failed.connect(self._history_failed)

    @Slot(str)
    def _history_failed(self, why: str) -> None:
        self.window.status.setText(self.tr("The radio coverage before the opening could not be read: {why}")
                                   .format(why=why))

    def _fill_menu(self) -> None:
        menu = self._menu
        menu.clear()
        for name, title in [(BEST, self.tr("The best gateway in each cell"))] + [
                (g, self.tr("Gateway {name}").format(name=g)) for g in self.layer.gateways()]:
            action = QAction(title, menu, checkable=True)
            action.setChecked(self.layer.gateway == name)
            action.triggered.connect(lambda _c=False, n=name: self.layer.choose(n))
            self._gateway_group.addAction(action)
            menu.addAction(action)
        menu.addSeparator()
        for sf in SF_FLOOR_DB:
            action = QAction(self.tr("Margins over SF{sf}'s floor ({floor:g} dB)").format(sf=sf, floor=SF_FLOOR_DB[sf]),
                             menu, checkable=True)
            action.setChecked(self.layer.sf == sf)
            action.triggered.connect(lambda _c=False, s=sf: self.layer.choose(self.layer.gateway, s))
            menu.addAction(action)

    @Slot()
    def open_plan(self) -> None:
        """View, Plan coverage: gateways dragged on the map, the predicted coverage shown under them."""
        from controlroom.ui.dialogs.coverage_plan import PlanDialog

        if self.plan_dialog is None:
            self.plan_dialog = PlanDialog(self.window.map, self.window)
        self.plan_dialog.show()
        self.plan_dialog.raise_()
