"""PNGs for docs/ made small: at most 256 colours (Pillow's octree quantizer), saved optimised.

    .venv/bin/python -m tests.support.small_png FILE.png ...      # each file in place

The screenshot tests save through ``save_small`` (only when asked:
CONTROLROOM_SAVE_SCREENSHOTS=1), and the sample report's pages go through
the command line (docs/sample-report/README.md).  A window's screenshot
keeps every colour of its legend and its text; it becomes a third to a
quarter of Qt's PNG.  A file the palette would not make smaller is copied
as it is.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

from PIL import Image

COLOURS = 256


def small_png_bytes(source: Path) -> bytes:
    """The picture in ``source`` as a PNG of at most ``COLOURS`` colours (its size and pixels' places kept)."""
    with Image.open(source) as image:
        image.load()
        if image.mode not in ("RGB", "RGBA"):
            image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
        paletted = image.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    paletted.save(out, "PNG", optimize=True)
    return out.getvalue()


def save_small(source: Path | str, dest: Path | str) -> int:
    """Write ``source`` to ``dest`` with a reduced palette, or unchanged if that is not smaller; the bytes written."""
    source, dest = Path(source), Path(dest)
    data = small_png_bytes(source)
    if len(data) >= source.stat().st_size:
        if source.resolve() != dest.resolve():
            shutil.copyfile(source, dest)
        return dest.stat().st_size
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(dest)
    return len(data)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for name in argv:
        before = Path(name).stat().st_size
        after = save_small(name, name)
        print(f"{name}: {before:,} -> {after:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
