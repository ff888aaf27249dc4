"""Opening a map in the window: asking for its coordinate system when nothing names it, or for three points."""

from __future__ import annotations

import os
from pathlib import Path

from pyproj import CRS
from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from controlroom.geo.crs import Candidate, CrsError, describe, looks_like_local_metres, parse_crs
from controlroom.geo.source import CrsUnknown, MapError, MapSource, NotPlaced, open_map

__all__ = ["CrsDialog", "open_map_interactively", "MAP_FILTER"]

#: The file dialog's filter for maps.
MAP_FILTER = "*.png *.jpg *.jpeg *.tif *.tiff *.gif *.bmp *.webp *.mbtiles"


class CrsDialog(QDialog):
    """Which coordinate system is this map in?  The likely ones first, or any EPSG code or WKT typed in."""

    def __init__(self, error: CrsUnknown, near: tuple[float, float] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = error.source
        self.near = near
        self._chosen: CRS | None = None
        self.setWindowTitle(self.tr("Coordinate system of {name}").format(name=self.source.path.name))
        local = looks_like_local_metres(self.source.world, self.source.width, self.source.height)
        self.candidates: list[Candidate] = [] if local else error.candidates(near)
        intro = self.tr(
            "{name} is placed by {placed}, but nothing says which coordinate system its numbers are in "
            "(no .prj or .aux.xml beside it). Choose the one the map was made in; a wrong one puts "
            "everything in the wrong place.").format(name=self.source.path.name, placed=self.source.placed_by)
        if local:
            intro += "\n\n" + self.tr(
                "Its numbers are small, like metres around a point, as earlier versions of controlroom wrote them. "
                "Cancel, and place the image again by clicking three points.")
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        self.list = QListWidget()
        for c in self.candidates:
            where = self.tr("centre at {lat:.4f}, {lon:.4f}").format(lat=c.lat, lon=c.lon)
            if c.distance_km is not None:
                where += self.tr(", {km:.1f} km from the field's positions").format(km=c.distance_km)
            item = QListWidgetItem(f"{c.label}  {c.name}  ({where})")
            item.setData(Qt.ItemDataRole.UserRole, c.label)
            self.list.addItem(item)
        self.list.currentRowChanged.connect(self._on_row)
        self.code = QLineEdit()
        self.code.setPlaceholderText(self.tr("or type an EPSG code (3301, EPSG:32635) or paste WKT"))
        self.code.textChanged.connect(self._on_text)
        self.described = QLabel()
        self.described.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        if self.candidates:
            layout.addWidget(QLabel(self.tr("Its numbers fit:")))
            layout.addWidget(self.list)
        layout.addWidget(self.code)
        layout.addWidget(self.described)
        layout.addWidget(self.buttons)
        self.resize(640, 420)
        self._update(None, "")

    @Slot(int)
    def _on_row(self, row: int) -> None:
        if 0 <= row < len(self.candidates):
            self.code.blockSignals(True)
            self.code.clear()
            self.code.blockSignals(False)
            self._update(self.candidates[row].crs, "")

    @Slot(str)
    def _on_text(self, text: str) -> None:
        if not text.strip():
            self._update(None, "")
            return
        self.list.clearSelection()
        try:
            crs = parse_crs(text, self.tr("that"))
        except CrsError as exc:
            self._update(None, str(exc))
            return
        self._update(crs, "")

    def _update(self, crs: CRS | None, problem: str) -> None:
        self._chosen = crs
        if crs is not None:
            try:
                lat, lon = self.source.with_crs(crs, "").centre()
                text = self.tr("{crs}: the map's centre would be at {lat:.5f}, {lon:.5f}").format(
                    crs=describe(crs), lat=lat, lon=lon)
            except Exception:       # pyproj cannot place the map in that system
                self._chosen, text = None, self.tr("{crs} cannot place this map").format(crs=describe(crs))
        else:
            text = problem
        self.described.setText(text)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(self._chosen is not None)

    def choose(self, index: int) -> None:
        """Pick candidate ``index`` (what a click in the list does)."""
        self.list.setCurrentRow(index)

    def chosen(self) -> CRS | None:
        """The coordinate system chosen, or None."""
        return self._chosen

    def chosen_source(self) -> MapSource | None:
        """The map with the chosen coordinate system."""
        if self._chosen is None:
            return None
        return self.source.with_crs(self._chosen, self.tr("chosen by the game master"))


def open_map_interactively(parent: QWidget, path: str | os.PathLike,
                           near: tuple[float, float] | None = None) -> MapSource | None:
    """Open a map file, asking what the file does not say: three points, or its coordinate system.

    Returns None when the game master cancels or the file cannot be used
    (after saying why).
    """
    from controlroom.ui.map.georef import GeorefDialog

    path = Path(path)
    for _attempt in range(2):
        try:
            return open_map(path)
        except NotPlaced:
            try:
                dialog = GeorefDialog(path, parent)
            except OSError as exc:
                QMessageBox.warning(parent, QCoreApplication.translate("map", "Map"),
                                    QCoreApplication.translate("map", "The map cannot be used: {error}").format(
                                        error=exc))
                return None
            if not dialog.exec():
                return None
            continue            # the image now has its world file, .prj and .aux.xml
        except CrsUnknown as exc:
            dialog = CrsDialog(exc, near, parent)
            if not dialog.exec():
                return None
            return dialog.chosen_source()
        except MapError as exc:
            QMessageBox.warning(parent, QCoreApplication.translate("map", "Map"),
                                QCoreApplication.translate("map", "The map cannot be used: {error}").format(error=exc))
            return None
    return None
