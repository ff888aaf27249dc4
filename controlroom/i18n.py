"""The user's language, its translations and the conventions that follow it (no Qt: every layer may ask).

The language is, in order: what the user chose (``--lang``), the
``CONTROLROOM_LANG`` variable, the window's View, Language (remembered by the
window, which ``choose``s it at its start), then the system's locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as POSIX programs read them; on
Windows, the user's UI language).  The product speaks English (``en``) and
Estonian (``et``); anything else falls back to English.

Translations live in Qt Linguist files (``resources/i18n/DOMAIN_LANG.ts``),
the format translators already use for the window: ``translate(context,
text)`` reads them here without Qt, for the command line and everything below
the window.  ``controlroom_et.ts`` holds the command line's help, argparse's
own words and every ``translate("context", "text")`` of the code outside the
window (the rules' warnings...); ``installer/translations.py update`` adds
what is new to it, and the test command fails while a text has no finished
translation.

A spreadsheet program set to a language whose decimal separator is a comma
(Estonian, German, French...) reads CSV cells separated by semicolons; one set
to English reads commas.  ``csv_delimiter`` says which, for the report's CSV
files (``controlroom report --delimiter`` overrides it).
"""

from __future__ import annotations

import locale
import os
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from functools import cache
from typing import Any

LANGUAGES = {"en": "English", "et": "eesti keel"}
DEFAULT = "en"
# Languages whose spreadsheets use a decimal comma, and so separate CSV cells with semicolons.
DECIMAL_COMMA = frozenset({"et", "de", "fr", "fi", "lv", "lt", "ru", "es", "it", "nl", "pl", "pt", "sv", "da", "nb",
                           "cs", "sk", "sl", "hr", "hu", "ro", "bg", "uk", "el", "tr"})

_chosen: str | None = None
_from_environment: str | None = None     # the environment's language, read once


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
        except Exception:  # the default language then
            return None
    return None


def check_language(code: str) -> str:
    """A language code the product speaks, or ValueError naming those it does."""
    code = (code or "").strip().lower()
    if code not in LANGUAGES:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise ValueError(f"unknown language {code!r}: this program speaks {known}")
    return code


def language(environ: Mapping[str, str] | None = None) -> str:
    """The language to speak now: the user's choice, CONTROLROOM_LANG, the system's; English otherwise.

    The process's environment is read once (a fold translates its warnings hundreds of thousands of
    times); ``choose`` reads it again.  ``environ`` given: that one is read, every time.
    """
    global _from_environment
    if _chosen is not None:
        return _chosen
    if environ is None:
        if _from_environment is None:
            _from_environment = _environment_language(os.environ)
        return _from_environment
    return _environment_language(environ)


def _environment_language(environ: Mapping[str, str]) -> str:
    for code in (_code(environ.get("CONTROLROOM_LANG")), system_language(environ)):
        if code in LANGUAGES:
            return code
    return DEFAULT


def chosen() -> str | None:
    """The language set by ``choose`` for this process, or None (the environment's is spoken)."""
    return _chosen


def choose(code: str | None) -> str:
    """Set the language for this process (None: back to the environment's); returns the language now spoken."""
    global _chosen, _from_environment
    _chosen = None if code is None else check_language(code)
    _from_environment = None                # read the environment again
    return language()


def csv_delimiter(code: str | None = None) -> str:
    """The CSV cell separator a spreadsheet set to this language reads: ';' for a decimal-comma language."""
    return ";" if (code or language()) in DECIMAL_COMMA else ","


# -- translations -------------------------------------------------------------------------------------------


def ts_path(domain: str, code: str):
    """Where a domain's translations into ``code`` live (a Traversable inside controlroom.resources)."""
    from importlib import resources

    return resources.files("controlroom.resources") / "i18n" / f"{domain}_{code}.ts"


def read_ts(text: str) -> dict[tuple[str, str], str | tuple[str, ...]]:
    """A Qt Linguist file's finished translations: {(context, source): translation}.

    A message with plural forms (``numerus="yes"``, "+%n more") gives the
    tuple of its forms, in the language's order (Estonian, as English: one,
    then other): ``plural_form`` picks one for a count.
    """
    out: dict[tuple[str, str], str | tuple[str, ...]] = {}
    root = ET.fromstring(text)
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source")
            node = message.find("translation")
            if source is None or node is None or node.get("type") in ("unfinished", "vanished", "obsolete"):
                continue
            forms = tuple(f.text or "" for f in node.iter("numerusform"))
            if message.get("numerus") == "yes" or forms:
                if forms and all(forms):
                    out[(name, source)] = forms
            elif node.text:
                out[(name, source)] = node.text
    return out


def plural_form(forms: tuple[str, ...], n: int) -> str:
    """The form of a plural translation for the count ``n`` (Estonian and English: 1 is one, else other)."""
    return forms[0] if n == 1 or len(forms) == 1 else forms[1]


@cache
def catalogue(domain: str, code: str) -> dict[tuple[str, str], str]:
    """The finished translations of ``domain`` into ``code`` (empty for English, or without a file)."""
    if code == DEFAULT:
        return {}
    path = ts_path(domain, code)
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    return read_ts(text)


def translate(context: str, text: str, domain: str = "controlroom") -> str:
    """``text`` in the language spoken now (itself when there is no translation)."""
    code = language()
    if code == DEFAULT or not text:
        return text
    return catalogue(domain, code).get((context, text), text)


def translate_into(code: str, context: str, text: str, domain: str = "controlroom") -> str:
    """``text`` in the language ``code`` (itself when there is no translation), whatever the language spoken."""
    if code == DEFAULT or not text:
        return text
    return catalogue(domain, code).get((context, text), text)


class Text:
    """A text to translate kept with its arguments, so that it can be said in any language, not only the one
    spoken when it was made: ``str()`` says it in the language spoken, ``render(code)`` in ``code``.

    An argument that is a Text itself is said in the same language.  A Text with no ``context`` is a pattern
    that only joins its arguments (``"{who}: {rule}"``) and is not translated.  What a rule warning says is
    kept this way (``RuleWarning.wording``), so that a marshal's answer says it in the marshals' language.
    Immutable; equal to another of the same context, source and arguments.  A plain class, not a frozen
    dataclass: a fold makes tens of thousands (a rule warning's), and a frozen dataclass's making took four
    times as long.
    """

    __slots__ = ("context", "source", "args", "_packed")

    def __init__(self, context: str | None, source: str, args: tuple[tuple[str, Any], ...] = ()) -> None:
        self.context, self.source, self.args = context, source, args
        self._packed: tuple | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.context, self.source, self.args) == (
            other.context, other.source, other.args)

    def __hash__(self) -> int:
        return hash((self.context, self.source, self.args))

    def __repr__(self) -> str:
        return f"Text(context={self.context!r}, source={self.source!r}, args={self.args!r})"

    def render(self, code: str | None = None) -> str:
        code = code or language()
        template = self.source if self.context is None else translate_into(code, self.context, self.source)
        if not self.args:
            return template
        return template.format(**{k: v.render(code) if isinstance(v, Text) else v for k, v in self.args})

    def __str__(self) -> str:
        return self.render()

    def packed(self) -> tuple:
        """This text as one flat tuple of strings, numbers and flags (``unpack`` makes it again); made once.

        The collector stops tracking a tuple of plain values, not a Text: a fold keeps a wording for each of
        its rule warnings (19,616 in a 200,000-event game, seven objects each as Texts) and every collection
        of the process walked them all.  Flat, because it stops tracking a tuple only once the tuples inside
        are untracked, one level a collection.  The layout: context, source, the number of arguments, then
        for each its name, whether it is a Text, and its value (a Text's own layout, in line).
        """
        packed = self._packed
        if packed is None:
            out: list = [self.context, self.source, len(self.args)]
            for k, v in self.args:
                if type(v) is Text:
                    out += (k, True, *(v._packed or v.packed()))
                else:
                    out += (k, False, v)
            packed = self._packed = tuple(out)
        return packed

    @staticmethod
    def render_packed(packed: tuple, code: str | None = None) -> str:
        """``Text.unpack(packed).render(code)``, said from the packed form itself (no Text made)."""
        said, _end = _render_at(packed, 0, code or language())
        return said

    @staticmethod
    def unpack(packed: tuple) -> Text:
        text, end = Text._unpack(packed, 0)
        if end != len(packed):
            raise ValueError("not a packed Text")
        return text

    @staticmethod
    def _unpack(p: tuple, i: int) -> tuple[Text, int]:
        context, source, n = p[i], p[i + 1], p[i + 2]
        i += 3
        args = []
        for _ in range(n):
            k, is_text = p[i], p[i + 1]
            if is_text:
                v, i = Text._unpack(p, i + 2)
            else:
                v, i = p[i + 2], i + 3
            args.append((k, v))
        return Text(context, source, tuple(args)), i


def _render_at(p: tuple, i: int, code: str) -> tuple[str, int]:
    """The packed text at ``p[i:]`` said in ``code``, and where it ends (``Text.packed``'s layout)."""
    context, source, n = p[i], p[i + 1], p[i + 2]
    i += 3
    template = source if context is None else translate_into(code, context, source)
    if not n:
        return template, i
    args = {}
    for _ in range(n):
        k = p[i]
        if p[i + 1]:
            args[k], i = _render_at(p, i + 2, code)
        else:
            args[k], i = p[i + 2], i + 3
    return template.format(**args), i


def wording(context: str, text: str, **args: Any) -> Text:
    """``translate(context, text).format(**args)``, kept to be said in any language (``Text``); the translations'
    catalogue finds it as it finds ``translate`` (installer/translations.py)."""
    return Text(context, text, tuple(args.items()))


def joined(pattern: str, **args: Any) -> Text:
    """A pattern of texts that is itself not translated (``"{who}: {rule}"``), its Text arguments said in the
    language the whole is said in."""
    return Text(None, pattern, tuple(args.items()))


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Marks a text for translation where it is defined; ``translate`` translates it where it is shown."""
    return text


def write_ts(path, code: str, messages: dict[str, list[str]], known: dict[tuple[str, str], str]) -> None:
    """A Qt Linguist file: every (context, source) of ``messages``, translated where ``known`` says, else unfinished."""
    root = ET.Element("TS", version="2.1", language={"et": "et_EE"}.get(code, code))
    for context in sorted(messages):
        node = ET.SubElement(root, "context")
        ET.SubElement(node, "name").text = context
        for source in messages[context]:
            message = ET.SubElement(node, "message")
            ET.SubElement(message, "source").text = source
            translation = ET.SubElement(message, "translation")
            found = known.get((context, source))
            if isinstance(found, tuple):            # plural forms (the command line has none today)
                message.set("numerus", "yes")
                for form in found:
                    ET.SubElement(translation, "numerusform").text = form
            elif found is not None:
                translation.text = found
            else:
                translation.set("type", "unfinished")
    ET.indent(root)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        f.write(ET.tostring(root, encoding="unicode"))
        f.write("\n")
