"""``controlroom replay``: run a scenario script through the rules and print the final state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from controlroom.i18n import translate

NAME = "replay"
HELP = "Run a scenario script, or a stored game, through the rules and print the outcome."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="SCRIPT.jsonl", nargs="?",
                        help="scenario script: roster lines, then timed events (docs/replay-script.md)")
    parser.add_argument("--db", metavar="GAME",
                        help="replay a stored game (a game file or a database URL) instead of a script")
    parser.add_argument("--until", metavar="T",
                        help="stop the clock at this game time (HH:MM:SS); default: run until no rule timer is left")
    parser.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    parser.add_argument("--rules", metavar="PROFILE",
                        help="ruleset profile: a bundled name or a .toml file (default: the script's, else the seed's)")
    parser.add_argument("--check", action="store_true",
                        help="list every problem of the script by line (unreadable lines and '# expect' comments), "
                             "then compare the outcome with the '# expect' comments; exit 1 on any")


def check_expectations(summary: dict[str, Any], expectations) -> list[str]:
    """Mismatches between a summary and a script's ``# expect`` comments, as sentences."""
    problems = []
    for exp in expectations:
        kind, _, ident = exp.subject.partition(" ")
        if kind.lower() == "badge":
            actual = summary["characters"].get(ident)
        else:
            actual = summary["sides"].get(ident)
        if actual is None:
            problems.append(f"line {exp.line}: no {exp.subject} in the outcome")
            continue
        for key, want in exp.values.items():
            got = actual.get(key, "<missing>")
            if key == "deadlines":
                got = ",".join(f"{d['kind']}@{d['at']}" for d in got) or "none"
            elif isinstance(got, bool):
                got = str(got).lower()
            if str(got) != want:
                problems.append(f"line {exp.line}: {exp.subject} {key} is {got}, the script expects {want}")
    return problems


def _print_text(summary: dict[str, Any]) -> None:
    print(f"{summary['game']}: game time {summary['time']}, {summary['events']} events ({summary['rules']})")
    for side, counts in summary["sides"].items():
        print(
            f"  {side}: {counts['active']} active, {counts['unconscious']} unconscious, "
            f"{counts['knocked_out']} knocked out, {counts['dead']} dead; "
            f"{counts['deaths']} deaths, {counts['in_valhalla']} in Valhalla"
        )
    if summary["deadlines"]:
        print("Pending rule deadlines:")
        for d in summary["deadlines"]:
            who = f"badge {d['badge']}" if "badge" in d else f"STOPP {d['stopp']}"
            at = d["at"] or f"held by a STOPP, {d['in']} left"
            print(f"  {d['kind']:<14} {who:<12} {at}")
    if summary["warnings"]:
        print("Rule warnings:")
        for w in summary["warnings"]:
            line = f" (line {w['line']})" if "line" in w else ""
            print(f"  {w['t']} {w['type']}{line}: {w['message']}")


def _replay_db(db: str, profile, until):
    from controlroom.commands.errors import CliError
    from controlroom.game.replay import replay_log
    from controlroom.game.state import GameState
    from controlroom.game.summary import summarize
    from controlroom.store.errors import StoreError
    from controlroom.store.game import GameStore

    try:
        with GameStore.open(db, create=False, read_only=True) as store:
            state = GameState(store.roster(), profile or store.profile())
            replay_log(state, (event for _seq, event in store.events()), until)
            return summarize(state, store.name)
    except StoreError as exc:
        raise CliError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.game.clock import TimeFormatError, parse_time
    from controlroom.game.replay import replay_script
    from controlroom.game.script import ScriptError, ScriptErrors, load_script
    from controlroom.game.summary import summarize
    from controlroom.rules.profile import ProfileError, load_profile

    if (args.script is None) == (args.db is None):
        raise CliError(translate("errors", "give a scenario script or --db GAME (one of them)"))
    try:
        until = parse_time(args.until) if args.until is not None else None
        profile = load_profile(args.rules) if args.rules else None
        if args.db is not None:
            summary = _replay_db(args.db, profile, until)
            expectations = []
        else:
            script = load_script(args.script, profile, check=args.check)
            result = replay_script(script, until)
            summary = summarize(result.state, script.name, result.warning_lines)
            expectations = script.expectations
    except ScriptErrors as exc:
        # Every line that cannot be read, each on a line of its own.
        for problem in exc.problems:
            print(f"controlroom: {problem}", file=sys.stderr)
        count = len(exc.problems)
        print(f"controlroom: {args.script}: {count} {'line' if count == 1 else 'lines'} to mend; "
              "nothing was replayed", file=sys.stderr)
        return 1
    except (ScriptError, TimeFormatError, ProfileError) as exc:
        raise CliError(str(exc)) from None
    if args.json:
        json.dump(summary, sys.stdout, ensure_ascii=False, sort_keys=False)
        sys.stdout.write("\n")
    else:
        _print_text(summary)
    if args.check:
        problems = check_expectations(summary, expectations)
        for p in problems:
            print(f"controlroom: {args.script}: {p}", file=sys.stderr)
        if problems:
            return 1
        if not args.json:
            print(f"All {len(expectations)} expectations of the script hold.")
    return 0
