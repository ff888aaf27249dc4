#!/usr/bin/env python3
"""The licences the bundle ships: controlroom's, each bundled library's own files, and THIRD-PARTY.txt.

    python installer/licenses.py DEST      # with the build's Python: writes DEST/licenses/...

Run by installer/build.py with the Python the bundle is built from, so that
the libraries read are the ones bundled.  Qt for Python's wheels carry no
licence text: the LGPL and GPL texts they are offered under come from
installer/licenses/.
"""

from __future__ import annotations

import re
import shutil
import sys
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import lock  # noqa: E402  (installer/ is not a package)

TEXTS = HERE / "licenses"
_LICENCE_FILE = re.compile(r"(^|/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*$", re.I)
# Where the source of each LGPL library is, as the LGPL asks (the same versions as bundled).
LGPL_SOURCES = {
    "pyside6-essentials": "https://download.qt.io/official_releases/QtForPython/pyside6/ (PySide6) and "
                          "https://download.qt.io/official_releases/qt/ (Qt)",
    "shiboken6": "https://download.qt.io/official_releases/QtForPython/shiboken6/",
    "psycopg": "https://github.com/psycopg/psycopg (tag {version})",
    "psycopg-binary": "https://github.com/psycopg/psycopg (tag {version}; libpq: https://www.postgresql.org/ftp/source/)",
}
QT_TEXTS = ("LGPL-3.0.txt", "GPL-3.0.txt")
# imageio-ffmpeg's wheel carries an ffmpeg program built with --enable-gpl --enable-version3: GPL 3.0.
# It is a program of its own, run as a separate process for the replay's MP4 export.
FFMPEG_SOURCES = ("FFmpeg: https://ffmpeg.org/releases/ and https://git.ffmpeg.org/ffmpeg.git (the commit in "
                  "its version line);\nthe build recipe imageio-ffmpeg takes its programs from: "
                  "https://github.com/BtbN/FFmpeg-Builds and https://github.com/imageio/imageio-binaries")


def ffmpeg_note() -> str | None:
    """What the bundled ffmpeg program is, its licence and where its source is (None without imageio-ffmpeg)."""
    import subprocess

    try:
        import imageio_ffmpeg
    except ImportError:
        return None
    exe = imageio_ffmpeg.get_ffmpeg_exe()
    try:
        version = subprocess.run([exe, "-version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        version = f"(its version could not be read: {exc})"
    lines = version.splitlines()
    head = "\n".join(line for line in lines if line.startswith(("ffmpeg version", "configuration:")))
    return (f"The ffmpeg program {Path(exe).name}, carried by imageio-ffmpeg {imageio_ffmpeg.__version__}, is used\n"
            "unmodified as a program of its own (the replay's MP4 export runs it as a separate process).\n"
            "It is licensed under the GNU General Public License 3.0 (GPL-3.0.txt beside this file): it was\n"
            "built with --enable-gpl --enable-version3, as its configuration below says.\n\n"
            f"{head}\n\nIts complete corresponding source:\n{FFMPEG_SOURCES}\n\n"
            "Written offer: for three years from the day you received this bundle, the controlroom project\n"
            "gives anyone who asks a copy of that complete corresponding source, on a medium customarily used\n"
            "for software interchange, for no more than the cost of making and sending it.\n")


def licence_of(dist: metadata.Distribution) -> str:
    """The licence a library declares: its SPDX expression, else its classifiers, else its License field."""
    meta = dist.metadata
    if meta.get("License-Expression"):
        return meta["License-Expression"]
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or () if c.startswith("License ::")]
    if classifiers:
        return " / ".join(classifiers)
    field = (meta.get("License") or "").strip()
    return field.splitlines()[0] if field else "see its files"


def home_of(dist: metadata.Distribution) -> str:
    """Where a library's source is: its Source or Repository link, else its home page."""
    meta = dist.metadata
    links = [tuple(part.strip() for part in u.split(",", 1)) for u in meta.get_all("Project-URL") or () if "," in u]
    for wanted in (r"source|repository|code", r"home"):
        for label, url in links:
            if re.search(wanted, label, re.I):
                return url
    return meta.get("Home-page") or next((url for _label, url in links), "")


def write(dest: Path) -> list[str]:
    """Write DEST/licenses/: LICENSE, THIRD-PARTY.txt, and one folder per library; returns the library names."""
    out = dest / "licenses"
    shutil.rmtree(out, ignore_errors=True)
    (out / "controlroom").mkdir(parents=True)
    shutil.copyfile(lock.ROOT / "LICENSE", out / "controlroom" / "LICENSE")
    rows, names = [], []
    for name, version in sorted(lock.installed_closure(lock.runtime()).items()):
        dist = metadata.distribution(name)
        folder = out / f"{name}-{version}"
        folder.mkdir()
        copied = 0
        for f in dist.files or ():
            if _LICENCE_FILE.search(str(f)) or "/licenses/" in str(f).lower():
                target = folder / Path(str(f)).name
                if target.exists():             # numpy's vendored parts: keep their relative path
                    target = folder / str(f).replace("/", "__")
                shutil.copyfile(dist.locate_file(f), target)
                copied += 1
        licence = licence_of(dist)
        if name in ("pyside6-essentials", "shiboken6"):
            for text in QT_TEXTS:
                shutil.copyfile(TEXTS / text, folder / text)
                copied += 1
        if name == "imageio-ffmpeg":
            note = ffmpeg_note()
            if note is not None:
                shutil.copyfile(TEXTS / "GPL-3.0.txt", folder / "GPL-3.0.txt")
                (folder / "FFMPEG.txt").write_text(note, encoding="utf-8")
                copied += 2
                licence = f"{licence}; its ffmpeg program: GPL-3.0-or-later (FFMPEG.txt)"
        if not copied:
            (folder / "LICENSE-NOTE.txt").write_text(
                f"{dist.metadata['Name']} {version} ships no licence file in its wheel. Its licence: {licence}.\n"
                f"Its home: {home_of(dist)}\n", encoding="utf-8")
        source = LGPL_SOURCES.get(name, "").format(version=version) or home_of(dist)
        rows.append((dist.metadata["Name"], version, licence, source))
        names.append(name)
    width = max(len(f"{n} {v}") for n, v, _l, _s in rows)
    lines = ["controlroom bundles these libraries, each under its own licence; their licence files are in the",
             "folder of the same name beside this file. controlroom itself is under the MIT licence (controlroom/).",
             "", f"{'library':<{width}}  licence / source", ""]
    for n, v, licence, source in rows:
        lines += [f"{n + ' ' + v:<{width}}  {licence}", f"{'':<{width}}  {source}"]
    lines += ["", "PySide6, shiboken6, Qt and psycopg are used under the GNU Lesser General Public License 3.0",
              "(LGPL-3.0.txt, with the GPL-3.0.txt it builds on). They are unmodified, and each lies in the bundle",
              "as files of its own (the Qt and PySide6 shared libraries, and the Python code of PySide6, shiboken6",
              "and psycopg as plain .py files), so you may replace them with versions of your own, modified or",
              "not, built from the sources named above. See the README's 'Licence' section.",
              "", "The ffmpeg program that imageio-ffmpeg carries is under the GNU General Public License 3.0: it is",
              "a separate program, run by the replay's MP4 export; its version, configuration, source and a",
              "written offer of that source are in imageio-ffmpeg-*/FFMPEG.txt."]
    (out / "THIRD-PARTY.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return names


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    print("\n".join(write(Path(sys.argv[1]))))
