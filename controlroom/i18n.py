"""The user's language and the conventions that follow it (no Qt: every layer may ask).

The language is, in order: what the user chose (``--lang``, the window's
View, Language), the ``CONTROLROOM_LANG`` variable, then the system's locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as POSIX programs read them; on
Windows, the user's UI language).  The product speaks English (``en``) and
Estonian (``et``); anything else falls back to English.

A spreadsheet program set to a language whose decimal separator is a comma
(Estonian, German, French...) reads CSV cells separated by semicolons; one set
to English reads commas.  ``csv_delimiter`` says which, for the report's CSV
files (``controlroom report --delimiter`` overrides it).
"""

from __future__ import annotations

import locale
import os
import sys
from typing import Mapping

LANGUAGES = {"en": "English", "et": "eesti keel"}
DEFAULT = "en"
# Languages whose spreadsheets use a decimal comma, and so separate CSV cells with semicolons.
DECIMAL_COMMA = frozenset({"et", "de", "fr", "fi", "lv", "lt", "ru", "es", "it", "nl", "pl", "pt", "sv", "da", "nb",
                           "cs", "sk", "sl", "hr", "hu", "ro", "bg", "uk", "el", "tr"})

_chosen: str | None = None


def _code(text: str | None) -> str | None:
    """``et_EE.UTF-8`` -> ``et``; ``C``, ``POSIX`` and empty -> None."""
    if not text:
        return None
    code = text.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return None if code in ("", "c", "posix") else code


def system_language(environ: Mapping[str, str] = os.environ) -> str | None:
    """The language code of the system's locale for messages (two letters), or None."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return _code(environ[name])
    if sys.platform == "win32":                        # pragma: no cover - Windows only
        try:
            import ctypes

            return _code(locale.windows_locale.get(ctypes.windll.kernel32.GetUserDefaultUILanguage()))
        except Exception:  # noqa: BLE001 - the default language then
            return None
    return None


def check_language(code: str) -> str:
    """A language code the product speaks, or ValueError naming those it does."""
    code = (code or "").strip().lower()
    if code not in LANGUAGES:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise ValueError(f"unknown language {code!r}: this program speaks {known}")
    return code


def language(environ: Mapping[str, str] = os.environ) -> str:
    """The language to speak now: the user's choice, CONTROLROOM_LANG, the system's; English otherwise."""
    if _chosen is not None:
        return _chosen
    for code in (_code(environ.get("CONTROLROOM_LANG")), system_language(environ)):
        if code in LANGUAGES:
            return code
    return DEFAULT


def choose(code: str | None) -> str:
    """Set the language for this process (None: back to the environment's); returns the language now spoken."""
    global _chosen
    _chosen = None if code is None else check_language(code)
    return language()


def csv_delimiter(code: str | None = None) -> str:
    """The CSV cell separator a spreadsheet set to this language reads: ';' for a decimal-comma language."""
    return ";" if (code or language()) in DECIMAL_COMMA else ","
