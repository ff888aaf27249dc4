"""Game, Import roster: a registration desk's file (CSV or .xlsx) into the open game, mapped by hand where it must be.

As a spreadsheet program's import does, the dialog shows the file as it is
(a preview table), a combo box for each column whose header it does not know
(a field of the roster, or left out) and one for each class, helmet, armour
or yes/no word the game's ruleset does not know (and the kind of helmet a
desk's ``jah`` means), and every problem by its
line in the file.  Import stays disabled while a problem stands: first the
file's own (``game.roster_csv``, read here, in the window's thread: a desk's
file is small), then what the core says of adding its players to the game
under way (a badge the game has with other data, a group on another side,
too many healers; ``AddPlayers`` with ``store`` False, sent to the core).
Import asks the core to store them (the core checks again, stores, folds the
game over the new roster and publishes it).  The mapping is remembered
(QSettings, as JSON) and offered again for the next file.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from controlroom.engine.commands import AddPlayers
from controlroom.game.roster_csv import (
    COLUMNS,
    HELMET_SOME,
    RosterImportError,
    RosterMapping,
    column_of,
    header_key,
    preview_roster_csv,
    problem_line,
    read_roster_entries,
)

MAPPING_KEY = "roster/mapping"          # the last mapping, as JSON (RosterMapping.to_json)
FOLDER_KEY = "roster/folder"            # where the last roster file was
# The dialog's largest size: it fits a 1366 x 768 laptop screen with the window's title bar and a panel.
MAX_SIZE = (1100, 660)


def remembered_mapping() -> RosterMapping:
    """The mapping of the last file imported (an empty one when there is none or it cannot be read)."""
    text = QSettings().value(MAPPING_KEY)
    if not text:
        return RosterMapping()
    try:
        return RosterMapping.from_json(json.loads(str(text)))
    except ValueError:
        return RosterMapping()


def remember_mapping(mapping: RosterMapping) -> None:
    QSettings().setValue(MAPPING_KEY, json.dumps(mapping.to_json(), ensure_ascii=False))


class RosterImportDialog(QDialog):
    """Choose a file, map what is unknown, see every problem by line; Import when none stands."""

    imported = Signal(int, int)             # players added, players of the file the game had already
    _numbers = itertools.count(1)           # the questions to the core, numbered across dialogs

    def __init__(self, core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.setWindowTitle(self.tr("Import roster"))
        self.data: bytes | None = None
        self.path: Path | None = None
        self.mapping = remembered_mapping()     # what the user said, of this file and the ones before
        self.entries: list | None = None        # the file's players, (line, Member), when it has no problem
        self.preview = None                     # the file as the table shows it (game.roster_csv.RosterPreview)
        self._request = 0                       # the number of the last question to the core
        self._waiting = False                   # its answer is awaited (an answer to an older one is not)
        self._storing = False                   # the last question is to add the players
        self.column_boxes: dict[str, QComboBox] = {}              # header_key -> its column
        self.value_boxes: dict[tuple[str, str], QComboBox] = {}   # (column, value_key) -> the ruleset's name

        self.file = QLineEdit(readOnly=True, placeholderText=self.tr("No file chosen"))
        choose = QPushButton(self.tr("Choose file…"))
        choose.clicked.connect(self.choose_file)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Roster file (CSV or .xlsx)")))
        top.addWidget(self.file, 1)
        top.addWidget(choose)
        self.summary = QLabel(self.tr("Choose the file the registration desk exported (CSV, UTF-8, or an Excel "
                                      "workbook, .xlsx)."))
        self.summary.setWordWrap(True)

        self.columns_group = QGroupBox(self.tr("Columns this program does not know"))
        self.columns_form = QFormLayout(self.columns_group)
        self.values_group = QGroupBox(self.tr("Words the game's ruleset does not know"))
        self.values_form = QFormLayout(self.values_group)
        mapping_box = QWidget()
        mapping_layout = QVBoxLayout(mapping_box)
        mapping_layout.addWidget(self.columns_group)
        mapping_layout.addWidget(self.values_group)
        mapping_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(mapping_box)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)     # the boxes narrow instead
        scroll.setMinimumWidth(340)

        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        upper = QSplitter(Qt.Orientation.Horizontal)
        upper.addWidget(scroll)
        upper.addWidget(self.table)
        upper.setStretchFactor(1, 1)

        self.problems = QListWidget()
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #c9302c")          # (night mode lightens it: ui/theme.py)
        self.problems.currentRowChanged.connect(self._show_problem_line)
        problems_box = QWidget()
        problems_layout = QVBoxLayout(problems_box)
        problems_layout.setContentsMargins(0, 0, 0, 0)
        self.problems_title = QLabel(self.tr("Problems"))
        problems_layout.addWidget(self.problems_title)
        problems_layout.addWidget(self.problems)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(upper)
        split.addWidget(problems_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)

        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton(self.tr("Import"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        self.buttons.accepted.connect(self.start_import)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        core.roster_answered.connect(self._on_answer)
        self._fields = self._field_names()
        self.columns_group.hide()
        self.values_group.hide()
        screen = self.screen().availableGeometry()
        self.resize(min(MAX_SIZE[0], screen.width() - 40), min(MAX_SIZE[1], screen.height() - 60))

    @staticmethod
    def _narrow(box: QComboBox) -> QComboBox:
        """A combo box that may be narrower than its longest choice (the mapping's column is narrow)."""
        box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        box.setMinimumContentsLength(10)
        return box

    def _field_names(self) -> dict[str, str]:
        return {
            "badge": self.tr("Badge number"), "name": self.tr("Name"), "side": self.tr("Side"),
            "group": self.tr("Group"), "class": self.tr("Class"), "paid": self.tr("Paid"),
            "helmet": self.tr("Helmet"), "armour": self.tr("Armour"), "hp": self.tr("Hit points (game master's)"),
            "ap": self.tr("Armour points (game master's)"), "inadequate": self.tr("Inadequate armour"),
        }

    # -- the file ---------------------------------------------------------------
    @Slot()
    def choose_file(self) -> None:
        folder = str(QSettings().value(FOLDER_KEY) or Path.home())
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Roster file"), folder,
                                              self.tr("Roster files (*.csv *.txt *.xlsx);;All files (*)"))
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path) -> bool:
        """Read a file and show what it holds, with the remembered mapping applied; False when it cannot be read."""
        self.path = Path(path)
        self.file.setText(str(self.path))
        QSettings().setValue(FOLDER_KEY, str(self.path.parent))
        try:
            self.data = self.path.read_bytes()
        except OSError as exc:
            self.data = None
            self._clear()
            self._show_problems([self.tr("cannot read {file}: {error}").format(
                file=self.path.name, error=exc.strerror or exc)])
            return False
        self._build_column_boxes()
        self.refresh()
        return True

    def _clear(self) -> None:
        for form, boxes in ((self.columns_form, self.column_boxes), (self.values_form, self.value_boxes)):
            while form.rowCount():
                form.removeRow(0)
            boxes.clear()
        self.columns_group.hide()
        self.values_group.hide()
        self.table.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)
        self.entries = None
        self.import_button.setEnabled(False)

    def _profile(self):
        info = self.core.info
        return info.profile if info is not None else None

    def _build_column_boxes(self) -> None:
        """A combo box for each header no name or alias of the format gives a column (its mapping preset)."""
        self._clear()
        profile = self._profile()
        if self.data is None or profile is None:
            return
        try:
            preview = preview_roster_csv(self.data, profile, RosterMapping(columns=dict(self.mapping.columns)))
        except RosterImportError:
            return                  # refresh() shows why
        for header in preview.headers:
            key = header_key(header)
            if not key or column_of(header) is not None or key in self.column_boxes:
                continue
            box = self._narrow(QComboBox())
            box.addItem(self.tr("(leave out)"), "")
            for column in COLUMNS:
                box.addItem(self._fields[column], column)
            chosen = self.mapping.columns.get(key, "")
            box.setCurrentIndex(max(0, box.findData(chosen)))
            box.currentIndexChanged.connect(self._column_chosen)
            self.column_boxes[key] = box
            self.columns_form.addRow(QLabel(self.tr("“{header}” is").format(header=header)), box)
        self.columns_group.setVisible(bool(self.column_boxes))

    def _build_value_boxes(self, unknown: dict[str, list[str]], choices: dict[str, list[str]]) -> None:
        wanted = [(column, value) for column in unknown for value in unknown[column]]
        if wanted == list(self.value_boxes):
            return
        while self.values_form.rowCount():
            self.values_form.removeRow(0)
        self.value_boxes.clear()
        names = {"yes": self.tr("yes"), "no": self.tr("no")}
        for column, value in wanted:
            box = self._narrow(QComboBox())
            box.addItem(self.tr("(not known)"), None)
            for name in choices[column]:
                box.addItem(names.get(name, name), name)
            box.setCurrentIndex(max(0, box.findData(self.mapping.value(column, value))))
            box.currentIndexChanged.connect(self._value_chosen)
            self.value_boxes[(column, value)] = box
            if column == "helmet" and value in HELMET_SOME:         # "jah": a helmet, of a kind not written
                label = self.tr("Helmet “{word}” (its kind not written) is").format(word=value)
            else:
                label = self.tr("{field} “{word}” is").format(field=self._fields[column], word=value)
            self.values_form.addRow(QLabel(label), box)
        self.values_group.setVisible(bool(self.value_boxes))

    @Slot()
    def _column_chosen(self) -> None:
        for key, box in self.column_boxes.items():
            self.mapping.columns[key] = box.currentData() or ""
        self.refresh()

    @Slot()
    def _value_chosen(self) -> None:
        for (column, value), box in self.value_boxes.items():
            names = self.mapping.values.setdefault(column, {})
            if box.currentData() is None:
                names.pop(value, None)
            else:
                names[value] = box.currentData()
        self.refresh()

    def current_mapping(self) -> RosterMapping:
        """What the user said (this file's choices, and what was remembered of the files before)."""
        return RosterMapping.from_json(self.mapping.to_json())

    # -- reading, checking -------------------------------------------------------
    @Slot()
    def refresh(self) -> None:
        """Read the file again through the mapping: the preview, the words to map, the problems by line."""
        if self._storing:
            return                      # the players are on their way into the game
        self.entries = None
        self._waiting = False           # an answer on the file as it was read before is no answer now
        self.import_button.setEnabled(False)
        profile = self._profile()
        if self.data is None:
            return
        if profile is None:
            self._show_problems([self.tr("The game is still opening; try again in a moment.")])
            return
        mapping = self.current_mapping()
        try:
            preview = preview_roster_csv(self.data, profile, RosterMapping(columns=dict(mapping.columns)))
        except RosterImportError as exc:
            self._fill_table(None)
            self._show_problems(exc.problems)
            return
        self._build_value_boxes(preview.unknown, preview.choices)
        self.preview = preview
        problems: list[str] = []
        try:
            self.entries = read_roster_entries(self.data, profile, mapping)
        except RosterImportError as exc:
            problems = exc.problems
        self._fill_table(preview, problems)
        players = preview.players
        self.summary.setText(self.tr("{file}: {players} players; {columns} columns").format(
            file=self.path.name if self.path else "", players=players, columns=len(preview.headers)))
        if problems:
            self._show_problems(problems)
            return
        self._show_problems([])
        self._ask(store=False)

    def _ask(self, store: bool) -> None:
        self._request = next(self._numbers)
        self._waiting, self._storing = True, store
        self.status.setText(self.tr("Adding the players to the game…") if store
                            else self.tr("Checking the players against the game…"))
        self.core.send(AddPlayers(self._request, tuple(self.entries or ()), store))

    @Slot(object)
    def _on_answer(self, answer) -> None:
        if answer.request != self._request or not self._waiting:
            return                      # an answer to a question the dialog no longer asks
        self._waiting = self._storing = False
        if answer.problems:
            self._show_problems(list(answer.problems))
            self._fill_table(self.preview, list(answer.problems))       # their lines marked in the preview
            self.status.setText(self.tr("The game cannot take these players as they are: nothing was imported."))
            self.import_button.setEnabled(False)
            return
        added, unchanged = len(answer.added), answer.unchanged
        if answer.stored:
            remember_mapping(self.current_mapping())
            self.status.setText(self.tr("{added} players added to the game.").format(added=added))
            self.imported.emit(added, unchanged)
            self.accept()
            return
        if not added:
            self.status.setText(self.tr("Every player of this file is in the game already; nothing to import."))
            return
        self.status.setText(self.tr("Ready: {added} new players will be added to the game; {unchanged} of the "
                                    "file's players are in it already.").format(added=added, unchanged=unchanged))
        self.import_button.setEnabled(True)

    @Slot()
    def start_import(self) -> None:
        if self.entries is None or not self.import_button.isEnabled():
            return
        self.import_button.setEnabled(False)
        self._ask(store=True)

    # -- showing --------------------------------------------------------------------
    def _show_problems(self, problems: list[str]) -> None:
        self.problems.clear()
        self.problems.addItems(problems)
        self.problems_title.setText(self.tr("Problems: {count} (nothing is imported while one stands)").format(
            count=len(problems)) if problems else self.tr("Problems: none"))
        if problems:
            self.status.setText(self.tr("Map the columns and words the file uses, or correct the file and "
                                        "choose it again."))

    def _fill_table(self, preview, problems: list[str] = ()) -> None:
        self.table.clear()
        if preview is None:
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            return
        by_line: dict[int, list[str]] = {}
        for p in problems:
            line = problem_line(p)
            if line is not None:
                by_line.setdefault(line, []).append(p)
        self.table.setColumnCount(len(preview.headers) + 1)
        labels = [self.tr("Line")]
        for header, column in zip(preview.headers, preview.columns):
            labels.append(f"{header}\n→ {self._fields[column]}" if column else
                          self.tr("{header}\n(left out)").format(header=header))
        self.table.setHorizontalHeaderLabels(labels)
        self.table.setRowCount(len(preview.rows))
        bold = QFont(self.table.font())
        bold.setBold(True)
        for r, (line, cells) in enumerate(preview.rows):
            item = QTableWidgetItem(str(line))
            item.setData(Qt.ItemDataRole.UserRole, line)
            self.table.setItem(r, 0, item)
            for c, cell in enumerate(cells[:len(preview.headers)]):
                self.table.setItem(r, c + 1, QTableWidgetItem(cell))
            if line in by_line:
                tip = "\n".join(by_line[line])
                for c in range(self.table.columnCount()):
                    cell_item = self.table.item(r, c)
                    if cell_item is None:
                        cell_item = QTableWidgetItem("")
                        self.table.setItem(r, c, cell_item)
                    cell_item.setToolTip(tip)
                    cell_item.setFont(bold)
                item.setText(f"⚠ {line}")
        self.table.resizeColumnsToContents()

    @Slot(int)
    def _show_problem_line(self, row: int) -> None:
        """A problem chosen in the list: its line in the preview."""
        item = self.problems.item(row) if row >= 0 else None
        line = problem_line(item.text()) if item is not None else None
        if line is None:
            return
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).data(Qt.ItemDataRole.UserRole) == line:
                self.table.selectRow(r)
                self.table.scrollToItem(self.table.item(r, 0))
                return
