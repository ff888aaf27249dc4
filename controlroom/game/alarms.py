"""Alarms: what a game master must see at once, and the class each belongs to."""

from __future__ import annotations

from typing import NamedTuple

SAFETY, GAME, SECURITY, LINK, STORAGE = "safety", "game", "security", "link", "storage"
CLASSES = (SAFETY, GAME, SECURITY, LINK, STORAGE)

# Each alarm kind's class: safety first (STOPP and injuries), then the game, radio security, links.
KIND_CLASS = {
    "stopp": SAFETY,
    "injury": SAFETY,
    "death": GAME,
    "marshal_silent": GAME,
    "stopp_overdue": GAME,
    "late_report": GAME,
    "rejected_auth": SECURITY,
    "rejected_replay": SECURITY,
    "rejected_unknown_device": SECURITY,
    "gateway_lost": LINK,
    "storage": STORAGE,
}


class Alarm(NamedTuple):
    """Something a game master must see at once; it stays until acknowledged (by ``id``)."""

    id: str
    kind: str            # a key of KIND_CLASS
    message: str
    t: int
    count: int = 1       # repeats merged into this one

    @property
    def cls(self) -> str:
        return KIND_CLASS.get(self.kind, GAME)
