"""The start window: what ``controlroom`` shows when there is no game to open yet (a newcomer's first start).

It offers a new game (a name, then a map and a roster if the organisers have
them), saved in the user's games folder under that name; a game file or a
PostgreSQL address to open; the recent games; and the demo.  What was chosen
is a :class:`~controlroom.ui.dialogs.start_choice.StartChoice`; the command
line opens it (controlroom/cli.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from controlroom.paths import GAME_SUFFIX, without_password
from controlroom.ui.dialogs.games import game_exists, games_dir, recent_games
from controlroom.ui.dialogs.start_choice import StartChoice, file_name_for
from controlroom.ui.theme import night_palette, night_style

# The text size of the window's "Large text" (ui/main_window.py), which this window follows.
LARGE_POINTS = 14
# The window's size where the screen has room (its parts' own sizes when they need more: large text).
SIZE = (780, 500)
# A PostgreSQL address begins so (SQLAlchemy's names for the driver are taken too).
PG_PREFIX = re.compile(r"^postgres(ql)?(\+\w+)?://")
ERROR_STYLE = "color: #c9302c"


def shown_address(db: str) -> str:
    """A game as the list shows it: a database address without its password (the recent games keep none)."""
    return without_password(db)


class StartDialog(QDialog):
    """New game, open a game, the recent games, the demo: the choice is in ``choice`` once accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice: StartChoice | None = None
        self.setWindowTitle(self.tr("Welcome to controlroom"))
        self._follow_settings()
        title = QLabel(self.tr("Welcome to controlroom"))
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        title.setFont(font)
        intro = QLabel(self.tr("The control room for LARP battles: the live map, the rules' timers, the radios and "
                               "the casualty report. Start a new game, open one, or try the demo first."))
        intro.setWordWrap(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet(night_style(ERROR_STYLE, self.night))
        self.message.hide()

        columns = QHBoxLayout()
        left, right = QVBoxLayout(), QVBoxLayout()
        left.addWidget(self._new_game_box())
        left.addWidget(self._demo_box())
        left.addStretch(1)
        right.addWidget(self._open_box())
        right.addWidget(self._recent_box(), 1)
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        quit_button = QPushButton(self.tr("Quit"))
        quit_button.clicked.connect(self.reject)
        bottom = QHBoxLayout()
        bottom.addWidget(self.message, 1)
        bottom.addStretch(0)
        bottom.addWidget(quit_button, 0, Qt.AlignmentFlag.AlignRight)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addLayout(columns, 1)
        layout.addLayout(bottom)
        for button in self.findChildren(QPushButton):       # Enter starts the new game, not a "Choose…"
            button.setAutoDefault(False)
        self.new_button.setDefault(True)
        self.name.setFocus()
        self.resize(self.sizeHint().expandedTo(QSize(*SIZE)))

    def _follow_settings(self) -> None:
        """Night mode and large text, as the game master left the window last time."""
        s = QSettings()
        if s.value("window/large", False, type=bool):
            font = QFont(self.font())
            font.setPointSizeF(LARGE_POINTS)
            self.setFont(font)
        self.night = s.value("window/night", False, type=bool)
        if self.night:
            self.setPalette(night_palette())
            self.setAutoFillBackground(True)

    # -- the parts -------------------------------------------------------------
    def _new_game_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Start a new game"))
        self.name = QLineEdit(placeholderText=self.tr("for example: Summer battle 2026"))
        self.name.setMinimumWidth(self.name.fontMetrics().horizontalAdvance(self.name.placeholderText()) + 24)
        self.map_file = QLineEdit(placeholderText=self.tr("optional"))
        self.map_file.setToolTip(self.tr("An image with its world file, a GeoTIFF or MBTiles; "
                                         "it can also be placed later (View, Place a map)"))
        self.roster_file = QLineEdit(placeholderText=self.tr("optional"))
        self.roster_file.setToolTip(self.tr("The registration desk's file (CSV); "
                                            "it can also be imported later (Game, Import roster)"))
        form = QFormLayout()
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Map"), self._with_button(self.map_file, self.choose_map))
        form.addRow(self.tr("Roster"), self._with_button(self.roster_file, self.choose_roster))
        self.where = QLabel(self.tr("Saved in {folder}").format(folder=games_dir()))
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.new_button = QPushButton(self.tr("Start the new game"))
        self.new_button.clicked.connect(self.start_new_game)
        layout = QVBoxLayout(box)
        layout.addLayout(form)
        layout.addWidget(self.where)
        layout.addWidget(self.new_button, 0, Qt.AlignmentFlag.AlignRight)
        return box

    def _with_button(self, edit: QLineEdit, choose) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(edit, 1)
        button = QPushButton(self.tr("Choose…"))
        button.clicked.connect(choose)
        layout.addWidget(button)
        return row

    def _open_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Open a game"))
        self.open_button = QPushButton(self.tr("Open a game file…"))
        self.open_button.clicked.connect(self.choose_game_file)
        self.address = QLineEdit(placeholderText="postgresql://user@host/game")
        self.address.returnPressed.connect(self.open_address)
        connect = QPushButton(self.tr("Connect"))
        connect.clicked.connect(self.open_address)
        row = QHBoxLayout()
        row.addWidget(self.address, 1)
        row.addWidget(connect)
        layout = QVBoxLayout(box)
        layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(QLabel(self.tr("or a game on a PostgreSQL server, by its address:")))
        layout.addLayout(row)
        return box

    def _recent_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Recent games"))
        self.recent = QListWidget()
        for db in recent_games():
            there = game_exists(db)
            name = Path(db).stem if "://" not in db else shown_address(db)
            item = QListWidgetItem(name if there else self.tr("{game} (not found)").format(game=name))
            item.setData(Qt.ItemDataRole.UserRole, db)
            item.setToolTip(shown_address(db))
            if not there:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.recent.addItem(item)
        self.recent.itemActivated.connect(self.open_recent)
        self.recent_button = QPushButton(self.tr("Open"))
        self.recent_button.clicked.connect(lambda: self.open_recent(self.recent.currentItem()))
        layout = QVBoxLayout(box)
        if self.recent.count():
            layout.addWidget(self.recent, 1)
            layout.addWidget(self.recent_button, 0, Qt.AlignmentFlag.AlignRight)
        else:
            self.recent.hide()
            self.recent_button.hide()
            none = QLabel(self.tr("No game opened yet."))
            none.setEnabled(False)
            layout.addWidget(none)
            layout.addStretch(1)
        return box

    def _demo_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Try the demo"))
        text = QLabel(self.tr("A simulated battle of 300 players on a demo field, with radios, STOPPs and "
                              "casualties: the control room at work. None of your games is touched."))
        text.setWordWrap(True)
        self.demo_button = QPushButton(self.tr("Start the demo"))
        self.demo_button.clicked.connect(self.start_demo)
        layout = QVBoxLayout(box)
        layout.addWidget(text)
        layout.addWidget(self.demo_button, 0, Qt.AlignmentFlag.AlignRight)
        return box

    # -- the choices -------------------------------------------------------------
    def _choose(self, choice: StartChoice) -> None:
        if self.choice is None:         # (Enter in the address: its own choice, then the default button's)
            self.choice = choice
            self.accept()

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def start_new_game(self) -> None:
        """A new game under the name given, in the games folder; refused (saying why) when it cannot be."""
        name = self.name.text().strip()
        if not name:
            self._say(self.tr("Give the new game a name."))
            self.name.setFocus()
            return
        path = games_dir() / file_name_for(name)
        if path.exists():
            self._say(self.tr("A game named \u201c{name}\u201d is in the games folder already: open it from the "
                              "recent games or as a game file, or give the new one another name.").format(name=name))
            return
        for edit, missing in ((self.map_file, self.tr("The map file {file} cannot be found.")),
                              (self.roster_file, self.tr("The roster file {file} cannot be found."))):
            given = edit.text().strip()
            if given and not Path(given).is_file():
                self._say(missing.format(file=given))
                edit.setFocus()
                return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._say(self.tr("The games folder {folder} cannot be made: {error}").format(
                folder=path.parent, error=exc.strerror or exc))
            return
        self._choose(StartChoice("new", str(path), self.map_file.text().strip() or None,
                                 self.roster_file.text().strip() or None))

    def choose_map(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("The field's map"), str(Path.home()), self.tr(
            "Maps (*.png *.jpg *.jpeg *.tif *.tiff *.mbtiles);;All files (*)"))
        if path:
            self.map_file.setText(path)

    def choose_roster(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("The registration desk's roster"), str(Path.home()),
                                              self.tr("Rosters (*.csv *.txt *.xlsx);;All files (*)"))
        if path:
            self.roster_file.setText(path)

    def choose_game_file(self) -> None:
        folder = games_dir()
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open a game"), str(folder if folder.is_dir() else Path.home()),
            self.tr("controlroom games (*{suffix});;All files (*)").format(suffix=GAME_SUFFIX))
        if path:
            self.open_game_file(path)

    def open_game_file(self, path: str) -> None:
        if not Path(path).is_file():
            self._say(self.tr("The game file {file} cannot be found.").format(file=path))
            return
        self._choose(StartChoice("open", str(path)))

    def open_address(self) -> None:
        address = self.address.text().strip()
        if not PG_PREFIX.match(address):
            self._say(self.tr("A PostgreSQL address begins with postgresql://, for example "
                              "postgresql://user@host/game."))
            self.address.setFocus()
            return
        self._choose(StartChoice("open", address))

    def open_recent(self, item: QListWidgetItem | None) -> None:
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self._say(self.tr("Choose one of the recent games first."))
            return
        self._choose(StartChoice("open", item.data(Qt.ItemDataRole.UserRole)))

    def start_demo(self) -> None:
        self._choose(StartChoice("demo"))


def ask_start(parent: QWidget | None = None) -> StartChoice | None:
    """Show the start window until the game master chooses (None: they quit)."""
    dialog = StartDialog(parent)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    return dialog.choice if accepted else None
