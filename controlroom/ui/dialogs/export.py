"""Game, Export report (PDF and CSV) and Export for GIS (GeoJSON, GPX, KML, a TAK data package), with progress
and Cancel.

Reading and folding the log (the long part of a big game) and writing the CSV
files run in a thread of their own, on a connection of their own to the game;
the PDF is drawn in the window's thread, page by page, since pyqtgraph and
QTextDocument's images belong to it.  Cancelling leaves no half-written file.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QWidget,
)

from controlroom.paths import data_dir
from controlroom.report.model import Report, ReportCancelled

FOLDER_KEY = "reports/folder"
GIS_FILE_KEY = "reports/gis_file"



class ExportDialog(QDialog):
    """Where to, which scenario, which files; then the export with its progress."""

    exported = Signal(list)                 # the files written
    pdf_page = Signal(int, int)             # a page of the PDF is about to be drawn (page, pages)

    def __init__(self, core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.setWindowTitle(self.tr("Export report"))
        self.folder = QLineEdit(QSettings().value(FOLDER_KEY) or str(data_dir() / "reports"))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self._choose_folder)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.scenario = QComboBox()
        self.scenario.addItem(self.tr("The whole game"), None)
        for name in core.scenarios:
            self.scenario.addItem(self.tr("Scenario: {name}").format(name=name), name)
        self.pdf = QCheckBox(self.tr("PDF for the organisers (A4)"), checked=True)
        self.csv = QCheckBox(self.tr("CSV files for spreadsheets (casualties, players, STOPPs)"), checked=True)
        form = QFormLayout(self)
        form.addRow(self.tr("Folder"), row)
        form.addRow(self.tr("Report on"), self.scenario)
        form.addRow(self.tr("Files"), self.pdf)
        form.addRow("", self.csv)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.export_button = self.buttons.addButton(self.tr("Export"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.progress: QProgressDialog | None = None
        self.job = None
        self.written: list[Path] = []
        self.error = ""
        self.message_box: QMessageBox | None = None

    @Slot()
    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Folder for the report"), self.folder.text())
        if folder:
            self.folder.setText(folder)

    @Slot()
    def start(self) -> None:
        if not (self.pdf.isChecked() or self.csv.isChecked()):
            QMessageBox.information(self, self.windowTitle(), self.tr("Choose PDF, CSV or both."))
            return
        out_dir = Path(self.folder.text()).expanduser()
        QSettings().setValue(FOLDER_KEY, str(out_dir))
        self.written, self.error = [], ""
        self.export_button.setEnabled(False)
        self.progress = QProgressDialog(self.tr("Reading the game…"), self.tr("Cancel"), 0, 100, self)
        self.progress.setWindowTitle(self.windowTitle())
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(0)
        self.progress.setValue(0)
        self.progress.canceled.connect(self._cancel)
        self.job = self.core.jobs.report(self.scenario.currentData(), out_dir, self.csv.isChecked())
        self.job.progressed.connect(self._on_progress)
        self.job.finished.connect(self._on_gathered)
        self.job.failed.connect(self._on_failed)
        self.job.cancelled.connect(self._finish)

    @Slot()
    def _cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        if self.progress is not None and total:
            self.progress.setValue(min(70, 70 * done // total))     # the PDF takes the last 30 %

    @Slot(object)
    def _on_gathered(self, result) -> None:
        report, paths = result
        self.written = list(paths)
        if self.pdf.isChecked():
            self._write_pdf(report, Path(self.folder.text()).expanduser())
        self._finish()

    def _write_pdf(self, report: Report, out_dir: Path) -> None:
        from controlroom.report.export import report_stem
        from controlroom.report.pdf import write_pdf

        progress = self.progress

        def step(page: int, pages: int) -> bool:
            self.pdf_page.emit(page, pages)
            if progress is not None:
                progress.setLabelText(self.tr("Writing the PDF: page {page} of {pages}…").format(
                    page=page + 1, pages=pages))
                progress.setValue(70 + 30 * page // max(1, pages))
                QApplication.processEvents()
                return not progress.wasCanceled()
            return True

        if progress is not None:
            progress.setLabelText(self.tr("Laying out the PDF…"))
            QApplication.processEvents()
        path = out_dir / f"{report_stem(report)}.pdf"
        try:
            write_pdf(report, path, step)
        except ReportCancelled:
            return
        except OSError as exc:
            self.error = str(exc)
            return
        self.written.append(path)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.error = message
        self._finish()

    @Slot()
    def _finish(self) -> None:
        """The export is over: written, failed or cancelled."""
        cancelled = self.job is not None and self.job.cancel_event.is_set()
        if self.progress is not None:
            cancelled = cancelled or self.progress.wasCanceled()
            self.progress.reset()
            self.progress.deleteLater()
            self.progress = None
        self.job = None
        self.export_button.setEnabled(True)
        if self.error:
            # Shown with open(), not exec(): no nested event loop while threads finish.
            self.message_box = QMessageBox(
                QMessageBox.Icon.Warning, self.windowTitle(),
                self.tr("The report could not be written: {error}").format(error=self.error),
                QMessageBox.StandardButton.Ok, self)
            self.message_box.open()
        elif cancelled:
            for path in self.written:           # a cancelled report leaves no files at all
                path.unlink(missing_ok=True)
            self.written = []
        else:
            self.exported.emit(self.written)
            self._done_message()

    def _done_message(self) -> None:
        box = QMessageBox(QMessageBox.Icon.Information, self.windowTitle(),
                          self.tr("The report is written:") + "\n" + "\n".join(str(p) for p in self.written),
                          QMessageBox.StandardButton.Ok, self)
        open_folder = box.addButton(self.tr("Open folder"), QMessageBox.ButtonRole.ActionRole)
        box.setModal(True)
        box.finished.connect(lambda _r: box.clickedButton() is open_folder and QDesktopServices.openUrl(
            QUrl.fromLocalFile(str(self.written[0].parent))))
        box.open()
        self.message_box = box

    def _stop_jobs(self) -> None:
        """Cancel a running export (it stops within a few thousand events and removes its files)."""
        if self.job is not None:
            self.job.cancel()

    def closeEvent(self, event) -> None:
        self._stop_jobs()
        super().closeEvent(event)

    def reject(self) -> None:
        self._stop_jobs()
        super().reject()



class GisExportDialog(QDialog):
    """The battle for QGIS or Google Earth: which file, which format, which scenario."""

    def __init__(self, core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from controlroom.geo.gis import SUFFIX

        self.core = core
        db = core.db
        self.suffix = {**SUFFIX, "tak": ".zip"}
        self.setWindowTitle(self.tr("Export for GIS"))
        self.format = QComboBox()
        for fmt, title in (("geojson", self.tr("GeoJSON (QGIS)")), ("kml", self.tr("KML (Google Earth)")),
                           ("gpx", self.tr("GPX (GPS tools)")),
                           ("tak", self.tr("TAK data package (ATAK, iTAK, WinTAK)"))):
            self.format.addItem(title, fmt)
        start = QSettings().value(GIS_FILE_KEY) or str(data_dir() / "reports" / f"{Path(str(db)).stem}.geojson")
        self.file = QLineEdit(str(start))
        suffix = Path(str(start)).suffix.lstrip(".") or "geojson"
        self.format.setCurrentIndex(max(0, self.format.findData("tak" if suffix == "zip" else suffix)))
        self.format.currentIndexChanged.connect(self._format_changed)
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self._choose_file)
        row = QHBoxLayout()
        row.addWidget(self.file, 1)
        row.addWidget(browse)
        self.scenario = QComboBox()
        self.scenario.addItem(self.tr("The whole game"), None)
        for name in core.scenarios:
            self.scenario.addItem(self.tr("Scenario: {name}").format(name=name), name)
        form = QFormLayout(self)
        form.addRow(self.tr("Format"), self.format)
        form.addRow(self.tr("File"), row)
        form.addRow(self.tr("Export"), self.scenario)
        self.about = QLabel(self)
        self.about.setWordWrap(True)
        form.addRow(self.about)
        self._show_about()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.export_button = self.buttons.addButton(self.tr("Export"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.job = None
        self.progress: QProgressDialog | None = None
        self.message_box: QMessageBox | None = None
        self.result_path: Path | None = None
        self.error = ""

    def _show_about(self) -> None:
        tak = self.format.currentData() == "tak"
        self.scenario.setEnabled(not tak)
        self.about.setText(self.tr("The field map as a GeoTIFF, the battle area and the map's named places, markers "
                                   "for Valhalla and HQ, and the game's TAK server: one file ATAK imports in one "
                                   "step.") if tak else
                           self.tr("Tracks of every group, marshal and siege engine; casualties where their marshal "
                                   "or their group was; STOPPs; siege engine reports."))

    @Slot()
    def _format_changed(self) -> None:
        path = Path(self.file.text())
        self.file.setText(str(path.with_suffix(self.suffix[self.format.currentData()])))
        self._show_about()

    @Slot()
    def _choose_file(self) -> None:
        fmt = self.format.currentData()
        path, _ = QFileDialog.getSaveFileName(self, self.windowTitle(), self.file.text(),
                                              f"{self.format.currentText()} (*{self.suffix[fmt]})")
        if path:
            self.file.setText(path)

    @Slot()
    def start(self) -> None:
        path = Path(self.file.text()).expanduser()
        if not path.name:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        QSettings().setValue(GIS_FILE_KEY, str(path))
        self.export_button.setEnabled(False)
        self.result_path, self.error = None, ""
        self.progress = QProgressDialog(self.tr("Reading the game…"), self.tr("Cancel"), 0, 100, self)
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(0)
        if self.format.currentData() == "tak":
            self.job = self.core.jobs.tak_package(path)
        else:
            self.job = self.core.jobs.gis(self.scenario.currentData(), path, self.format.currentData())
        self.job.progressed.connect(self._on_progress)        # a bound slot: delivered in this thread
        self.progress.canceled.connect(self.job.cancel)
        self.job.finished.connect(self._on_written)
        self.job.failed.connect(self._on_failed)
        self.job.cancelled.connect(self._finish)

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        if self.progress is not None and total:
            self.progress.setValue(min(99, 100 * done // total))

    @Slot(object)
    def _on_written(self, result) -> None:
        path, self.counts = result
        self.result_path = Path(path)
        self._finish()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.error = message
        self._finish()

    @Slot()
    def _finish(self) -> None:
        if self.progress is not None:
            self.progress.reset()
            self.progress.deleteLater()
            self.progress = None
        self.job = None
        self.export_button.setEnabled(True)
        if self.error:
            text = self.tr("The file could not be written: {error}").format(error=self.error)
            icon = QMessageBox.Icon.Warning
        elif self.result_path is not None and not isinstance(self.counts, dict):
            package = self.counts
            text = self.tr("Written {path}: {entries}.").format(path=self.result_path, entries=", ".join(
                package.entries))
            if package.notes:
                text += "\n" + "\n".join(package.notes)
            icon = QMessageBox.Icon.Information
        elif self.result_path is not None:
            c = self.counts
            text = self.tr("Written {path}: {tracks} tracks, {casualties} casualties, {stopps} STOPPs, "
                           "{siege} siege engine reports.").format(path=self.result_path, tracks=c["tracks"],
                                                                  casualties=c["casualty"], stopps=c["stopp"],
                                                                  siege=c["siege"])
            if c["unplaced"]:
                text += " " + self.tr("{n} events had no position to put them at.").format(n=c["unplaced"])
            icon = QMessageBox.Icon.Information
        else:
            return
        self.message_box = QMessageBox(icon, self.windowTitle(), text, QMessageBox.StandardButton.Ok, self)
        self.message_box.open()

    def _stop(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def closeEvent(self, event) -> None:
        self._stop()
        super().closeEvent(event)

    def reject(self) -> None:
        self._stop()
        super().reject()
