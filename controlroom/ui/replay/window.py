"""The replay window: a stored game played again on the map, for the after-action review.

It reads the game once, read-only, in a thread of its own (``worker.py``) and
never writes to it: the live game may go on in another window meanwhile.  A
time slider spans the whole game (or the scenario chosen); play runs at 1x to
120x; the step buttons jump to the previous or next death, STOPP or event of
a chosen kind.  The map shows positions with their trails, casualties, STOPPs
and siege engines at the moment; the docks show the dying list, Valhalla, the
sides and the timeline at that moment.
"""

from __future__ import annotations

import bisect
import logging
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from controlroom.game.clock import format_time
from controlroom.geo.frame import MapFrame
from controlroom.ui.map.coverage_layer import CoverageLayer
from controlroom.ui.map.view import MapView
from controlroom.ui.panels.deadlines import DeadlinePanel
from controlroom.ui.panels.sides import SideSummaryBar
from controlroom.ui.panels.timeline import TimelinePanel
from controlroom.ui.panels.valhalla import ValhallaPanel
from controlroom.ui.replay.layers import ReplayLayers
from controlroom.ui.replay.worker import GameFacts, Moment, WorkerThread

log = logging.getLogger(__name__)

SPEEDS = (1, 2, 5, 10, 20, 30, 60, 120)
TICK_MS = 100                   # playback asks for a new moment ten times a second
STEP_KINDS = ("death", "stopp")  # first in the step menu; then every kind of event in the game


class ReplayWindow(QMainWindow):
    """Shows a stored game at any moment; ``loader`` reads it (called once, in the worker's thread)."""

    moment_shown = Signal(int)          # the moment now on the map and in the panels (ms)

    def __init__(self, loader: Callable[[], object], title: str = "", *, freeze_loaded: bool = False) -> None:
        """``freeze_loaded``: in a program of its own, once the game is read, the garbage collector stops
        walking it (``gc.freeze``): its checkpoints live as long as the window, and a collection that
        walked them would hold a moment up for a second."""
        super().__init__()
        self.freeze_loaded = freeze_loaded
        self.setWindowTitle(self.tr("Replay (read-only)") + (f": {title}" if title else ""))
        self.facts: GameFacts | None = None
        self.moment: Moment | None = None
        self.t = 0                              # the moment asked for last
        self.range = (0, 0)                     # the slider's span (the game, or one scenario)
        self.playing = False
        self.apply_ms: list[float] = []         # the window's own time per moment shown (the GUI thread)
        self._fitted = False

        self.map = MapView()
        self.map.setBackground("w")
        self.layers = ReplayLayers(self.map)
        self.coverage = CoverageLayer(self.map, self)
        self.setCentralWidget(self._centre())
        self.sides = SideSummaryBar()
        self.status = QLabel(self.tr("Reading the game…"))
        self.statusBar().addWidget(self.status, 1)
        self.statusBar().addPermanentWidget(self.sides)
        self.panels: dict[str, QWidget] = {}
        self._docks()
        self._menus()
        self._set_enabled(False)

        self._play_timer = QTimer(self)
        self._play_timer.setInterval(TICK_MS)
        self._play_timer.timeout.connect(self._tick)
        self._last_tick = 0.0

        self.worker = WorkerThread(loader, self)
        self.worker.worker.loaded.connect(self._loaded)
        self.worker.worker.failed.connect(self._failed)
        self.worker.worker.moment_ready.connect(self._show)
        self.worker.load()
        self.resize(1500, 950)

    # -- building -----------------------------------------------------------------
    def _centre(self) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.map, 1)
        row = QHBoxLayout()
        self.play_button = QToolButton(box)
        self.play_button.setText(self.tr("Play"))
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self.set_playing)
        row.addWidget(self.play_button)
        self.speed = QComboBox(box)
        for s in SPEEDS:
            self.speed.addItem(self.tr("{speed}×").format(speed=s), s)
        self.speed.setCurrentIndex(SPEEDS.index(10))
        self.speed.setToolTip(self.tr("Playback speed: game time per real time"))
        row.addWidget(self.speed)
        self.time_label = QLabel(format_time(0), box)
        self.time_label.setMinimumWidth(80)
        row.addWidget(self.time_label)
        self.slider = QSlider(Qt.Orientation.Horizontal, box)
        self.slider.setToolTip(self.tr("The moment shown (drag to any time of the game)"))
        self.slider.valueChanged.connect(self._slid)
        row.addWidget(self.slider, 1)
        self.end_label = QLabel(format_time(0), box)
        row.addWidget(self.end_label)
        layout.addLayout(row)
        row2 = QHBoxLayout()
        row2.addWidget(QLabel(self.tr("Scenario:"), box))
        self.scenario = QComboBox(box)
        self.scenario.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.scenario.activated.connect(self._scenario_chosen)
        row2.addWidget(self.scenario)
        row2.addSpacing(20)
        self.previous_button = QToolButton(box)
        self.previous_button.setText(self.tr("◀ Previous"))
        self.previous_button.clicked.connect(self.step_previous)
        row2.addWidget(self.previous_button)
        self.kind = QComboBox(box)
        self.kind.setToolTip(self.tr("What the step buttons step to"))
        row2.addWidget(self.kind)
        self.next_button = QToolButton(box)
        self.next_button.setText(self.tr("Next ▶"))
        self.next_button.clicked.connect(self.step_next)
        row2.addWidget(self.next_button)
        row2.addStretch(1)
        layout.addLayout(row2)
        return box

    def _docks(self) -> None:
        right, bottom = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
        first: dict = {}
        for name, panel, title, area in (
            ("deadlines", DeadlinePanel(now_ms=self.moment_time), self.tr("Dying and waking"), right),
            ("valhalla", ValhallaPanel(now_ms=self.moment_time), self.tr("Valhalla"), right),
            ("timeline", TimelinePanel(), self.tr("Events"), bottom),
        ):
            dock = QDockWidget(title, self)
            dock.setObjectName(f"replay_dock_{name}")
            dock.setWidget(panel)
            self.addDockWidget(area, dock)
            if area in first:
                self.tabifyDockWidget(first[area], dock)
            else:
                first[area] = dock
            self.panels[name] = panel
        for dock in first.values():
            dock.raise_()
        self.panels["sides"] = self.sides

    def _menus(self) -> None:
        bar = self.menuBar()
        replay = bar.addMenu(self.tr("&Replay"))
        self.png_action = QAction(self.tr("Export the map as &PNG…"), self)
        self.png_action.triggered.connect(self.export_png)
        replay.addAction(self.png_action)
        self.video_action = QAction(self.tr("Export the battle as &video (MP4 or GIF)…"), self)
        self.video_action.triggered.connect(self.export_video)
        replay.addAction(self.video_action)
        replay.addSeparator()
        close = QAction(self.tr("&Close"), self, shortcut=QKeySequence.StandardKey.Close)
        close.triggered.connect(self.close)
        replay.addAction(close)
        view = bar.addMenu(self.tr("&View"))
        view.addAction(self.map.fit_action)
        self.coverage_action = QAction(self.tr("Radio &coverage"), self, checkable=True,
                                       shortcut=QKeySequence("Ctrl+R"))
        self.coverage_action.toggled.connect(self.show_coverage)
        view.addAction(self.coverage_action)
        for dock in self.findChildren(QDockWidget):
            view.addAction(dock.toggleViewAction())

    def _set_enabled(self, on: bool) -> None:
        for w in (self.play_button, self.speed, self.slider, self.scenario, self.previous_button, self.kind,
                  self.next_button, self.png_action, self.video_action):
            w.setEnabled(on)

    # -- the game read -------------------------------------------------------------------
    @Slot(object)
    def _loaded(self, facts: GameFacts) -> None:
        if self.freeze_loaded:
            import gc

            gc.collect()
            gc.freeze()
        self.facts = facts
        self.layers.set_devices(facts.devices)
        self._show_map(facts)
        self.scenario.clear()
        self.scenario.addItem(self.tr("The whole game"), (facts.start, facts.end))
        for scene in facts.scenes:
            label = self.tr("{name} ({start} to {end})").format(
                name=scene.name or self.tr("unnamed"), start=format_time(scene.start), end=format_time(scene.end))
            self.scenario.addItem(label, (scene.start, scene.end))
        self.kind.clear()
        self.kind.addItem(self.tr("death"), "death")
        self.kind.addItem(self.tr("STOPP"), "stopp")
        for k in facts.kinds:
            if k not in ("stopp_called",):
                self.kind.addItem(k.replace("_", " "), k)
        self._set_range(facts.start, facts.end)
        self._set_enabled(True)
        self.status.setText(self.tr("{events} events read in {seconds:.1f} s").format(
            events=facts.events, seconds=facts.load_s))
        self.seek(facts.start)

    @Slot(str)
    def _failed(self, error: str) -> None:
        self.status.setText(self.tr("The game could not be read: {error}").format(error=error))
        QMessageBox.warning(self, self.tr("Replay"), self.tr("The game could not be read: {error}").format(error=error))

    def _show_map(self, facts: GameFacts) -> None:
        if facts.map_problem:
            self.status.setText(self.tr("The game's map could not be opened: {error}").format(error=facts.map_problem))
        if facts.map is None or facts.map_path is None:
            self._fit_to_extent(facts)
            return
        from controlroom.geo.source import MapError, restore_map

        m = facts.map
        try:
            source = restore_map(facts.map_path, m.kind, m.width, m.height, m.world, m.crs, facts.where)
            self.map.set_map(source)
        except (MapError, OSError, ValueError) as exc:
            self.status.setText(self.tr("The game's map could not be opened: {error}").format(error=exc))
            return
        self.map.fit_to_field()
        self._fitted = True

    def _fit_to_extent(self, facts: GameFacts) -> None:
        """Without a map: the view spans every place the game reported, whatever the moment shows."""
        import numpy as np

        lats, lons = facts.extent
        if not lats:
            return
        if self.map.projection is None:
            self.map.projection = MapFrame.around(lats, lons)
        xs, ys = self.map.projection.to_local(np.asarray(lats, float), np.asarray(lons, float))
        x0, x1, y0, y1 = float(np.min(xs)), float(np.max(xs)), float(np.min(ys)), float(np.max(ys))
        pad = max(x1 - x0, y1 - y0, 50.0) * 0.08
        self.map.getViewBox().setRange(xRange=(x0 - pad, x1 + pad), yRange=(y0 - pad, y1 + pad), padding=0)
        self._fitted = True

    @Slot(bool)
    def show_coverage(self, on: bool) -> None:
        """View, Radio coverage: the coverage observed up to the moment shown (the cells' best gateway)."""
        self.worker.worker.coverage = on
        self.coverage.show(on)
        if on and self.facts is not None:
            self.seek(self.t)

    # -- moments ------------------------------------------------------------------------
    def moment_time(self) -> int:
        """The game time the panels count down from: the moment shown."""
        return self.moment.t if self.moment is not None else self.t

    def seek(self, t: int) -> None:
        """Ask for the game at ``t`` (shown when the worker has it; a newer request replaces this one)."""
        lo, hi = self.range
        t = max(lo, min(hi, int(t)))
        self.t = t
        self.time_label.setText(format_time(t))
        self.slider.blockSignals(True)
        self.slider.setValue((t - lo) // 1000)
        self.slider.blockSignals(False)
        self.worker.ask(t)

    @Slot(object)
    def _show(self, moment: Moment) -> None:
        # Every moment the worker answers is shown, also one asked for before the newest: while playing
        # a big game, the worker takes longer than a tick, and waiting for the newest would show nothing.
        # (The worker skips requests that a newer one replaced before it began them.)
        t0 = time.perf_counter()
        self.moment = moment
        self.layers.show_moment(moment)
        if moment.coverage is not None:
            self.coverage.set_cells(moment.coverage)
        delta = moment.delta
        for name in ("deadlines", "valhalla", "sides"):
            self.panels[name].apply_delta(delta)
        timeline = self.panels["timeline"]
        timeline.apply_delta(delta._replace(events=()))      # the names of the characters
        timeline.set_events(moment.events)
        if not self._fitted:
            self.map.fit_to_field()
            self._fitted = True
        self.map.flush()
        self.apply_ms.append((time.perf_counter() - t0) * 1000)
        self.status.setText(self.tr("{time}   {scenario}   (found in {seek:.0f} ms)").format(
            time=format_time(moment.t), scenario=delta.scenario, seek=moment.seek_ms + moment.build_ms))
        self.moment_shown.emit(moment.t)

    # -- controls -----------------------------------------------------------------------
    def _set_range(self, lo: int, hi: int) -> None:
        self.range = (lo, max(lo, hi))
        self.slider.blockSignals(True)
        self.slider.setRange(0, (self.range[1] - lo + 999) // 1000)
        self.slider.blockSignals(False)
        self.end_label.setText(format_time(self.range[1]))

    @Slot(int)
    def _slid(self, value: int) -> None:
        self.seek(self.range[0] + value * 1000)

    @Slot(int)
    def _scenario_chosen(self, index: int) -> None:
        lo, hi = self.scenario.itemData(index)
        self._set_range(lo, hi)
        self.seek(lo)

    def moments_of(self, kind: str) -> tuple[int, ...]:
        return self.facts.moments.get(kind, ()) if self.facts is not None else ()

    @Slot()
    def step_next(self) -> None:
        times = self.moments_of(self.kind.currentData())
        i = bisect.bisect_right(times, self.t)
        if i < len(times):
            self.seek(times[i])
        else:
            self.status.setText(self.tr("No {kind} after {time}.").format(kind=self.kind.currentText(),
                                                                            time=format_time(self.t)))

    @Slot()
    def step_previous(self) -> None:
        times = self.moments_of(self.kind.currentData())
        i = bisect.bisect_left(times, self.t)
        if i > 0:
            self.seek(times[i - 1])
        else:
            self.status.setText(self.tr("No {kind} before {time}.").format(kind=self.kind.currentText(),
                                                                             time=format_time(self.t)))

    def set_speed(self, speed: int) -> None:
        self.speed.setCurrentIndex(SPEEDS.index(speed))

    @Slot(bool)
    def set_playing(self, on: bool) -> None:
        self.playing = on
        if self.play_button.isChecked() != on:
            self.play_button.setChecked(on)
        self.play_button.setText(self.tr("Pause") if on else self.tr("Play"))
        if on:
            if self.t >= self.range[1]:
                self.seek(self.range[0])
            self._last_tick = time.monotonic()
            self._play_timer.start()
        else:
            self._play_timer.stop()

    @Slot()
    def _tick(self) -> None:
        now = time.monotonic()
        elapsed_ms = (now - self._last_tick) * 1000
        self._last_tick = now
        t = self.t + int(elapsed_ms * self.speed.currentData())
        if t >= self.range[1]:
            self.seek(self.range[1])
            self.set_playing(False)
            return
        self.seek(t)

    # -- exports -------------------------------------------------------------------------
    @Slot()
    def export_png(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from controlroom.ui.replay.export import save_png

        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the map as PNG"),
                                              f"replay-{format_time(self.t).replace(':', '')}.png",
                                              self.tr("PNG images (*.png)"))
        if path:
            try:
                save_png(self.map, path)
            except OSError as exc:
                QMessageBox.warning(self, self.tr("Export"), self.tr("The map could not be saved: {error}").format(
                    error=exc))
                return
            self.status.setText(self.tr("The map at {time} is saved as {path}.").format(
                time=format_time(self.t), path=path))

    @Slot()
    def export_video(self) -> None:
        from controlroom.ui.replay.export import VideoDialog

        dialog = VideoDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.video_dialog = dialog

    # -- closing -------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        self._play_timer.stop()
        self.worker.stop()
        super().closeEvent(event)
