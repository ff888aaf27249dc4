"""The Devices desk (Game, Devices…): every device's readiness, one-click provisioning, filters, marshal cards.

A real station (core and a gateway link on a pty) behind the real window; a
board on a pty whose interpreter is the real MicroPython (tests/support).  The
desk provisions the selected device through a core job; the board restarts,
its first frame goes through the gateway to the station, and the row turns
"heard" from the core's deltas; the radio panel shows the link's TX queue.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor

from controlroom.core.wiring import Station
from controlroom.game.device_list import DeviceEntry
from controlroom.game.devices import key_fingerprint
from controlroom.game.roster import Member
from controlroom.store.device_setup import import_devices
from controlroom.store.devices import devices, register_device
from controlroom.store.game import GameStore
from controlroom.ui.app import build_window
from controlroom.ui.desks.devices_model import STATE_ROLE
from controlroom.ui.theme import DAY_TO_NIGHT
from tests.support.fake_board import FakeBoard
from tests.support.pty_gateway import PtyGateway

pytestmark = [pytest.mark.micropython, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


@pytest.fixture
def station(qtbot, tmp_path):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    db = str(tmp_path / "desk.crgame")
    with GameStore.open(db) as store:
        store.save_roster([Member(101, "Aldo", "North", "Wolves"), Member(102, "Birgit", "South", "Ravens")])
        import_devices(store, [DeviceEntry(2, 12, "marshal", "North 1", marshal="Mari Maasikas", badge=901),
                               DeviceEntry(3, 301, "tracker", "Wolves leader", group="Wolves"),
                               DeviceEntry(4, 7, "gateway", "Hill", board="heltec-v3")])
    gateway = PtyGateway()
    st = Station(db, [gateway.port], publish_interval_ms=50)
    window = build_window(st.core, None, "devices")
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(st.core.loaded, timeout=20_000):
        st.start()
    qtbot.waitUntil(gateway.identified.is_set, timeout=20_000)
    yield db, st, window, gateway
    window.night_action.setChecked(False)
    window.large_action.setChecked(False)
    assert st.shutdown()
    gateway.close()


def _rows(desk):
    t = desk.table
    return {r.id: (r, t.data(t.index(i, 0), STATE_ROLE)) for i, r in enumerate(t.rows)}


def _select(qtbot, desk, device):
    proxy = desk.proxy
    for row in range(proxy.rowCount()):
        if proxy.data(proxy.index(row, 0)) == str(device):
            desk.view.selectRow(row)
            return
    raise AssertionError(f"device {device} is not shown")


def _cell(desk, device, column, role=Qt.ItemDataRole.DisplayRole):
    t = desk.table
    return t.data(t.index(t.row_of(device), column), role)


def test_provisioning_from_the_desk_until_the_row_is_heard(qtbot, station, tmp_path):
    db, st, window, gateway = station
    desk = window.desk_switch.desks["devices"]
    window.devices_action.trigger()                           # Game, Devices…
    assert window.desk_switch.shown() is desk
    qtbot.waitUntil(lambda: len(desk.table.rows) == 3, timeout=20_000)
    assert {d: state for d, (_r, state) in _rows(desk).items()} == {7: "not provisioned", 12: "not provisioned",
                                                                    301: "not provisioned"}
    assert "3 devices: 0 provisioned, 0 heard" in desk.summary.text()
    with FakeBoard(tmp_path / "flash", air=gateway.hear) as board:
        desk.board.setCurrentText(board.port)
        _select(qtbot, desk, 301)
        qtbot.mouseClick(desk.provision_selected, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "Device 301 provisioned" in desk.status.text(), timeout=60_000)
        with GameStore.open(db, create=False) as store:
            fingerprint = key_fingerprint(devices(store)[301].key)
        assert fingerprint in desk.status.text()
        # The board restarted; its first frame reached the station through the gateway: the row says heard.
        qtbot.waitUntil(lambda: _rows(desk)[301][1] == "heard", timeout=30_000)
    row = _rows(desk)[301][0]
    assert row.provisioned and f"firmware 1.1.0, key {fingerprint}" == row.provision_text
    assert row.battery == 87 and row.signal == "7: -97 dBm 7.25 dB"
    assert _cell(desk, 301, 6).startswith("yes") and _cell(desk, 301, 8) in ("just now", "0 s ago")
    assert _rows(desk)[12][1] == "not provisioned"
    # The radio panel: the gateway link's own TX queue, from the link through the core's delta.
    window.desk_switch.show_desk("map")                       # the docks come back with the map
    panel = window.panels.panels["radio"]
    panel.show()
    qtbot.waitUntil(lambda: panel.links.rowCount() == 1 and panel.links.data(panel.links.index(0, 2)) == "0",
                    timeout=10_000)


def test_a_failed_board_says_why_and_the_filters_pick_what_needs_a_look(qtbot, station, tmp_path):
    db, st, window, gateway = station
    window.desk_switch.show_desk("devices")
    desk = window.desk_switch.desks["devices"]
    qtbot.waitUntil(lambda: len(desk.table.rows) == 3, timeout=20_000)

    def pull(code):         # at the opening of device.json's temporary file (FILE.new, or packed FILE.new.z)
        return b"'device.json.new" in code and b"open(" in code and b"'wb')" in code

    with FakeBoard(tmp_path / "flash", pull_cable=pull) as board:
        desk.board.setCurrentText(board.port)
        qtbot.mouseClick(desk.provision_next, Qt.MouseButton.LeftButton)         # the next one: device 7
        qtbot.waitUntil(lambda: "Device 7 failed" in desk.status.text(), timeout=60_000)
    qtbot.waitUntil(lambda: _rows(desk)[7][1] == "failed", timeout=20_000)
    assert "stopped answering while device.json was copied" in _rows(desk)[7][0].provision_text
    assert _cell(desk, 7, 5, Qt.ItemDataRole.ToolTipRole) == _rows(desk)[7][0].provision_text
    with FakeBoard(tmp_path / "flash") as board:                              # plugged in again: the retry
        desk.board.setCurrentText(board.port)
        _select(qtbot, desk, 7)
        qtbot.mouseClick(desk.provision_selected, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "Device 7 provisioned" in desk.status.text(), timeout=60_000)
    qtbot.waitUntil(lambda: _rows(desk)[7][0].provisioned, timeout=20_000)
    # Filters: not provisioned; not heard for 10 minutes (none was); battery under 20 %.
    desk.not_provisioned.setChecked(True)
    assert sorted(int(desk.proxy.data(desk.proxy.index(r, 0))) for r in range(desk.proxy.rowCount())) == [12, 301]
    desk.not_provisioned.setChecked(False)
    desk.silent.setChecked(True)
    assert desk.proxy.rowCount() == 3
    desk.silent.setChecked(False)
    desk.low_battery.setChecked(True)
    assert desk.proxy.rowCount() == 0
    desk.apply_delta(desk_delta({"tracker:301": (st.core.game_time(), 12)}))
    desk.refresh(force=True)
    assert desk.proxy.rowCount() == 1 and _cell(desk, 301, 7) == "12"
    assert QColor(_cell(desk, 301, 7, Qt.ItemDataRole.ForegroundRole).color()).name() == "#c9302c"
    desk.low_battery.setChecked(False)
    # Night mode and large text apply to the desk: its colours turn to their night twins, its text grows.
    window.night_action.setChecked(True)
    assert _cell(desk, 7, 5, Qt.ItemDataRole.ForegroundRole).color().name() == DAY_TO_NIGHT["#2d7d2d"]
    size = desk.view.font().pointSizeF()
    window.large_action.setChecked(True)
    qtbot.waitUntil(lambda: desk.view.font().pointSizeF() > size, timeout=5000)
    # A new key for device 7 (imported elsewhere): the desk reads the devices again, the row is not ready.
    with GameStore.open(db, create=False) as store:
        register_device(store, 7, "gateway", "Hill", replace_key=True)
    desk.reload_button.click()
    qtbot.waitUntil(lambda: not _rows(desk)[7][0].provisioned, timeout=20_000)
    assert _rows(desk)[7][0].provision_text.startswith("no: an older key")


def test_the_cards_from_the_desk(qtbot, station, tmp_path):
    _db, _st, window, _gateway = station
    window.desk_switch.show_desk("devices")
    desk = window.desk_switch.desks["devices"]
    out = tmp_path / "kaardid.pdf"
    desk.print_cards(str(out), "et")
    qtbot.waitUntil(lambda: "marshal cards on 1 pages" in desk.status.text() or "kaart" in desk.status.text(),
                    timeout=30_000)
    assert out.exists() and out.read_bytes().startswith(b"%PDF")


def desk_delta(field_heard):
    from controlroom.game.state import GameState
    from controlroom.game.views import make_delta

    d = make_delta(GameState([]), (), (), full=True)
    return d._replace(field={"partial": True, "heard": field_heard}, radio={})


def test_a_read_asked_while_one_fails_is_made_after_it(qtbot, station, monkeypatch):
    """The game opening (or a list imported) asks for the registry while the desk's first read is under way;
    that read fails (the file busy while the station opens it): the one asked meanwhile is made after it, and
    the rows come (once, a CI run waited in vain for them)."""
    import threading

    from controlroom.core.jobs import Job
    from controlroom.store.errors import StoreError

    _db, st, window, _gateway = station
    desk = window.desk_switch.desks["devices"]
    window.desk_switch.show_desk("devices")
    qtbot.waitUntil(lambda: len(desk.table.rows) == 3 and not desk.jobs, timeout=20_000)
    jobs, real = st.core.jobs, st.core.jobs.devices
    go = threading.Event()

    def busy(_progress):
        go.wait(10)
        raise StoreError("the game file is busy")

    calls = []

    def devices():
        calls.append(1)
        if len(calls) == 1:
            return jobs._submit(Job("devices", busy))
        return real()

    monkeypatch.setattr(jobs, "devices", devices)
    desk.statuses = []
    desk.refresh(force=True)
    assert len(desk.table.rows) == 0
    desk.read_registry()                # under way, to fail
    desk.read_registry()                # asked meanwhile
    assert len(calls) == 1 and desk._registry_again
    go.set()
    qtbot.waitUntil(lambda: len(desk.table.rows) == 3, timeout=20_000)
    assert len(calls) == 2 and "busy" in desk.status.text() and not desk._registry_again
