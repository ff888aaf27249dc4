"""Exports of a replay: the map at one moment as PNG, the battle as MP4 or animated GIF.

MP4 is written by imageio-ffmpeg, whose wheel carries its own ffmpeg program;
GIF by Pillow.  Nothing is downloaded when a video is made.  Frames are drawn
by a map of their own, off the screen, at the video's size; the worker that
seeks for the window finds each frame's moment, so the window stays usable.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QWidget,
)

from controlroom.game.clock import format_time
from controlroom.ui.map.view import MapView
from controlroom.ui.replay.layers import ReplayLayers

log = logging.getLogger(__name__)

VIDEO_SIZES = ((1280, 720), (1920, 1080), (960, 540), (640, 360))     # even: MP4 (yuv420p) needs it
FORMATS = ("mp4", "gif")


def save_png(view: QWidget, path: str | Path) -> QImage:
    """The map as it is shown, saved as a PNG image; the image (OSError when it cannot be written)."""
    image = view.grab().toImage()
    if not image.save(str(path), "PNG"):
        raise OSError(f"cannot write {path}")
    return image


def rgb_array(image: QImage) -> np.ndarray:
    """A QImage's pixels as a (height, width, 3) uint8 array."""
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = image.width(), image.height(), image.bytesPerLine()
    data = np.frombuffer(image.constBits(), np.uint8, count=stride * h).reshape(h, stride)
    return data[:, : w * 3].reshape(h, w, 3).copy()


class FrameWriter:
    """Frames into an MP4 (H.264 through imageio-ffmpeg) or an animated GIF (Pillow)."""

    def __init__(self, path: str | Path, fps: float, size: tuple[int, int]) -> None:
        self.path = Path(path)
        self.fps = fps
        self.size = size
        self.kind = self.path.suffix.lower().lstrip(".")
        self.frames = 0
        if self.kind not in FORMATS:
            raise ValueError(f"{self.path.name}: a video is .mp4 or .gif, not .{self.kind}")
        if self.kind == "mp4" and (size[0] % 2 or size[1] % 2):
            raise ValueError(f"an MP4 video's width and height are even numbers, not {size[0]} x {size[1]}")
        self._gif: list = []
        self._mp4 = None
        if self.kind == "mp4":
            import imageio_ffmpeg

            self._mp4 = imageio_ffmpeg.write_frames(str(self.path), size, fps=fps, codec="libx264",
                                                    pix_fmt_out="yuv420p", macro_block_size=2, quality=7,
                                                    ffmpeg_log_level="error")
            self._mp4.send(None)

    def append(self, frame: np.ndarray) -> None:
        h, w = frame.shape[:2]
        if (w, h) != self.size:
            raise ValueError(f"a frame of {w} x {h} pixels in a video of {self.size[0]} x {self.size[1]}")
        if self._mp4 is not None:
            self._mp4.send(np.ascontiguousarray(frame))
        else:
            from PIL import Image

            self._gif.append(Image.fromarray(frame, "RGB").quantize(colors=128, dither=Image.Dither.NONE))
        self.frames += 1

    def close(self) -> None:
        if self._mp4 is not None:
            self._mp4.close()
            self._mp4 = None
        elif self._gif:
            first, rest = self._gif[0], self._gif[1:]
            first.save(self.path, save_all=True, append_images=rest, duration=round(1000 / self.fps), loop=0,
                       optimize=False)
            self._gif = []


def frame_times(start: int, end: int, speed: float, fps: float) -> list[int]:
    """The game moments of a video's frames: ``speed`` game seconds a second, ``fps`` frames a second."""
    if end < start:
        raise ValueError("the video ends before it starts")
    step = speed * 1000.0 / fps
    n = int((end - start) / step) + 1
    return [start + round(i * step) for i in range(n)]


def stamp(image: QImage, moment) -> None:
    """The moment's game time, scenario and sides in the frame's top left corner (a video has no slider)."""
    from PySide6.QtGui import QColor, QFont, QPainter

    delta = moment.delta
    lines = [f"{format_time(moment.t)}   {delta.scenario}"]
    lines += [QCoreApplication.translate("replay", "{side}: {active} up, {down} down, {dead} dead").format(
        side=side, active=c.get("active", 0), down=c.get("unconscious", 0) + c.get("knocked_out", 0),
        dead=c.get("dead", 0)) for side, c in delta.sides.items()]
    painter = QPainter(image)
    try:
        font = QFont(painter.font())
        font.setPixelSize(max(11, image.height() // 40))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        width = max(metrics.horizontalAdvance(line) for line in lines) + 16
        height = metrics.height() * len(lines) + 10
        painter.fillRect(60, 6, width, height, QColor(255, 255, 255, 220))
        painter.setPen(QColor("#202020"))
        for i, line in enumerate(lines):
            painter.drawText(68, 10 + metrics.ascent() + i * metrics.height(), line)
    finally:
        painter.end()


class FrameRenderer:
    """A map of its own, off the screen, at the video's size, drawing one moment at a time."""

    def __init__(self, size: tuple[int, int], devices: dict, like: MapView | None = None) -> None:
        self.view = MapView(projection=like.projection if like is not None else None)
        self.view.setBackground("w")
        self.view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        self.view.resize(*size)
        self.size = size
        self.layers = ReplayLayers(self.view)
        self.layers.set_devices(devices)
        if like is not None:
            if like.map_source is not None:
                self.view.set_map(like.map_source)
            rect = like.getViewBox().viewRect()
            self._range = QRectF(rect)
        else:
            self._range = None
        self._fitted = False

    def render(self, moment) -> np.ndarray:
        self.layers.show_moment(moment)
        if not self._fitted:
            if self._range is not None:
                self.view.getViewBox().setRange(rect=self._range, padding=0.0)
            else:
                self.view.fit_to_field()
            self._fitted = True
        self.view.flush()
        image = self.view.grab().toImage()
        if (image.width(), image.height()) != self.size:
            image = image.scaled(*self.size)
        stamp(image, moment)
        return rgb_array(image)

    def close(self) -> None:
        self.view.close()
        self.view.deleteLater()


class VideoExport(QObject):
    """A video made frame by frame: the worker seeks each moment, this draws and writes it (GUI thread)."""

    progressed = Signal(int, int)       # frames written, frames in all
    finished = Signal(str)              # the file written
    failed = Signal(str)

    def __init__(self, worker_thread, path: str | Path, times: list[int], fps: float, size: tuple[int, int],
                 devices: dict, like: MapView | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker_thread
        self.times = times
        self.writer = FrameWriter(path, fps, size)         # first: a wrong file name is said before anything is made
        self.renderer = FrameRenderer(size, devices, like)
        self.done = False
        self._next = 0

    def start(self) -> None:
        self.worker.worker.frame_ready.connect(self._frame)
        self._ask()

    def _ask(self) -> None:
        self.worker.ask_frame(self.times[self._next])

    @Slot(object)
    def _frame(self, moment) -> None:
        if self.done or moment.t != self.times[self._next]:
            return
        try:
            self.writer.append(self.renderer.render(moment))
        except (OSError, ValueError, BrokenPipeError) as exc:
            self._end(str(exc))
            return
        self._next += 1
        self.progressed.emit(self._next, len(self.times))
        if self._next < len(self.times):
            self._ask()
        else:
            self._end(None)

    def cancel(self) -> None:
        if not self.done:
            self._end("cancelled")

    def _end(self, error: str | None) -> None:
        self.done = True
        try:
            self.worker.worker.frame_ready.disconnect(self._frame)
        except (RuntimeError, TypeError):
            pass
        try:
            self.writer.close()
        except (OSError, ValueError, RuntimeError) as exc:
            error = error or str(exc)
        self.renderer.close()
        if error is None:
            self.finished.emit(str(self.writer.path))
        else:
            self.failed.emit(error)


class VideoDialog(QDialog):
    """Replay, Export the battle as video: file, span, speed, frames a second and size; then a progress bar."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle(self.tr("Export the battle as video"))
        facts = window.facts
        lo, hi = window.range
        form = QFormLayout(self)
        row = QHBoxLayout()
        self.path = QLineEdit(str(Path.home() / f"{facts.name if facts else 'battle'}-replay.mp4"))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self._browse)
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        form.addRow(self.tr("File (.mp4 or .gif):"), row)
        self.start = QLineEdit(format_time(lo))
        self.end = QLineEdit(format_time(hi))
        form.addRow(self.tr("From:"), self.start)
        form.addRow(self.tr("To:"), self.end)
        self.speed = QSpinBox()
        self.speed.setRange(1, 3600)
        self.speed.setValue(int(window.speed.currentData()) * 6)
        self.speed.setSuffix(self.tr("× game time"))
        form.addRow(self.tr("Speed:"), self.speed)
        self.fps = QSpinBox()
        self.fps.setRange(1, 30)
        self.fps.setValue(10)
        form.addRow(self.tr("Frames a second:"), self.fps)
        self.size = QComboBox()
        for w, h in VIDEO_SIZES:
            self.size.addItem(f"{w} × {h}")
        form.addRow(self.tr("Size:"), self.size)
        self.info = QLabel()
        form.addRow(self.info)
        self.bar = QProgressBar()
        self.bar.setVisible(False)
        form.addRow(self.bar)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.begin)
        self.buttons.rejected.connect(self._cancel)
        form.addRow(self.buttons)
        self.export: VideoExport | None = None
        for w in (self.start, self.end):
            w.textChanged.connect(self._update_info)
        self.speed.valueChanged.connect(self._update_info)
        self.fps.valueChanged.connect(self._update_info)
        self._update_info()

    def _span(self) -> tuple[int, int] | None:
        from controlroom.game.clock import TimeFormatError, parse_time

        try:
            return parse_time(self.start.text()), parse_time(self.end.text())
        except TimeFormatError:
            return None

    @Slot()
    def _update_info(self) -> None:
        span = self._span()
        if span is None or span[1] < span[0]:
            self.info.setText(self.tr("From and to are game times, HH:MM:SS, the first before the second."))
            return
        n = len(frame_times(span[0], span[1], self.speed.value(), self.fps.value()))
        self.info.setText(self.tr("{frames} frames, {seconds:.0f} s of video").format(
            frames=n, seconds=n / self.fps.value()))

    @Slot()
    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the battle as video"), self.path.text(),
                                              self.tr("Videos (*.mp4 *.gif)"))
        if path:
            self.path.setText(path)

    @Slot()
    def begin(self) -> None:
        span = self._span()
        if span is None or span[1] < span[0]:
            self._update_info()
            return
        path = self.path.text().strip()
        w = self.window_
        try:
            self.export = VideoExport(w.worker, path,
                                      frame_times(span[0], span[1], self.speed.value(), self.fps.value()),
                                      self.fps.value(), VIDEO_SIZES[self.size.currentIndex()], w.facts.devices,
                                      like=w.map, parent=self)
        except (ValueError, OSError, RuntimeError) as exc:
            self.info.setText(self.tr("The video cannot be made: {error}").format(error=exc))
            return
        w.set_playing(False)
        self.bar.setVisible(True)
        self.bar.setRange(0, len(self.export.times))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self.export.progressed.connect(self._progressed)
        self.export.finished.connect(self._finished)
        self.export.failed.connect(self._failed)
        self.export.start()

    @Slot(int, int)
    def _progressed(self, done: int, total: int) -> None:
        self.bar.setValue(done)

    @Slot(str)
    def _finished(self, path: str) -> None:
        self.window_.status.setText(self.tr("The battle is saved as {path}.").format(path=path))
        self.accept()

    @Slot(str)
    def _failed(self, error: str) -> None:
        self.info.setText(self.tr("The video was not made: {error}").format(error=error))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)

    @Slot()
    def _cancel(self) -> None:
        if self.export is not None and not self.export.done:
            self.export.cancel()
        self.reject()
