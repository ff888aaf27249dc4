"""ValhallaPanel: the dead per side and per group, who is in Valhalla, deaths per player, respawn countdowns."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from controlroom.game.views import CharacterView, StateDelta
from controlroom.ui.panels.table import RowTable, hidden_in_shown_window, read_only_view
from controlroom.ui.panels.words import countdown, who


class GroupCount(NamedTuple):
    side: str
    group: str
    members: int
    dead: int
    in_valhalla: int
    deaths: int


class Fallen(NamedTuple):
    """A player who is dead now or has died before in this game."""

    badge: int
    name: str
    side: str
    group: str
    dead: bool
    in_valhalla: bool
    deaths: int
    respawn_due: int | None       # game ms; None when not respawning (or held by a STOPP)
    respawn_left: int | None      # ms left when the delta was made


def fallen_of(c: CharacterView) -> Fallen | None:
    if c.condition != "dead" and not c.deaths:
        return None
    respawn = next((d for d in c.deadlines if d.kind == "respawns"), None)
    return Fallen(c.badge, c.name, c.side, c.group, c.condition == "dead", c.in_valhalla, c.deaths,
                  respawn.due if respawn else None, respawn.remaining if respawn else None)


class ValhallaData:
    """Characters from deltas, and what the panel shows about the dead; pure Python.

    Kept up to date by what each delta changed: the counts per group and the
    fallen are not read again from every character (8,000 of them in a big
    game) at every delta.
    """

    def __init__(self) -> None:
        self.characters: dict[int, CharacterView] = {}
        self.sides: dict[str, dict[str, int]] = {}
        self._counts: dict[tuple[str, str], list[int]] = {}     # (side, group) -> players, dead, in Valhalla, deaths
        self._fallen: dict[int, Fallen] = {}
        self._fallen_rows: list[Fallen] | None = None            # sorted, until a fallen changes

    def apply(self, delta: StateDelta) -> None:
        if delta.full:
            self.characters, self._counts, self._fallen, self._fallen_rows = {}, {}, {}, None
        for c in delta.characters:
            old = self.characters.get(c.badge)
            if old is not None:
                self._count(old, -1)
            self.characters[c.badge] = c
            self._count(c, +1)
            f = fallen_of(c)
            if f is not None:
                if self._fallen.get(c.badge) != f:
                    self._fallen[c.badge] = f
                    self._fallen_rows = None
            elif self._fallen.pop(c.badge, None) is not None:
                self._fallen_rows = None
        self.sides = dict(delta.sides)

    def _count(self, c: CharacterView, sign: int) -> None:
        n = self._counts.setdefault((c.side, c.group), [0, 0, 0, 0])
        n[0] += sign
        n[1] += sign * (c.condition == "dead")
        n[2] += sign * bool(c.in_valhalla)
        n[3] += sign * c.deaths

    def groups(self) -> list[GroupCount]:
        return [GroupCount(side, group, *n) for (side, group), n in sorted(self._counts.items()) if n[0] > 0]

    def fallen(self) -> list[Fallen]:
        """The dead first (soonest respawn first), then those who died and came back; most deaths first."""
        if self._fallen_rows is None:
            rows = list(self._fallen.values())
            rows.sort(key=lambda f: (not f.dead, f.respawn_due is None, f.respawn_due or 0, -f.deaths, f.badge))
            self._fallen_rows = rows
        return list(self._fallen_rows)


class _Table(RowTable):
    """A read-only table of named tuples, with a header and a function that gives each cell's text."""

    def __init__(self, columns: tuple[str, ...], parent=None) -> None:
        super().__init__(parent)
        self.titles = columns

    def set_rows(self, rows: list) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(self.rows[index.row()], index.column())
        return None

    def text(self, row, column: int) -> str:
        """The cell's text (each table says its own)."""
        return str(row[column])


class GroupModel(_Table):
    def __init__(self, parent=None) -> None:
        super().__init__((
            QT_TRANSLATE_NOOP("panels", "Side"), QT_TRANSLATE_NOOP("panels", "Group"),
            QT_TRANSLATE_NOOP("panels", "Dead now"), QT_TRANSLATE_NOOP("panels", "In Valhalla"),
            QT_TRANSLATE_NOOP("panels", "Deaths"), QT_TRANSLATE_NOOP("panels", "Members"),
        ), parent)

    def text(self, row: GroupCount, column: int) -> str:
        return (row.side, row.group, str(row.dead), str(row.in_valhalla), str(row.deaths), str(row.members))[column]


class FallenModel(_Table):
    now_columns = (5,)                  # "Respawns in"

    def __init__(self, parent=None) -> None:
        super().__init__((
            QT_TRANSLATE_NOOP("panels", "Who"), QT_TRANSLATE_NOOP("panels", "Side"),
            QT_TRANSLATE_NOOP("panels", "Group"), QT_TRANSLATE_NOOP("panels", "Now"),
            QT_TRANSLATE_NOOP("panels", "Deaths"), QT_TRANSLATE_NOOP("panels", "Respawns in"),
        ), parent)

    def text(self, row: Fallen, column: int) -> str:
        if column == 0:
            return who(row.name, row.badge)
        if column == 1:
            return row.side
        if column == 2:
            return row.group
        if column == 3:
            if not row.dead:
                return QCoreApplication.translate("panels", "alive again")
            if row.in_valhalla:
                return QCoreApplication.translate("panels", "in Valhalla")
            return QCoreApplication.translate("panels", "dead, not yet in Valhalla")
        if column == 4:
            return str(row.deaths)
        if row.respawn_due is not None:
            return countdown(row.respawn_due - self.now)
        if row.respawn_left is not None:
            return QCoreApplication.translate("panels", "held {0}").format(countdown(row.respawn_left))
        return ""


class ValhallaPanel(QWidget):
    """Big numbers per side, dead per group, and the fallen with their respawn countdowns.

    ``now_ms`` gives the game clock (timeline ms) for the countdowns, redrawn every 500 ms.
    """

    REFRESH_MS = 500

    def __init__(self, now_ms: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.now_ms = now_ms
        self.data = ValhallaData()
        self.group_model = GroupModel(self)
        self.fallen_model = FallenModel(self)
        self.side_labels: dict[str, QLabel] = {}
        self.sides_row = QVBoxLayout()          # one side under another: the dock beside the map is narrow
        self.group_view = read_only_view(self, self.group_model)
        self.fallen_view = read_only_view(self, self.fallen_model)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(self.sides_row)
        layout.addWidget(QLabel(self.tr("Dead by group"), self))
        layout.addWidget(self.group_view, 1)
        layout.addWidget(QLabel(self.tr("The fallen"), self))
        layout.addWidget(self.fallen_view, 2)
        self.timer = QTimer(self)
        self.timer.setInterval(self.REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self._stale = False                 # the tables are behind the data (drawn when the panel shows)

    def apply_delta(self, delta: StateDelta) -> None:
        self.data.apply(delta)
        if delta.full or delta.characters:          # positions only: nobody fell or came back
            self._stale = True
        if hidden_in_shown_window(self):
            return                                  # behind another dock's tab: drawn when shown
        self._draw()

    def _draw(self) -> None:
        now = self.now_ms()
        self.group_model.now = self.fallen_model.now = now
        if self._stale:
            self._stale = False
            self.group_model.set_rows(self.data.groups())
            self.fallen_model.set_rows(self.data.fallen())
        self._update_sides()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._draw()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._stale and not hidden_in_shown_window(self):
            self._draw()

    def shown(self, visible: bool = True) -> None:
        """Its dock's tab came to the front (the dock's ``visibilityChanged``): the tables are drawn if behind."""
        if visible and self._stale:
            self._draw()

    def refresh(self) -> None:
        """Redraw the respawn countdowns at the game clock's time."""
        self.fallen_model.set_now(self.now_ms())

    def side_text(self, side: str) -> str:
        c = self.data.sides.get(side, {})
        return self.tr("{side}\n{dead} dead \u00b7 {valhalla} in Valhalla \u00b7 {deaths} deaths").format(
            side=side, dead=c.get("dead", 0), valhalla=c.get("in_valhalla", 0), deaths=c.get("deaths", 0))

    def _update_sides(self) -> None:
        for side in self.data.sides:
            label = self.side_labels.get(side)
            if label is None:
                label = QLabel(self)
                label.setAlignment(Qt.AlignmentFlag.AlignCenter)
                label.setWordWrap(True)         # keeps the dock narrow beside the map
                font = label.font()
                font.setPointSizeF(font.pointSizeF() * 1.4)
                font.setBold(True)
                label.setFont(font)
                self.side_labels[side] = label
                self.sides_row.addWidget(label)
            label.setText(self.side_text(side))
        for side, label in self.side_labels.items():
            label.setVisible(side in self.data.sides)
