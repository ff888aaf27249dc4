"""Maps in the window: place a map file on the live map, keep it with the game, show the kept one.

A part of :class:`controlroom.ui.main_window.MainWindow` (``window.maps``),
which reads the window's ``core``, ``status`` and ``map``.  Its texts are
translated under its own Qt context, ``WindowMaps``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import QMessageBox


class WindowMaps(QObject):
    """View, Place a map: open, show and keep a map file; the game's kept map once the game is open."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.map_job = None
        self.map_places_warning = None

    @Slot()
    def place_map_image(self) -> None:
        """View, Place a map: an image with its world file, a GeoTIFF or MBTiles; kept with the game.

        An image nothing places is placed by clicking three points; a map whose
        coordinate system nothing names asks for it, with the likely ones first.
        """
        from PySide6.QtWidgets import QFileDialog

        from controlroom.ui.map.open import MAP_FILTER

        path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Map of the field"), "",
                                              self.tr("Maps ({patterns})").format(patterns=MAP_FILTER))
        if path:
            self.open_map_file(path)

    def open_map_file(self, path: str) -> bool:
        """Show a map file on the live map and keep it in the game; False when it was not shown."""
        from controlroom.ui.map.open import open_map_interactively

        source = open_map_interactively(self.window, path, self.field_centre())
        return source is not None and self.show_map(source, keep=True)

    def field_centre(self) -> tuple[float, float] | None:
        """Where the field is, by its positions so far (for the likely coordinate systems of a map)."""
        frame = self.window.map.projection
        return (frame.lat0, frame.lon0) if frame is not None else None

    def show_map(self, source, keep: bool = False) -> bool:
        """Put a map on the live map (and, with ``keep``, into the game, so that it opens with it)."""
        from controlroom.geo.source import MapError

        try:
            self.window.map.set_map(source)
        except (OSError, MapError, ValueError) as exc:
            QMessageBox.warning(self.window, self.tr("Map"),
                                self.tr("The map cannot be shown: {error}").format(error=exc))
            return False
        self.window.map.fit_to_field()
        if keep:
            self.keep_map(source)
        return True

    def keep_map(self, source) -> None:
        """Store the map and its georeference in the game (Open recent and --db bring it back)."""
        if self.window.core.info is None:          # the game is still opening: keep it once it is open
            self._map_to_keep = source
            self.window.core.opened.connect(self._keep_map_now, Qt.ConnectionType.SingleShotConnection)
            return
        self._keep_map_now(None, source)

    @Slot(object)
    def _keep_map_now(self, _info, source=None) -> None:
        source = source if source is not None else self._map_to_keep
        job = self.window.core.jobs.keep_map(source.path, source.kind, source.crs.to_wkt(), source.world.as_lines(),
                                      source.width, source.height)
        # Emitted in the jobs' thread: handed to the window's own thread explicitly.  Connected straight to
        # these methods of a mixin (since 6438112), PySide6 called them in the jobs' thread (a status text set,
        # a message box made there: found when the status message began to pop up a tooltip, and hung).
        job.finished.connect(lambda kept: QTimer.singleShot(0, self, lambda: self._map_kept(kept)))
        job.failed.connect(lambda why: QTimer.singleShot(0, self, lambda: self._map_not_kept(why)))
        self.map_job = job

    @Slot(object)
    def _map_kept(self, kept) -> None:
        """``kept``: core.jobs.MapKept (name, named places, the places file's problem)."""
        self.window.status.setText(self.tr("The map {name} is kept with the game.").format(name=kept.name))
        if kept.problem:
            self.map_places_warning = QMessageBox(
                QMessageBox.Icon.Warning, self.tr("Map"),
                self.tr("The map is kept, but its named places were not read, so reports give STOPP places by "
                        "grid square only: {problem}").format(problem=kept.problem), parent=self.window)
            self.map_places_warning.open()

    @Slot(str)
    def _map_not_kept(self, error: str) -> None:
        QMessageBox.warning(self.window, self.tr("Map"), self.tr(
            "The map is shown, but it could not be kept with the game: {error}").format(error=error))

    @Slot(object)
    def show_kept_map(self, info) -> None:
        """The map kept with the game (GameInfo.map), once the core has opened it."""
        from controlroom.geo.source import MapError, restore_map

        if info.map_problem:
            self.window.status.setText(
                self.tr("The game's map could not be opened: {error}").format(error=info.map_problem))
        if info.map is None or info.map_path is None:
            return
        m = info.map
        try:
            source = restore_map(info.map_path, m.kind, m.width, m.height, m.world, m.crs, info.where)
        except (MapError, OSError, ValueError) as exc:
            self.window.status.setText(self.tr("The game's map could not be opened: {error}").format(error=exc))
            return
        self.show_map(source)
