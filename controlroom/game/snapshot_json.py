"""A fold snapshot as JSON: what a game keeps so that opening it folds only the end of its log.

``dumps`` writes a ``snapshot.Snapshot`` (the state of a fold after some
events) as JSON text; ``loads`` reads it back, given the roster and the rules
profile of the game (they are not in the text: the snapshot names a member by
badge).  Only plain values and the game's own record types listed here are
written or read: a value of any other type makes ``dumps`` refuse
(``TypeError``: the game is then folded in full when opened, as before), and
``loads`` never makes anything but these (no pickle: the text of a game file
cannot run code).  Sets are read back in the order they were written.

``fingerprint`` says what a snapshot was made under: the format, the fold's
code (every source file of ``controlroom.game`` and ``controlroom.rules``: a
changed rule or fold makes old snapshots stale by itself), the roster and the
rules profile.  A snapshot whose fingerprint differs is not used.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from controlroom import pacing
from controlroom.game import snapshot
from controlroom.game.character import Deadline, RuleWarning, Scenario, Stopp
from controlroom.game.events import Event
from controlroom.game.inspections import Inspection
from controlroom.game.roster import Member, Roster
from controlroom.rules.armour import ArmourPoints
from controlroom.rules.inspection_limits import InspectionLimits
from controlroom.rules.profile import RulesProfile

# Raise it when the text's layout changes (the fold's code is fingerprinted by itself).
FORMAT = 2

#: The most items of a list written on one line of the text; a longer list is cut into lines of this many,
#: and the first line (the rest of the snapshot) names them.  Each line is written and read in one call
#: into the json module, which holds the GIL throughout: a whole snapshot of bench_map's 8,000-player game
#: in one call (5 MB) held every other thread, the window's among them, for 77 ms to write and 178 ms to
#: read, in the thread that keeps the snapshot every 5 minutes (core.fold_saver).  A line of 1,000 items
#: takes a few milliseconds.
LINE_ITEMS = 1000

# The record types a state holds, by name: named tuples and dataclasses (their fields, in order).
_DATACLASSES = (RuleWarning, Deadline, Scenario, Stopp, Inspection)
_TUPLES = (Event, ArmourPoints)
_RECORDS: dict[str, type] = {cls.__name__: cls for cls in (*_DATACLASSES, *_TUPLES)}
_FIELDS: dict[type, tuple[str, ...]] = {
    **{cls: tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("kept", True)) for cls in _DATACLASSES},
    **{cls: cls._fields for cls in _TUPLES},
}
# The fields a snapshot does not keep (``metadata={"kept": False}``), with the value they are read back with.
_LEFT: dict[type, tuple[tuple[str, Any], ...]] = {
    cls: tuple((f.name, f.default) for f in dataclasses.fields(cls) if not f.metadata.get("kept", True))
    for cls in _DATACLASSES
}
# What the encoder reads for each field kept (``metadata={"read": ...}``: a property saying it as a plain value).
_READ: dict[type, tuple[str, ...]] = {
    **{cls: tuple(f.metadata.get("read", f.name) for f in dataclasses.fields(cls) if f.metadata.get("kept", True))
       for cls in _DATACLASSES},
    **{cls: cls._fields for cls in _TUPLES},
}
_SCALARS = (type(None), bool, int, float, str)
_ATTRS_GIVEN = ("profile", "roster")          # not written: the game's own, given to ``loads``


def _each(fn, items, step: int = 1024) -> list:
    """``fn`` of every item; for many items, a slice at a time with a rest between (pacing: a fold snapshot is
    kept in a thread of its own while the window draws, and one list of a big game's warnings took 30 ms)."""
    if len(items) <= step:
        return [fn(x) for x in items]
    out: list = []
    for i in range(0, len(items), step):
        pacing.breathe()
        out += map(fn, items[i:i + step])
    return out


class _Encoder:
    def __init__(self, roster: Roster) -> None:
        self.members = roster.members

    def enc(self, v: Any) -> Any:
        t = type(v)
        if t in _SCALARS:
            return v
        enc = self.enc
        if t is list:
            if len(v) > 4:
                first = type(v[0])
                if all(type(x) is first for x in v):
                    if first is tuple and all(type(y) in _SCALARS for x in v for y in x):
                        return ["lt", [list(x) for x in v]]         # records of plain values, as rows
                    if _RECORDS.get(first.__name__) is first:
                        fields = _READ[first]
                        rows = _each(lambda x: [getattr(x, f) for f in fields], v)
                        if all(type(y) in _SCALARS for r in rows for y in r):
                            return ["lr", first.__name__, rows]
            return ["l", *_each(enc, v)]
        if t is tuple:
            return ["t", *map(enc, v)]
        if t is dict:
            return ["d", *[x for pair in _each(lambda kv: (enc(kv[0]), enc(kv[1])), list(v.items())) for x in pair]]
        if t is set:
            return ["s", *map(enc, v)]
        if t is frozenset:
            return ["f", *map(enc, v)]
        if t is Counter:
            return ["c", *[x for k, val in v.items() for x in (enc(k), enc(val))]]
        if t is Member:
            badge = v.badge
            if self.members.get(badge) is not v:
                raise TypeError(f"member {badge} is not the roster's own")
            return ["m", badge]
        if t is InspectionLimits:
            return ["i"]            # made from the rules profile again when read
        name = t.__name__
        if _RECORDS.get(name) is t:
            return ["r", name, *[enc(getattr(v, f)) for f in _READ[t]]]
        raise TypeError(f"a fold snapshot cannot hold a {t.__module__}.{name}")


def _plain_rows(rows: list, width: int | None = None) -> None:
    """Rows of plain values (ValueError otherwise): what ``lt`` and ``lr`` hold."""
    if type(rows) is not list or any(type(r) is not list or (width is not None and len(r) != width) for r in rows):
        raise ValueError("a fold snapshot's rows are not rows")
    scalars = _SCALARS
    if not all(type(y) in scalars for r in rows for y in r):
        raise ValueError("a fold snapshot's rows hold more than plain values")


def _record(cls: type, values) -> Any:
    """A dataclass record made from its fields' values (no __init__: the values are the stored ones)."""
    obj: object = object.__new__(cls)
    setter = object.__setattr__
    for f, val in zip(_FIELDS[cls], values):
        setter(obj, f, val)
    for f, val in _LEFT[cls]:
        setter(obj, f, val)
    return obj


class _Decoder:
    def __init__(self, roster: Roster, profile: RulesProfile) -> None:
        self.members = roster.members
        self.profile = profile

    def dec(self, v: Any) -> Any:
        if type(v) is not list:
            if type(v) not in _SCALARS:
                raise ValueError(f"not a value of a fold snapshot: {type(v).__name__}")
            return v
        tag = v[0]
        dec = self.dec
        if tag == "l":
            return [dec(x) for x in v[1:]]
        if tag == "lt":
            rows = v[1]
            _plain_rows(rows)
            return [tuple(r) for r in rows]
        if tag == "lr":
            cls, rows = _RECORDS[v[1]], v[2]
            _plain_rows(rows, len(_FIELDS[cls]))
            if issubclass(cls, tuple):
                new = tuple.__new__
                return [new(cls, r) for r in rows]
            return [_record(cls, r) for r in rows]
        if tag == "t":
            return tuple([dec(x) for x in v[1:]])
        if tag == "d" or tag == "c":
            it = iter(v[1:])
            out = {dec(k): dec(val) for k, val in zip(it, it)}
            return Counter(out) if tag == "c" else out
        if tag == "s":
            return {dec(x) for x in v[1:]}
        if tag == "f":
            return frozenset([dec(x) for x in v[1:]])
        if tag == "m":
            return self.members[v[1]]
        if tag == "i":
            return InspectionLimits.from_profile(self.profile)
        if tag == "r":
            cls = _RECORDS[v[1]]
            values = [dec(x) for x in v[2:]]
            fields = _FIELDS[cls]
            if len(values) != len(fields):
                raise ValueError(f"a {v[1]} of {len(values)} fields (it has {len(fields)})")
            if issubclass(cls, tuple):
                return tuple.__new__(cls, values)
            return _record(cls, values)
        raise ValueError(f"unknown tag {tag!r} in a fold snapshot")


def dumps(snap: snapshot.Snapshot, roster: Roster) -> str:
    """The snapshot as JSON text (TypeError: it holds a value this format does not know)."""
    enc = _Encoder(roster).enc
    attrs = {name: enc(snapshot.plain(value)) for name, value in snap.attrs.items() if name not in _ATTRS_GIVEN}
    # The characters by column (a slot of every character, in the state's order): most slots are plain values.
    rows = snap.characters
    width = len(snapshot._SLOTS)
    if any(len(r) != width for r in rows):
        raise TypeError("a character snapshot of another shape")
    members = _each(lambda r: enc(r[0]), rows)
    columns = []
    for i in range(1, width):
        pacing.breathe()                # kept in a thread of its own while the window draws
        col = [r[i] for r in rows]
        if all(type(x) in _SCALARS for x in col):
            columns.append(["p", col])
        else:
            columns.append(["v", _each(enc, col)])
    return _lines_dumps({"attrs": attrs, "members": [m[1] for m in members], "columns": columns})


def loads(text: str, roster: Roster, profile: RulesProfile) -> snapshot.Snapshot:
    """The snapshot written by ``dumps`` (ValueError, KeyError, TypeError, IndexError: the text is not one)."""
    doc = _lines_loads(text)
    dec = _Decoder(roster, profile).dec
    attrs = {name: dec(value) for name, value in doc["attrs"].items()}
    attrs["profile"] = profile
    attrs["roster"] = roster
    badges, columns = doc["members"], doc["columns"]
    if len(badges) != len(roster.members) or len(columns) != len(snapshot._SLOTS) - 1:
        raise ValueError("the snapshot's characters are not the roster's")
    members = roster.members
    cols: list[list] = [[members[b] for b in badges]]
    for kind, col in columns:
        if type(col) is not list or len(col) != len(badges):
            raise ValueError("a column of the snapshot's characters is not one")
        if kind == "p":
            if not all(type(x) in _SCALARS for x in col):
                raise ValueError("a plain column of the snapshot's characters holds more than plain values")
            cols.append(col)
        elif kind == "v":
            cols.append([dec(x) for x in col])
        else:
            raise ValueError(f"unknown column kind {kind!r} in a fold snapshot")
    return snapshot.Snapshot(attrs, list(zip(*cols)))


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _lines_dumps(doc: dict) -> str:
    """``doc`` as lines of JSON: a list longer than ``LINE_ITEMS`` is cut into lines of its own, and stands in
    the first line as ``{"$": [its first line, how many]}`` (the encoded values hold no JSON object, so
    nothing else reads as one).  Only the first line's values are looked into: a cut list's items are not."""
    lines = [""]

    def cut(v: Any) -> Any:
        t = type(v)
        if t is dict:
            return {k: cut(x) for k, x in v.items()}
        if t is not list:
            return v
        if len(v) <= LINE_ITEMS:
            return [cut(x) for x in v]
        first = len(lines)
        for i in range(0, len(v), LINE_ITEMS):
            pacing.breathe()
            lines.append(_dump(v[i:i + LINE_ITEMS]))
        return {"$": [first, len(lines) - first]}

    lines[0] = _dump(cut(doc))
    return "\n".join(lines)        # (json.dumps writes a newline inside a string as \\n: a line is a value)


def _lines_loads(text: str) -> Any:
    """The document ``_lines_dumps`` wrote: the first line, with each list cut into lines put back together."""
    lines = text.split("\n")

    def put(v: Any) -> Any:
        t = type(v)
        if t is list:
            return [put(x) for x in v]
        if t is not dict:
            return v
        if v.keys() != {"$"}:
            return {k: put(x) for k, x in v.items()}
        first, count = v["$"]
        if type(first) is not int or type(count) is not int or not 0 < first <= first + count <= len(lines):
            raise ValueError("a fold snapshot names lines it does not have")
        out: list = []
        for line in lines[first:first + count]:
            part = json.loads(line)
            if type(part) is not list:
                raise ValueError("a line of a fold snapshot is not a list")
            out += part
        return out

    return put(json.loads(lines[0]))


#: The fold's code digest written beside the modules by the installer's build (the bundle has no .py files).
BUILT_DIGEST = "fold_code.sha256"


def digest_of_sources(root: Path) -> str | None:
    """SHA-256 of every source file of ``root``/game and ``root``/rules (None when there are none)."""
    h = hashlib.sha256()
    found = False
    for package in ("game", "rules"):
        for path in sorted((root / package).rglob("*.py")):
            found = True
            h.update(path.relative_to(root).as_posix().encode())
            h.update(b"\0")
            h.update(path.read_bytes())
    return h.hexdigest() if found else None


@cache
def code_digest() -> str:
    """SHA-256 of the fold's code: every source file of controlroom.game and controlroom.rules.

    In the installed bundle the modules have no source files: the digest the build
    computed from them is read instead.  Without either, the code cannot be told,
    and a digest of this run alone makes every kept snapshot stale (folded whole).
    """
    root = Path(__file__).resolve().parents[1]
    digest = digest_of_sources(root)
    if digest is not None:
        return digest
    built = root / "game" / BUILT_DIGEST
    if built.is_file():
        return built.read_text(encoding="ascii").strip()
    return "unknown:" + os.urandom(16).hex()


def fingerprint(members: Iterable[Member], profile: RulesProfile) -> str:
    """What a snapshot is valid for: this format, the fold's code, the roster and the rules profile."""
    h = hashlib.sha256(f"{FORMAT}\0{code_digest()}\0".encode())
    h.update(repr(sorted(members, key=lambda m: m.badge)).encode())
    h.update(b"\0")
    h.update(repr(profile).encode())
    return h.hexdigest()
