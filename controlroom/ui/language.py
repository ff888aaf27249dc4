"""The window's language: its Qt translator, compiled from resources/i18n/window_LANG.ts, and the remembered choice.

The Qt Linguist source ``window_et.ts`` lives in the repository; its compiled
form ``window_et.qm`` is a build product.  ``installer/quickstart.py`` and
``installer/build.py`` compile it beside the ``.ts`` (the bundle ships it);
a plain checkout without it, or with one older than its ``.ts``, gets one
compiled by ``lrelease`` into the user's cache folder at the window's start,
named by the ``.ts``'s content (two checkouts share that folder).
Without ``lrelease`` either, the ``.ts`` is read directly (``TsTranslator``:
the same finished translations, no plural forms).

The language is ``controlroom.i18n.language()``: ``--lang``, then the choice
made in View, Language (kept in QSettings), then ``CONTROLROOM_LANG`` and the
system's locale.  A choice made in the menu applies at the next start.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, QTranslator

from controlroom import i18n
from controlroom.paths import cache_dir

log = logging.getLogger(__name__)

DOMAIN = "window"
SETTINGS_KEY = "language"


def saved_language() -> str | None:
    """The language chosen in View, Language, or None (never chosen, or not one this program speaks)."""
    value = QSettings().value(SETTINGS_KEY)
    return value if isinstance(value, str) and value in i18n.LANGUAGES else None


def save_language(code: str) -> None:
    """Remember View, Language's choice for the next start."""
    QSettings().setValue(SETTINGS_KEY, i18n.check_language(code))


def lrelease() -> str | None:
    """Qt's ``lrelease`` as shipped with PySide6 (or on PATH), or None."""
    import PySide6

    name = "lrelease.exe" if sys.platform.startswith("win") else "lrelease"
    beside = Path(PySide6.__file__).resolve().parent / name
    if beside.is_file():
        return str(beside)
    return shutil.which("pyside6-lrelease") or shutil.which("lrelease")


def compile_ts(ts: Path, qm: Path) -> bool:
    """``lrelease ts -qm qm``; True when ``qm`` was written.

    Written beside under another name and then renamed over ``qm``: two
    windows starting at once, or one killed while compiling, never leave a
    cut ``qm`` behind.
    """
    tool = lrelease()
    if tool is None:
        return False
    try:
        qm.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.warning("no folder for the compiled translations %s: %s", qm, exc)
        return False
    part = qm.with_name(f"{qm.name}.{os.getpid()}.part")
    try:
        done = subprocess.run([tool, "-silent", str(ts), "-qm", str(part)], capture_output=True, text=True,
                              timeout=60)
        if done.returncode != 0 or not part.is_file():
            log.warning("lrelease could not compile %s: %s", ts, (done.stderr or done.stdout).strip())
            return False
        os.replace(part, qm)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("lrelease could not compile %s: %s", ts, exc)
        return False
    finally:
        with contextlib.suppress(OSError):
            part.unlink()
    return True


def _fresh(qm: Path, ts: Path) -> bool:
    return qm.is_file() and qm.stat().st_mtime >= ts.stat().st_mtime


def qm_path(code: str, cache: Path | None = None, ts: Path | None = None) -> Path | None:
    """The compiled translations into ``code``: the shipped ``.qm`` when it is up to date, else one compiled into
    the cache folder for this ``.ts``'s content; None when there is no ``.ts`` or it cannot be compiled."""
    ts = Path(str(ts or i18n.ts_path(DOMAIN, code)))
    if not ts.is_file():
        return None
    shipped = ts.with_suffix(".qm")
    if _fresh(shipped, ts):
        return shipped
    # Named by the .ts's content: checkouts and versions sharing one cache folder never take each other's.
    digest = hashlib.sha256(ts.read_bytes()).hexdigest()[:16]
    cached = (cache or cache_dir() / "i18n") / f"{shipped.stem}-{digest}.qm"
    if cached.is_file() or compile_ts(ts, cached):
        return cached
    return None


class TsTranslator(QTranslator):
    """The finished translations of a ``.ts`` file read directly (when no ``.qm`` can be made)."""

    def __init__(self, catalogue: dict[tuple[str, str], str | tuple[str, ...]], parent=None) -> None:
        super().__init__(parent)
        self.catalogue = catalogue

    def isEmpty(self) -> bool:
        return not self.catalogue

    def translate(self, context, source, disambiguation=None, n=-1):
        found = self.catalogue.get((context, source))         # None: not here (Qt asks the next translator)
        return i18n.plural_form(found, n) if isinstance(found, tuple) else found


def install_translator(app: QCoreApplication, code: str | None = None) -> QTranslator | None:
    """Load the window's translations into ``code`` (default: the language spoken now) into ``app``."""
    code = code or i18n.language()
    if code == i18n.DEFAULT:
        return None
    translator: QTranslator | None = None
    path = qm_path(code)
    if path is not None:
        translator = QTranslator(app)
        if not translator.load(str(path)):
            log.warning("the translations %s could not be loaded", path)
            translator = None
            if path.parent != Path(str(i18n.ts_path(DOMAIN, code))).parent:     # a cached one: made again
                with contextlib.suppress(OSError):
                    path.unlink()
    if translator is None:
        catalogue = i18n.catalogue(DOMAIN, code)
        if not catalogue:
            return None
        translator = TsTranslator(catalogue, app)
    app.installTranslator(translator)
    app.setProperty("controlroom_translator", code)
    return translator


def start_language(app: QCoreApplication) -> str:
    """At the window's start: the menu's remembered choice unless ``--lang`` said otherwise, then the translator."""
    if i18n.chosen() is None:
        saved = saved_language()
        if saved is not None and not os.environ.get("CONTROLROOM_LANG"):
            i18n.choose(saved)
    code = i18n.language()
    if app.property("controlroom_translator") != code:
        install_translator(app, code)
    return code
