"""Find (Ctrl+F): a badge, a name or a group, typed or picked from the suggestions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCompleter, QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from controlroom.game.views import CharacterView

ERROR_STYLE = "color: #c9302c;"


class Found(NamedTuple):
    kind: str           # "badge" or "group"
    key: int | str      # the badge number or the group's name
    label: str


def suggestions(characters: Iterable[CharacterView]) -> list[Found]:
    """Every player ('Name (badge) · Group') and every group ('Group (side)'), for the completer."""
    out, groups = [], {}
    for c in sorted(characters, key=lambda c: c.badge):
        out.append(Found("badge", c.badge, f"{c.name} ({c.badge}) \u00b7 {c.group}"))
        groups.setdefault(c.group, c.side)
    out += [Found("group", g, f"{g} ({s})") for g, s in sorted(groups.items())]
    return out


def find(text: str, characters: Iterable[CharacterView]) -> list[Found]:
    """What ``text`` names: a badge number, a suggestion picked, or the players and groups it is part of."""
    text = text.strip()
    characters = list(characters)
    if not text:
        return []
    if text.isdigit():
        return [f for f in suggestions(characters) if f.kind == "badge" and f.key == int(text)]
    every = suggestions(characters)
    exact = [f for f in every if f.label == text]
    if exact:
        return exact
    low = text.casefold()
    groups = [f for f in every if f.kind == "group" and str(f.key).casefold() == low]
    if groups:
        return groups
    return [f for f in every if low in f.label.casefold()]


class FindDialog(QDialog):
    """A line with suggestions; ``found`` is the one thing named when accepted."""

    def __init__(self, characters: Iterable[CharacterView], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Find a player or a group"))
        self.characters = list(characters)
        self.found: Found | None = None
        self.field = QLineEdit(self)
        self.field.setPlaceholderText(self.tr("badge, name or group"))
        completer = QCompleter([f.label for f in suggestions(self.characters)], self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.field.setCompleter(completer)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Find"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.field)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def accept(self) -> None:
        text = self.field.text()
        matches = find(text, self.characters)
        if len(matches) == 1:
            self.found = matches[0]
            super().accept()
            return
        self.message.setStyleSheet(ERROR_STYLE)
        if not matches:
            self.message.setText(self.tr("No badge, player or group \u201c{0}\u201d in this game.").format(
                text.strip()))
        else:
            self.message.setText(self.tr("{0} match: {1}. Pick one of the suggestions.").format(
                len(matches), "; ".join(f.label for f in matches[:5]) + ("\u2026" if len(matches) > 5 else "")))
