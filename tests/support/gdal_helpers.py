"""Maps made by GDAL's own tools (Debian's gdal-bin) and GDAL's answers about them, for the placement tests."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def tool(program: str) -> str:
    """A GDAL program; the test is skipped without it, but fails under CI (CI=true), which installs gdal-bin."""
    found = shutil.which(program)
    if found:
        return found
    message = f"{program} is missing (Debian package gdal-bin; installer/quickstart.py test installs it as root)"
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(message)
    pytest.skip(message)


def gdal(program: str, *args, input: str | None = None) -> str:
    """Run a GDAL program; its standard output (the test fails with its message when it fails)."""
    done = subprocess.run([tool(program), *map(str, args)], input=input, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{program} {' '.join(map(str, args))}: {done.stderr}"
    return done.stdout


def make_geotiff(path: Path, epsg: int | str, ullr, size=(800, 600), bands=3, burn=(90, 160, 70), extra=()) -> Path:
    """A GeoTIFF with GDAL's own georeference: -a_srs and -a_ullr (upper-left x y, lower-right x y)."""
    burns = []
    for value in burn[:bands]:
        burns += ["-burn", value]
    srs = f"EPSG:{epsg}" if isinstance(epsg, int) else epsg
    gdal("gdal_create", "-q", "-of", "GTiff", "-outsize", *size, "-bands", bands, *burns, "-ot", "Byte",
         "-a_srs", srs, "-a_ullr", *ullr, *extra, path)
    return path


def pixel_of(path: Path, lat: float, lon: float) -> tuple[float, float]:
    """GDAL's pixel (column, row; centres at .5) of a WGS84 point on a georeferenced file (gdaltransform -i)."""
    out = gdal("gdaltransform", "-i", "-t_srs", "EPSG:4326", path, input=f"{float(lon)!r} {float(lat)!r}\n").split()
    return float(out[0]), float(out[1])


def latlon_of(path: Path, col: float, row: float) -> tuple[float, float]:
    """GDAL's WGS84 (lat, lon) of a pixel position of a georeferenced file (gdaltransform)."""
    out = gdal("gdaltransform", "-t_srs", "EPSG:4326", path, input=f"{float(col)!r} {float(row)!r}\n").split()
    return float(out[1]), float(out[0])


def srs_of(path: Path) -> str:
    """The coordinate system GDAL (and so QGIS) sees for a file, as EPSG:CODE or ''."""
    done = subprocess.run([tool("gdalsrsinfo"), "-o", "epsg", str(path)], capture_output=True, text=True, timeout=60)
    out = done.stdout.strip()
    return out if done.returncode == 0 and out.startswith("EPSG:") else ""
