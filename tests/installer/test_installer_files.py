"""The installer's files without a build: desktop entry, icons, udev hint, NSIS script (stand-in bundle)."""

from __future__ import annotations

import re
import struct
import subprocess

from controlroom import __version__
from tests.support.installer_helpers import INSTALLER, load, require_tool


def test_desktop_entry_passes_desktop_file_validate():
    validate = require_tool("desktop-file-validate", "desktop-file-utils")
    desktop = INSTALLER / "linux" / "controlroom.desktop"
    done = subprocess.run([validate, str(desktop)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr
    text = desktop.read_text(encoding="utf-8")
    assert "MimeType=application/x-controlroom-game;" in text
    assert 'type="application/x-controlroom-game"' in (INSTALLER / "linux" / "controlroom-mime.xml").read_text()


def test_icons_render_from_the_svg(tmp_path):
    from PySide6.QtGui import QImage

    icon = load("icon")
    png, ico = icon.make_icons(tmp_path)
    image = QImage(str(png))
    assert (image.width(), image.height()) == (256, 256)
    assert image.pixelColor(128, 128).alpha() == 255 and image.pixelColor(0, 0).alpha() == 0
    assert len({image.pixel(x, y) for x in range(0, 256, 8) for y in range(0, 256, 8)}) > 10
    data = ico.read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind, count) == (0, 1, len(icon.ICO_SIZES))
    for i, size in enumerate(icon.ICO_SIZES):
        width, height, _c, _r, _p, _bpp, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        assert width == height == (size % 256)
        assert data[offset:offset + 8] == b"\x89PNG\r\n\x1a\n" and offset + length <= len(data)


def test_udev_hint_covers_cp210x_and_ch340():
    rules = [line for line in (INSTALLER / "linux" / "60-controlroom-usb-serial.rules").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    vendors = {re.search(r'ATTRS\{idVendor\}=="([0-9a-f]{4})"', line).group(1) for line in rules}
    assert {"10c4", "1a86"} <= vendors
    assert all('SUBSYSTEM=="tty"' in line and 'GROUP="dialout"' in line for line in rules)


def test_nsis_script_compiles_over_a_stand_in_bundle(tmp_path):
    """The .nsi compiles with Debian's makensis (warnings are errors) over a small folder shaped like the bundle."""
    require_tool("makensis", "nsis")
    build = load("build")
    bundle = tmp_path / "controlroom"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "controlroom.exe").write_bytes(b"MZ stand-in for the console program")
    (bundle / "controlroom-window.exe").write_bytes(b"MZ stand-in for the window program")
    (bundle / "_internal" / "base_library.zip").write_bytes(b"PK stand-in")
    png, ico = load("icon").make_icons(tmp_path / "icons")
    setup = build.compile_nsis(bundle, ico, tmp_path, "zlib", strict=True)
    assert setup.name == f"controlroom-{__version__}-setup.exe"
    data = setup.read_bytes()
    assert data[:2] == b"MZ" and b"Nullsoft" in data
