"""The game master's own entries in the window: Ctrl+Z, corrections, Find and the player cards.

A part of :class:`controlroom.ui.main_window.MainWindow` (``window.entries``),
which reads the window's ``core``, ``status``, ``panels``, ``layers``,
``map`` and ``characters``: kept apart so that the window's module stays the
window's shape (docks, menus, layout).  Its texts are translated under its
own Qt context, ``WindowEntries``.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, Slot

from controlroom.engine.commands import Retract


class WindowEntries(QObject):
    """Take back the game master's last entry, correct a report, find a player or group, open player cards."""

    #: Ctrl+Z undoes the game master's last entry only this long after it (seconds).
    UNDO_SECONDS = 60.0

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.cards: dict = {}                       # badge -> an open PlayerCard
        self._last_entry: tuple[int, float] | None = None     # (seq, monotonic time) of the GM's last entry
        self._sent: list[tuple[str, dict]] = []                # entries sent from this window, not yet stored
        self.correction_dialog = None
        self.find_dialog = None

    @Slot(str, object)
    def note_entry(self, type_: str, fields) -> None:
        """A report entered at this window (the voice-radio form, a desk): Ctrl+Z may take it back once stored."""
        self._sent.append((type_, dict(fields)))
        del self._sent[:-20]

    def note_entries(self, delta) -> None:
        for stored in delta.events:
            event = stored.event
            if event.type == "retracted":
                if self._last_entry is not None and event.data.get("seq") == self._last_entry[0]:
                    self._last_entry = None
                continue
            if not event.source.startswith("gm"):
                continue
            # Only what this window sent (another station's game master has their own Ctrl+Z).
            for i, (type_, fields) in enumerate(self._sent):
                if type_ == event.type and all(event.data.get(k) == v for k, v in fields.items()):
                    del self._sent[i]
                    self._last_entry = (stored.seq, time.monotonic())
                    break

    @Slot()
    def undo_last_entry(self) -> None:
        """Edit, Undo (Ctrl+Z): take back the game master's last entry, if made within the last minute."""
        last = self._last_entry
        if last is None:
            self.window.status.setText(self.tr("Nothing to undo: no entry of yours is waiting."))
            return
        seq, at = last
        if time.monotonic() - at > self.UNDO_SECONDS:
            self.window.status.setText(self.tr("Nothing to undo: your last entry is more than a minute old "
                                        "(right-click it in Events, Correct this report…)."))
            return
        self._last_entry = None
        self.window.core.send(Retract(seq, self.tr("undone by the game master (Ctrl+Z)")))
        self.window.status.setText(self.tr("Your last entry is taken back."))

    def stored_event(self, seq: int):
        """An event the timeline has (its rows, and those it holds back a moment), by seq."""
        rows, _retracted = self.window.panels.panels["timeline"].model.everything()
        return next((s for s in reversed(rows) if s.seq == seq), None)

    @Slot(int)
    def correct_report(self, seq: int) -> None:
        """Correct this report…: retract it with a reason, and optionally append a corrected one."""
        from controlroom.ui.dialogs.correction import CorrectionDialog

        stored = self.stored_event(seq)
        if stored is None:
            return
        badge = stored.event.data.get("badge")
        c = self.window.characters.get(badge) if badge is not None else None
        dialog = CorrectionDialog(stored, f"{c.name} ({c.badge})" if c else "", self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda d=dialog: self._send_correction(d.retraction, d.replacement))
        self.correction_dialog = dialog
        dialog.open()

    def _send_correction(self, retraction, replacement) -> None:
        seq, reason = retraction
        self.window.core.send(Retract(seq, reason))
        if replacement is not None:
            type_, fields = replacement
            self.note_entry(type_, fields)
            self.window.core.submit(type_, fields, "gm")
        self.window.status.setText(self.tr("The report is taken back: {reason}").format(reason=reason))

    @Slot()
    def find(self) -> None:
        """Edit, Find (Ctrl+F): a badge, name or group; the map centres on it and a player's card opens."""
        from controlroom.ui.dialogs.find import FindDialog

        dialog = FindDialog(self.window.characters.values(), self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda d=dialog: self.show_found(d.found))
        self.find_dialog = dialog
        dialog.open()

    def show_found(self, found) -> None:
        if found is None:
            return
        xy = self.window.layers.badge_xy(found.key) if found.kind == "badge" else self.window.layers.group_xy(found.key)
        if xy is not None:
            self.centre_on(*xy)
        else:
            self.window.status.setText(self.tr("{0}: no position known yet.").format(found.label))
        if found.kind == "badge":
            self.open_card(int(found.key))

    def centre_on(self, x: float, y: float, half: float = 150.0) -> None:
        self.window.map.getViewBox().setRange(xRange=(x - half, x + half), yRange=(y - half * 2 / 3, y + half * 2 / 3),
                                       padding=0)

    @Slot(int)
    def open_card(self, badge: int) -> None:
        """A player's card: state, hit and armour points, deadlines, history and the devices that reported."""
        from controlroom.ui.dialogs.player_card import PlayerCard

        card = self.cards.get(badge)
        if card is None:
            card = PlayerCard(badge, self.window.core.game_time, self.window)
            card.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            card.correct_requested.connect(self.correct_report)
            card.destroyed.connect(lambda _=None, b=badge: self.cards.pop(b, None))
            self.cards[badge] = card
            self._fill_card(card)
        card.show()
        card.raise_()

    def _fill_card(self, card) -> None:
        c = self.window.characters.get(card.badge)
        if c is not None:
            card.set_character(c)
        rows, retracted = self.window.panels.panels["timeline"].model.everything()    # (rows held back included)
        devices = self.window.layers.devices
        names = {source: info.get("label") or "" for source, info in devices.items()}
        card.set_history(rows, retracted, names, [source for source, info in devices.items() if info.get("tak")])

    def update_cards(self, delta) -> None:
        for badge, card in list(self.cards.items()):
            if delta.full or any(c.badge == badge for c in delta.characters) or any(
                    s.event.data.get("badge") == badge or s.event.type == "retracted" for s in delta.events):
                self._fill_card(card)
