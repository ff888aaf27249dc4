"""Marshal cards: what each marshal's card says, in Estonian or English (no Qt: ``pdf_cards`` draws them).

One card per marshal's handset: the marshal (name and badge), the device's id
and label, its group, the handset's keys for each report (hardware/README.md,
section 5), the text grammar of a Meshtastic phone (``game.textreport``), the
seed's STOPP rule in short, and a QR code that says the device's id and the
game's name, nothing more: never the key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from controlroom.i18n import DEFAULT, QT_TRANSLATE_NOOP, catalogue, check_language
from controlroom.store.device_setup import device_status
from controlroom.store.game import GameStore

# The handset's keys (hardware/README.md, section 5): what to press, and the report it sends.
KEYS = (
    (QT_TRANSLATE_NOOP("cards", "badge A #"), QT_TRANSLATE_NOOP("cards", "down")),
    (QT_TRANSLATE_NOOP("cards", "badge A A #"), QT_TRANSLATE_NOOP("cards", "died")),
    (QT_TRANSLATE_NOOP("cards", "badge B #"), QT_TRANSLATE_NOOP("cards", "knocked out")),
    (QT_TRANSLATE_NOOP("cards", "badge B B # (killer #)"), QT_TRANSLATE_NOOP("cards", "permanently killed")),
    (QT_TRANSLATE_NOOP("cards", "badge C # (binder #)"), QT_TRANSLATE_NOOP("cards", "bound")),
    (QT_TRANSLATE_NOOP("cards", "badge C C # healer #"), QT_TRANSLATE_NOOP("cards", "healed by a healer's touch")),
    (QT_TRANSLATE_NOOP("cards", "badge D #"), QT_TRANSLATE_NOOP("cards", "Valhalla check-in")),
    (QT_TRANSLATE_NOOP("cards", "STOPP, then 1 / 2 / 3"),
     QT_TRANSLATE_NOOP("cards", "STOPP: unpleasant / injury / danger")),
    (QT_TRANSLATE_NOOP("cards", "caller's badge, STOPP, 1-3"), QT_TRANSLATE_NOOP("cards", "STOPP, with who called it")),
    (QT_TRANSLATE_NOOP("cards", "STOPP STOPP"), QT_TRANSLATE_NOOP("cards", "STOPP at once (danger)")),
    (QT_TRANSLATE_NOOP("cards", "STOPP # #"), QT_TRANSLATE_NOOP("cards", "lift this handset's STOPP")),
    (QT_TRANSLATE_NOOP("cards", "*"), QT_TRANSLATE_NOOP("cards", "back one step; clear")),
)
# The text grammar a phone types (game/textreport.py): each line parses as the report it names.
GRAMMAR = (
    ("D 123", QT_TRANSLATE_NOOP("cards", "down (MAAS 123)")),
    ("K 123", QT_TRANSLATE_NOOP("cards", "dead (SURNUD 123)")),
    ("B 123 45", QT_TRANSLATE_NOOP("cards", "bound, by badge 45 (SEOTUD)")),
    ("V 123", QT_TRANSLATE_NOOP("cards", "Valhalla check-in")),
    ("STOPP injury", QT_TRANSLATE_NOOP("cards", "STOPP: danger, injury or unpleasant")),
    ("LIFT", QT_TRANSLATE_NOOP("cards", "lift your last STOPP (LÕPP, JÄTKA)")),
    ("H 12 3 1", QT_TRANSLATE_NOOP("cards", "headcount: up, down, dead (PEALUGU)")),
    ("?", QT_TRANSLATE_NOOP("cards", "the grammar in one line (ABI)")),
)
# The seed's STOPP rule (ruleset: "STOPP rule"), in short.
STOPP_RULE = (
    QT_TRANSLATE_NOOP("cards", "Someone calls STOPP: everyone stops at once, is silent and drops on one knee."),
    QT_TRANSLATE_NOOP("cards", "Whoever moves into the stopped area is bound by it too."),
    QT_TRANSLATE_NOOP("cards", "Only for out-of-game trouble: an unpleasant situation, an injury or illness, "
                               "a danger."),
    QT_TRANSLATE_NOOP("cards", "Never for in-game trouble, nor for someone else's injury: they call it themselves."),
    QT_TRANSLATE_NOOP("cards", "The game goes on when the caller or the game masters see all ready and give "
                               "the signal."),
    QT_TRANSLATE_NOOP("cards", "A STOPP called in a fight: the caller is unconscious (0 HP) afterwards."),
)
WORDS = {
    "title": QT_TRANSLATE_NOOP("cards", "Marshal card"),
    "marshal": QT_TRANSLATE_NOOP("cards", "Marshal"),
    "badge": QT_TRANSLATE_NOOP("cards", "badge {badge}"),
    "device": QT_TRANSLATE_NOOP("cards", "Handset {device}"),
    "group": QT_TRANSLATE_NOOP("cards", "Group"),
    "no group": QT_TRANSLATE_NOOP("cards", "none"),
    "keys": QT_TRANSLATE_NOOP("cards", "Handset keys"),
    "grammar": QT_TRANSLATE_NOOP("cards", "On a Meshtastic phone, type"),
    "stopp": QT_TRANSLATE_NOOP("cards", "STOPP"),
    "qr": QT_TRANSLATE_NOOP("cards", "Scan: device and game"),
}


def say(text: str, language: str) -> str:
    """``text`` (context "cards") in ``language``, whatever the language spoken."""
    return text if language == DEFAULT else catalogue("controlroom", language).get(("cards", text), text)


def qr_text(game: str, device: int) -> str:
    """What a card's QR code says: the game's name and the device id (never a key)."""
    return json.dumps({"game": game, "device": device}, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Card:
    device: int
    label: str
    marshal: str
    badge: int | None
    group: str | None
    qr: str


@dataclass(frozen=True)
class Cards:
    """Every marshal's card of a game, and the words they share, in one language."""

    game: str
    language: str
    cards: list[Card] = field(default_factory=list)

    def word(self, key: str, **values) -> str:
        return say(WORDS[key], self.language).format(**values)

    def keys(self) -> list[tuple[str, str]]:
        return [(say(k, self.language), say(w, self.language)) for k, w in KEYS]

    def grammar(self) -> list[tuple[str, str]]:
        return [(typed, say(w, self.language)) for typed, w in GRAMMAR]

    def stopp_rule(self) -> list[str]:
        return [say(line, self.language) for line in STOPP_RULE]


def load_cards(store: GameStore, language: str) -> Cards:
    """The cards of every marshal's handset of the game (by device id), in ``language`` ("et", "en")."""
    language = check_language(language)
    game = store.name
    cards = [Card(s.id, s.label, s.marshal or "", s.badge, s.group, qr_text(game, s.id))
             for s in device_status(store) if s.role == "marshal"]
    return Cards(game, language, cards)
