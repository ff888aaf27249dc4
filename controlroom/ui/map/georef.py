"""Placing a map: click points with known GPS positions (least squares in the field's UTM zone), or name its CRS.

OK writes a world file (foo.png -> foo.pgw), foo.prj and GDAL's
foo.png.aux.xml beside the image, in the UTM zone of the points, so that
QGIS and GDAL open the image in place too.  A map whose coordinate system
nothing names is never guessed (controlroom.ui.map.open asks).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from controlroom.geo.calibrate import Calibration, calibrate, save_calibration
from controlroom.geo.worldfile import WorldFile, sidecar_path, write_world_file

__all__ = ["write_world_file", "sidecar_path", "GeorefDialog"]

# Table columns.
COL_PIXEL_X, COL_PIXEL_Y, COL_LAT, COL_LON, COL_ERROR = range(5)


def _parse_degrees(text: str) -> float | None:
    """A decimal-degree number (a decimal comma is accepted), or None when it is not one."""
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class _ImageView(QGraphicsView):
    """A graphics view that reports left clicks in scene coordinates and zooms with the wheel."""

    clicked = Signal(QPointF)

    def __init__(self, scene: QGraphicsScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setCursor(Qt.CursorShape.CrossCursor)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        super().mousePressEvent(event)

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            factor = 1.25 ** steps
            scale = self.transform().m11() * factor
            if 0.02 <= scale <= 64.0:
                self.scale(factor, factor)
        event.accept()


class GeorefDialog(QDialog):
    """Click points on a map image, type their latitude/longitude, save a world file, .prj and .aux.xml.

    Pixel positions use the world-file convention: (0, 0) is the centre of the
    top-left pixel.  The logic is usable without clicking: :meth:`add_point`,
    :meth:`set_coordinates`, :meth:`remove_point`, :meth:`fit`,
    :meth:`residual_m` and :meth:`save`.
    """

    def __init__(self, image_path: str | os.PathLike, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._image_path = Path(image_path)
        self._result: Calibration | None = None
        self._saved: Path | None = None
        self._markers: list[tuple[QGraphicsEllipseItem, QGraphicsSimpleTextItem]] = []

        pixmap = QPixmap(str(self._image_path))
        if pixmap.isNull():
            raise OSError(f"cannot read image {self._image_path}")

        self.setWindowTitle(self.tr("Place map image: {name}").format(name=self._image_path.name))

        self.scene = QGraphicsScene(self)
        self.pixmap_item = QGraphicsPixmapItem(pixmap)
        self.scene.addItem(self.pixmap_item)
        self.scene.setSceneRect(self.pixmap_item.boundingRect())
        self.view = _ImageView(self.scene, self)
        self.view.clicked.connect(self.on_scene_clicked)

        self.table = QTableWidget(0, 5, self)
        self.table.setHorizontalHeaderLabels([
            self.tr("Column"), self.tr("Row"), self.tr("Latitude"), self.tr("Longitude"),
            self.tr("Error (m)"),
        ])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemChanged.connect(self._on_item_changed)

        self.remove_button = QPushButton(self.tr("Remove point"), self)
        self.remove_button.clicked.connect(self._remove_selected)

        self.hint_label = QLabel(self.tr(
            "Click a spot on the image you can find on the ground, then type its "
            "latitude and longitude in decimal degrees (e.g. 58.3781, 26.7290). "
            "Three points are needed; more are fitted by least squares, and each point's error shows "
            "which one was clicked or typed wrong."), self)
        self.hint_label.setWordWrap(True)
        self.residual_label = QLabel(self)
        self.message_label = QLabel(self)
        self.message_label.setWordWrap(True)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.hint_label)
        side_layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        row.addWidget(self.remove_button)
        row.addStretch(1)
        side_layout.addLayout(row)
        side_layout.addWidget(self.residual_label)
        side_layout.addWidget(self.message_label)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.view)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)

        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.buttons)
        self.resize(1000, 650)
        self._refresh()

    # ------------------------------------------------------------------ points

    @property
    def image_path(self) -> Path:
        return self._image_path

    def point_count(self) -> int:
        return self.table.rowCount()

    def pixel(self, index: int) -> tuple[float, float]:
        """(col, row) of point ``index``, pixel-centre convention."""
        return (self.table.item(index, COL_PIXEL_X).data(Qt.ItemDataRole.UserRole),
                self.table.item(index, COL_PIXEL_Y).data(Qt.ItemDataRole.UserRole))

    def on_scene_clicked(self, scene_pos: QPointF) -> int | None:
        """Add a point at a scene position (image item corner convention); None outside the image."""
        local = self.pixmap_item.mapFromScene(scene_pos)
        if not self.pixmap_item.boundingRect().contains(local):
            return None
        # The item puts pixel (col, row) on [col, col+1]; world files use pixel centres.
        return self.add_point(local.x() - 0.5, local.y() - 0.5)

    def add_point(self, col: float, row: float) -> int:
        """Add a control point at pixel (col, row), without coordinates yet; returns its index."""
        index = self.table.rowCount()
        self.table.blockSignals(True)
        try:
            self.table.insertRow(index)
            for column, value in ((COL_PIXEL_X, col), (COL_PIXEL_Y, row)):
                item = QTableWidgetItem(f"{value:.1f}")
                item.setData(Qt.ItemDataRole.UserRole, float(value))
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(index, column, item)
            for column in (COL_LAT, COL_LON):
                self.table.setItem(index, column, QTableWidgetItem(""))
            error = QTableWidgetItem("")
            error.setFlags(error.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(index, COL_ERROR, error)
        finally:
            self.table.blockSignals(False)
        self._add_marker(col, row)
        self.table.setCurrentCell(index, COL_LAT)
        self._refresh()
        return index

    def set_coordinates(self, index: int, lat: float | str, lon: float | str) -> None:
        """Fill in the latitude and longitude (decimal degrees, or text as typed) of point ``index``."""
        self.table.blockSignals(True)
        try:
            for column, value in ((COL_LAT, lat), (COL_LON, lon)):
                text = value if isinstance(value, str) else repr(float(value))
                self.table.item(index, column).setText(text)
        finally:
            self.table.blockSignals(False)
        self._refresh()

    def remove_point(self, index: int) -> None:
        """Remove point ``index``; the later points move up one."""
        if not 0 <= index < self.table.rowCount():
            return
        self.table.removeRow(index)
        dot, label = self._markers.pop(index)
        self.scene.removeItem(dot)
        self.scene.removeItem(label)
        for number, (_, text) in enumerate(self._markers, start=1):
            text.setText(str(number))
        self._refresh()

    def _remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()},
                      reverse=True)
        if not rows and self.table.currentRow() >= 0:
            rows = [self.table.currentRow()]
        for index in rows:
            self.remove_point(index)

    def _add_marker(self, col: float, row: float) -> None:
        pos = QPointF(col + 0.5, row + 0.5)
        dot = QGraphicsEllipseItem(-5, -5, 10, 10)
        dot.setPen(QPen(QColor("white"), 2))
        dot.setBrush(QBrush(QColor("#e53935")))
        dot.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        dot.setPos(pos)
        dot.setZValue(1)
        label = QGraphicsSimpleTextItem(str(len(self._markers) + 1))
        label.setBrush(QBrush(QColor("#e53935")))
        label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        label.setPos(pos)
        label.setZValue(1)
        self.scene.addItem(dot)
        self.scene.addItem(label)
        self._markers.append((dot, label))

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() in (COL_LAT, COL_LON):
            self._refresh()

    # --------------------------------------------------------------------- fit

    def _control_points(self) -> tuple[list[tuple[float, float]], list[tuple[float, float]], list[int], str]:
        """(pixels, (lat, lon) pairs, row indices, problem message or '') of the points with coordinates."""
        pixels, worlds, rows = [], [], []
        for index in range(self.table.rowCount()):
            lat_text = self.table.item(index, COL_LAT).text().strip()
            lon_text = self.table.item(index, COL_LON).text().strip()
            if not lat_text and not lon_text:
                continue
            lat, lon = _parse_degrees(lat_text), _parse_degrees(lon_text)
            if lat is None or lon is None:
                return [], [], [], self.tr(
                    "Point {n}: latitude and longitude must be numbers in decimal "
                    "degrees, like 58.3781 and 26.7290.").format(n=index + 1)
            if not (-90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0):
                return [], [], [], self.tr(
                    "Point {n}: latitude must be between -90 and 90 and longitude "
                    "between -180 and 180 (check they are not swapped).").format(n=index + 1)
            pixels.append(self.pixel(index))
            worlds.append((lat, lon))
            rows.append(index)
        return pixels, worlds, rows, ""

    def _evaluate(self) -> tuple[Calibration | None, str, list[int]]:
        pixels, latlons, rows, problem = self._control_points()
        if problem:
            return None, problem, []
        if len(pixels) < 3:
            return None, self.tr(
                "{n} of 3 points have coordinates: add {more} more.").format(
                    n=len(pixels), more=3 - len(pixels)), rows
        try:
            return calibrate(pixels, latlons), "", rows
        except ValueError:
            return None, self.tr(
                "The points lie on (or close to) one line, so the image cannot be placed. "
                "Pick points spread out in a wide triangle."), rows

    def fit(self) -> WorldFile | None:
        """The world file (pixel centres -> UTM metres) from the points with coordinates, or None
        (see :meth:`message`)."""
        cal = self._evaluate()[0]
        return cal.world if cal is not None else None

    def calibration(self) -> Calibration | None:
        """The fit with its coordinate system and each point's residual, or None."""
        return self._evaluate()[0]

    def residual_m(self) -> float | None:
        """RMS distance in metres between typed and fitted positions; 0 for exactly 3 points."""
        cal = self._evaluate()[0]
        return cal.rms_m if cal is not None else None

    def message(self) -> str:
        """Why there is no fit yet ('' when there is one)."""
        return self._evaluate()[1]

    def _refresh(self) -> None:
        cal, problem, rows = self._evaluate()
        self.table.blockSignals(True)
        try:
            for index in range(self.table.rowCount()):
                self.table.item(index, COL_ERROR).setText("")
            if cal is not None and len(rows) > 3:
                for index, error in zip(rows, cal.residuals_m):
                    self.table.item(index, COL_ERROR).setText(f"{error:.1f}")
        finally:
            self.table.blockSignals(False)
        if cal is None:
            self.residual_label.setText(self.tr("Fit error: needs 3 points with coordinates"))
        elif len(rows) == 3:
            self.residual_label.setText(self.tr(
                "Fit error: 0 m (3 points fit exactly; add a 4th to check them)"))
        else:
            self.residual_label.setText(self.tr(
                "Fit error: {rms:.1f} m RMS over {n} points; point {worst} is furthest off ({most:.1f} m)").format(
                rms=cal.rms_m, n=len(rows), worst=rows[cal.worst] + 1, most=max(cal.residuals_m)))
        self.message_label.setText(problem)
        self.remove_button.setEnabled(self.table.rowCount() > 0)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(cal is not None)

    # -------------------------------------------------------------------- save

    def save(self) -> Path:
        """Write the world file, .prj and .aux.xml beside the image; returns the world file's path.

        Raises ValueError (with the user-facing message) when there is no fit,
        and OSError when the files cannot be written.
        """
        cal, problem, _ = self._evaluate()
        if cal is None:
            raise ValueError(problem)
        written = save_calibration(self._image_path, cal)
        self._result, self._saved = cal, written[0]
        return written[0]

    def accept(self) -> None:
        try:
            self.save()
        except ValueError as exc:
            self.message_label.setText(str(exc))
            return
        except OSError as exc:
            self.message_label.setText(self.tr("Could not save the placement: {error}").format(
                error=exc.strerror or exc))
            return
        super().accept()

    def result_world_file(self) -> WorldFile | None:
        """The saved world file (UTM metres of :meth:`result_calibration`'s zone), or None before OK."""
        return self._result.world if self._result is not None else None

    def result_calibration(self) -> Calibration | None:
        """The saved fit, with its coordinate system and residuals, or None before OK."""
        return self._result

    def saved_path(self) -> Path | None:
        """The world file written by OK / :meth:`save`, or None."""
        return self._saved
