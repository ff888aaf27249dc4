"""Slow work beside the game: reports, GIS files, keeping a map, each a worker object in a thread of its own.

The window asks for a job through ``Jobs`` and hears from it through the
job's signals (delivered in the window's thread): ``progressed``, then
exactly one of ``finished`` (with the result), ``failed`` (a sentence) or
``cancelled``.  Each job opens the game on a connection of its own; the core
worker, which folds and stores the game, never waits for one.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from controlroom.report.model import ReportCancelled, UnknownScenario
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore

log = logging.getLogger(__name__)


class MapKept(NamedTuple):
    """A map kept with the game: its file's name, its named places, and why its places file was not read."""

    name: str
    places: int
    problem: str

Work = Callable[[Callable[[int, int], bool]], Any]


class Job(QObject):
    """One piece of slow work, run once in the jobs thread."""

    progressed = Signal(int, int)        # done, total
    finished = Signal(object)            # the result
    failed = Signal(str)
    cancelled = Signal()
    _run_requested = Signal()

    def __init__(self, name: str, work: Work) -> None:
        super().__init__()
        self.name = name
        self.work = work
        self.cancel_event = threading.Event()
        self.done = threading.Event()
        self.outcome: tuple[str, Any] | None = None      # ("finished", result) or ("failed", why), once done

    def cancel(self) -> None:
        """Ask the job to stop (it stops within a few thousand events; a half-written file is removed)."""
        self.cancel_event.set()

    def _progress(self, done: int, total: int) -> bool:
        self.progressed.emit(done, total)
        return not self.cancel_event.is_set()

    @Slot()
    def run(self) -> None:
        try:
            result = self.work(self._progress)
            if self.cancel_event.is_set():
                raise ReportCancelled()
        except ReportCancelled:
            self.outcome = ("cancelled", None)
            self.cancelled.emit()
        except (StoreError, UnknownScenario, ValueError) as exc:
            self._failed(str(exc))
        except OSError as exc:
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            self._failed(f"{where}{exc.strerror or exc}")
        except Exception as exc:          # a job that breaks says so, it never goes silent
            log.exception("job %s", self.name)
            self._failed(f"{type(exc).__name__}: {exc}")
        else:
            self.outcome = ("finished", result)
            self.finished.emit(result)
        finally:
            self.done.set()

    def _failed(self, why: str) -> None:
        self.outcome = ("failed", why)
        self.failed.emit(why)


class Jobs(QObject):
    """Runs jobs on the game ``db``, one after another, in the thread "controlroom-jobs"."""

    def __init__(self, db: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db = db
        self.thread = QThread()
        self.thread.setObjectName("controlroom-jobs")
        self._jobs: list[Job] = []

    def _submit(self, job: Job) -> Job:
        if not self.thread.isRunning():
            self.thread.start()
        job.moveToThread(self.thread)
        job._run_requested.connect(job.run, Qt.ConnectionType.QueuedConnection)
        self._jobs = [j for j in self._jobs if not j.done.is_set()] + [job]
        job._run_requested.emit()
        return job

    def _open(self) -> GameStore:
        return GameStore.open(self.db, create=False, read_only=True)

    def report(self, scenario: str | None, out_dir: Path, csv: bool) -> Job:
        """Read and fold the game into the report's figures, write the CSV files: (Report, [paths])."""
        def work(progress):
            from controlroom.report.export import export_report
            from controlroom.report.gather import load_report

            with self._open() as store:
                report = load_report(store, scenario, progress)
            paths = export_report(report, out_dir, ("csv",)) if csv else []
            if not progress(1, 1):
                for path in paths:
                    path.unlink(missing_ok=True)
            return report, paths

        return self._submit(Job("report", work))

    def gis(self, scenario: str | None, path: Path, fmt: str) -> Job:
        """Tracks, casualties, STOPPs and siege engines as GeoJSON, GPX or KML: (path, counts)."""
        def work(progress):
            from controlroom.geo.gis import write_gis
            from controlroom.report.gis import load_gis

            with self._open() as store:
                layers = load_gis(store, scenario, progress)
            if not progress(1, 1):
                raise ReportCancelled()
            write_gis(layers, path, fmt)
            return str(path), {**layers.counts(), "unplaced": len(layers.unplaced)}

        return self._submit(Job("gis", work))

    def tak_package(self, path: Path) -> Job:
        """The game as a TAK data package (map, battle area and places, markers, server): (path, TakPackage)."""
        def work(_progress):
            from controlroom.radio.tak_libs import TakUnavailableError
            from controlroom.report.tak_package import write_tak_package

            with self._open() as store:
                try:
                    return str(path), write_tak_package(store, path)
                except TakUnavailableError as exc:
                    raise ValueError(str(exc)) from None

        return self._submit(Job("tak", work))

    def coverage_history(self, upto: int) -> Job:
        """The radio coverage the log held when the game was opened (events up to seq ``upto``): CoverageRows."""
        def work(progress):
            from controlroom.store.coverage_log import coverage_rows

            with self._open() as store:
                return coverage_rows(store, upto=upto, progress=progress)

        return self._submit(Job("coverage", work))

    def keep_map(self, path: Path, kind: str, crs_wkt: str, world, width: int, height: int) -> Job:
        """Keep a map and its georeference in the game (Open recent and --db bring it back)."""
        def work(_progress):
            from controlroom.geo.places import PlacesError, places_beside, read_places
            from controlroom.store.maps import save_map, save_places

            beside = places_beside(path)        # field.places.geojson beside field.png: its named features
            problem = ""
            try:
                places = read_places(beside) if beside is not None else []
            except PlacesError as exc:
                log.warning("%s", exc)
                places, problem = [], str(exc)
            with GameStore.open(self.db, create=False) as store:
                save_map(store, path, kind, crs_wkt, world, width, height)
                save_places(store, places)      # this map's (none: an earlier map's are not this one's)
            return MapKept(Path(path).name, len(places), problem)

        return self._submit(Job("map", work))

    # -- the devices (the Devices desk) ----------------------------------------------------------------
    def devices(self) -> Job:
        """Every device and what the game knows of its readiness: [store.device_setup.DeviceStatus] (no keys)."""
        def work(_progress):
            from controlroom.store.device_setup import device_status

            with self._open() as store:
                return device_status(store)

        return self._submit(Job("devices", work))

    def provision(self, device: int | None, port: str) -> Job:
        """Provision ``device`` (None: the next one not provisioned) on the board at ``port``, progressing by the
        bytes written: engine.provisioning.Provisioned (kept in the game either way)."""
        def work(progress):
            from controlroom.engine.provisioning import provision

            with GameStore.open(self.db, create=False) as store:
                return provision(store, device, port, progress=progress)

        return self._submit(Job("provision", work))

    def find_boards(self, busy: tuple[str, ...] = ()) -> Job:
        """The boards plugged in by USB, found by their USB ids, but for ``busy`` ports: [radio.board.FoundBoard]."""
        def work(_progress):
            from controlroom.radio.board import find_boards

            return find_boards(tuple(busy))

        return self._submit(Job("boards", work))

    def cards(self, language: str) -> Job:
        """What the marshal cards say, in ``language``: report.cards.Cards (report.pdf_cards draws them)."""
        def work(_progress):
            from controlroom.report.cards import load_cards

            with self._open() as store:
                return load_cards(store, language)

        return self._submit(Job("cards", work))

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Cancel what runs and end the thread."""
        for job in self._jobs:
            job.cancel()
        if not self.thread.isRunning():
            return True
        self.thread.quit()
        return self.thread.wait(timeout_ms)
