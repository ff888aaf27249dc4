"""Scenario scripts: JSON lines with a roster and timed events, for replay and rule checks.

The format is documented in docs/replay-script.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from controlroom.game.clock import TimeFormatError, parse_time
from controlroom.game.events import SOURCE_SCRIPT, Event, EventError, validate
from controlroom.game.roster import Member, RosterError, member_from_dict
from controlroom.rules.profile import ProfileError, RulesProfile, default_profile, load_profile

_EXPECT = re.compile(r"^#\s*expect\s+(?P<subject>badge\s+\d+|side\s+.+?)\s*:\s*(?P<pairs>.+)$", re.I)


class ScriptError(ValueError):
    """A line of a script that cannot be read; the message names the line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}, line {line}: {message}" if line else f"{path}: {message}")
        self.line = line


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


def _parse_expectation(text: str, lineno: int) -> Expectation | None:
    m = _EXPECT.match(text)
    if not m:
        return None
    values = {}
    for pair in m.group("pairs").split():
        key, sep, value = pair.partition("=")
        if not sep:
            return None
        values[key] = value
    subject = " ".join(m.group("subject").split())
    return Expectation(lineno, subject, values)


def parse_script(text: str, path: str = "<script>", profile: RulesProfile | None = None) -> Script:
    """Read a script; every problem raises ScriptError naming the line."""
    script = Script(name=Path(path).stem, profile=profile or default_profile())
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
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ScriptError(path, lineno, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise ScriptError(path, lineno, "each line must be a JSON object")
        try:
            if "game" in obj:
                if script.members or seen_event:
                    raise ScriptError(path, lineno, "the game line must come first")
                game = obj["game"]
                if not isinstance(game, dict):
                    raise ScriptError(path, lineno, "game must be an object")
                script.name = str(game.get("name", script.name))
                if profile is None and game.get("rules"):
                    rules = str(game["rules"])
                    base = Path(path).parent
                    candidate = base / rules
                    script.profile = load_profile(candidate if candidate.suffix == ".toml" else rules)
            elif "roster" in obj:
                if seen_event:
                    raise ScriptError(path, lineno, "roster lines must come before the first event")
                if not isinstance(obj["roster"], dict):
                    raise ScriptError(path, lineno, "roster must be an object")
                member = member_from_dict(obj["roster"], script.profile)
                if member.badge in badges:
                    raise ScriptError(path, lineno, f"duplicate badge {member.badge}")
                badges.add(member.badge)
                script.members.append(member)
            else:
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
                seen_event = True
                script.events.append(Event(t=t, type=type_, data=data, source=source))
                script.event_lines.append(lineno)
        except (EventError, RosterError, TimeFormatError, ProfileError) as exc:
            raise ScriptError(path, lineno, str(exc)) from None
    # A script tells a story and may do so out of time order: events are
    # played in time order, lines with equal times in the order written.
    order = sorted(range(len(script.events)), key=lambda i: script.events[i].t)
    script.events = [script.events[i] for i in order]
    script.event_lines = [script.event_lines[i] for i in order]
    return script


def load_script(path: str | Path, profile: RulesProfile | None = None) -> Script:
    """Read a script file (UTF-8, with or without a byte-order mark)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ScriptError(str(p), 0, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ScriptError(str(p), 0, f"not UTF-8 text ({exc.reason})") from None
    return parse_script(text, str(p), profile)
