"""The window's centre: the map or one of the desks (View, Desk)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QStackedWidget, QWidget

from controlroom.ui.desks.common import DESKS, game_clock
from controlroom.ui.desks.devices import DevicesDesk
from controlroom.ui.desks.valhalla import ValhallaDesk
from controlroom.ui.desks.weapons import WeaponDesk


class DeskSwitch(QObject):
    """The window's centre: the map or one of the desks (View, Desk); a desk hides the docks but the alarms.

    The desks are wired to the core by ui/app.py (``wire_desks``).
    """

    def __init__(self, window: QMainWindow, core, map_widget: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self.stack = QStackedWidget(window)
        self.stack.setObjectName("desks")
        self.desks: dict[str, QWidget] = {"map": map_widget}
        self.pages: dict[str, QWidget] = {"map": map_widget}     # what the stack holds: a desk in its scroll area
        self.stack.addWidget(map_widget)
        for name, desk in (("valhalla", ValhallaDesk(game_clock(core))), ("weapons", WeaponDesk()),
                           ("devices", DevicesDesk(core))):
            self.desks[name] = desk
            # A desk scrolls on a small screen rather than make the whole window too big for it.
            page = QScrollArea(self.stack)
            page.setObjectName(f"desk_{name}")
            page.setWidgetResizable(True)
            page.setFrameShape(QFrame.Shape.NoFrame)
            page.setWidget(desk)
            self.pages[name] = page
            self.stack.addWidget(page)
        self.current = "map"
        self._hidden_docks: list[QDockWidget] = []
        self.actions: dict[str, QAction] = {}
        self.group = QActionGroup(self)
        titles = {"map": self.tr("&Control room (map)"), "valhalla": self.tr("&Valhalla desk"),
                  "weapons": self.tr("&Weapon-check desk"), "devices": self.tr("De&vices desk")}
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
        """Show the map ("map") or a desk ("valhalla", "weapons", "devices") in the middle of the window."""
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
        self.stack.setCurrentWidget(self.pages[name])
        self.actions[name].setChecked(True)
        focus = getattr(self.desks[name], "first_field", None)
        if focus is not None:
            focus.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def shown(self) -> QWidget:
        """The map or the desk in the middle of the window now."""
        return self.desks[self.current]

    def restore_docks(self) -> None:
        """Show again the docks a desk hid (before the window's layout is saved, too)."""
        for dock in self._hidden_docks:
            dock.show()
        self._hidden_docks = []
