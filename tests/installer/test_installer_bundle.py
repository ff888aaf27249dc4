"""Build the Linux bundle and tarball (installer/build.py), unpack it outside the source tree, run it without Python.

The build takes 1 to 2 minutes on two cores; every test here shares one build.
"""

from __future__ import annotations

import faulthandler
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from controlroom import __version__
from tests.support.installer_helpers import INSTALLER, ROOT, load, require_tool

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the tarball is the Linux bundle")
check = load("bundle_check")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """installer/build.py's output (bundle folder, tarball, build-info.json) in a temporary folder."""
    # The build runs longer than pytest's faulthandler_timeout (120 s) on a busy machine; it has its own timeout.
    faulthandler.cancel_dump_traceback_later()
    out = tmp_path_factory.mktemp("dist")
    work = tmp_path_factory.mktemp("work")
    done = subprocess.run([sys.executable, str(INSTALLER / "build.py"), "--out", str(out), "--work", str(work)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    yield json.loads((out / "build-info.json").read_text())
    # A build is about 400 MB: not kept among pytest's last three temporary folders.
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def unpacked(built, tmp_path_factory) -> Path:
    """The tarball unpacked into a folder outside the source tree, as a game master would."""
    dest = tmp_path_factory.mktemp("unpacked")
    assert ROOT not in dest.parents
    with tarfile.open(built["tarball"]) as tar:
        tops = {name.split("/")[0] for name in tar.getnames()}
        assert tops == {f"controlroom-{__version__}-linux-{os.uname().machine}"}
        tar.extractall(dest, filter="tar")
    yield dest / tops.pop()
    shutil.rmtree(dest, ignore_errors=True)


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


def test_build_info_and_tarball_contents(built, unpacked):
    assert built["version"] == __version__ and built["bundle_bytes"] > 50 * 2**20
    for name in ("controlroom/controlroom", "controlroom-launch", "install.sh", "README.txt", "share/controlroom.png",
                 "share/controlroom.desktop", "share/controlroom-mime.xml", "share/60-controlroom-usb-serial.rules"):
        assert (unpacked / name).is_file(), name
    for name in ("controlroom/controlroom", "controlroom-launch", "install.sh"):
        assert os.access(unpacked / name, os.X_OK), name
    internal = unpacked / "controlroom" / "_internal"
    # The game's resources and the Qt platform plugins for off screen and X11.
    assert (internal / "controlroom" / "resources" / "rules" / "default.toml").is_file()
    assert (internal / "controlroom" / "resources" / "demo" / "field.png").is_file()
    # The translations: the command line's and the window's source, and the window's compiled by the build.
    for name in ("controlroom_et.ts", "window_et.ts", "window_et.qm"):
        assert (internal / "controlroom" / "resources" / "i18n" / name).is_file(), name
    plugins = internal / "PySide6" / "Qt" / "plugins" / "platforms"
    assert {"libqoffscreen.so", "libqxcb.so"} <= {p.name for p in plugins.iterdir()}
    # Not the GTK theme plugin, nor the half GTK stack it pulls in (installer/controlroom.spec).
    assert not (plugins.parent / "platformthemes" / "libqgtk3.so").exists()
    assert not list(internal.glob("libcairo*")) and not list(internal.glob("libpango*"))


def test_the_bundle_is_built_from_the_locked_versions(built, unpacked):
    import hashlib

    lock = load("lock")
    assert built["lock_sha256"] == hashlib.sha256(lock.LOCK.read_bytes()).hexdigest()
    pins = lock.pins_for(sys.platform)
    assert built["locked_versions"] and all(pins[n] == v for n, v in built["locked_versions"].items())
    internal = unpacked / "controlroom" / "_internal"
    for name, version in built["locked_versions"].items():
        if name in lock.installed_closure(lock.runtime()):
            assert (internal / "licenses" / f"{name}-{version}").is_dir(), name


def test_the_bundle_ships_the_licences_and_replaceable_lgpl_libraries(unpacked):
    assert "MIT License" in (unpacked / "LICENSE").read_text(encoding="utf-8")
    third = (unpacked / "THIRD-PARTY.txt").read_text(encoding="utf-8")
    assert "PySide6_Essentials" in third and "LGPL-3.0-only" in third and "download.qt.io" in third
    internal = unpacked / "controlroom" / "_internal"
    assert (internal / "licenses" / "THIRD-PARTY.txt").read_text(encoding="utf-8") == third
    (pyside,) = (internal / "licenses").glob("pyside6-essentials-*")
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (pyside / "LGPL-3.0.txt").read_text(encoding="utf-8")
    assert (internal / "licenses" / "controlroom" / "LICENSE").is_file()
    # The GPL ffmpeg program imageio-ffmpeg carries: its licence, version, source and the written offer.
    (ffmpeg,) = (internal / "licenses").glob("imageio-ffmpeg-*")
    note = (ffmpeg / "FFMPEG.txt").read_text(encoding="utf-8")
    assert "--enable-gpl" in note and "ffmpeg version" in note and "Written offer" in note, note
    assert "GNU GENERAL PUBLIC LICENSE" in (ffmpeg / "GPL-3.0.txt").read_text(encoding="utf-8")
    assert "imageio-ffmpeg-*/FFMPEG.txt" in third
    # The LGPL libraries' Python code lies as plain files (replaceable), beside Qt's shared libraries.
    for module in ("PySide6/__init__.py", "shiboken6/__init__.py", "psycopg/__init__.py"):
        assert (internal / module).is_file(), module
    assert list((internal / "PySide6" / "Qt" / "lib").glob("libQt6Core.so*"))


def test_the_bundle_knows_its_fold_code(unpacked):
    """A fold snapshot is valid only for the fold's code: the bundle, which has no .py files, carries their digest."""
    from controlroom.game.snapshot_json import BUILT_DIGEST, digest_of_sources

    internal = unpacked / "controlroom" / "_internal"
    assert not list((internal / "controlroom" / "game").glob("*.py"))
    built = (internal / "controlroom" / "game" / BUILT_DIGEST).read_text(encoding="ascii").strip()
    assert built == digest_of_sources(Path(__file__).resolve().parents[2] / "controlroom")


def test_bundled_version_runs_without_python(unpacked, home):
    done = check.run(unpacked / "controlroom", ["--version"], home)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"controlroom {__version__}"
    env = check.clean_env(home)
    assert not {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"} & env.keys()
    assert ".venv" not in env["PATH"] and str(ROOT) not in env["PATH"]


def test_bundled_help_speaks_estonian(unpacked, home):
    """The translations travel with the bundle: under an Estonian locale the help is Estonian."""
    done = check.run(unpacked / "controlroom", ["--help"], home, extra_env={"LANG": "et_EE.UTF-8"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("kasutus: controlroom") and "Juhtimiskeskus" in done.stdout


def test_bundled_demo_shows_the_window(unpacked, home):
    shot = home / "demo.png"
    done = check.run(unpacked / "controlroom", ["demo", "--quit-after", "10", "--screenshot", str(shot)], home)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr
    assert check.screenshot_problems(shot) == []


def test_bundled_demo_on_x11(unpacked, home):
    """The xcb platform plugin and its libraries are in the bundle: the demo on an X server (Xvfb)."""
    xvfb = require_tool("Xvfb", "xvfb")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_fd), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                              pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as f:
            display = f.readline().strip()
        assert display, "Xvfb reported no display"
        shot = home / "x11.png"
        done = check.run(unpacked / "controlroom", ["demo", "--quit-after", "5", "--screenshot", str(shot)], home,
                         extra_env={"QT_QPA_PLATFORM": "xcb", "DISPLAY": f":{display}"})
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert check.screenshot_problems(shot) == []
    finally:
        server.terminate()
        server.wait(10)


def test_bundled_headless_station(unpacked, home):
    helped = check.run(unpacked / "controlroom", ["headless", "--help"], home)
    assert helped.returncode == 0 and "--quit-after" in helped.stdout, helped.stderr
    game, stats = home / "games" / "field.crgame", home / "stats.json"
    game.parent.mkdir(parents=True)
    done = check.run(unpacked / "controlroom",
                     ["headless", "--db", str(game), "--quit-after", "2", "--stats-json", str(stats)], home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "game field open" in done.stdout
    assert game.is_file() and "health" in json.loads(stats.read_text())


def test_bundled_map_commands_and_window_place_a_geotiff(unpacked, home):
    """pyproj (with PROJ's database), tifffile and Qt's TIFF plugin are in the bundle: a GDAL-made GeoTIFF is placed."""
    gdal_create = require_tool("gdal_create", "gdal-bin")
    gdaltransform = require_tool("gdaltransform", "gdal-bin")
    maps = home / "maps"
    maps.mkdir(parents=True)
    tif = maps / "field.tif"
    subprocess.run([gdal_create, "-q", "-of", "GTiff", "-co", "COMPRESS=LZW", "-outsize", "400", "300", "-bands", "3",
                    "-burn", "200", "-burn", "30", "-burn", "200", "-a_srs", "EPSG:3301",
                    "-a_ullr", "658900", "6474400", "659300", "6474100", str(tif)], check=True)
    done = check.run(unpacked / "controlroom", ["map", "locate", str(tif), "58.38", "26.72", "--json"], home)
    assert done.returncode == 0, done.stdout + done.stderr
    answer = json.loads(done.stdout)
    gdal = subprocess.run([gdaltransform, "-i", "-t_srs", "EPSG:4326", str(tif)], input="26.72 58.38\n",
                          capture_output=True, text=True, check=True).stdout.split()
    assert answer["crs"] == "EPSG:3301"
    assert abs(answer["x"] - float(gdal[0])) < 1e-3 and abs(answer["y"] - float(gdal[1])) < 1e-3
    info = check.run(unpacked / "controlroom", ["map", "info", str(tif)], home)
    assert info.returncode == 0 and "EPSG:3301 Estonian Coordinate System of 1997" in info.stdout, info.stderr
    shot = home / "map.png"
    shown = check.run(unpacked / "controlroom", ["--db", str(home / "g.crgame"), "--map", str(tif), "--quit-after", "4",
                                                 "--screenshot", str(shot)], home)
    assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr[-2000:]
    from PySide6.QtGui import QImage

    img = QImage(str(shot))
    magenta = sum(1 for y in range(0, img.height(), 4) for x in range(0, img.width(), 4)
                  if (img.pixelColor(x, y).red(), img.pixelColor(x, y).green(),
                      img.pixelColor(x, y).blue()) == (200, 30, 200))
    assert magenta > 100


@pytest.mark.skipif(importlib.util.find_spec("psycopg") is None, reason="psycopg is not installed, so not bundled")
def test_bundled_postgresql_driver(unpacked, home):
    """With psycopg in the build, the bundle reaches for the server (here: nobody listens) instead of a missing
    driver."""
    url = "postgresql+psycopg://game:secret@127.0.0.1:9/none"
    done = check.run(unpacked / "controlroom", ["headless", "--db", url, "--quit-after", "2"], home)
    assert "not installed" not in done.stdout + done.stderr
    assert done.returncode == 1 and "ALARM" in done.stdout and "storage" in done.stdout, done.stdout + done.stderr
    bundled = {p.name for p in (unpacked / "controlroom" / "_internal").iterdir()}
    assert {"psycopg_binary", "psycopg_binary.libs"} <= bundled


def test_bundled_headless_on_postgresql(unpacked, home, pg_url):
    """A headless station of the bundle on a real PostgreSQL game (the server that .ci/run starts)."""
    done = check.run(unpacked / "controlroom", ["headless", "--db", pg_url, "--quit-after", "2"], home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ALARM" not in done.stdout and " open at " in done.stdout, done.stdout


def test_install_script_for_one_user(unpacked, home):
    validate = require_tool("desktop-file-validate", "desktop-file-utils")
    env = check.clean_env(home)
    done = subprocess.run([str(unpacked / "install.sh")], env=env, cwd=home, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    desktop = home / "data" / "applications" / "controlroom.desktop"
    valid = subprocess.run([validate, str(desktop)], capture_output=True, text=True)
    assert valid.returncode == 0 and not valid.stdout.strip(), valid.stdout
    assert f'Exec="{unpacked}/controlroom-launch" %f' in desktop.read_text()
    assert (home / "data" / "icons" / "hicolor" / "256x256" / "apps" / "controlroom.png").is_file()
    linked = subprocess.run([str(home / ".local" / "bin" / "controlroom"), "--version"], env=env, cwd=home,
                            capture_output=True, text=True)
    assert linked.stdout.strip() == f"controlroom {__version__}", linked.stderr
    removed = subprocess.run([str(unpacked / "install.sh"), "--uninstall"], env=env, cwd=home, capture_output=True)
    assert removed.returncode == 0 and not desktop.exists() and not (home / ".local" / "bin" / "controlroom").exists()


def test_nsis_installer_compiles_over_the_bundle(built, tmp_path):
    """The Windows installer script compiles over the real (Linux) bundle folder: the file list and pages hold."""
    require_tool("makensis", "nsis")
    build = load("build")
    # Uncompressed: LZMA (the release setting) takes about 4 minutes over this folder, zlib over a minute.
    setup = build.compile_nsis(Path(built["bundle"]), Path(built["icon_ico"]), tmp_path, "none", strict=True)
    with setup.open("rb") as f:
        assert f.read(2) == b"MZ"
    assert setup.stat().st_size > built["bundle_bytes"] * 0.9
