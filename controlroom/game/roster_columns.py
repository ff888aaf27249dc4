"""A roster file's column vocabulary (no Qt, no store): its columns, the other spellings of their headers
(American English, the Estonian registration desk's), the Estonian names of the seed ruleset's classes,
helmets and armour, yes and no, and what a user maps by hand (``RosterMapping``).

``roster_csv`` reads and writes the file with these words, and the window's
import dialog offers them; docs/roster-csv.md lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controlroom.i18n import QT_TRANSLATE_NOOP, translate

REQUIRED = ("badge", "name", "side", "group", "class", "paid", "helmet", "armour")
OPTIONAL = ("hp", "ap", "inadequate")
COLUMNS = REQUIRED + OPTIONAL
# Other spellings a header may use (compared lower-case, spaces trimmed): American English, and the
# Estonian registration desk's own headers (docs/roster-csv.md lists them).
ALIASES = {
    "armor": "armour",
    "märk": "badge", "märgi nr": "badge", "märgi number": "badge", "number": "badge", "nr": "badge",
    "nimi": "name",
    "pool": "side",
    "grupp": "group", "rühm": "group", "salk": "group",
    "klass": "class",
    "makstud": "paid", "tasutud": "paid",
    "kiiver": "helmet",
    "turvis": "armour", "soomus": "armour", "rüü": "armour",
    "elupunktid": "hp", "ep": "hp",
    "turvisepunktid": "ap", "soomuspunktid": "ap", "tp": "ap",
    "ebapiisav": "inadequate", "puudulik": "inadequate",
}
# Estonian names of the seed ruleset's classes, helmets and armour pieces, used when a cell is not a name the
# game's own ruleset knows (a ruleset may name its classes in Estonian itself: its names come first).
VALUE_ALIASES = {
    "class": {"sõdalane": "warrior", "ravitseja": "healer", "tervendaja": "healer"},
    "helmet": {"nahk": "leather", "nahkkiiver": "leather", "metall": "metal", "metallkiiver": "metal"},
    "armour": {"nahk": "leather", "kõvanahk": "hardened_leather", "kõvendatud nahk": "hardened_leather",
               "ahel": "chain", "rõngasrüü": "chain", "ahel vammusel": "chain_on_gambeson",
               "ahel_vammusel": "chain_on_gambeson", "plaat": "plate", "plaatrüü": "plate",
               "brigantiin": "brigandine"},
}
YES = frozenset({"yes", "true", "1", "jah"})
NO = frozenset({"no", "false", "0", "ei"})
YES_NO = "yes, no, true, false, 1, 0, jah, ei"
# A helmet cell that says there is none (an empty cell too), and one that says only that there is one, not its
# kind (what an Estonian desk writes: jah/ei): the kind is asked once per file and answered by a mapping.
HELMET_NONE = frozenset({"", "no", "false", "0", "ei", "none", "puudub"})
HELMET_SOME = frozenset({"yes", "true", "1", "jah"})
# The columns whose cells a user may map by hand (a desk's own words): names of the ruleset, and yes/no.
MAPPABLE = ("class", "helmet", "armour", "paid", "inadequate")
FLAGS = ("paid", "inadequate")


# The columns in the language spoken (in Estonian, each is one of the desk's own headers above).
COLUMN_WORDS = {
    "badge": QT_TRANSLATE_NOOP("roster", "badge"), "name": QT_TRANSLATE_NOOP("roster", "name"),
    "side": QT_TRANSLATE_NOOP("roster", "side"), "group": QT_TRANSLATE_NOOP("roster", "group"),
    "class": QT_TRANSLATE_NOOP("roster", "class"), "paid": QT_TRANSLATE_NOOP("roster", "paid"),
    "helmet": QT_TRANSLATE_NOOP("roster", "helmet"), "armour": QT_TRANSLATE_NOOP("roster", "armour"),
    "hp": QT_TRANSLATE_NOOP("roster", "hp"), "ap": QT_TRANSLATE_NOOP("roster", "ap"),
    "inadequate": QT_TRANSLATE_NOOP("roster", "inadequate"),
}


def column_word(column: str) -> str:
    """A column's name in the language spoken."""
    return translate("roster", COLUMN_WORDS[column]) if column in COLUMN_WORDS else column


def header_key(cell: str) -> str:
    """A header cell as it is compared: lower case, spaces trimmed and single."""
    return " ".join(cell.strip().lower().split())


def value_key(cell: str) -> str:
    return " ".join(cell.strip().lower().split())


@dataclass
class RosterMapping:
    """What a user said by hand about a desk's file: its columns, and its class, helmet and armour names.

    ``columns`` maps a header (as ``header_key`` gives it) to one of
    COLUMNS, or to "" to leave that column out; ``values`` maps, per column
    ("class", "helmet", "armour"), a cell (as ``value_key`` gives it; an
    armour cell's pieces one by one) to the ruleset's name, and for "paid"
    and "inadequate" a cell to "yes" or "no".  The window
    remembers it for the next file (JSON: ``to_json``/``from_json``).
    """

    columns: dict[str, str] = field(default_factory=dict)
    values: dict[str, dict[str, str]] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"columns": dict(self.columns), "values": {k: dict(v) for k, v in self.values.items()}}

    @classmethod
    def from_json(cls, data) -> RosterMapping:
        """A mapping from what ``to_json`` gave (or a hand-written file of the same shape; headers and cells
        are compared as ``header_key``/``value_key`` give them, whatever their case); anything malformed is
        left out (a remembered mapping is a help; ``left_out`` says what)."""
        if not isinstance(data, Mapping):
            return cls()
        columns = ({header_key(k): str(v) for k, v in (data.get("columns") or {}).items()
                    if isinstance(k, str) and (v == "" or v in COLUMNS)}
                   if isinstance(data.get("columns"), Mapping) else {})
        values = {}
        raw = data.get("values")
        if isinstance(raw, Mapping):
            for column, names in raw.items():
                if column in MAPPABLE and isinstance(names, Mapping):
                    values[column] = {value_key(k): str(v) for k, v in names.items()
                                      if isinstance(k, str) and isinstance(v, str)}
        return cls(columns, values)

    @staticmethod
    def left_out(data) -> list[str]:
        """What ``from_json`` leaves out of ``data``, one sentence each (a hand-written mapping file is checked)."""
        if not isinstance(data, Mapping):
            return [translate("roster", 'a mapping is a JSON object with "columns" and "values"')]
        out = [translate("roster", "unknown key {key} (known: columns, values)").format(key=repr(k))
               for k in data if k not in ("columns", "values")]
        columns, values = data.get("columns", {}), data.get("values", {})
        if not isinstance(columns, Mapping):
            out.append(translate("roster", '"columns" is not an object of header: column'))
        else:
            out += [translate("roster", "columns: {header} is mapped to {column}, which is not a column "
                                        "(columns: {known}; \"\" leaves it out)").format(
                        header=repr(k), column=repr(v), known=", ".join(COLUMNS))
                    for k, v in columns.items() if not (isinstance(v, str) and (v == "" or v in COLUMNS))]
        if not isinstance(values, Mapping):
            out.append(translate("roster", '"values" is not an object of column: (object of word: name)'))
            return out
        for column, names in values.items():
            if column not in MAPPABLE:
                out.append(translate("roster", "values: {column} is not a column whose words are mapped "
                                               "(those are: {known})").format(
                    column=repr(column), known=", ".join(MAPPABLE)))
            elif not isinstance(names, Mapping):
                out.append(translate("roster", "values: {column} is not an object of word: name").format(
                    column=repr(column)))
            else:
                out += [translate("roster", "values: {column}: {word} is mapped to {name}, not to a name").format(
                    column=repr(column), word=repr(k), name=repr(v))
                    for k, v in names.items() if not isinstance(v, str)]
        return out

    def value(self, column: str, cell: str) -> str | None:
        return self.values.get(column, {}).get(value_key(cell))


NO_MAPPING = RosterMapping()


def column_of(cell: str, mapping: RosterMapping = NO_MAPPING) -> str | None:
    """The column a header cell names: the user's mapping first, then the format's names and aliases; None:
    a column the import leaves out."""
    key = header_key(cell)
    if key in mapping.columns:
        return mapping.columns[key] or None
    key = ALIASES.get(key, key)
    return key if key in COLUMNS else None


def yes_no(value: str) -> bool | None:
    v = value.strip().lower()
    return True if v in YES else False if v in NO else None
