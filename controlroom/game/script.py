"""Scenario scripts: JSON lines with a roster and timed events, for replay and rule checks.

The format is documented in docs/replay-script.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from controlroom.game.clock import parse_time
from controlroom.game.events import SOURCE_SCRIPT, Event, validate
from controlroom.game.roster import Member, member_from_dict
from controlroom.rules.profile import RulesProfile, default_profile, load_profile

_EXPECT = re.compile(r"^#\s*expect\s+(?P<subject>badge\s+\d+|side\s+.+?)\s*:\s*(?P<pairs>.+)$", re.I)


class ScriptError(ValueError):
    """A line of a script that cannot be read; the message names the line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}, line {line}: {message}" if line else f"{path}: {message}")
        self.line = line


class ScriptErrors(ScriptError):  # noqa: N818 - several ScriptErrors in one
    """Every line of a script that cannot be read, in line order (``problems``); the message lists them all."""

    def __init__(self, problems: list[ScriptError]) -> None:
        ValueError.__init__(self, "\n".join(str(p) for p in problems))
        self.problems = problems
        self.line = problems[0].line


@dataclass(frozen=True, slots=True)
class Expectation:
    """A ``# expect badge 101: state=dead deaths=1`` comment: what the script's author predicts."""

    line: int
    subject: str            # "badge 101" or "side North"
    values: dict[str, str]


@dataclass(slots=True)
class Script:
    name: str
    profile: RulesProfile
    members: list[Member] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    event_lines: list[int] = field(default_factory=list)
    expectations: list[Expectation] = field(default_factory=list)


_EXPECT_WORD = re.compile(r"^#\s*expect\b", re.I)
_GAME_FIELDS = ("name", "rules")


def _parse_expectation(text: str, lineno: int) -> Expectation | None:
    m = _EXPECT.match(text)
    if not m:
        return None
    values = {}
    for pair in m.group("pairs").split():
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            return None
        values[key] = value
    subject = " ".join(m.group("subject").split())
    return Expectation(lineno, subject, values)


def parse_script(text: str, path: str = "<script>", profile: RulesProfile | None = None,
                 problems: list[ScriptError] | None = None, check: bool = False) -> Script:
    """Read a script; ScriptErrors lists every line that cannot be read (``problems``: ones found before).

    With ``check``, a ``# expect`` comment that cannot be read is one of them too.
    """
    script = Script(name=Path(path).stem, profile=profile or default_profile())
    problems = list(problems or ())
    badges: set[int] = set()
    seen_event = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if lineno == 1:
            line = line.lstrip("\ufeff")
        if not line:
            continue
        if line.startswith("#"):
            exp = _parse_expectation(line, lineno)
            if exp:
                script.expectations.append(exp)
            elif check and _EXPECT_WORD.match(line):
                problems.append(ScriptError(
                    path, lineno, "cannot read this expectation: write it as "
                                  "'# expect badge 101: state=dead deaths=1' or '# expect side North: dead=3'"))
            continue
        try:
            seen_event |= _parse_line(script, line, path, profile, badges, seen_event, lineno)
        except ScriptError as exc:
            problems.append(exc)
        except RecursionError:
            problems.append(ScriptError(path, lineno, "not valid JSON (nested too deeply)"))
        except (ValueError, OSError) as exc:
            problems.append(ScriptError(path, lineno, str(exc)))
    if problems:
        raise ScriptErrors(sorted(problems, key=lambda p: p.line))
    # A script tells a story and may do so out of time order: events are
    # played in time order, lines with equal times in the order written.
    order = sorted(range(len(script.events)), key=lambda i: script.events[i].t)
    script.events = [script.events[i] for i in order]
    script.event_lines = [script.event_lines[i] for i in order]
    return script


def _parse_line(script: Script, line: str, path: str, profile: RulesProfile | None, badges: set[int],
                seen_event: bool, lineno: int) -> bool:
    """Read one JSON line into the script; True when it was an event.  Raises ScriptError or ValueError."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ScriptError(path, lineno, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise ScriptError(path, lineno, "each line must be a JSON object")
    for kind in ("game", "roster"):
        if kind in obj and len(obj) > 1:
            other = sorted(set(obj) - {kind})[0]
            raise ScriptError(path, lineno, f"a {kind} line holds only \"{kind}\", not also {other!r}")
    if "game" in obj:
        if script.members or seen_event:
            raise ScriptError(path, lineno, "the game line must come first")
        game = obj["game"]
        if not isinstance(game, dict):
            raise ScriptError(path, lineno, "game must be an object")
        extra = sorted(set(game) - set(_GAME_FIELDS))
        if extra:
            raise ScriptError(path, lineno,
                              f"game: unknown field {extra[0]!r} (fields of game: {', '.join(_GAME_FIELDS)})")
        script.name = str(game.get("name", script.name))
        if profile is None and game.get("rules"):
            rules = str(game["rules"])
            candidate = Path(path).parent / rules
            script.profile = load_profile(candidate if candidate.suffix == ".toml" else rules)
        return False
    if "roster" in obj:
        if seen_event:
            raise ScriptError(path, lineno, "roster lines must come before the first event")
        if not isinstance(obj["roster"], dict):
            raise ScriptError(path, lineno, "roster must be an object")
        member = member_from_dict(obj["roster"], script.profile)
        if member.badge in badges:
            raise ScriptError(path, lineno, f"duplicate badge {member.badge}")
        badges.add(member.badge)
        script.members.append(member)
        return False
    fields = dict(obj)
    if "t" not in fields:
        raise ScriptError(path, lineno, "missing 't' (the event's game time, HH:MM:SS)")
    if "type" not in fields:
        raise ScriptError(path, lineno, "missing 'type' (the kind of event)")
    t = parse_time(fields.pop("t"))
    type_ = fields.pop("type")
    source = fields.pop("source", SOURCE_SCRIPT)
    if not isinstance(type_, str) or not isinstance(source, str):
        raise ScriptError(path, lineno, "'type' and 'source' must be texts")
    data = validate(type_, fields)
    script.events.append(Event(t=t, type=type_, data=data, source=source))
    script.event_lines.append(lineno)
    return True


def decode_script(raw: bytes, path: str) -> tuple[str, list[ScriptError]]:
    """A script's text from its bytes (UTF-8, with or without a byte-order mark).

    A line that is not UTF-8 is a problem naming the line and the byte; it
    is read as an empty line, so that the other lines keep their numbers.
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    lines, problems = [], []
    for lineno, chunk in enumerate(raw.split(b"\n"), start=1):
        try:
            lines.append(chunk.decode("utf-8"))
        except UnicodeDecodeError as exc:
            problems.append(ScriptError(path, lineno, f"not UTF-8 text (byte 0x{chunk[exc.start]:02X} at column "
                                                      f"{exc.start + 1}): save the file as UTF-8"))
            lines.append("")
    return "\n".join(lines), problems


def load_script(path: str | Path, profile: RulesProfile | None = None, check: bool = False) -> Script:
    """Read a script file (UTF-8, with or without a byte-order mark); ``check`` as for parse_script."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ScriptError(str(p), 0, f"cannot read: {exc.strerror or exc}") from None
    text, problems = decode_script(raw, str(p))
    return parse_script(text, str(p), profile, problems, check)
