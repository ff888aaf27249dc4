"""Reading a PDF's pages for the report tests: the size of every text run, and how far down each page is used.

Font sizes come from the page content streams themselves: each ``Tf`` size
is multiplied by the scale of the text matrix and of the current
transformation matrix (``cm``, saved and restored by ``q``/``Q``), so that a
size is what a reader sees on paper, in points.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

_TOKEN = re.compile(rb"<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)|/[^\s/\[\]()<>]+"
                    rb"|[-+]?\d*\.\d+|[-+]?\d+|[A-Za-z'\"*]+|\[|\]")


def _mul(a, b):
    """Product of two PDF matrices [a b c d e f] (a then b)."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _scale(m) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def page_streams(path: Path) -> list[bytes]:
    """The decompressed content streams that draw text (Qt writes one per page, Flate-compressed)."""
    data = Path(path).read_bytes()
    out = []
    for raw in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            text = zlib.decompress(raw)
        except zlib.error:
            continue
        if b"BT" in text and b"Tf" in text:
            out.append(text)
    return out


def text_sizes(stream: bytes) -> list[float]:
    """The size in points of every text run (``Tj``/``TJ``) of a content stream."""
    ctm = [1.0, 0, 0, 1.0, 0, 0]
    stack = []
    tm = [1.0, 0, 0, 1.0, 0, 0]
    size = 0.0
    operands: list[bytes] = []
    sizes = []
    for token in _TOKEN.findall(stream):
        if token[:1].isalpha() or token in (b"'", b'"'):
            op = token
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop() if stack else ctm
            elif op == b"cm" and len(operands) >= 6:
                ctm = _mul([float(x) for x in operands[-6:]], ctm)
            elif op == b"BT":
                tm = [1.0, 0, 0, 1.0, 0, 0]
            elif op == b"Tm" and len(operands) >= 6:
                tm = [float(x) for x in operands[-6:]]
            elif op == b"Tf" and operands:
                size = float(operands[-1])
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                sizes.append(abs(size) * _scale(tm) * _scale(ctm))
            operands = []
        elif token not in (b"[", b"]"):
            operands.append(token)
    return sizes


def render_pages(pdf: Path, folder: Path, dpi: int = 24) -> list[Path]:
    """Each page as a greyscale picture (poppler's pdftoppm)."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (Debian's poppler-utils) is not installed")
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(pdf), str(folder / "p")], check=True,
                   capture_output=True)
    return sorted(folder.glob("p-*.pgm"))


def used_share(page: Path, top_mm: float = 22.0, bottom_mm: float = 20.0) -> float:
    """How far down the page's body (between its header and footer) something is drawn: 0 to 1."""
    from PIL import Image

    image = Image.open(page).convert("L")
    w, h = image.size
    mm = h / 297.0
    top, bottom = int(top_mm * mm), int(h - bottom_mm * mm)
    pixels = image.load()
    lowest = top
    for y in range(top, bottom):
        if any(pixels[x, y] < 200 for x in range(w)):
            lowest = y
    return (lowest - top) / max(1, bottom - top)


def pdftotext(path) -> list[str]:
    """The PDF's text, one string per page (poppler's pdftotext, columns kept by -layout)."""
    if shutil.which("pdftotext") is None:
        if os.environ.get("CI"):
            pytest.fail("pdftotext is missing: the quick start installs poppler-utils")
        pytest.skip("pdftotext (Debian's poppler-utils) is not installed")
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    pages = out.stdout.split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages
