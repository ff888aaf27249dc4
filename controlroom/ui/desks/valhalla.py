"""ValhallaDesk: check-ins by badge number, the dead waiting with their respawn countdowns, big counts per side."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from controlroom.game.character import RuleWarning
from controlroom.game.clock import format_time
from controlroom.game.views import CharacterView, StateDelta
from controlroom.ui.desks.common import ERROR_STYLE, OK_STYLE, PENDING_STYLE, bigger, describe, parse_badge, say
from controlroom.ui.panels.table import hidden_in_shown_window, read_only_view
from controlroom.ui.panels.valhalla import FallenModel, ValhallaData
from controlroom.ui.panels.words import CONDITIONS, countdown, word


class ValhallaDesk(QWidget):
    """The Valhalla desk: type a badge, Enter; the core says whether the check-in stands.

    A check-in is sent as a ``valhalla_checkin`` event (``entry``); the answer
    is read from the core's deltas: the rule warning raised by that event (not
    dead, already checked in) or the character now in Valhalla.  ``now_ms``
    gives the game clock for the respawn countdowns, redrawn every 500 ms.
    """

    SOURCE = "gm:valhalla"
    REFRESH_MS = 500
    HISTORY = 50
    entry = Signal(str, object)             # event type, fields

    def __init__(self, now_ms: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.now_ms = now_ms
        self.data = ValhallaData()
        self.pending: dict[int, bool] = {}              # badge -> was in Valhalla when the check-in was sent
        self.side_labels: dict[str, QLabel] = {}
        layout = QVBoxLayout(self)
        layout.addWidget(bigger(QLabel(self.tr("Valhalla desk"), self), 2.0, bold=True))
        row = QHBoxLayout()
        row.addWidget(bigger(QLabel(self.tr("Badge"), self), 2.4, bold=True))
        self.badge_field = bigger(QLineEdit(self), 3.0, bold=True)
        self.badge_field.setPlaceholderText(self.tr("badge number, then Enter"))
        self.badge_field.returnPressed.connect(self.check_in)
        row.addWidget(self.badge_field, 1)
        self.checkin_button = bigger(QPushButton(self.tr("Check in"), self), 2.0, bold=True)
        self.checkin_button.clicked.connect(self.check_in)
        row.addWidget(self.checkin_button)
        layout.addLayout(row)
        self.first_field = self.badge_field
        self.result = bigger(QLabel(self.tr("Type the badge number of a dead player and press Enter."), self), 1.8)
        self.result.setWordWrap(True)
        self.result.setMinimumHeight(self.result.fontMetrics().height() * 3)
        layout.addWidget(self.result)
        self.sides_frame = QFrame(self)
        self.sides_frame.setFrameShape(QFrame.Shape.StyledPanel)
        self.sides_grid = QGridLayout(self.sides_frame)
        layout.addWidget(self.sides_frame)
        lower = QHBoxLayout()
        waiting = QVBoxLayout()
        waiting.addWidget(bigger(QLabel(self.tr("The dead and their respawn countdowns"), self), 1.4, bold=True))
        self.model = FallenModel(self)
        self.view = bigger(read_only_view(self, self.model), 1.4)
        waiting.addWidget(self.view, 1)
        self.respawn_note = QLabel(self)
        self.respawn_note.setWordWrap(True)
        waiting.addWidget(self.respawn_note)
        lower.addLayout(waiting, 3)
        recent = QVBoxLayout()
        recent.addWidget(bigger(QLabel(self.tr("This desk's check-ins"), self), 1.4, bold=True))
        self.history = bigger(QListWidget(self), 1.2)
        recent.addWidget(self.history, 1)
        lower.addLayout(recent, 2)
        layout.addLayout(lower, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(self.REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self._stale = False                 # the table and counts are behind the data (drawn when shown)

    # -- the check-in ----------------------------------------------------------
    def check_in(self) -> None:
        """Send the typed badge's check-in to the core, or say why not."""
        text = self.badge_field.text()
        badge = parse_badge(text)
        if badge is None:
            say(self.result, self.tr("\u201c{0}\u201d is not a badge number: type it as a whole number, like 42.")
                .format(text.strip()), ERROR_STYLE)
            return
        c = self.data.characters.get(badge)
        if c is None:
            message = (self.tr("No player has badge {0} in this game's roster.").format(badge)
                       if self.data.characters else self.tr("The game is still opening: try again in a moment."))
            say(self.result, message, ERROR_STYLE)
            return
        self.pending[badge] = c.in_valhalla
        say(self.result, self.tr("Checking in {0}\u2026").format(describe(self, c)), PENDING_STYLE)
        self.badge_field.clear()
        self.entry.emit("valhalla_checkin", {"badge": badge})

    def _answered(self, c: CharacterView, warning: RuleWarning | None) -> None:
        self.pending.pop(c.badge, None)
        if warning is None:
            respawn = next((d for d in c.deadlines if d.kind == "respawns"), None)
            text = self.tr("Checked in: {0}").format(describe(self, c))
            if respawn is not None:
                text += "\n" + self.tr("Respawns in {0}").format(countdown(respawn.remaining))
            say(self.result, text, OK_STYLE)
            self._remember(self.tr("{0} checked in").format(self._who(c)))
            return
        if warning.code == "not_dead":
            why = self.tr("{0} is not dead ({1}): only the dead check in at Valhalla.").format(
                self._who(c), word(CONDITIONS, c.condition))
        elif warning.code == "already_in_valhalla":
            why = self.tr("{0} has already checked in at Valhalla.").format(self._who(c))
        else:
            why = warning.message
        say(self.result, self.tr("REFUSED: {0}").format(why) + "\n" + describe(self, c), ERROR_STYLE)
        self._remember(self.tr("{0} refused").format(self._who(c)))

    def _who(self, c: CharacterView) -> str:
        return self.tr("{0} (badge {1})").format(c.name, c.badge)

    def _remember(self, text: str) -> None:
        self.history.insertItem(0, f"{format_time(self.now_ms() // 1000 * 1000)}  {text}")
        while self.history.count() > self.HISTORY:
            self.history.takeItem(self.history.count() - 1)

    # -- data in ---------------------------------------------------------------
    def apply_delta(self, delta: StateDelta) -> None:
        self.data.apply(delta)
        if self.pending:
            warnings = {w.badge: w for w in delta.warnings if w.type == "valhalla_checkin" and w.badge in self.pending}
            for c in delta.characters:
                if c.badge in warnings:
                    self._answered(c, warnings[c.badge])
                elif c.badge in self.pending and c.in_valhalla and not self.pending[c.badge]:
                    self._answered(c, None)
        if not (delta.full or delta.characters):
            return                          # positions only: nobody died, came back or checked in
        self._stale = True
        if hidden_in_shown_window(self):
            return                                  # another desk or the map is shown: drawn when shown
        self._draw()

    def _draw(self) -> None:
        if not self._stale:
            return
        self._stale = False
        self.model.now = self.now_ms()
        self.model.set_rows([f for f in self.data.fallen() if f.dead])
        any_respawn = any(f.respawn_due is not None or f.respawn_left is not None for f in self.model.rows)
        self.respawn_note.setText("" if any_respawn else self.tr(
            "No respawn countdowns: respawn is off in this scenario, or nobody is waiting."))
        self._update_sides()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._draw()

    def refresh(self) -> None:
        """Redraw the respawn countdowns at the game clock's time."""
        self.model.set_now(self.now_ms())

    def side_text(self, side: str) -> str:
        c = self.data.sides.get(side, {})
        return self.tr("{side}\n{valhalla} in Valhalla \u00b7 {dead} dead \u00b7 {deaths} deaths").format(
            side=side, valhalla=c.get("in_valhalla", 0), dead=c.get("dead", 0), deaths=c.get("deaths", 0))

    def _update_sides(self) -> None:
        for side in self.data.sides:
            label = self.side_labels.get(side)
            if label is None:
                label = bigger(QLabel(self.sides_frame), 2.2, bold=True)
                label.setAlignment(Qt.AlignmentFlag.AlignCenter)
                label.setWordWrap(True)          # three sides' counts side by side fit a laptop's screen
                self.sides_grid.addWidget(label, 0, len(self.side_labels))
                self.side_labels[side] = label
            label.setText(self.side_text(side))
        for side, label in self.side_labels.items():
            label.setVisible(side in self.data.sides)
