#!/usr/bin/env python3
"""Build controlroom's bundle for the platform this runs on, and its installer.

    python3 installer/build.py            # Linux: bundle + tarball; Windows: bundle + NSIS installer
    python3 installer/build.py --nsis     # Linux too: also compile the Windows installer script with makensis

It uses the project's virtual environment (``.venv``, made by
``installer/quickstart.py``) or the one it runs in, installs there the exact
versions of ``installer/constraints.txt`` (PyInstaller's included), refuses to
build when the bundle would hold anything unpinned or of another version
(``installer/lock.py``), and writes everything under ``--out``
(default ``dist/``): the one-folder bundle ``controlroom/``, then
``controlroom-VERSION-linux-ARCH.tar.gz`` or ``controlroom-VERSION-setup.exe``,
and ``build-info.json`` with the build time and sizes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WINDOWS = os.name == "nt"
LOCK = HERE / "constraints.txt"            # the exact versions the bundle is built from (installer/lock.py)
LINUX_FILES = HERE / "linux"
NSI = HERE / "controlroom.nsi"


def say(text: str) -> None:
    print(f"[build] {text}", flush=True)


def version() -> str:
    text = (ROOT / "controlroom" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def build_python() -> Path:
    """The Python that has controlroom's dependencies: this one if it is a virtual environment, else .venv's."""
    if sys.prefix != sys.base_prefix:
        return Path(sys.executable)
    venv_py = ROOT / ".venv" / ("Scripts/python.exe" if WINDOWS else "bin/python")
    if not venv_py.exists():
        sys.exit("[build] no virtual environment: run `python3 installer/quickstart.py run` once first")
    return venv_py


def ensure_locked(py: Path, work: Path) -> dict:
    """Install the bundle's requirements at the versions of installer/constraints.txt, then check that the
    bundle will hold exactly those (nothing unpinned, no other version); returns the check's findings."""
    platform_lines = [line for line in LOCK.read_text(encoding="utf-8").splitlines()
                      if f'sys_platform == "{sys.platform}"' in line]
    if not platform_lines:
        sys.exit(f"[build] {LOCK.name} has no versions for {sys.platform}: run `python installer/lock.py write` "
                 "with the build's Python on this platform, and commit the file")
    top = work / "bundle-requirements.txt"
    top.write_text(subprocess.check_output([str(py), str(HERE / "lock.py"), "top"], text=True), encoding="utf-8")
    say(f"installing the locked versions ({LOCK.name}) into {py.parent.parent}")
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", str(LOCK),
                    "-r", str(top)], check=True)
    done = subprocess.run([str(py), str(HERE / "lock.py"), "check"], capture_output=True, text=True)
    found = json.loads(done.stdout)
    if not found["ok"]:
        problems = ([f"not pinned: {name}" for name in found["unpinned"]]
                    + [f"other version: {d}" for d in found["differs"]])
        sys.exit(f"[build] the bundle would not be the locked one ({LOCK.name}):\n  " + "\n  ".join(problems)
                 + "\nrun `python installer/lock.py write` to lock the new versions, and commit the file")
    return found


def stage_sources(stage: Path) -> None:
    """The package laid out as the wheel installs it: controlroom/ with resources/ as controlroom/resources/."""
    shutil.rmtree(stage, ignore_errors=True)
    junk = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "controlroom", stage / "controlroom", ignore=junk)
    shutil.copytree(ROOT / "resources", stage / "controlroom" / "resources", ignore=junk)


def du(path: Path) -> int:
    """Bytes in a file or a folder (apparent sizes, symbolic links not followed)."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def run_pyinstaller(py: Path, work: Path, dist: Path, stage: Path, icon: Path) -> Path:
    env = dict(os.environ, CONTROLROOM_STAGE=str(stage))
    if WINDOWS:
        env["CONTROLROOM_ICON"] = str(icon)
    cmd = [str(py), "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
           "--distpath", str(dist), "--workpath", str(work / "pyinstaller"), str(HERE / "controlroom.spec")]
    say("PyInstaller: " + " ".join(cmd[1:]))
    subprocess.run(cmd, check=True, env=env, cwd=work)
    bundle = dist / "controlroom"
    program = bundle / ("controlroom.exe" if WINDOWS else "controlroom")
    if not program.exists():
        sys.exit(f"[build] PyInstaller finished but {program} is missing")
    return bundle


def _add_file(tar: tarfile.TarFile, src: Path, name: str, executable: bool = False) -> None:
    info = tar.gettarinfo(str(src), name)
    info.mode = 0o755 if executable else 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    with src.open("rb") as f:
        tar.addfile(info, f)


def make_tarball(bundle: Path, png: Path, out: Path) -> Path:
    """controlroom-VERSION-linux-ARCH.tar.gz: the bundle, the launcher, desktop entry, icon, MIME type, udev hint."""
    top = f"controlroom-{version()}-linux-{platform.machine()}"
    tarball = out / f"{top}.tar.gz"
    say(f"writing {tarball}")

    def owner_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(tarball, "w:gz", compresslevel=6) as tar:
        tar.add(str(bundle), f"{top}/controlroom", filter=owner_root)
        _add_file(tar, LINUX_FILES / "controlroom-launch", f"{top}/controlroom-launch", executable=True)
        _add_file(tar, LINUX_FILES / "install.sh", f"{top}/install.sh", executable=True)
        _add_file(tar, LINUX_FILES / "README.txt", f"{top}/README.txt")
        _add_file(tar, ROOT / "LICENSE", f"{top}/LICENSE")
        _add_file(tar, bundle / "_internal" / "licenses" / "THIRD-PARTY.txt", f"{top}/THIRD-PARTY.txt")
        for name in ("controlroom.desktop", "controlroom-mime.xml", "60-controlroom-usb-serial.rules"):
            _add_file(tar, LINUX_FILES / name, f"{top}/share/{name}")
        _add_file(tar, png, f"{top}/share/controlroom.png")
    return tarball


def compile_nsis(bundle: Path, ico: Path, out: Path, compressor: str, strict: bool = False) -> Path:
    """Compile installer/controlroom.nsi over a bundle folder into controlroom-VERSION-setup.exe
    (strict: warnings fail)."""
    makensis = shutil.which("makensis")
    if makensis is None:
        sys.exit("[build] makensis is missing (Debian: apt-get install nsis; Windows: https://nsis.sourceforge.io)")
    setup = out / f"controlroom-{version()}-setup.exe"
    # makensis reads options as -D on Linux and /D on Windows; -D works with both since NSIS 3.
    cmd = [makensis, "-V2", f"-DVERSION={version()}", f"-DBUNDLE_DIR={bundle}", f"-DICON={ico}",
           f"-DOUTFILE={setup}", f"-DCOMPRESSOR={compressor}", f"-DDRIVERS_TXT={HERE / 'windows-drivers.txt'}",
           *(["-WX"] if strict else []), str(NSI)]
    say("makensis: " + " ".join(cmd[1:]))
    subprocess.run(cmd, check=True)
    return setup


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist",
                        help="where the bundle and installers go (default dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "installer",
                        help="scratch folder (default build/installer/)")
    parser.add_argument("--nsis", action="store_true", help="also compile the NSIS installer (the default on Windows)")
    parser.add_argument("--nsis-compressor", default="lzma", choices=("lzma", "zlib", "bzip2", "none"),
                        help="NSIS compression (lzma: smallest, about 4 minutes here; none: a quick check)")
    parser.add_argument("--no-tarball", action="store_true", help="Linux: stop after the bundle folder")
    args = parser.parse_args(argv)
    out, work = args.out.resolve(), args.work.resolve()
    out.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    py = build_python()
    locked = ensure_locked(py, work)

    started = time.monotonic()
    stage = work / "stage"
    stage_sources(stage)
    # The window's translations compiled (window_et.qm), shipped beside their .ts.
    subprocess.run([str(py), str(HERE / "translations.py"), "release",
                    str(stage / "controlroom" / "resources" / "i18n")],
                   check=True, stdout=subprocess.DEVNULL)
    # The licences of what is bundled, read from the build's Python (installer/licenses.py).
    subprocess.run([str(py), str(HERE / "licenses.py"), str(stage)], check=True, stdout=subprocess.DEVNULL)
    icons = work / "icons"
    subprocess.run([str(py), str(HERE / "icon.py"), str(icons)], check=True,
                   env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), stdout=subprocess.DEVNULL)
    png, ico = icons / "controlroom.png", icons / "controlroom.ico"
    shutil.rmtree(out / "controlroom", ignore_errors=True)
    bundle = run_pyinstaller(py, work, out, stage, ico)
    info: dict = {"version": version(), "platform": sys.platform, "machine": platform.machine(),
                  "pyinstaller": locked["versions"].get("pyinstaller"), "icon_png": str(png), "icon_ico": str(ico),
                  "lock": LOCK.name, "lock_sha256": hashlib.sha256(LOCK.read_bytes()).hexdigest(),
                  "locked_versions": locked["versions"],
                  "bundle": str(bundle), "bundle_bytes": du(bundle),
                  "bundle_seconds": round(time.monotonic() - started, 1)}
    say(f"bundle {bundle}: {info['bundle_bytes'] / 2**20:.0f} MiB in {info['bundle_seconds']:.0f} s")
    if not WINDOWS and not args.no_tarball:
        t0 = time.monotonic()
        tarball = make_tarball(bundle, png, out)
        info.update(tarball=str(tarball), tarball_bytes=du(tarball), tarball_seconds=round(time.monotonic() - t0, 1))
        say(f"tarball {tarball.name}: {info['tarball_bytes'] / 2**20:.0f} MiB in {info['tarball_seconds']:.0f} s")
    if WINDOWS or args.nsis:
        t0 = time.monotonic()
        setup = compile_nsis(bundle, ico, out, args.nsis_compressor)
        info.update(setup=str(setup), setup_bytes=du(setup), setup_seconds=round(time.monotonic() - t0, 1))
        say(f"installer {setup.name}: {info['setup_bytes'] / 2**20:.0f} MiB in {info['setup_seconds']:.0f} s")
    info["total_seconds"] = round(time.monotonic() - started, 1)
    (out / "build-info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    say(f"done in {info['total_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
