"""Game, Export report: the dialog writes the PDF and CSV files with progress, and Cancel leaves none."""

import csv
from contextlib import contextmanager

import pytest
from PySide6.QtCore import QSettings

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.game import GameStore
from controlroom.ui.dialogs.export import ExportDialog
from tests.support.thread_seen import gui_thread, watch_thread

# The offscreen platform cannot resize top-level windows to their size hints: its warning, not ours.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    QSettings().remove("reports/folder")
    members = [Member(b, f"Mängija {b}", ("Põhi", "Lõuna")[b % 2], f"Rühm {b % 4}") for b in range(1, 201)]
    events = [make_event(0, "scenario_started", name="Hommik"),
              *(make_event(1000 * b, "permanent_kill", "marshal:3", badge=b) for b in range(1, 101)),
              make_event(200_000, "scenario_ended"),
              make_event(300_000, "scenario_started", name="Õhtu"),
              *(make_event(300_000 + 1000 * b, "permanent_kill", "marshal:3", badge=b) for b in range(1, 31))]
    path = tmp_path / "päev.crgame"
    with GameStore.open(path) as store:
        store.save_roster(members)
        store.set_meta("name", "Päev")
        store.log.append(events)
    return path


@contextmanager
def opened(qtbot, game):
    """The game open in a core, as the window has it (the dialogs read the game through its jobs)."""
    ct = CoreThread(str(game), VirtualClock(400_000), publish_interval_ms=20)
    with qtbot.waitSignal(ct.loaded, timeout=10_000):
        ct.start()
    try:
        yield ct
    finally:
        assert ct.shutdown()


@pytest.fixture
def core(qtbot, game):
    with opened(qtbot, game) as ct:
        yield ct


def test_the_dialog_offers_the_games_scenarios_and_exports_both_formats(qtbot, game, core, tmp_path):
    dialog = ExportDialog(core)
    qtbot.addWidget(dialog)
    scenarios = [dialog.scenario.itemData(i) for i in range(dialog.scenario.count())]
    assert scenarios == [None, "Hommik", "Õhtu"]
    dialog.folder.setText(str(tmp_path / "reports"))
    dialog.scenario.setCurrentIndex(2)
    with qtbot.waitSignal(dialog.exported, timeout=60_000) as blocker:
        dialog.export_button.click()
    written = sorted(p.name for p in blocker.args[0])
    assert written == ["Päev-Õhtu-casualties.csv", "Päev-Õhtu-players.csv", "Päev-Õhtu-stopps.csv", "Päev-Õhtu.pdf"]
    with open(tmp_path / "reports" / "Päev-Õhtu-players.csv", encoding="utf-8-sig", newline="") as f:
        assert sum(int(row["deaths"]) for row in csv.DictReader(f)) == 30
    assert (tmp_path / "reports" / "Päev-Õhtu.pdf").read_bytes().startswith(b"%PDF")
    assert dialog.export_button.isEnabled() and dialog.progress is None
    assert QSettings().value("reports/folder") == str(tmp_path / "reports")
    assert "Päev-Õhtu.pdf" in dialog.message_box.text()
    dialog.message_box.close()


def test_cancel_stops_the_export_and_leaves_no_files(qtbot, game, core, tmp_path):
    dialog = ExportDialog(core)
    qtbot.addWidget(dialog)
    out = tmp_path / "cancelled"
    dialog.folder.setText(str(out))
    exported = []
    dialog.exported.connect(exported.append)
    dialog.start()
    dialog.progress.cancel()                 # the user presses Cancel at once
    qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
    assert exported == [] and dialog.error == ""
    assert not out.exists() or not any(p.suffix in (".pdf", ".csv") for p in out.iterdir())
    assert dialog.export_button.isEnabled()


def test_cancel_while_the_pdf_is_drawn_leaves_no_pdf(qtbot, game, core, tmp_path):
    dialog = ExportDialog(core)
    qtbot.addWidget(dialog)
    out = tmp_path / "half"
    dialog.folder.setText(str(out))
    dialog.csv.setChecked(False)
    pages = []

    def cancel_on_second_page(page, count):
        pages.append((page, count))
        if page == 1:
            dialog.progress.cancel()

    dialog.pdf_page.connect(cancel_on_second_page)
    dialog.start()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
    assert pages[-1][0] == 1 and pages[-1][1] >= 2 and dialog.written == []
    assert not any(out.glob("*.pdf")) and not any(out.glob("*.part"))


def test_an_unwritable_folder_is_reported_not_raised(qtbot, game, core, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    dialog = ExportDialog(core)
    qtbot.addWidget(dialog)
    exported = []
    dialog.exported.connect(exported.append)
    dialog.folder.setText(str(blocker / "reports"))
    dialog.start()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
    assert exported == [] and "a-file" in dialog.error
    assert "could not be written" in dialog.message_box.text()
    dialog.message_box.close()


def test_gis_export_from_the_window_writes_the_chosen_format(qtbot, tmp_path):
    game = tmp_path / "gis.crgame"
    with GameStore.open(game) as store:         # the marshal's handset: where the casualties it reports fall
        store.save_roster([Member(b, f"Mängija {b}", "Põhi", "Rühm") for b in range(1, 101)])
        store.log.append([make_event(0, "scenario_started", name="Hommik"),
                          make_event(500, "position", "marshal:3", device=3, lat=58.38, lon=26.72),
                          *(make_event(1000 * b, "permanent_kill", "marshal:3", badge=b) for b in range(1, 101)),
                          make_event(300_000, "scenario_started", name="Õhtu"),
                          make_event(310_000, "position", "marshal:3", device=3, lat=58.381, lon=26.721)])
    with opened(qtbot, game) as core:
        _gis_export(qtbot, core, tmp_path)


def _gis_export(qtbot, core, tmp_path):
    import gpxpy

    from controlroom.ui.dialogs.export import GisExportDialog

    dialog = GisExportDialog(core)
    qtbot.addWidget(dialog)
    assert [dialog.scenario.itemData(i) for i in range(dialog.scenario.count())] == [None, "Hommik", "Õhtu"]
    dialog.format.setCurrentIndex(dialog.format.findData("gpx"))
    out = tmp_path / "gis" / "päev.gpx"        # a folder not there yet
    dialog.file.setText(str(out))
    dialog.scenario.setCurrentIndex(1)
    dialog.export_button.click()
    qtbot.waitUntil(lambda: dialog.job is None and dialog.message_box is not None, timeout=60_000)
    assert "100 casualties" in dialog.message_box.text(), dialog.message_box.text()
    with out.open(encoding="utf-8") as f:
        gpx = gpxpy.parse(f)
    assert len(gpx.waypoints) == 100 and {(w.latitude, w.longitude) for w in gpx.waypoints} == {(58.38, 26.72)}
    assert [len(t.segments[0].points) for t in gpx.tracks] == [1]        # the scenario's part of the track
    dialog.message_box.close()
    dialog.format.setCurrentIndex(dialog.format.findData("kml"))
    assert dialog.file.text().endswith("päev.kml")


def test_what_the_jobs_bring_back_is_handled_in_the_windows_thread(qtbot, game, core, tmp_path, monkeypatch):
    """The report job runs in the jobs' thread; the dialog's answer to it (a PDF drawn, a message box) in the GUI's."""
    from controlroom.ui.dialogs.export import GisExportDialog

    seen = {name: watch_thread(monkeypatch, ExportDialog, name, *types)
            for name, types in (("_on_progress", (int, int)), ("_on_gathered", (object,)), ("_on_failed", (str,)))}
    seen["gis"] = watch_thread(monkeypatch, GisExportDialog, "_on_written", object)
    dialog = ExportDialog(core)
    qtbot.addWidget(dialog)
    dialog.folder.setText(str(tmp_path / "reports"))
    with qtbot.waitSignal(dialog.exported, timeout=60_000):
        dialog.start()
    dialog.message_box.close()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    dialog.folder.setText(str(blocker / "reports"))
    dialog.start()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
    dialog.message_box.close()
    gis = GisExportDialog(core)
    qtbot.addWidget(gis)
    gis.file.setText(str(tmp_path / "gis" / "day.gpx"))
    gis.start()
    qtbot.waitUntil(lambda: gis.job is None and gis.message_box is not None, timeout=60_000)
    gis.message_box.close()
    assert seen["_on_gathered"] == seen["_on_failed"] == seen["gis"] == [gui_thread()]
    assert seen["_on_progress"] and set(seen["_on_progress"]) == {gui_thread()}
