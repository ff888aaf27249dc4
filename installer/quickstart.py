#!/usr/bin/env python3
"""Set up controlroom from a source checkout and run it or its tests (idempotent).

    python3 installer/quickstart.py run    # set up, then run the main job
    python3 installer/quickstart.py test   # set up, then run the test suite

On Windows: ``py installer\\quickstart.py run`` (or ``test``).  Extra
arguments after the word are passed on (to ``controlroom`` or to pytest);
``test`` alone runs the window's tests, the tests that stop a server (when
a second server is given) and the others as pytest processes at once (see
``run_suites``).

It creates ``.venv`` beside this folder, installs the project with its test
extra when ``pyproject.toml`` changed since the last install, checks the
system libraries Qt needs (installing them with apt-get when run as root on
Debian or Ubuntu, else printing the exact apt-get line), installs the
MicroPython interpreter used by the firmware tests (npm), and runs.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
WINDOWS = os.name == "nt"
BIN = VENV / ("Scripts" if WINDOWS else "bin")
PY = BIN / ("python.exe" if WINDOWS else "python")
STAMP = VENV / ".controlroom-installed"

# The main job: the control room on the built-in simulator.
MAIN_JOB = ["demo"]
SCREENSHOT = ROOT / "controlroom-demo.png"


def has_display() -> bool:
    """A screen to open a window on (Windows and macOS always have one)."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))

# Shared libraries Qt loads, and the Debian package of each.
DEBIAN_LIBS = {
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libOpenGL.so.0": "libopengl0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb.so.1": "libxcb1",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
}
# Programs the tests use, and their Debian packages.
DEBIAN_TOOLS = {"Xvfb": "xvfb", "node": "nodejs", "npm": "npm", "makensis": "nsis",
                "desktop-file-validate": "desktop-file-utils",
                "pdftotext": "poppler-utils", "pdftoppm": "poppler-utils", "zbarimg": "zbar-tools",
                "gdal_translate": "gdal-bin",
                "pulseaudio": "pulseaudio", "parec": "pulseaudio-utils", "paplay": "pulseaudio-utils",
                "openssl": "openssl", "espeak-ng": "espeak-ng",
                # The web view's tests drive Debian's browser through its WebDriver (tests/web).
                "chromium": "chromium", "chromedriver": "chromium-driver"}


def say(text: str) -> None:
    print(f"[quickstart] {text}", flush=True)


def run(cmd: list[str], **kw) -> int:
    return subprocess.call([str(c) for c in cmd], **kw)


def ensure_venv() -> None:
    if PY.exists():
        return
    say(f"creating a virtual environment in {VENV}")
    if run([sys.executable, "-m", "venv", VENV]) != 0:
        apt_or_advise(["python3-venv"], "Python's venv module")
        if run([sys.executable, "-m", "venv", "--clear", VENV]) != 0:
            sys.exit("[quickstart] could not create the virtual environment (see above)")


def ensure_installed() -> None:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == digest:
        return
    say("installing controlroom and its test tools into .venv (first run or pyproject.toml changed)")
    if run([PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", f"{ROOT}[test]"]) != 0:
        sys.exit("[quickstart] pip could not install the project (see above)")
    STAMP.write_text(digest)


def ensure_translations() -> None:
    """The window's translations compiled (resources/i18n/window_LANG.qm), again when a .ts is newer."""
    folder = ROOT / "resources" / "i18n"
    stale = [ts for ts in folder.glob("window_*.ts")
             if not ts.with_suffix(".qm").exists() or ts.with_suffix(".qm").stat().st_mtime < ts.stat().st_mtime]
    if stale and run([PY, ROOT / "installer" / "translations.py", "release"], cwd=ROOT) != 0:
        say("the window's translations could not be compiled: the window compiles them at its start")


_apt_updated = False


def apt_or_advise(packages: list[str], what: str) -> bool:
    """Install Debian packages when root with apt-get; otherwise print the command. True if installed."""
    global _apt_updated
    line = "sudo apt-get install -y " + " ".join(packages)
    if WINDOWS or not shutil.which("apt-get"):
        say(f"{what} needs: {' '.join(packages)} (install them with your system's package manager)")
        return False
    if os.geteuid() != 0:
        say(f"{what} needs Debian packages that are missing. Run:\n    {line}")
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if not _apt_updated:
        say("apt-get update")
        run(["apt-get", "update", "-qq"], env=env, stdout=subprocess.DEVNULL)
        _apt_updated = True
    say(f"installing {' '.join(packages)} for {what}")
    return run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages], env=env,
               stdout=subprocess.DEVNULL) == 0


def missing_qt_libraries() -> list[str]:
    """Debian packages for the shared libraries Qt's widgets and platform plugins cannot find."""
    if WINDOWS or sys.platform == "darwin" or not shutil.which("ldd"):
        return []
    code = "import PySide6, pathlib; print(pathlib.Path(PySide6.__file__).parent)"
    qt = Path(subprocess.check_output([str(PY), "-c", code], text=True).strip()) / "Qt"
    targets = [qt / "lib" / "libQt6Widgets.so.6", qt / "plugins" / "platforms" / "libqoffscreen.so",
               qt / "plugins" / "platforms" / "libqxcb.so"]
    missing = set()
    for target in targets:
        if not target.exists():
            continue
        out = subprocess.run(["ldd", str(target)], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if "not found" in line:
                soname = line.split()[0]
                missing.add(DEBIAN_LIBS.get(soname, soname))
    return sorted(missing)


def ensure_system_packages(for_tests: bool) -> None:
    packages = missing_qt_libraries()
    if for_tests and not WINDOWS:
        packages += [pkg for tool, pkg in DEBIAN_TOOLS.items() if not shutil.which(tool)]
    if packages:
        apt_or_advise(sorted(set(packages)), "Qt and the test tools")


def ensure_micropython() -> None:
    """The real MicroPython interpreter (npm package) that the firmware tests run in."""
    hw = ROOT / "hardware"
    if not (hw / "package.json").exists():
        return
    if (hw / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").exists():
        return
    npm = shutil.which("npm")
    if not npm:
        say("npm is missing: the firmware tests under real MicroPython will be skipped")
        return
    say("installing the MicroPython interpreter for the firmware tests (npm)")
    cmd = [npm, "ci" if (hw / "package-lock.json").exists() else "install",
           "--no-audit", "--no-fund", "--prefix", str(hw)]
    if run(cmd) != 0:
        say("npm could not install MicroPython: the firmware tests under MicroPython will be skipped")


TAKY_VENV = ROOT / ".venv-taky"
TAKY_PY = TAKY_VENV / ("Scripts" if WINDOWS else "bin") / ("python.exe" if WINDOWS else "python")


def ensure_taky() -> None:
    """taky, the TAK server the TAK tests talk to, in a virtual environment of its own (.venv-taky).

    It installs a top-level package named ``tests`` and needs setuptools'
    ``pkg_resources`` (gone from setuptools 81): kept out of the project's own.
    """
    if TAKY_PY.exists():
        return
    say("installing taky, the TAK server of the TAK tests, into .venv-taky")
    if run([sys.executable, "-m", "venv", TAKY_VENV]) != 0 or run(
            [TAKY_PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "taky>=0.10",
             "setuptools<81"]) != 0:
        say("taky could not be installed: the TAK server tests will fail (see above)")


OUTAGE_PG_ENV, OUTAGE_DATA_ENV = "CONTROLROOM_TEST_PG_OUTAGE", "CONTROLROOM_TEST_PG_OUTAGE_DATA"
BESIDE_THE_OUTAGE = ("installer", "hardware", "micropython", "web")     # test folders run with the outage's


def _files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("test_*.py"))


def _mentions(path: Path, words: tuple[str, ...]) -> bool:
    text = path.read_text(encoding="utf-8")
    return any(word in text for word in words)


def suites(outage_server: bool) -> tuple[list[str], list[str], list[str]]:
    """The test files as three suites that can run at once: the window's, the outage's, and the rest.

    The window's: tests/ui files that use no PostgreSQL server.  The
    outage's, when a second server is there for it: files whose tests stop
    the server (a station's outage, for up to a minute: ``pg_control``),
    with the installer's, the firmware's and the web view's (of about the
    rest's length in all); without a second server they run with the rest.
    """
    window, outage, rest = [], [], []
    for f in _files(ROOT / "tests"):
        name = str(f.relative_to(ROOT))
        if f.parent == ROOT / "tests" / "ui" and not _mentions(f, ("pg_url", "game_db", "_pg_admin")):
            window.append(name)
        elif outage_server and (_mentions(f, ("pg_control",)) or f.parent.name in BESIDE_THE_OUTAGE):
            outage.append(name)
        else:
            rest.append(name)
    return window, outage, rest


def run_suites(env: dict) -> int:
    """The whole test suite as pytest processes at once: the window's tests, the outage's, and the rest.

    They share nothing but the PostgreSQL server, and the tests that stop a
    server have one of their own (``CONTROLROOM_TEST_PG_OUTAGE``, which
    .ci/run starts): the window's tests are bound by drawing, the others
    mostly by waiting (killed stations, serial lines, the server's outage),
    so on two cores the run takes about the longest of them.  Their output
    follows, one suite after another.
    """
    outage_url, outage_data = env.get(OUTAGE_PG_ENV), env.get(OUTAGE_DATA_ENV)
    window, outage, rest = suites(bool(outage_url and outage_data))
    beside = [("the window's tests", window, {}, ROOT / ".pytest-window.log")]
    if outage:
        beside.append(("the tests that stop a server", outage,
                       {"CONTROLROOM_TEST_PG": outage_url, "CONTROLROOM_TEST_PG_DATA": outage_data},
                       ROOT / ".pytest-outage.log"))
    say("running " + ", ".join(f"{len(files)} files of {what}" for what, files, _e, _l in beside)
        + f" beside the other {len(rest)}; their output follows")
    procs = []
    try:
        for _what, files, extra, log_path in beside:
            with open(log_path, "w", encoding="utf-8") as log:
                procs.append(subprocess.Popen([str(PY), "-m", "pytest", "-p", "no:cacheprovider", "--durations=15",
                                               *files], cwd=ROOT, env={**env, **extra}, stdout=log,
                                              stderr=subprocess.STDOUT))
        others = run([PY, "-m", "pytest", "--durations=15", *rest], cwd=ROOT, env=env)
    finally:
        codes = [p.wait() for p in procs]
    for what, _files, _extra, log_path in beside:
        say(f"{what} ran beside:")
        sys.stdout.write(log_path.read_text(encoding="utf-8", errors="replace"))
        sys.stdout.flush()
    say("exit codes: the others " + str(others) + "".join(f", {what} {code}" for (what, *_r), code in
                                                          zip(beside, codes)))
    return others or next((c for c in codes if c), 0)


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - run by any python3, before the install checks it
        sys.exit(f"[quickstart] controlroom needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not argv or argv[0] not in ("run", "test"):
        print(__doc__)
        return 2
    job, rest = argv[0], argv[1:]
    ensure_venv()
    ensure_installed()
    ensure_translations()
    ensure_system_packages(for_tests=job == "test")
    env = dict(os.environ)
    if job == "test":
        ensure_micropython()
        ensure_taky()
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        if rest:
            return run([PY, "-m", "pytest", *rest], cwd=ROOT, env=env)
        return run_suites(env)
    exe = BIN / ("controlroom.exe" if WINDOWS else "controlroom")
    job = rest or MAIN_JOB
    if not rest and not has_display():
        # No screen here (a server, an SSH session): run the demo off screen for
        # half a minute and keep a picture of the window.
        say(f"no display: running the demo off screen for 30 s; the window is saved to {SCREENSHOT}")
        env["QT_QPA_PLATFORM"] = "offscreen"
        job = [*MAIN_JOB, "--quit-after", "30", "--screenshot", str(SCREENSHOT)]
    return run([exe, *job], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
