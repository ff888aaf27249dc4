"""What the start window's choice leads to: the game's file name, and its roster brought in once it is open."""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from controlroom.engine.commands import AddPlayers
from controlroom.game.roster_csv import RosterImportError, read_roster_entries
from controlroom.paths import GAME_SUFFIX

log = logging.getLogger(__name__)

# A game's file name keeps its name's letters and digits (any script), spaces and these; others become "_".
NAME_KEEPS = " -_.,()'"
NAME_MAX = 80


def file_name_for(name: str) -> str:
    """The file a game named ``name`` is saved in (``Suvelahing 2026.crgame``): safe on every system."""
    kept = "".join(c if unicodedata.category(c)[0] in "LN" or c in NAME_KEEPS else "_"
                   for c in unicodedata.normalize("NFC", name.strip()))
    kept = kept.strip(" .")[:NAME_MAX].strip(" .")
    return (kept if any(c.isalnum() for c in kept) else "game") + GAME_SUFFIX


@dataclass(frozen=True)
class StartChoice:
    """``kind``: "new" (a game to make at ``db``, with a ``map`` and a ``roster`` file if given), "open" (the
    game ``db``, a file or a database address) or "demo"."""

    kind: str
    db: str | None = None
    map: str | None = None
    roster: str | None = None

    def before_start(self, core, window) -> None:
        """For ``run_window``: the roster given is brought into the game as soon as it is open."""
        if self.roster:
            window.roster_at_start = RosterAtStart(core, window, self.roster)


class RosterAtStart:
    """Imports a roster file into a game just opened: at once when it reads cleanly, else in Game, Import roster.

    A file with problems (a column or a word only a person can map, a line
    that is wrong) is opened in the window's import dialog, which shows each
    problem and lets the game master map what it does not know.
    """

    def __init__(self, core, window, path: str) -> None:
        self.core, self.window, self.path = core, window, path
        self.request: int | None = None
        core.opened.connect(self._opened)
        core.roster_answered.connect(self._answered)

    def _opened(self, info) -> None:
        from controlroom.ui.dialogs.roster_import import RosterImportDialog, remembered_mapping

        try:
            entries = read_roster_entries(Path(self.path), info.profile, remembered_mapping())
        except (RosterImportError, OSError, ValueError) as exc:
            log.info("the roster %s needs the import dialog: %s", self.path, exc)
            self._in_dialog()
            return
        self.request = next(RosterImportDialog._numbers)
        self.core.send(AddPlayers(self.request, tuple(entries), True))

    def _answered(self, answer) -> None:
        if answer.request != self.request:
            return
        self.request = None
        if answer.stored:
            self.window._roster_imported(len(answer.added), answer.unchanged)
        else:
            self._in_dialog()

    def _in_dialog(self) -> None:
        dialog = self.window.import_roster()
        dialog.open_file(self.path)
        self.window.status.setText(QCoreApplication.translate(
            "StartChoice", "The roster needs a look before it is imported: see the import window."))
