"""Georeference a map image by clicking control points and typing their GPS coordinates.

The fit is an affine in the local metres of a :class:`LocalProjection`; OK writes
it as a world file beside the image (foo.png -> foo.pgw, foo.jpg -> foo.jgw,
anything else -> foo.wld), which :func:`controlroom.ui.geo.world_file_for` finds.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
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

from controlroom.ui.geo import LocalProjection, WorldFile, affine_from_control_points

__all__ = ["write_world_file", "sidecar_path", "GeorefDialog"]

_SIDECAR = {".png": ".pgw", ".jpg": ".jgw", ".jpeg": ".jgw"}

# Table columns.
COL_PIXEL_X, COL_PIXEL_Y, COL_LAT, COL_LON, COL_ERROR = range(5)


def sidecar_path(image_path: str | os.PathLike) -> Path:
    """Where the world file for an image is saved: foo.png -> foo.pgw, foo.jpg -> foo.jgw, else foo.wld."""
    image_path = Path(image_path)
    return image_path.with_suffix(_SIDECAR.get(image_path.suffix.lower(), ".wld"))


def write_world_file(path: str | os.PathLike, wf: WorldFile) -> Path:
    """Write ``wf`` as a six-line world file (A, D, B, E, C, F), one number a line, full precision.

    ``repr`` of a float round-trips exactly, so :func:`read_world_file` reads the
    same values back.  The file is written beside the target and renamed into
    place, so a failed write never leaves half a world file.
    """
    path = Path(path)
    text = "".join(f"{float(v)!r}\n" for v in wf.as_lines())
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="ascii", newline="\n")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


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

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        super().mousePressEvent(event)

    def wheelEvent(self, event) -> None:  # noqa: N802 (Qt override)
        steps = event.angleDelta().y() / 120.0
        if steps:
            factor = 1.25 ** steps
            scale = self.transform().m11() * factor
            if 0.02 <= scale <= 64.0:
                self.scale(factor, factor)
        event.accept()


class GeorefDialog(QDialog):
    """Click points on a map image, type their latitude/longitude, save a world file.

    Pixel positions use the world-file convention: (0, 0) is the centre of the
    top-left pixel.  The logic is usable without clicking: :meth:`add_point`,
    :meth:`set_coordinates`, :meth:`remove_point`, :meth:`fit`,
    :meth:`residual_m` and :meth:`save`.
    """

    def __init__(self, image_path: str | os.PathLike, projection: LocalProjection,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._image_path = Path(image_path)
        self._projection = projection
        self._result: WorldFile | None = None
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
            "Three points are needed; more give a check of the fit."), self)
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
        """(pixels, local metres, row indices, problem message or '') of the points with coordinates."""
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
            worlds.append(self._projection.to_local(lat, lon))
            rows.append(index)
        return pixels, worlds, rows, ""

    def _evaluate(self) -> tuple[WorldFile | None, float | None, str, list[int], np.ndarray | None]:
        pixels, worlds, rows, problem = self._control_points()
        if problem:
            return None, None, problem, [], None
        if len(pixels) < 3:
            return None, None, self.tr(
                "{n} of 3 points have coordinates: add {more} more.").format(
                    n=len(pixels), more=3 - len(pixels)), rows, None
        try:
            wf = affine_from_control_points(pixels, worlds)
        except ValueError:
            return None, None, self.tr(
                "The points lie on (or close to) one line, so the image cannot be placed. "
                "Pick points spread out in a wide triangle."), rows, None
        px = np.asarray(pixels, dtype=float)
        wd = np.asarray(worlds, dtype=float)
        fx, fy = wf.pixel_to_world(px[:, 0], px[:, 1])
        errors = np.hypot(wd[:, 0] - fx, wd[:, 1] - fy)
        residual = 0.0 if len(pixels) == 3 else float(np.sqrt(np.mean(errors ** 2)))
        return wf, residual, "", rows, errors

    def fit(self) -> WorldFile | None:
        """The affine pixel -> local metres from the points with coordinates, or None (see :meth:`message`)."""
        return self._evaluate()[0]

    def residual_m(self) -> float | None:
        """RMS distance in metres between typed and fitted positions; 0 for exactly 3 points."""
        return self._evaluate()[1]

    def message(self) -> str:
        """Why there is no fit yet ('' when there is one)."""
        return self._evaluate()[2]

    def _refresh(self) -> None:
        wf, residual, problem, rows, errors = self._evaluate()
        self.table.blockSignals(True)
        try:
            for index in range(self.table.rowCount()):
                self.table.item(index, COL_ERROR).setText("")
            if errors is not None and len(rows) > 3:
                for index, error in zip(rows, errors):
                    self.table.item(index, COL_ERROR).setText(f"{error:.1f}")
        finally:
            self.table.blockSignals(False)
        if residual is None:
            self.residual_label.setText(self.tr("Fit error: needs 3 points with coordinates"))
        elif len(rows) == 3:
            self.residual_label.setText(self.tr(
                "Fit error: 0 m (3 points fit exactly; add a 4th to check them)"))
        else:
            self.residual_label.setText(self.tr("Fit error: {rms:.1f} m RMS over {n} points").format(
                rms=residual, n=len(rows)))
        self.message_label.setText(problem)
        self.remove_button.setEnabled(self.table.rowCount() > 0)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(wf is not None)

    # -------------------------------------------------------------------- save

    def save(self) -> Path:
        """Write the fitted world file beside the image and return its path.

        Raises ValueError (with the user-facing message) when there is no fit,
        and OSError when the file cannot be written.
        """
        wf, _, problem, _, _ = self._evaluate()
        if wf is None:
            raise ValueError(problem)
        path = write_world_file(sidecar_path(self._image_path), wf)
        self._result, self._saved = wf, path
        return path

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
        """The saved world file (local metres of the projection), or None before OK."""
        return self._result

    def saved_path(self) -> Path | None:
        """The world file written by OK / :meth:`save`, or None."""
        return self._saved
