"""DevicesDesk: every device's readiness on game day, one-click provisioning of a board on USB, marshal cards.

What the game's record says of the devices (registered, provisioned as the
board confirmed it, first heard) comes through core jobs; what the radio hears
now comes in the core's deltas; a provisioning and the cards' contents are
core jobs too (``core.jobs``).  The window never opens the game or a serial
port itself.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from controlroom.engine.commands import ReloadDevices
from controlroom.game.views import StateDelta, merge_field
from controlroom.ui.desks.common import ERROR_STYLE, OK_STYLE, PENDING_STYLE, bigger, say
from controlroom.ui.desks.devices_model import LOW_BATTERY, SORT_ROLE, DeviceFilter, DeviceTable, make_rows
from controlroom.ui.panels.table import hidden_in_shown_window, read_only_view

LANGUAGES = (("et", "eesti keel"), ("en", "English"))


class _Answer(QObject):
    """A job's answer, taken in the desk's thread: a job's signals call a plain function in the job's thread."""

    def __init__(self, desk: DevicesDesk, kind: str, done, failed, progressed=None) -> None:
        super().__init__(desk)
        self.desk, self.kind, self.done, self.fail, self.progress = desk, kind, done, failed, progressed

    def _end(self) -> None:
        if self.desk.jobs.get(self.kind) is not None and self.desk.jobs[self.kind][1] is self:
            del self.desk.jobs[self.kind]
        self.deleteLater()

    @Slot(object)
    def finished(self, result) -> None:
        self._end()
        self.done(result)

    @Slot(str)
    def failed(self, why: str) -> None:
        self._end()
        self.fail(why)

    @Slot()
    def cancelled(self) -> None:
        self._end()

    @Slot(int, int)
    def progressed(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)


class DevicesDesk(QWidget):
    """The Devices desk (Game, Devices…): the table, its filters, the board on USB, and the cards."""

    REFRESH_MS = 1000            # the table follows the deltas at most this often, and its ages every second
    BOARDS_MS = 3000             # how often the USB boards are looked for while the desk is shown

    def __init__(self, core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.statuses: list = []                # the registry as the last job read it
        self.heard: dict = {}
        self.signal: dict = {}
        self.field_heard: dict = {}
        self.jobs: dict[str, tuple] = {}        # the job of each kind under way, and what takes its answer
        self._due = True
        self._registry_due = True
        self._registry_again = False            # asked while a read was under way: read again after it
        layout = QVBoxLayout(self)
        layout.addWidget(bigger(QLabel(self.tr("Devices"), self), 2.0, bold=True))
        self.summary = bigger(QLabel(self), 1.3)
        layout.addWidget(self.summary)
        filters = QHBoxLayout()
        filters.addWidget(QLabel(self.tr("Show only:"), self))
        self.not_provisioned = QCheckBox(self.tr("not provisioned"), self)
        self.silent = QCheckBox(self.tr("not heard for"), self)
        self.silent_min = QSpinBox(self)
        self.silent_min.setRange(1, 600)
        self.silent_min.setValue(10)
        self.silent_min.setSuffix(self.tr(" min"))
        self.low_battery = QCheckBox(self.tr("battery under 20 %"), self)
        for w in (self.not_provisioned, self.silent, self.silent_min, self.low_battery):
            filters.addWidget(w)
        filters.addStretch(1)
        self.reload_button = QPushButton(self.tr("Read the devices again"), self)
        self.reload_button.setToolTip(self.tr("After a device list was imported: the station knows its devices "
                                              "from now on"))
        self.reload_button.clicked.connect(self.reload)
        filters.addWidget(self.reload_button)
        layout.addLayout(filters)
        self.table = DeviceTable(self)
        self.proxy = DeviceFilter(self)
        self.proxy.setSourceModel(self.table)
        self.proxy.setSortRole(SORT_ROLE)
        self.view = read_only_view(self, self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        layout.addWidget(self.view, 1)
        for box in (self.not_provisioned, self.silent, self.low_battery):
            box.toggled.connect(self._filter)
        self.silent_min.valueChanged.connect(self._filter)

        board_row = QHBoxLayout()
        board_row.addWidget(bigger(QLabel(self.tr("Board on USB:"), self), 1.3, bold=True))
        self.board = QComboBox(self)
        self.board.setEditable(True)
        self.board.setMinimumContentsLength(24)
        self.board.lineEdit().setPlaceholderText(self.tr("plug a board in, or type its port"))
        board_row.addWidget(self.board, 1)
        self.provision_selected = bigger(QPushButton(self.tr("Provision the selected device"), self), 1.2, True)
        self.provision_next = bigger(QPushButton(self.tr("Provision the next one"), self), 1.2, True)
        self.provision_selected.clicked.connect(lambda: self.provision(self.selected()))
        self.provision_next.clicked.connect(lambda: self.provision(None))
        board_row.addWidget(self.provision_selected)
        board_row.addWidget(self.provision_next)
        layout.addLayout(board_row)
        self.status = bigger(QLabel(self), 1.2)
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        cards_row = QHBoxLayout()
        self.language = QComboBox(self)
        for code, name in LANGUAGES:
            self.language.addItem(name, code)
        self.cards_button = QPushButton(self.tr("Marshal cards (PDF)…"), self)
        self.cards_button.clicked.connect(self.ask_cards)
        cards_row.addWidget(QLabel(self.tr("Cards in:"), self))
        cards_row.addWidget(self.language)
        cards_row.addWidget(self.cards_button)
        cards_row.addStretch(1)
        layout.addLayout(cards_row)

        self.timer = QTimer(self)
        self.timer.setInterval(self.REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.board_timer = QTimer(self)
        self.board_timer.setInterval(self.BOARDS_MS)
        self.board_timer.timeout.connect(self.look_for_boards)
        self.board_timer.start()
        self.first_field = self.board

    # -- the core ---------------------------------------------------------------------------------
    def attach(self, core) -> None:
        """Read the core's deltas, and the registry whenever the game opens or its devices change."""
        core.loaded.connect(self.apply_delta)
        core.delta_published.connect(self.apply_delta)
        core.opened.connect(lambda _info: self.read_registry())
        core.devices_known.connect(lambda _devices: self.read_registry())

    def apply_delta(self, delta: StateDelta) -> None:
        radio, field = delta.radio or {}, delta.field or {}
        if field.get("heard") is not None:
            self.field_heard = merge_field({"heard": self.field_heard}, field, ("heard",))["heard"]
        if "heard" in radio:
            self.heard = dict(radio["heard"] or {})
        if "signal" in radio:
            self.signal = dict(radio["signal"] or {})
        self._due = True

    def _job(self, kind: str, job, done, failed=None, progressed=None) -> None:
        answer = _Answer(self, kind, done, failed or self._job_failed, progressed)
        self.jobs[kind] = (job, answer)
        job.finished.connect(answer.finished)
        job.failed.connect(answer.failed)
        job.cancelled.connect(answer.cancelled)
        job.progressed.connect(answer.progressed)

    def read_registry(self) -> None:
        """Ask the core for the registry and what the record says of each device (a job), once the desk is seen."""
        if not self.isVisible():
            self._registry_due = True           # read when the desk is shown
            return
        self._registry_due = False
        if "devices" in self.jobs:
            # The read under way may have begun before what asked now (the game opened, a list imported), or
            # fail (the file busy while the station opens it): one more read after it, never a lost one.
            self._registry_again = True
            return
        self._job("devices", self.core.jobs.devices(), self._registry_read, self._registry_failed)

    def _registry_read(self, statuses) -> None:
        self.statuses = list(statuses)
        self._due = True
        self.refresh(force=True)
        self._read_again()

    def _registry_failed(self, why: str) -> None:
        self._job_failed(why)
        self._read_again()

    def _read_again(self) -> None:
        if self._registry_again:
            self._registry_again = False
            self.read_registry()

    def reload(self) -> None:
        """The devices as registered now (a list imported meanwhile): the station and the table read them again."""
        self.core.send(ReloadDevices())
        self.read_registry()

    @Slot(str)
    def _job_failed(self, why: str) -> None:
        say(self.status, why, ERROR_STYLE)

    # -- the table ------------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        if not force and (not self.isVisible() or hidden_in_shown_window(self)):
            return
        now = self.core.game_time()
        if self._due or force:
            self._due = False
            self.table.set_devices(make_rows(self.statuses, self.heard, self.signal, self.field_heard), now)
            rows = self.table.rows
            self.summary.setText(self.tr("{0} devices: {1} provisioned, {2} heard, {3} with a low battery").format(
                len(rows), sum(r.provisioned for r in rows), sum(r.heard for r in rows),
                sum(r.battery is not None and r.battery < LOW_BATTERY for r in rows)))
        else:
            self.table.set_now(now)
        if self.silent.isChecked():
            self.proxy.set_filters(self.not_provisioned.isChecked(), True, self.silent_min.value(),
                                   self.low_battery.isChecked())

    def _filter(self, *_args) -> None:
        self.proxy.set_filters(self.not_provisioned.isChecked(), self.silent.isChecked(), self.silent_min.value(),
                               self.low_battery.isChecked())

    def selected(self) -> int | None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return None
        return self.table.rows[self.proxy.mapToSource(rows[0]).row()].id

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.read_registry()                   # what was provisioned or imported meanwhile
        self.look_for_boards()

    # -- boards and provisioning ------------------------------------------------------------------------
    def look_for_boards(self) -> None:
        """The boards on USB, by their USB ids (a job), while the desk is seen."""
        if not self.isVisible() or hidden_in_shown_window(self) or "boards" in self.jobs or "provision" in self.jobs:
            return
        busy = tuple(self.core.info.ports) if self.core.info is not None else ()
        self._job("boards", self.core.jobs.find_boards(busy), self._boards_found, lambda _why: None)

    def _boards_found(self, boards) -> None:
        typed = self.board.currentText()
        ports = [b.port for b in boards]
        if ports == [self.board.itemText(i) for i in range(self.board.count())]:
            return
        self.board.clear()
        for b in boards:
            self.board.addItem(b.port)
            self.board.setItemData(self.board.count() - 1, b.bridge, Qt.ItemDataRole.ToolTipRole)
        self.board.setCurrentText(typed if typed or not ports else ports[0])

    def provision(self, device: int | None) -> None:
        """Provision ``device`` (None: the next one not provisioned) on the board named above (a job)."""
        port = self.board.currentText().strip()
        if not port:
            say(self.status, self.tr("Plug a board in by USB (or type its port) first."), ERROR_STYLE)
            return
        if "provision" in self.jobs:
            return
        which = self.tr("the next device") if device is None else self.tr("device {0}").format(device)
        say(self.status, self.tr("Provisioning {0} on {1}…").format(which, port), PENDING_STYLE)
        self.provision_selected.setEnabled(False)
        self.provision_next.setEnabled(False)
        self._job("provision", self.core.jobs.provision(device, port), self._provisioned, self._provision_refused,
                  lambda done, total: say(self.status, self.tr("Provisioning {0} on {1}: {2} %").format(
                      which, port, 100 * done // max(total, 1)), PENDING_STYLE))

    def _buttons_back(self) -> None:
        self.provision_selected.setEnabled(True)
        self.provision_next.setEnabled(True)

    def _provisioned(self, done) -> None:
        self._buttons_back()
        if done.ok:
            c = done.confirmation
            say(self.status, self.tr("Device {0} provisioned: firmware {1}, key {2}, as the board read them back. "
                                     "It restarts; its row says heard once its first frame arrives.").format(
                done.device, c.firmware, c.fingerprint), OK_STYLE)
        else:
            say(self.status, self.tr("Device {0} failed: {1}").format(done.device, done.detail), ERROR_STYLE)
        self.read_registry()

    def _provision_refused(self, why: str) -> None:
        self._buttons_back()
        say(self.status, why, ERROR_STYLE)

    # -- the cards ------------------------------------------------------------------------------------------
    def ask_cards(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, self.tr("Marshal cards"), "cards.pdf",
                                                    self.tr("PDF (*.pdf)"))
        if path:
            self.print_cards(path, self.language.currentData())

    def print_cards(self, path: str, language: str) -> None:
        """The marshal cards of the game, in ``language``, as a PDF at ``path`` (their contents from a job)."""
        if "cards" in self.jobs:
            return
        say(self.status, self.tr("Making the marshal cards…"), PENDING_STYLE)
        self._job("cards", self.core.jobs.cards(language), lambda cards: self._write_cards(cards, path))

    def _write_cards(self, cards, path: str) -> None:
        from controlroom.report.pdf_cards import write_cards

        if not cards.cards:
            say(self.status, self.tr("No marshal handsets in this game: no cards to print."), ERROR_STYLE)
            return
        try:
            pages = write_cards(cards, path)
        except OSError as exc:
            say(self.status, self.tr("The cards could not be written to {0}: {1}").format(path, exc), ERROR_STYLE)
            return
        say(self.status, self.tr("{0} marshal cards on {1} pages: {2}").format(len(cards.cards), pages, path),
            OK_STYLE)
