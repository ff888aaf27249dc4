#!/usr/bin/env python3
"""The command line's translations: resources/i18n/cli_LANG.ts, kept up to date and checked.

    python installer/translations.py update     # add new texts (unfinished), drop texts no longer used
    python installer/translations.py check      # list texts without a finished translation (exit 1 if any)

The texts are what ``controlroom --help`` and its commands' help show (every
description, argument help and group title of the real parser, context
``cli``), and argparse's own words (``usage:``, ``options``, its error
messages; context ``argparse``).  They are read from the parser as built,
not from the source, so that a help text is found wherever it is written.
Translate with Qt Linguist (``pyside6-linguist resources/i18n/cli_et.ts``) or
by hand; the test command runs ``check``'s test (tests/test_translations.py).
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


def messages() -> dict[str, list[str]]:
    return {"cli": cli_texts(), "argparse": list(ARGPARSE)}


def missing(code: str) -> list[tuple[str, str]]:
    from controlroom.i18n import read_ts

    path = I18N / f"cli_{code}.ts"
    known = read_ts(path.read_text(encoding="utf-8")) if path.exists() else {}
    return [(context, text) for context, texts in messages().items() for text in texts if (context, text) not in known]


def update(code: str) -> tuple[int, int]:
    from controlroom.i18n import read_ts, write_ts

    path = I18N / f"cli_{code}.ts"
    known = read_ts(path.read_text(encoding="utf-8")) if path.exists() else {}
    current = messages()
    I18N.mkdir(parents=True, exist_ok=True)
    write_ts(path, code, current, known)
    todo = sum(1 for c, texts in current.items() for t in texts if (c, t) not in known)
    return sum(len(t) for t in current.values()), todo


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        for code in LANGUAGES:
            total, todo = update(code)
            print(f"[translations] cli_{code}.ts: {total} texts, {todo} to translate")
        return 0
    if argv == ["check"]:
        bad = [(code, c, t) for code in LANGUAGES for c, t in missing(code)]
        for code, context, text in bad:
            print(f"cli_{code}.ts [{context}] no translation: {text!r}")
        return 1 if bad else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
