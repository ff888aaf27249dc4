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

N = QT_TRANSLATE_NOOP
# The handset's keys (hardware/README.md, section 5): what to press, and the report it sends.
KEYS = (
    (N("cards", "badge A #"), N("cards", "down")),
    (N("cards", "badge A A #"), N("cards", "died")),
    (N("cards", "badge B #"), N("cards", "knocked out")),
    (N("cards", "badge B B # (killer #)"), N("cards", "permanently killed")),
    (N("cards", "badge C # (binder #)"), N("cards", "bound")),
    (N("cards", "badge C C # healer #"), N("cards", "healed by a healer's touch")),
    (N("cards", "badge D #"), N("cards", "Valhalla check-in")),
    (N("cards", "STOPP, then 1 / 2 / 3"), N("cards", "STOPP: unpleasant / injury / danger")),
    (N("cards", "caller's badge, STOPP, 1-3"), N("cards", "STOPP, with who called it")),
    (N("cards", "STOPP STOPP"), N("cards", "STOPP at once (danger)")),
    (N("cards", "STOPP # #"), N("cards", "lift this handset's STOPP")),
    (N("cards", "*"), N("cards", "back one step; clear")),
)
# The text grammar a phone types (game/textreport.py): each line parses as the report it names.
GRAMMAR = (
    ("D 123", N("cards", "down (MAAS 123)")),
    ("K 123", N("cards", "dead (SURNUD 123)")),
    ("B 123 45", N("cards", "bound, by badge 45 (SEOTUD)")),
    ("V 123", N("cards", "Valhalla check-in")),
    ("STOPP injury", N("cards", "STOPP: danger, injury or unpleasant")),
    ("LIFT", N("cards", "lift your last STOPP (LÕPP, JÄTKA)")),
    ("H 12 3 1", N("cards", "headcount: up, down, dead (PEALUGU)")),
    ("?", N("cards", "the grammar in one line (ABI)")),
)
# The seed's STOPP rule (ruleset: "STOPP rule"), in short.
STOPP_RULE = (
    N("cards", "Someone calls STOPP: everyone stops at once, is silent and drops on one knee."),
    N("cards", "Whoever moves into the stopped area is bound by it too."),
    N("cards", "Only for out-of-game trouble: an unpleasant situation, an injury or illness, a danger."),
    N("cards", "Never for in-game trouble, nor for someone else's injury: they call it themselves."),
    N("cards", "The game goes on when the caller or the game masters see all ready and give the signal."),
    N("cards", "A STOPP called in a fight: the caller is unconscious (0 HP) afterwards."),
)
WORDS = {
    "title": N("cards", "Marshal card"),
    "marshal": N("cards", "Marshal"),
    "badge": N("cards", "badge {badge}"),
    "device": N("cards", "Handset {device}"),
    "group": N("cards", "Group"),
    "no group": N("cards", "none"),
    "keys": N("cards", "Handset keys"),
    "grammar": N("cards", "On a Meshtastic phone, type"),
    "stopp": N("cards", "STOPP"),
    "qr": N("cards", "Scan: device and game"),
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
