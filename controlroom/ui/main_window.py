"""The control room window: the live map in the middle, the panels in docks, the alarms on top."""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QProcess, QSettings, Qt, QTimer, QUrl, Slot
from PySide6.QtGui import QAction, QActionGroup, QDesktopServices, QFont, QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QMessageBox

from controlroom import i18n
from controlroom.core.thread import CoreThread
from controlroom.geo.frame import MapFrame
from controlroom.logs import log_dir
from controlroom.ui.desks.switch import DeskSwitch
from controlroom.ui.dialogs.games import ask_for_game, recent_games
from controlroom.ui.docks import Panels
from controlroom.ui.first_paint import AfterFirstPaint
from controlroom.ui.language import save_language
from controlroom.ui.map.layers import MapLayers
from controlroom.ui.map.view import DIM_LEVELS, NIGHT_DIM, MapView
from controlroom.ui.panels.clocks import ClockBar
from controlroom.ui.panels.sides import SideCountsLabel
from controlroom.ui.panels.speech import SpeakAlarmsAction
from controlroom.ui.panels.status_message import StatusMessage
from controlroom.ui.panels.timer_owner import TimerOwnerLabel
from controlroom.ui.theme import Theme
from controlroom.ui.window_coverage import WindowCoverage
from controlroom.ui.window_entries import WindowEntries
from controlroom.ui.window_maps import WindowMaps

log = logging.getLogger(__name__)

#: The version of the docks' layout saved in the settings: a layout saved by an older window is not restored.
STATE_VERSION = 2
#: The window's size on a screen large enough for it (smaller screens: the whole screen).
DEFAULT_SIZE = (1920, 1200)
#: The window's size drawn without a screen (the offscreen platform: screenshots, tests).
OFFSCREEN_SIZE = (1600, 1000)
#: Below this screen height the docks share one column beside the map (a laptop) ...
WIDE_HEIGHT = 1000
#: ... and also when the side panels would leave the map less than this share of the width (large text).
MAP_SHARE = 0.55


def on_a_screen() -> bool:
    """Whether the window is shown on a real screen (not drawn offscreen, whose screen is a made-up 800 x 800)."""
    return QApplication.platformName() != "offscreen"


class MainWindow(QMainWindow):
    """Reads only the core's snapshots and deltas; sends commands back through the CoreThread.

    Its parts: the game master's entries (Ctrl+Z, corrections, Find, player
    cards) in ``entries`` (:class:`WindowEntries`); placing and keeping maps in
    ``maps`` (:class:`WindowMaps`).
    """

    #: The map's layers are drawn again at most this often (ms); the core publishes every 100 ms, and at
    #: 8,000 players drawing every delta kept the window busy (bench_map).
    MAP_REDRAW_MS = 250
    #: Whom the casualties layer shows is planned again at most this often (ms), and the movement trails (a
    #: point every 5 game seconds) set again at most this often: each sets every marker of its layer again.
    CASUALTY_REPLAN_MS = 1000
    TRAILS_REDRAW_MS = 5000

    def __init__(self, core: CoreThread, projection: MapFrame | None = None, title: str = "",
                 valhalla: tuple[float, float] | None = None) -> None:
        super().__init__()
        self.core = core
        self.setWindowTitle(self.tr("controlroom") + (f": {title}" if title else ""))
        self.theme = Theme(self)
        self.map = MapView(projection=projection)
        self.layers = MapLayers(self.map, projection, valhalla, redraw_ms=self.MAP_REDRAW_MS,
                                replan_ms=self.CASUALTY_REPLAN_MS, trails_ms=self.TRAILS_REDRAW_MS)
        self._opening = self.tr("Opening the game…")
        self.status = StatusMessage(self._opening)         # the window's last word to the game master
        self.clocks = ClockBar(core.game_time)        # game, wall and scenario time, every second
        self.sides = SideCountsLabel()                # each side's up, down and dead, in the words that fit
        self.statusBar().addPermanentWidget(self.clocks)
        self.statusBar().addPermanentWidget(self.sides)
        self.statusBar().addPermanentWidget(self.status, 1)
        self.timer_owner = TimerOwnerLabel(core)        # who runs the rule timers (several stations)
        self.statusBar().addPermanentWidget(self.timer_owner)
        self.desk_switch = DeskSwitch(self, core, self.map)      # the map, or the Valhalla or weapon-check desk
        self.setCentralWidget(self.desk_switch.stack)
        self.panels = Panels(self, core)
        self.entries = WindowEntries(self)
        self.maps = WindowMaps(self)
        self.coverage = WindowCoverage(self)        # View, Radio coverage and Plan coverage
        self.alarm_list = None                      # the list of every alarm, opened from "+N more"
        self.panels.alarms.show_all_requested.connect(self.show_all_alarms)
        self._menus()
        self.map.point_clicked.connect(self.show_point)
        timeline = self.panels.panels.get("timeline")
        if timeline is not None:
            timeline.event_activated.connect(self.show_event)
            timeline.correct_requested.connect(self.entries.correct_report)
            timeline.card_requested.connect(self.entries.open_card)
        self.characters: dict = {}                  # badge -> CharacterView, from the deltas
        self._fitted = False
        # A STOPP on the map flashes until its alarm is acknowledged.
        self._flash = QTimer(self)
        self._flash.setInterval(500)
        self._flash.timeout.connect(self._flash_stopps)
        self._flash.start()
        screen = self.screen().availableGeometry()
        if on_a_screen():
            self.resize(min(DEFAULT_SIZE[0], screen.width()), min(DEFAULT_SIZE[1], screen.height()))
        else:
            self.resize(*OFFSCREEN_SIZE)
        self._laid_out = False
        self._restored = False
        self._auto_layout = False                   # the docks where _default_layout put them, not moved since
        self._relayout = QTimer(self, singleShot=True, interval=100)
        self._relayout.timeout.connect(self._default_layout)
        for dock in self.panels.docks.values():
            dock.dockLocationChanged.connect(self._dock_moved)
            dock.topLevelChanged.connect(self._dock_moved)
        self._restore()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._laid_out:
            self._laid_out = True
            self._fit_screen()
            if not self._restored:
                QTimer.singleShot(0, self._default_layout)      # once the window has its size
            else:
                QTimer.singleShot(0, self._check_restored)

    @Slot()
    def _check_restored(self) -> None:
        """A layout remembered from a bigger window that would leave the map less than half: the window's own."""
        if self.map.isVisible() and self.map.width() * self.map.height() < self.width() * self.height() / 2:
            log.info("the remembered layout leaves the map %dx%d of %dx%d: the default layout instead",
                     self.map.width(), self.map.height(), self.width(), self.height())
            self._default_layout()

    def _fit_screen(self) -> None:
        """A window remembered from a bigger screen is made to fit this one."""
        if not on_a_screen():
            return
        screen = self.screen().availableGeometry()
        frame = self.frameGeometry()
        extra_w, extra_h = frame.width() - self.width(), frame.height() - self.height()
        w = min(self.width(), screen.width() - extra_w)
        h = min(self.height(), screen.height() - extra_h)
        if (w, h) != (self.width(), self.height()):
            self.resize(w, h)
        if not screen.contains(self.frameGeometry()):
            self.move(max(screen.left(), min(frame.left(), screen.right() - frame.width() + 1)),
                      max(screen.top(), min(frame.top(), screen.bottom() - frame.height() + 1)))

    def _default_layout(self) -> None:
        """The map gets the room; the panels keep to the sides until the game master moves them.

        On a large screen: game controls on the left, the dying list on the
        right, Events under the map.  On a laptop: one column on the right,
        the dying list on top and the other panels in tabs under it.
        """
        sides = self.panels.side_widths()
        compact = self.height() < WIDE_HEIGHT or sum(sides) > (1 - MAP_SHARE) * self.width()
        if compact != self.panels.compact or not self._auto_layout:
            self._auto_layout = True
            self.panels.arrange(compact)
        else:
            self.panels.fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # The window's own layout follows its size (a screen that gave less than asked, a window made
        # smaller) until the game master moves a dock: then the layout is theirs.
        if self._laid_out and self._auto_layout and not self._relayout.isActive():
            self._relayout.start()

    @Slot()
    def _dock_moved(self) -> None:
        if not self.panels.arranging:
            self._auto_layout = False

    # -- data in -------------------------------------------------------------
    @Slot(object)
    def apply_delta(self, delta) -> None:
        """A delta of the core (connected by ui/app.py's ``wire``): map, panels, clocks, cards."""
        if delta.full:
            self.characters = {}
        for c in delta.characters:
            self.characters[c.badge] = c
        self.entries.note_entries(delta)
        self.layers.apply(delta)
        self.coverage.apply(delta)
        self.panels.apply(delta)
        self.entries.update_cards(delta)
        first = not self._fitted
        if first:
            self.map.fit_to_field()
            self._fitted = True
        self.clocks.apply_delta(delta)
        self.sides.set_sides(delta.sides)
        if self.status.text() == self._opening:
            self.status.setText("")
        if first:
            self._say_when_painted()            # the next paint of the map is one of the whole game

    def _say_when_painted(self) -> None:
        """Tell the core once the game it loaded is on the screen (CoreThread.wait_for_window): its opening
        completes the fold only then (at most WINDOW_PAINT_WAIT_S later: a minimised window does not paint).
        A map not shown has nothing to paint: at once."""
        painted = getattr(self.core, "window_painted", None)
        if painted is None:
            return
        viewport = self.map.viewport()
        if viewport.isVisible():
            self._paint_watch = AfterFirstPaint(viewport, painted)
            viewport.update()           # a paint comes even when the delta changed nothing the map shows
        else:
            painted()

    @Slot(str, int)
    def show_point(self, layer: str, index: int) -> None:
        """A click on a marker: its details in the status bar, where they stay until the next click."""
        text = self.map.label_of(layer, index)
        if text:
            self.status.setText(f"{self.map.layer_title(layer)}: {text}")

    @Slot(int)
    def show_event(self, seq: int) -> None:
        """Centre the map where an event of the timeline happened (its own position, or its group's)."""
        stored = self.entries.stored_event(seq)
        if stored is None:
            return
        xy = self.layers.where(stored.event)
        if xy is not None:
            x, y = xy
            self.map.getViewBox().setRange(xRange=(x - 150, x + 150), yRange=(y - 100, y + 100), padding=0)

    @Slot(object)
    def death_alarms(self, characters) -> None:
        """Deaths (CoreThread.characters_died, a burst at once): game alarms, all merged into one row with a count."""
        from controlroom.game.alarms import Alarm

        t = self.core.game_time()
        said = self.tr("{name} ({badge}, {group}) died")
        self.panels.alarms.add_alarms([Alarm(f"death:{c.badge}:{t}", "death", said.format(
            name=c.name, badge=c.badge, group=c.group), t) for c in characters])

    @Slot()
    def show_all_alarms(self):
        """The alarm strip's "+N more": every alarm waiting, in a list that follows the strip (not modal)."""
        from controlroom.ui.dialogs.alarm_list import AlarmListDialog

        if self.alarm_list is None:
            self.alarm_list = AlarmListDialog(self.panels.alarms, self)
        self.alarm_list.refresh()
        self.alarm_list.show()
        self.alarm_list.raise_()
        self.alarm_list.activateWindow()
        return self.alarm_list

    # -- files ---------------------------------------------------------------
    @Slot()
    def export_gis(self) -> None:
        """Game, Export for GIS: tracks, casualties, STOPPs and siege engines as GeoJSON, GPX or KML."""
        from controlroom.ui.dialogs.export import GisExportDialog

        dialog = GisExportDialog(self.core, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.gis_dialog = dialog

    @Slot()
    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in recent_games():
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _checked=False, p=path: self._open_in_new_window(p))

    @Slot()
    def _open_other(self) -> None:
        path = ask_for_game()
        if path:
            self._open_in_new_window(path)

    @Slot()
    def export_report(self) -> None:
        """Game, Export report: the casualty report as PDF and CSV, read from the stored game."""
        from controlroom.ui.dialogs.export import ExportDialog

        dialog = ExportDialog(self.core, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.export_dialog = dialog

    @Slot()
    def import_roster(self):
        """Game, Import roster: the registration desk's CSV file into the game under way."""
        from controlroom.ui.dialogs.roster_import import RosterImportDialog

        dialog = RosterImportDialog(self.core, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.imported.connect(self._roster_imported)
        dialog.open()
        self.roster_dialog = dialog
        return dialog

    @Slot()
    def invite_staff(self):
        """Game, Invite staff: a link and QR code to the live web view (served with --web) for one person."""
        from controlroom.ui.dialogs.invite import InviteDialog

        if self.core.info is None:
            return None
        address = getattr(self, "web_address", "") or ""
        dialog = InviteDialog(self.core.info.db, address.split("://", 1)[-1], getattr(self, "web_https", False),
                              getattr(self, "web_fingerprint", None), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.invite_dialog = dialog
        return dialog

    @Slot(int, int)
    def _roster_imported(self, added: int, unchanged: int) -> None:
        self.status.setText(self.tr("Roster imported: {added} players added to the game ({unchanged} of the file's "
                                    "players were in it already).").format(added=added, unchanged=unchanged))

    def _open_in_new_window(self, path: str) -> None:
        """Each game runs in a program of its own (one writer per game file)."""
        QProcess.startDetached(sys.executable, ["-m", "controlroom", "--db", path])

    @Slot()
    def _flash_stopps(self) -> None:
        item = self.map.layer_item("stopp")
        # The game master's choice in View, Layers; an empty layer's item stays hidden (MapView).
        wanted = self.map.layer_action("stopp").isChecked() and self.map.has_markers("stopp")
        if self.layers.unacknowledged and wanted:
            item.setVisible(not item.isVisible())
        elif item.isVisible() != wanted:
            item.setVisible(wanted)

    # -- menus ---------------------------------------------------------------
    def _menus(self) -> None:
        bar = self.menuBar()
        game = bar.addMenu(self.tr("&Game"))
        open_action = QAction(self.tr("&Open game…"), self, shortcut=QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self._open_other)
        game.addAction(open_action)
        self.recent_menu = game.addMenu(self.tr("Open &recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        export_action = QAction(self.tr("&Export report…"), self, shortcut=QKeySequence("Ctrl+E"))
        export_action.triggered.connect(self.export_report)
        game.addAction(export_action)
        gis_action = QAction(self.tr("Export for &GIS (GeoJSON, GPX, KML)…"), self,
                             shortcut=QKeySequence("Ctrl+Shift+E"))
        gis_action.triggered.connect(self.export_gis)
        game.addAction(gis_action)
        game.addSeparator()
        self.roster_action = QAction(self.tr("&Import roster…"), self)
        self.roster_action.triggered.connect(self.import_roster)
        game.addAction(self.roster_action)
        self.devices_action = QAction(self.tr("&Devices…"), self)        # readiness, provisioning, marshal cards
        self.devices_action.triggered.connect(lambda: self.desk_switch.show_desk("devices"))
        game.addAction(self.devices_action)
        replay_action = QAction(self.tr("Re&play…"), self)       # the replay window, in a program of its own
        replay_action.triggered.connect(
            lambda: self.core.info and QProcess.startDetached(
                sys.executable, ["-m", "controlroom", "--db", self.core.info.db, "--replay"]))
        game.addAction(replay_action)
        invite_action = QAction(self.tr("Invite &staff…"), self)   # a QR code for a phone: the live web view
        invite_action.triggered.connect(self.invite_staff)
        game.addAction(invite_action)
        game.addSeparator()
        quit_action = QAction(self.tr("&Quit"), self, shortcut=QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        game.addAction(quit_action)
        edit = bar.addMenu(self.tr("&Edit"))
        self.undo_action = QAction(self.tr("&Undo my last entry (within a minute)"), self,
                                   shortcut=QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.entries.undo_last_entry)
        edit.addAction(self.undo_action)
        self.find_action = QAction(self.tr("&Find a player or group…"), self, shortcut=QKeySequence.StandardKey.Find)
        self.find_action.triggered.connect(self.entries.find)
        edit.addAction(self.find_action)
        view = bar.addMenu(self.tr("&View"))
        view.addAction(self.map.fit_action)
        self.legend_action = QAction(self.tr("&Legend"), self, checkable=True, shortcut=QKeySequence("Ctrl+L"))
        self.legend_action.setChecked(True)
        self.legend_action.toggled.connect(self.map.legend.setVisible)
        view.addAction(self.legend_action)
        place = QAction(self.tr("&Place a map (image, GeoTIFF, MBTiles)…"), self)
        place.triggered.connect(self.maps.place_map_image)
        view.addAction(place)
        self.coverage.add_menu(view)
        self.night_action = QAction(self.tr("&Night mode"), self, checkable=True, shortcut=QKeySequence("Ctrl+N"))
        self.night_action.toggled.connect(self.set_night_mode)
        view.addAction(self.night_action)
        dim_menu = view.addMenu(self.tr("&Dim the map at night"))
        self.dim_actions = {}
        dim_group = QActionGroup(self)
        for level in DIM_LEVELS:
            action = QAction(self.tr("{percent} % darker").format(percent=round(level * 100)), self, checkable=True)
            action.setChecked(abs(level - self.map.dim) < 1e-6)
            action.triggered.connect(lambda _checked=False, v=level: self.map.set_dim(v))
            dim_group.addAction(action)
            dim_menu.addAction(action)
            self.dim_actions[level] = action
        self.large_action = QAction(self.tr("&Large text"), self, checkable=True, shortcut=QKeySequence("Ctrl++"))
        self.large_action.toggled.connect(self.set_large_text)
        view.addAction(self.large_action)
        self.speak_action = SpeakAlarmsAction(self)          # View, Speak alarms (ui/panels/speech.py)
        view.addAction(self.speak_action)
        self.desk_switch.add_menu(view)
        self._language_menu(view)
        for dock in self.findChildren(QDockWidget):
            view.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu(self.tr("&Help"))
        logs = QAction(self.tr("Open &log folder"), self)
        logs.triggered.connect(open_log_folder)
        help_menu.addAction(logs)

    def _language_menu(self, view) -> None:
        """View, Language: each language named in itself; the choice is remembered and applies at the next start."""
        menu = view.addMenu(self.tr("&Language"))
        group = QActionGroup(self)
        self.language_actions = {}
        spoken = i18n.language()
        for code, name in i18n.LANGUAGES.items():
            action = QAction(name, self, checkable=True)
            action.setChecked(code == spoken)
            action.triggered.connect(lambda _checked=False, c=code: self.choose_language(c))
            group.addAction(action)
            menu.addAction(action)
            self.language_actions[code] = action

    def choose_language(self, code: str) -> QMessageBox:
        """Remember ``code`` for the window's next start, and say so (in a box that does not block)."""
        save_language(code)
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Language"),
                          self.tr("From the next start, the window's language is: {language}.").format(
                              language=i18n.LANGUAGES[code]), QMessageBox.StandardButton.Ok, self)
        box.open()
        self._language_box = box
        return box

    @Slot(bool)
    def set_night_mode(self, on: bool) -> None:
        """Dark colours for a dark tent; the map dimmed by its overlay."""
        self.theme.set_night(on)
        self.map.set_night(on)

    @Slot(bool)
    def set_large_text(self, on: bool) -> None:
        font = QFont(QApplication.instance().font())
        font.setPointSizeF(14 if on else 9.5)
        QApplication.instance().setFont(font)
        if self._laid_out:
            QTimer.singleShot(0, self.panels.fit)          # the dying list keeps its names at the new size

    # -- settings ------------------------------------------------------------
    def _restore(self) -> None:
        s = QSettings()
        geometry, state = s.value("window/geometry"), s.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self._restored = self.restoreState(state, STATE_VERSION)
        dim = s.value("window/dim", NIGHT_DIM, type=float)
        for level, action in self.dim_actions.items():
            if abs(level - dim) < 1e-6:
                action.setChecked(True)
                self.map.set_dim(level)
        self.night_action.setChecked(s.value("window/night", False, type=bool))
        self.large_action.setChecked(s.value("window/large", False, type=bool))

    def closeEvent(self, event) -> None:
        s = QSettings()
        self.desk_switch.restore_docks()            # the layout saved is the map's, with its docks
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState(STATE_VERSION))
        s.setValue("window/night", self.night_action.isChecked())
        s.setValue("window/dim", self.map.dim)
        s.setValue("window/large", self.large_action.isChecked())
        self.speak_action.speech.stop()             # nothing more is said once the window is closed
        super().closeEvent(event)


def open_log_folder() -> None:
    """Help, Open log folder: the platform's log folder, where each window and station writes its own file."""
    folder = log_dir()
    folder.mkdir(parents=True, exist_ok=True)
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
