"""Render installer/controlroom.svg into the PNG (Linux) and ICO (Windows) icons, with Qt.

    python installer/icon.py OUT_DIR     # writes controlroom.png (256 px) and controlroom.ico

Runs off screen (Qt's offscreen platform) so that it works on a build server.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

SVG = Path(__file__).resolve().parent / "controlroom.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def _render(size: int):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"icon: {SVG} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def _png_bytes(image) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise SystemExit("icon: Qt could not encode a PNG")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO file holding PNG-compressed images (Windows Vista and later read these)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in sorted(pngs.items()):
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICO directory entry
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset + len(blobs))
        blobs += png
    return header + entries + blobs


def make_icons(out_dir: Path) -> tuple[Path, Path]:
    """Write controlroom.png and controlroom.ico into out_dir; return their paths."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(["icon"])
    out_dir.mkdir(parents=True, exist_ok=True)
    pngs = {size: _png_bytes(_render(size)) for size in ICO_SIZES}
    png_path, ico_path = out_dir / "controlroom.png", out_dir / "controlroom.ico"
    png_path.write_bytes(pngs[256])
    ico_path.write_bytes(ico_bytes(pngs))
    return png_path, ico_path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    for path in make_icons(Path(sys.argv[1])):
        print(path)
