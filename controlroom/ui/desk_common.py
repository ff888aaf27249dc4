"""What the desks share: big fonts, badge numbers, the wiring to the core, and the window's desk switch."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QFont, QFontMetrics, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFrame, QLabel, QMainWindow, QScrollArea, QStackedWidget, QWidget

from controlroom.game.views import CharacterView
from controlroom.rules.profile import default_profile
from controlroom.ui.panels.words import CONDITIONS, word

DESKS = ("map", "valhalla", "weapons")
ERROR_STYLE = "color: #c9302c;"
OK_STYLE = "color: #2d7d2d;"
PENDING_STYLE = "color: #8a6d00;"


def bigger(widget: QWidget, factor: float, bold: bool = False) -> QWidget:
    """Scale a widget's font (a desk is read from a step away)."""
    font = QFont(widget.font())
    size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    font.setPointSizeF(size * factor)
    font.setBold(bold)
    widget.setFont(font)
    return widget


def verdict_area(parent: QWidget, label: QLabel, lines: int) -> QScrollArea:
    """A verdict label in a box ``lines`` high: a longer verdict scrolls, the fields around it never move."""
    area = QScrollArea(parent)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    area.setWidget(label)
    area.setFixedHeight(QFontMetrics(label.font()).lineSpacing() * lines + 4)
    return area


def say(label: QLabel, text: str, style: str = "") -> None:
    label.setText(text)
    label.setStyleSheet(style)


def parse_badge(text: str) -> int | None:
    """A badge number typed at a desk (spaces allowed around it), or None."""
    text = text.strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def describe(widget: QWidget, c: CharacterView) -> str:
    """One line about a character: name, badge, side, group, class, condition and deaths."""
    return widget.tr("{name} (badge {badge}) \u00b7 {side} / {group} \u00b7 {cls} \u00b7 {condition} \u00b7 "
                     "{deaths} deaths").format(name=c.name, badge=c.badge, side=c.side, group=c.group, cls=c.cls,
                                               condition=word(CONDITIONS, c.condition), deaths=c.deaths)


def wire_desk(desk, core) -> None:
    """A desk reads the core's deltas (and the game's ruleset) and sends its entries as events through the core."""
    if hasattr(desk, "set_profile"):
        core.loaded.connect(lambda _delta: desk.set_profile(game_profile(core)))
    core.loaded.connect(desk.apply_delta)
    core.delta_published.connect(desk.apply_delta)
    desk.entry.connect(lambda type_, fields: core.submit_requested.emit(type_, fields, desk.SOURCE))


def game_profile(core):
    """The open game's ruleset (immutable; known once the core has opened the game), or the bundled one."""
    return core.info.profile if core.info is not None else default_profile()


def game_clock(core) -> Callable[[], int]:
    """The game's time now, as the core last said it and the clock has run since."""
    return core.game_time


class DeskSwitch(QObject):
    """The window's centre: the map or one of the desks (View, Desk); a desk hides the docks but the alarms."""

    def __init__(self, window: QMainWindow, core, map_widget: QWidget) -> None:
        super().__init__(window)
        from controlroom.ui.desk_valhalla import ValhallaDesk
        from controlroom.ui.desk_weapons import WeaponDesk

        self.window = window
        self.stack = QStackedWidget(window)
        self.stack.setObjectName("desks")
        self.desks: dict[str, QWidget] = {"map": map_widget}
        self.stack.addWidget(map_widget)
        for name, desk in (("valhalla", ValhallaDesk(game_clock(core))), ("weapons", WeaponDesk())):
            wire_desk(desk, core)
            self.desks[name] = desk
            self.stack.addWidget(desk)
        self.current = "map"
        self._hidden_docks: list[QDockWidget] = []
        self.actions: dict[str, QAction] = {}
        self.group = QActionGroup(self)
        titles = {"map": self.tr("&Control room (map)"), "valhalla": self.tr("&Valhalla desk"),
                  "weapons": self.tr("&Weapon-check desk")}
        for i, name in enumerate(DESKS, start=1):
            action = QAction(titles[name], self, checkable=True, shortcut=QKeySequence(f"Ctrl+Shift+{i}"))
            action.setChecked(name == "map")
            action.triggered.connect(lambda _checked=False, n=name: self.show_desk(n))
            self.group.addAction(action)
            self.actions[name] = action

    def add_menu(self, view_menu) -> None:
        menu = view_menu.addMenu(self.tr("&Desk"))
        for name in DESKS:
            menu.addAction(self.actions[name])

    @Slot(str)
    def show_desk(self, name: str) -> None:
        """Show the map ("map") or a desk ("valhalla", "weapons") in the middle of the window."""
        if name not in self.desks:
            raise ValueError(f"no desk named {name!r} (desks: {', '.join(DESKS)})")
        if name == self.current:
            return
        if self.current == "map":
            self._hidden_docks = [d for d in self.window.findChildren(QDockWidget)
                                  if d.objectName() != "dock_alarms" and d.isVisible()]
            for dock in self._hidden_docks:
                dock.hide()
        elif name == "map":
            self.restore_docks()
        self.current = name
        self.stack.setCurrentWidget(self.desks[name])
        self.actions[name].setChecked(True)
        focus = getattr(self.desks[name], "first_field", None)
        if focus is not None:
            focus.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def restore_docks(self) -> None:
        """Show again the docks a desk hid (before the window's layout is saved, too)."""
        for dock in self._hidden_docks:
            dock.show()
        self._hidden_docks = []
