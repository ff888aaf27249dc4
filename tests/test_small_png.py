"""The docs' PNGs made small (tests/support/small_png.py): fewer bytes, the same picture to the eye, nothing lost."""

import random
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from tests.support import small_png


def _from_pixels(pixels: list[tuple[int, int, int]], size: tuple[int, int]) -> Image.Image:
    image = Image.new("RGB", size)
    image.putdata(pixels)
    return image


def window_like(path: Path) -> Path:
    """A picture like a screenshot: a shaded map, flat panels, and small marks in colours of their own."""
    rng = random.Random(36)
    image = Image.new("RGB", (400, 240), (240, 240, 240))
    grass = [(90 + x % 40 + rng.randrange(12), 140 + y % 30 + rng.randrange(12), 60 + rng.randrange(12))
             for y in range(240) for x in range(300)]                  # a map: shaded greens, never flat
    image.paste(_from_pixels(grass, (300, 240)), (0, 0))
    draw = ImageDraw.Draw(image)
    draw.rectangle((300, 0, 399, 239), fill=(255, 255, 255))
    for i, colour in enumerate([(213, 94, 0), (148, 0, 211), (0, 114, 178), (204, 0, 0)]):
        draw.rectangle((310, 10 + 20 * i, 320, 20 + 20 * i), fill=colour)      # the legend's marks
        draw.text((330, 10 + 20 * i), "side", fill=(0, 0, 0))
    image.save(path, "PNG")
    return path


def test_a_screenshot_becomes_a_palette_of_fewer_bytes_and_keeps_its_legend(tmp_path):
    source = window_like(tmp_path / "shot.png")
    dest = tmp_path / "docs" / "shot.png"
    dest.parent.mkdir()
    written = small_png.save_small(source, dest)
    assert written == dest.stat().st_size < source.stat().st_size * 0.6
    with Image.open(source) as before, Image.open(dest) as after:
        assert after.mode == "P" and after.size == before.size
        assert len(after.getcolors(1 << 16) or ()) <= small_png.COLOURS
        after = after.convert("RGB")
        # Flat colours (the panels, the legend's marks) come out within a few levels; the shading nearly.
        for xy in [(315, 15), (315, 35), (315, 55), (315, 75), (350, 200)]:
            assert max(abs(a - b) for a, b in zip(after.getpixel(xy), before.getpixel(xy))) <= 4, xy
        diff = ImageChops.difference(before.convert("RGB"), after)
        worst = max(band_max for _band_min, band_max in diff.getextrema())
        assert worst <= 24


def test_a_picture_the_palette_would_not_shrink_is_copied_unchanged(tmp_path):
    source = tmp_path / "flat.png"
    Image.new("P", (8, 8), 0).save(source, "PNG", optimize=True)
    dest = tmp_path / "copy.png"
    small_png.save_small(source, dest)
    assert dest.read_bytes() == source.read_bytes()


def test_in_place_from_the_command_line(tmp_path, capsys):
    path = window_like(tmp_path / "page.png")
    before = path.stat().st_size
    assert small_png.main([str(path)]) == 0
    assert path.stat().st_size < before
    assert not list(tmp_path.glob("*.tmp"))
    assert f"{before:,} ->" in capsys.readouterr().out
    assert small_png.main([]) == 2
