"""The width and height of an image file from its header (PNG, JPEG, GIF, BMP, WebP), without decoding it."""

from __future__ import annotations

import os
import struct
from pathlib import Path

__all__ = ["ImageSizeError", "image_size", "image_size_of_bytes"]


class ImageSizeError(ValueError):
    """The file is not an image of a kind whose size can be read here, or it is cut short."""


def image_size(path: str | os.PathLike) -> tuple[str, int, int]:
    """(format, width, height) of an image file: format is "PNG", "JPEG", "GIF", "BMP" or "WebP"."""
    path = Path(path)
    with path.open("rb") as f:
        head = f.read(64 * 1024)
    try:
        return image_size_of_bytes(head)
    except ImageSizeError as exc:
        raise ImageSizeError(f"{path}: {exc}") from None


def image_size_of_bytes(data: bytes) -> tuple[str, int, int]:
    """(format, width, height) from the first bytes of an image (64 KiB is plenty for JPEG's markers)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "PNG", width, height
    if data[:6] in (b"GIF87a", b"GIF89a"):
        width, height = struct.unpack("<HH", data[6:10])
        return "GIF", width, height
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return "BMP", abs(width), abs(height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ("WebP", *_webp(data))
    if data[:3] == b"\xff\xd8\xff":
        return ("JPEG", *_jpeg(data))
    raise ImageSizeError("not a PNG, JPEG, GIF, BMP or WebP image")


def _jpeg(data: bytes) -> tuple[int, int]:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise ImageSizeError("a JPEG image whose size is not in its first 64 KiB")


def _webp(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return w, h
    if chunk == b"VP8 ":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    raise ImageSizeError("a WebP image of an unknown kind")
