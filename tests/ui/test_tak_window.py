"""TAK in the window: phones in the radio panel with their trust, marshals' phones on the map, the data package."""

import zipfile

import pytest
from PySide6.QtCore import Qt

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.devices import VIA_TAK, DeviceInfo
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.game.views import StoredView, make_delta
from controlroom.geo.frame import MapFrame
from controlroom.geo.places import Place
from controlroom.radio.cot_in import CotHeard
from controlroom.radio.tak_ingest import TakIngest
from controlroom.store.game import GameStore
from controlroom.store.maps import save_places
from controlroom.ui.dialogs.player_card import PlayerCard
from controlroom.ui.map.layers import MapLayers
from controlroom.ui.map.view import MapView
from controlroom.ui.panels.radio import RadioPanel
from controlroom.ui.panels.radio_tak import UNKNOWN_COLOUR
from tests.support.panel_game import ROSTER, Clock, ms

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def tak_view():
    """What the engine's TakIngest makes of a registered marshal's phone and a stranger's."""
    ingest = TakIngest({5: DeviceInfo(5, "marshal", "West", tak_uid="ANDROID-deadbeef")})
    ingest.receive(CotHeard("tcp://tak:8087", "ANDROID-deadbeef", "a-f-G-U-C", "JENNY", "m-g", 58.38, 26.72, None,
                            78, 1, 0), ms("00:12:00"))
    ingest.receive(CotHeard("cot-udp://0.0.0.0:4242", "ANDROID-stranger", "a-f-G-U-C", "STRANGER", "m-g", 58.0,
                            26.0, None, None, 2, 1), ms("00:12:30"))
    return ingest.view()


def table(model, role=Qt.ItemDataRole.DisplayRole):
    return [[model.data(model.index(r, c), role) for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def test_the_radio_panel_lists_tak_phones_with_their_trust_and_strangers_as_not_drawn(qtbot):
    panel = RadioPanel(Clock(ms("00:13:00")))
    qtbot.addWidget(panel)
    assert panel.tak_box.isHidden()                 # no phone heard: no TAK list taking the panel's room
    panel.apply_delta(make_delta(GameState(ROSTER), (), (), full=True)._replace(radio={"tak": tak_view()}))
    assert not panel.tak_box.isHidden()
    m = panel.tak_phones
    assert table(m) == [
        ["ANDROID-deadbeef", "JENNY", "marshal:5", "TAK, not authenticated", "1 min ago", "78", "tcp://tak:8087"],
        ["ANDROID-stranger", "STRANGER", "unknown: not drawn", "", "30 s ago", "", "cot-udp://0.0.0.0:4242"],
    ]
    assert m.unknown_count() == 1
    assert m.data(m.index(1, 0), Qt.ItemDataRole.ForegroundRole).color() == UNKNOWN_COLOUR
    assert "no rule uses them" in m.data(m.index(0, 3), Qt.ItemDataRole.ToolTipRole)
    assert "--tak-uid ANDROID-stranger" in m.data(m.index(1, 0), Qt.ItemDataRole.ToolTipRole)


def test_a_marshals_phone_is_drawn_as_a_marshal_and_says_it_is_not_authenticated(qtbot):
    view = MapView(projection=MapFrame(58.38, 26.72), paint_hz=50)
    qtbot.addWidget(view)
    layers = MapLayers(view, MapFrame(58.38, 26.72))
    layers.set_devices({"marshal:5": {"role": "marshal", "label": "West", "tak": "ANDROID-deadbeef"},
                        "marshal:7": {"role": "marshal", "label": "North", "tak": None}})
    state = GameState(ROSTER)
    for source, lat in (("marshal:5", 58.381), ("marshal:7", 58.382)):
        state.apply(make_event(ms("00:01:00"), "position", source, device=int(source[-1]), lat=lat, lon=26.72,
                               fix=1))
    layers.apply(make_delta(state, (), (), full=True)._replace(t=ms("00:01:10")))
    view.flush()
    labels = sorted(view.label_of("marshals", i) for i in range(2))
    assert labels == ["North: last report 10 s ago", "West: last report 10 s ago, position by TAK, not authenticated"]


def test_the_timeline_and_the_player_card_say_what_came_by_tak(qtbot):
    card = PlayerCard(1, Clock(0))
    qtbot.addWidget(card)
    came = StoredView(1, 1, make_event(1000, "down", "marshal:5", badge=1), VIA_TAK)
    card.set_history([came], (), {"marshal:5": "West"}, ["marshal:5"])
    assert card.history.item(0, 3).text() == "marshal:5 (TAK, not authenticated)"
    assert "West (marshal:5) \u00b7 position by TAK, not authenticated" in card.devices.text()


def test_game_export_for_gis_writes_a_tak_data_package(qtbot, tmp_path):
    from controlroom.ui.dialogs.export import GisExportDialog

    game = tmp_path / "tak.crgame"
    with GameStore.open(game) as store:
        store.save_roster([Member(1, "A", "North", "Wolves")])
        save_places(store, [Place("Valhalla", 58.37, 26.73), Place("HQ", 58.38, 26.72)])
    core = CoreThread(str(game), VirtualClock(0), publish_interval_ms=20)
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        dialog = GisExportDialog(core)
        qtbot.addWidget(dialog)
        dialog.format.setCurrentIndex(dialog.format.findData("tak"))
        assert dialog.file.text().endswith(".zip") and not dialog.scenario.isEnabled()
        out = tmp_path / "out" / "tak.zip"
        dialog.file.setText(str(out))
        dialog.export_button.click()
        qtbot.waitUntil(lambda: dialog.job is None and dialog.message_box is not None, timeout=30_000)
        text = dialog.message_box.text()
        assert "Valhalla.cot" in text and "no map is kept with the game" in text, text
        with zipfile.ZipFile(out) as z:
            assert {"MANIFEST/manifest.xml", "Valhalla.cot", "HQ.cot"} <= set(z.namelist())
        dialog.message_box.close()
    finally:
        assert core.shutdown()
