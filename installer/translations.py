#!/usr/bin/env python3
"""Translations outside the window: resources/i18n/controlroom_LANG.ts, kept up to date and checked.

    python installer/translations.py update     # add new texts (unfinished), drop texts no longer used
    python installer/translations.py check      # list texts without a finished translation (exit 1 if any)
    python installer/translations.py release [DIR]  # compile the window's window_LANG.ts into .qm (DIR: resources/i18n)

The texts are what ``controlroom --help`` and its commands' help show (every
description, argument help and group title of the real parser, context
``cli``), argparse's own words (``usage:``, ``options``, its error messages;
context ``argparse``), and every ``translate("context", "text")`` and
``QT_TRANSLATE_NOOP("context", "text")`` in the code outside the window (the
rules' warnings, context ``warnings``...).  The help is read from the parser as
built, so that a help text is found wherever it is written; the rest from the
source's syntax tree.  Translate with Qt Linguist (``pyside6-linguist
resources/i18n/controlroom_et.ts``) or by hand; the test command runs
``check``'s test (tests/test_translations.py).

The window's own texts are in ``window_LANG.ts``, kept up to date by Qt's
``pyside6-lupdate -extensions py controlroom/ui -ts resources/i18n/window_et.ts
-locations none -no-obsolete`` (tests/ui/test_window_estonian.py fails while one
has no finished translation).  Qt loads them compiled (``.qm``, a build
product): ``release`` compiles them, as the quick start and installer/build.py
do; a checkout without them has them compiled into the user's cache folder at
the window's start (controlroom/ui/language.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
LANGUAGES = ("et",)

# argparse's own words a user sees (its programming errors are left out).
ARGPARSE = (
    "usage: ",
    "positional arguments",
    "options",
    "show this help message and exit",
    "%(prog)s: error: %(message)s\n",
    "argument %(argument_name)s: %(message)s",
    "expected one argument",
    "expected at most one argument",
    "expected at least one argument",
    "expected %s argument",
    "expected %s arguments",
    "invalid %(type)s value: %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)",
    "the following arguments are required: %s",
    "unrecognized arguments: %s",
    "ambiguous option: %(option)s could match %(matches)s",
    "not allowed with argument %s",
    "one of the arguments %s is required",
    "ignored explicit argument %r",
    "can't open '%(filename)s': %(error)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)",
)


def cli_texts() -> list[str]:
    """Every text of the command line's help, in the order ``--help`` shows them, each once."""
    sys.path.insert(0, str(ROOT))
    from controlroom.cli import build_parser

    seen: dict[str, None] = {}

    def walk(parser: argparse.ArgumentParser) -> None:
        for text in (parser.description,):
            if text:
                seen.setdefault(text)
        for group in parser._action_groups:
            for text in (group.title, group.description):
                if text and text not in ARGPARSE:
                    seen.setdefault(text)
        for action in parser._actions:
            if action.help and action.help != argparse.SUPPRESS:
                seen.setdefault(action.help)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    if choice.help:
                        seen.setdefault(choice.help)
                for sub in dict.fromkeys(action.choices.values()):
                    walk(sub)

    walk(build_parser(translated=False))
    return [t for t in seen if t not in ARGPARSE]


# The code outside the window (the window's texts go through Qt's own tr and lupdate).
SOURCES = ("rules", "game", "geo", "radio", "sim", "store", "report", "engine", "core", "commands", "cli.py",
           "i18n.py")


def source_texts() -> dict[str, list[str]]:
    """``translate("ctx", "text")`` and ``QT_TRANSLATE_NOOP("ctx", "text")`` calls of the code, by context."""
    import ast

    found: dict[str, dict[str, None]] = {}
    package = ROOT / "controlroom"
    files = []
    for name in SOURCES:
        path = package / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            context, text = node.args[0], node.args[1]
            if name in ("translate", "QT_TRANSLATE_NOOP") and all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in (context, text)):
                if context.value not in ("cli", "argparse"):
                    found.setdefault(context.value, {})[text.value] = None
    return {context: list(texts) for context, texts in found.items()}


def messages() -> dict[str, list[str]]:
    return {"cli": cli_texts(), "argparse": list(ARGPARSE), **source_texts()}


def missing(code: str) -> list[tuple[str, str]]:
    from controlroom.i18n import read_ts

    path = I18N / f"controlroom_{code}.ts"
    known = read_ts(path.read_text(encoding="utf-8")) if path.exists() else {}
    return [(context, text) for context, texts in messages().items() for text in texts if (context, text) not in known]


def update(code: str) -> tuple[int, int]:
    from controlroom.i18n import read_ts, write_ts

    path = I18N / f"controlroom_{code}.ts"
    known = read_ts(path.read_text(encoding="utf-8")) if path.exists() else {}
    current = messages()
    I18N.mkdir(parents=True, exist_ok=True)
    write_ts(path, code, current, known)
    todo = sum(1 for c, texts in current.items() for t in texts if (c, t) not in known)
    return sum(len(t) for t in current.values()), todo


def release(folder: Path = I18N) -> list[Path]:
    """Compile each ``window_LANG.ts`` of ``folder`` into ``window_LANG.qm`` beside it (Qt's lrelease)."""
    sys.path.insert(0, str(ROOT))
    from controlroom.ui.language import compile_ts

    done = []
    for ts in sorted(Path(folder).glob("window_*.ts")):
        qm = ts.with_suffix(".qm")
        if not compile_ts(ts, qm):
            raise SystemExit(f"[translations] lrelease could not compile {ts} (is PySide6 installed?)")
        done.append(qm)
    return done


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        for code in LANGUAGES:
            total, todo = update(code)
            print(f"[translations] controlroom_{code}.ts: {total} texts, {todo} to translate")
        return 0
    if argv[:1] == ["release"] and len(argv) <= 2:
        for qm in release(Path(argv[1]) if len(argv) == 2 else I18N):
            print(f"[translations] {qm}")
        return 0
    if argv == ["check"]:
        bad = [(code, c, t) for code in LANGUAGES for c, t in missing(code)]
        for code, context, text in bad:
            print(f"controlroom_{code}.ts [{context}] no translation: {text!r}")
        return 1 if bad else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
