"""RadioPanel: gateway links, counters (forged frames in red), devices heard with live ages, the frame log."""

import pytest
from PySide6.QtCore import Qt

from controlroom.game.state import GameState
from controlroom.game.views import make_delta
from controlroom.ui.panels.radio import (
    AGE_ROLE,
    ALARM_COLOUR,
    ALARM_ROLE,
    VERDICT_ROLE,
    RadioPanel,
    ago,
    link_detail,
)
from tests.support.panel_game import ROSTER, Clock, fold, ms

COUNT_KEYS = ("frames_total", "accepted", "duplicates", "rejected_corrupt", "rejected_auth",
              "rejected_replay", "rejected_unknown_device", "rejected_role", "downlink_heard")


def counts(**values):
    return {k: values.get(k, 0) for k in COUNT_KEYS}


def radio_view():
    """What the worker's radio_view() gives after a short battle on two gateways."""
    return {
        "links": {
            "gw-a": ("identified", {"gateway": 1, "fw": "1.2"}),
            "gw-b": ("lost", "read failed: device disconnected"),
            "gw-c": ("retrying", 2.5),
        },
        "counts": {
            "1": counts(frames_total=10, accepted=7, duplicates=1, rejected_auth=2, downlink_heard=3),
            "2": counts(frames_total=4, accepted=3, rejected_corrupt=1),
            "total": counts(frames_total=14, accepted=10, duplicates=1, rejected_corrupt=1, rejected_auth=2),
        },
        "heard": {
            1003: (ms("00:10:00"), -91, 7.25, 41, 1),
            2004: (ms("00:12:30"), -112.0, -3.5, 17, 2),
        },
        "recent": [
            (ms("00:10:00"), 1, 1003, 41, "accepted", -91, 7.25, ""),
            (ms("00:11:00"), 1, 1003, 42, "rejected_auth", -80, 9.0,
             "frame claiming to be from marshal 1003 has a wrong tag (forged?)"),
            (ms("00:12:00"), 2, None, None, "rejected_corrupt", None, None, "frame too short"),
            (ms("00:12:30"), 2, 2004, 17, "accepted", -112.0, -3.5, ""),
        ],
    }


def field_view():
    return {"positions": {}, "headcounts": {}, "siege": {},
            "heard": {"marshal:1003": (ms("00:10:00"), 87), "tracker:2004": (ms("00:12:30"), None),
                      "marshal:M1": (ms("00:01:00"), 50)}}


def delta(radio=None, field=None):
    d = make_delta(GameState(ROSTER), (), (), full=True)
    return d._replace(radio=radio_view() if radio is None else radio,
                      field=field_view() if field is None else field)


@pytest.fixture
def clock():
    return Clock(ms("00:13:00"))


@pytest.fixture
def panel(qtbot, clock):
    p = RadioPanel(clock)
    qtbot.addWidget(p)
    return p


def table(model, role=Qt.ItemDataRole.DisplayRole):
    return [[model.data(model.index(r, c), role) for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def test_links_with_state_and_detail(panel):
    panel.apply_delta(delta())
    assert table(panel.links) == [
        ["gw-a", "identified", "", "3", "", "gateway 1, fw 1.2"],
        ["gw-b", "lost", "", "", "", "read failed: device disconnected"],
        ["gw-c", "retrying", "", "", "", "next attempt in 2.5 s"],
    ]
    m = panel.links
    assert m.data(m.index(1, 1), Qt.ItemDataRole.ForegroundRole).color() == ALARM_COLOUR
    assert m.data(m.index(0, 1), Qt.ItemDataRole.ForegroundRole) is None
    assert m.headerData(1, Qt.Orientation.Horizontal) == "State"


def test_links_with_their_tx_queue_acks_heard_back_and_meshtastic_packets(panel):
    """The columns the links' own counters fill (the station hands them to the core, the core to the delta)."""
    view = radio_view()
    view["links"]["meshtastic:/dev/ttyACM0"] = ("up", "Meshtastic node !0a1b2c3d at /dev/ttyACM0")
    view["link_stats"] = {"gw-a": {"gateway": 1, "tx_pending": 4}, "gw-b": {"gateway": 2, "tx_pending": 0},
                          "meshtastic:/dev/ttyACM0": {"heard": 9, "sent": 2, "gateway": "!0a1b2c3d"}}
    view["mesh"] = {"meshtastic:/dev/ttyACM0": {"packets_total": 9, "accepted": 7}, "total": {"packets_total": 9}}
    panel.apply_delta(delta(radio=view))
    rows = {r[0]: r for r in table(panel.links)}
    assert rows["gw-a"][1:5] == ["identified", "4", "3", ""]
    assert rows["gw-b"][2:5] == ["0", "0", ""]             # gateway 2 heard none of the station's acks
    assert rows["meshtastic:/dev/ttyACM0"][2:5] == ["", "", "9"]
    assert [panel.links.headerData(c, Qt.Orientation.Horizontal) for c in range(2, 5)] == [
        "TX queue", "Acks heard", "Meshtastic packets"]
    view["link_stats"]["gw-a"]["tx_pending"] = 0           # the queue drained: the next delta says so
    panel.apply_delta(delta(radio=view))
    panel.refresh()
    assert {r[0]: r for r in table(panel.links)}["gw-a"][2] == "0"


def test_link_detail_never_shows_keys():
    assert link_detail({"gateway": 2, "net_key": "00112233"}) == "gateway 2"
    assert link_detail(None) == ""


def test_counters_per_gateway_and_total_with_forged_in_red(panel):
    panel.apply_delta(delta())
    rows = table(panel.counts)
    assert [r[0] for r in rows] == ["1", "2", "Total"]
    assert rows[0] == ["1", "10", "7", "1", "0", "2", "0", "0", "0", "3"]
    assert rows[2][1] == "14"
    m = panel.counts
    forged = 5
    assert m.headerData(forged, Qt.Orientation.Horizontal) == "Forged"
    assert m.data(m.index(0, forged), Qt.ItemDataRole.ForegroundRole).color() == ALARM_COLOUR
    assert m.data(m.index(0, forged), ALARM_ROLE) is True
    assert m.data(m.index(2, forged), Qt.ItemDataRole.ForegroundRole).color() == ALARM_COLOUR
    assert m.data(m.index(1, forged), Qt.ItemDataRole.ForegroundRole) is None    # gateway 2: none forged
    assert m.data(m.index(1, forged), ALARM_ROLE) is False
    assert m.data(m.index(0, 4), Qt.ItemDataRole.ForegroundRole) is None         # corrupt is no alarm
    assert panel.forged_count() == 2
    assert not panel.alarm.isHidden()
    assert "2 forged" in panel.alarm.text()


def test_no_forged_frames_no_alarm(panel):
    view = radio_view()
    view["counts"] = {"1": counts(frames_total=3, accepted=3), "total": counts(frames_total=3, accepted=3)}
    panel.apply_delta(delta(radio=view))
    assert panel.forged_count() == 0
    assert panel.alarm.isHidden()
    m = panel.counts
    assert all(m.data(m.index(r, 5), Qt.ItemDataRole.ForegroundRole) is None for r in range(m.rowCount()))


def test_devices_with_battery_from_the_field_reports(panel, qtbot):
    panel.apply_delta(delta())
    assert table(panel.devices) == [
        ["1003", "marshal:1003", "3 min ago", "-91", "7.25", "87", "41", "1"],
        ["2004", "tracker:2004", "30 s ago", "-112", "-3.5", "", "17", "2"],
    ]
    # Without field reports the battery and source stay empty.
    panel2 = RadioPanel(lambda: ms("00:13:00"))
    qtbot.addWidget(panel2)
    panel2.apply_delta(delta(field={}))
    assert table(panel2.devices)[0][1] == "" and table(panel2.devices)[0][5] == ""


def test_last_heard_is_live(panel, clock, qtbot):
    panel.apply_delta(delta())
    m = panel.devices
    assert m.data(m.index(1, 2)) == "30 s ago"
    clock.t = ms("00:14:31")
    qtbot.waitUntil(lambda: m.data(m.index(1, 2)) == "2 min ago", timeout=3000)   # the 1 s timer
    assert m.data(m.index(1, 2), AGE_ROLE) == ms("00:02:01")
    assert m.data(m.index(0, 2)) == "4 min ago"
    clock.t = ms("01:20:00")
    panel.refresh()
    assert m.data(m.index(0, 2)) == "1 h 10 min ago"


def test_ago_words():
    assert ago(0) == "just now"
    assert ago(-500) == "just now"
    assert ago(59_999) == "59 s ago"
    assert ago(120_000) == "2 min ago"


def test_frame_log_newest_first_and_forged_red(panel):
    panel.apply_delta(delta())
    rows = table(panel.frames)
    assert rows[0] == ["00:12:30", "2", "2004", "17", "accepted", "-112", "-3.5", ""]
    assert rows[2][:5] == ["00:11:00", "1", "1003", "42", "forged (wrong tag)"]
    assert rows[1] == ["00:12:00", "2", "", "", "corrupt", "", "", "frame too short"]
    m = panel.frames
    assert m.data(m.index(2, 4), VERDICT_ROLE) == "rejected_auth"
    assert m.data(m.index(2, 7), Qt.ItemDataRole.ForegroundRole).color() == ALARM_COLOUR
    assert m.data(m.index(0, 4), Qt.ItemDataRole.ForegroundRole) is None
    assert [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())] == [
        "Time", "Gateway", "Device", "Counter", "Verdict", "RSSI (dBm)", "SNR (dB)", "Detail"]


def test_frame_log_filter(panel):
    panel.apply_delta(delta())
    proxy = panel.proxy
    assert proxy.rowCount() == 4
    panel.filter.setText("FORGED")                 # verdict or detail, any case
    assert proxy.rowCount() == 1
    assert proxy.data(proxy.index(0, 2)) == "1003"
    panel.set_filter("2004")
    assert panel.filter.text() == "2004"
    assert proxy.rowCount() == 1
    assert proxy.data(proxy.index(0, 4)) == "accepted"
    panel.filter.setText("nothing like this")
    assert proxy.rowCount() == 0
    panel.filter.clear()
    assert proxy.rowCount() == 4
    # The filter stays on when new frames come.
    panel.filter.setText("corrupt")
    panel.apply_delta(delta())
    panel.refresh()
    assert proxy.rowCount() == 1


def test_deltas_within_a_second_are_shown_by_the_refresh_and_a_forged_frame_at_once(panel):
    panel.apply_delta(delta())                      # the first is shown at once
    assert panel.frames.rowCount() == 4
    view = radio_view()
    view["recent"] = view["recent"] + [(ms("00:12:40"), 1, 1003, 43, "accepted", -90, 7.0, "")]
    view["counts"]["total"]["rejected_auth"] = 5
    panel.apply_delta(delta(radio=view))
    assert panel.frames.rowCount() == 4             # waits for the refresh (at most a second)
    assert not panel.alarm.isHidden() and "5" in panel.alarm.text()     # the security alarm does not wait
    panel.refresh()
    assert panel.frames.rowCount() == 5
    assert panel.frames.data(panel.frames.index(0, 3)) == "43"


def test_empty_radio_or_field_keeps_what_is_shown(panel):
    panel.apply_delta(delta())
    d = make_delta(GameState(ROSTER), (), (), full=True)     # radio {} and no "heard" battery for 1003
    panel.apply_delta(d._replace(radio={}, field={}))
    assert panel.links.rowCount() == 3
    assert panel.counts.rowCount() == 3
    assert panel.frames.rowCount() == 4
    assert table(panel.devices)[0][5] == "87"


def test_a_real_delta_without_radio(panel):
    state = GameState(ROSTER)
    panel.apply_delta(fold(state, ("00:01:00", "down", {"badge": 2})))
    assert panel.devices.rowCount() == 0
    assert panel.links.rowCount() == 0
    assert panel.alarm.isHidden()
