"""AlarmBanner: unacknowledged alarms stay until acknowledged; STOPPs flash; a sound per new alarm."""

import pytest
from PySide6.QtWidgets import QWidget

from controlroom.core.worker import Alarm
from controlroom.game.events import make_event
from controlroom.game.views import StateDelta, StoredView
from controlroom.ui.panels.alarms import STYLE_FLASH_OFF, STYLE_FLASH_ON, AlarmBanner


@pytest.fixture
def sounds():
    return []


@pytest.fixture
def banner(qtbot, sounds):
    window = QWidget()          # the banner hides and shows itself only inside a window
    qtbot.addWidget(window)
    banner = AlarmBanner(window, sound=lambda: sounds.append(1))
    yield banner


def texts(banner):
    return [banner.rows[i].label.text() for i in banner.alarm_ids()]


def test_hidden_without_alarms_shown_with_one(banner, sounds):
    assert banner.isHidden()
    banner.add_alarm(Alarm("gateway:g1:5000", "gateway_lost", "gateway g1 lost", 5000))
    assert not banner.isHidden()
    assert banner.alarm_ids() == ["gateway:g1:5000"]
    assert texts(banner) == ["Gateway lost at 00:00:05: gateway g1 lost"]
    assert sounds == [1]
    assert not banner.is_flashing()


def test_acknowledge_button_emits_the_id_and_removes_the_alarm(banner, qtbot):
    banner.add_alarm(Alarm("storage:write", "storage", "disk full", 1000))
    banner.add_alarm(Alarm("silent:marshal:M4:9000", "marshal_silent", "marshal M4 silent for 5 minutes", 9000))
    assert banner.alarm_ids() == ["silent:marshal:M4:9000", "storage:write"]
    with qtbot.waitSignal(banner.acknowledged, timeout=1000) as blocker:
        banner.rows["storage:write"].button.click()
    assert blocker.args == ["storage:write"]
    assert banner.alarm_ids() == ["silent:marshal:M4:9000"]
    assert not banner.isHidden()
    with qtbot.waitSignal(banner.acknowledged, timeout=1000) as blocker:
        banner.rows["silent:marshal:M4:9000"].button.click()
    assert blocker.args == ["silent:marshal:M4:9000"]
    assert banner.isHidden()


def test_stopp_flashes_until_acknowledged(banner, qtbot):
    banner.add_alarm(Alarm("stopp:S1", "stopp", "STOPP S1 called (injury)", 60_000))
    row = banner.rows["stopp:S1"]
    assert banner.is_flashing()
    assert texts(banner) == ["STOPP at 00:01:00: STOPP S1 called (injury)"]
    assert row.styleSheet() == STYLE_FLASH_ON
    qtbot.waitUntil(lambda: row.styleSheet() == STYLE_FLASH_OFF, timeout=2000)
    qtbot.waitUntil(lambda: row.styleSheet() == STYLE_FLASH_ON, timeout=2000)
    banner.acknowledge("stopp:S1")
    assert not banner.is_flashing()
    assert banner.isHidden()


def test_same_id_again_replaces_without_a_second_sound(banner, sounds):
    banner.add_alarm(Alarm("storage:write", "storage", "disk full", 1000))
    banner.add_alarm(Alarm("storage:write", "storage", "disk still full", 2000))
    assert banner.alarm_ids() == ["storage:write"]
    assert "disk still full" in texts(banner)[0]
    assert sounds == [1]


def test_sound_hook_is_mutable(banner, sounds):
    other = []
    banner.sound = lambda: other.append("ding")
    banner.add_alarm(Alarm("rejected_auth:7:1", "rejected_auth", "bad MAC from device 7", 1))
    assert other == ["ding"] and sounds == []
    assert texts(banner) == ["Forged radio frame at 00:00:00.001: bad MAC from device 7"]


def test_acknowledged_elsewhere_is_removed_without_emitting(banner, qtbot):
    banner.add_alarm(Alarm("stopp:S2", "stopp", "STOPP S2 called (danger)", 1000))
    event = make_event(2000, "alarm_acknowledged", "gm", alarm="stopp:S2")
    delta = StateDelta(2000, False, (), (), (StoredView(7, 0, event),), (), {}, "Bridge")
    with qtbot.assertNotEmitted(banner.acknowledged):
        banner.apply_delta(delta)
    assert banner.alarm_ids() == []
    assert not banner.is_flashing()


def test_many_alarms_show_a_few_and_a_count(banner):
    for i in range(8):
        banner.add_alarm(Alarm(f"gateway:g{i}:1", "gateway_lost", f"gateway g{i} lost", 1))
    visible = [i for i in banner.alarm_ids() if not banner.rows[i].isHidden()]
    assert visible == [f"gateway:g{i}:1" for i in range(7, 2, -1)]
    assert banner.more.text() == "and 3 more alarm(s)"


def test_default_sound_is_the_system_beep(qtbot):
    from PySide6.QtWidgets import QApplication

    from controlroom.ui.panels import AlarmBanner as Exported

    window = QWidget()
    qtbot.addWidget(window)
    banner = Exported(window)
    assert banner.sound == QApplication.beep
    banner.add_alarm(Alarm("storage:open", "storage", "cannot open the game file", 0))
    assert banner.alarm_ids() == ["storage:open"]
