"""AlarmBanner: alarms by class with colour, icon and sound; repeats merged; 3 rows then "+N more";
safety one by one, the other classes at once; STOPPs flash; acknowledged elsewhere goes."""

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from controlroom.game.alarms import GAME, LINK, SAFETY, SECURITY, STORAGE, Alarm
from controlroom.game.events import make_event
from controlroom.game.views import StateDelta, StoredView
from controlroom.ui.panels.alarms import CLASS_COLOURS, CLASS_ICONS, FLASH_OFF, AlarmBanner, row_style
from controlroom.ui.theme import MIN_CONTRAST, contrast


@pytest.fixture
def sounds():
    return []


@pytest.fixture
def banner(qtbot, sounds):
    window = QWidget()          # the banner hides and shows itself only inside a window
    qtbot.addWidget(window)
    window.resize(1200, 200)
    window.show()
    banner = AlarmBanner(window, sound=sounds.append)
    banner.resize(1200, 150)
    yield banner


def texts(banner):
    return [row.label.full for row in banner.shown_rows()]


def test_hidden_without_alarms_shown_with_one(banner, sounds):
    assert banner.isHidden()
    banner.add_alarm(Alarm("gateway:g1:5000", "gateway_lost", "gateway g1 lost", 5000))
    assert not banner.isHidden()
    assert banner.alarm_ids() == ["gateway:g1:5000"]
    assert texts(banner) == ["Gateway lost at 00:00:05: gateway g1 lost"]
    row = banner.shown_rows()[0]
    assert row.cls_label.text() == "LINK" and row.button.text() == "Acknowledge all link"
    assert sounds == [LINK]
    assert not banner.is_flashing()


def test_each_class_has_its_colour_icon_word_and_sound(banner, sounds):
    alarms = [Alarm("stopp:S1", "stopp", "STOPP S1 called (injury)", 1), Alarm("d:1:2", "death", "Aldo died", 2),
              Alarm("rejected_auth:7:3", "rejected_auth", "bad tag", 3), Alarm("gateway:g1:4", "gateway_lost", "", 4)]
    for alarm in alarms:
        banner.add_alarm(alarm)
    assert sounds == [SAFETY, GAME, SECURITY, LINK]
    assert len({CLASS_COLOURS[c][0] for c in (SAFETY, GAME, SECURITY, LINK, STORAGE)}) == 5
    assert len({CLASS_ICONS[c] for c in (SAFETY, GAME, SECURITY, LINK, STORAGE)}) == 5
    shown = banner.shown_rows()
    assert [r.cls_label.text() for r in shown] == ["SAFETY", "GAME", "RADIO SECURITY"]      # most urgent first
    assert all(not r.icon.pixmap().isNull() for r in shown)
    assert shown[2].styleSheet() == row_style(*CLASS_COLOURS[SECURITY])
    assert banner.more.text() == "+1 more" and banner.more.isVisibleTo(banner)
    # Every row's text reads on its colour (and a flashing one in its dark phase).
    for background, text in [*CLASS_COLOURS.values(), FLASH_OFF]:
        assert contrast(QColor(text), QColor(background)) >= MIN_CONTRAST, (background, text)


def test_repeats_merge_into_one_row_with_a_count_and_one_sound(banner, sounds):
    for i in range(5):
        banner.add_alarm(Alarm(f"rejected_replay:1005:{1000 + i}", "rejected_replay", f"frame {i} of 1005", 1000 + i))
    assert len(banner.shown_rows()) == 1 and sounds == [SECURITY]
    assert texts(banner)[0].endswith("frame 4 of 1005 (\u00d75)")
    assert banner.shown_rows()[0].height() < 2.5 * banner.fontMetrics().height()       # one line, not five rows


def test_safety_is_acknowledged_one_by_one(banner, qtbot):
    banner.add_alarm(Alarm("stopp:S1", "stopp", "STOPP S1", 1))
    banner.add_alarm(Alarm("stopp:S2", "stopp", "STOPP S2", 2))
    first = banner.shown_rows()[0]
    assert first.button.text() == "Acknowledge"
    with qtbot.waitSignal(banner.acknowledged, timeout=1000) as blocker:
        first.button.click()
    assert blocker.args == ["stopp:S2"]
    assert banner.alarm_ids() == ["stopp:S1"]
    with pytest.raises(ValueError):
        banner.acknowledge_class(SAFETY)


def test_other_classes_are_acknowledged_together(banner, qtbot):
    banner.add_alarm(Alarm("rejected_auth:7:1", "rejected_auth", "bad tag from 7", 1))
    banner.add_alarm(Alarm("rejected_unknown_device:9:2", "rejected_unknown_device", "who is 9", 2))
    banner.add_alarm(Alarm("rejected_auth:7:3", "rejected_auth", "bad tag from 7", 3))
    banner.add_alarm(Alarm("gateway:g1:4", "gateway_lost", "g1 lost", 4))
    acked = []
    banner.acknowledged.connect(acked.append)
    security = next(r for r in banner.shown_rows() if r.state.cls == SECURITY)
    assert security.button.text() == "Acknowledge all radio security"
    security.button.click()
    assert sorted(acked) == ["rejected_auth:7:1", "rejected_auth:7:3", "rejected_unknown_device:9:2"]
    assert banner.alarm_ids() == ["gateway:g1:4"]


def test_stopp_flashes_until_acknowledged(banner, qtbot):
    banner.add_alarm(Alarm("stopp:S1", "stopp", "STOPP S1 called (injury)", 60_000))
    row = banner.rows["stopp:S1"]
    assert banner.is_flashing()
    assert texts(banner) == ["STOPP at 00:01:00: STOPP S1 called (injury)"]
    assert row.styleSheet() == row_style(*CLASS_COLOURS[SAFETY])
    qtbot.waitUntil(lambda: row.styleSheet() == row_style(*FLASH_OFF), timeout=2000)
    qtbot.waitUntil(lambda: row.styleSheet() == row_style(*CLASS_COLOURS[SAFETY]), timeout=2000)
    banner.acknowledge("stopp:S1")
    assert not banner.is_flashing()
    assert banner.isHidden()


def test_same_id_again_replaces_without_a_second_sound(banner, sounds):
    banner.add_alarm(Alarm("storage:write", "storage", "disk full", 1000))
    banner.add_alarm(Alarm("storage:write", "storage", "disk still full", 2000))
    assert banner.alarm_ids() == ["storage:write"]
    assert "disk still full" in texts(banner)[0] and "\u00d7" not in texts(banner)[0]
    assert sounds == [STORAGE]


def test_acknowledged_elsewhere_is_removed_without_emitting(banner, qtbot):
    banner.add_alarm(Alarm("stopp:S2", "stopp", "STOPP S2 called (danger)", 1000))
    event = make_event(2000, "alarm_acknowledged", "gm", alarm="stopp:S2")
    delta = StateDelta(2000, False, (), (), (StoredView(7, 0, event),), (), {}, "Bridge")
    with qtbot.assertNotEmitted(banner.acknowledged):
        banner.apply_delta(delta)
    assert banner.alarm_ids() == []
    assert not banner.is_flashing()


def test_many_alarms_show_three_rows_and_how_many_more(banner):
    for i in range(8):
        banner.add_alarm(Alarm(f"gateway:g{i}:1", "gateway_lost", f"gateway g{i} lost", 1))
    assert [r.state.key for r in banner.shown_rows()] == [f"gateway_lost|gateway:g{i}" for i in (7, 6, 5)]
    assert banner.more.text() == "+5 more"
    banner.acknowledge_class(LINK)
    assert banner.isHidden() and not banner.rows


def test_a_long_message_is_cut_on_one_line_with_all_of_it_in_the_tooltip(banner):
    long = "frame claiming to be from tracker 3002 has a wrong tag " * 10
    banner.add_alarm(Alarm("rejected_auth:3002:1", "rejected_auth", long, 1))
    row = banner.shown_rows()[0]
    assert row.label.text().endswith("\u2026") and long.strip() in row.label.toolTip()
    # Large text: the same row holds fewer letters, and the message is cut again, not clipped.
    before = row.label.text()
    font = row.label.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    row.label.setFont(font)
    after = row.label.text()
    assert after.endswith("\u2026") and len(after) < len(before)
    assert row.label.fontMetrics().horizontalAdvance(after) <= max(20, row.label.width())


def test_default_sound_plays_the_class_wav(qtbot):
    from controlroom.ui.panels import AlarmBanner as Exported
    from controlroom.ui.panels.sound import AlarmSounds, sound_file

    window = QWidget()
    qtbot.addWidget(window)
    banner = Exported(window)
    assert isinstance(banner.sound, AlarmSounds)
    banner.sound.player = None                      # no process in this test: what would be played is recorded
    banner.add_alarm(Alarm("storage:open", "storage", "cannot open the game file", 0))
    assert banner.alarm_ids() == ["storage:open"] and banner.sound.played == [STORAGE]
    for cls in (SAFETY, GAME, SECURITY, LINK, STORAGE):
        assert sound_file(cls).read_bytes()[:4] == b"RIFF"


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_more_opens_the_list_of_every_alarm_acknowledged_there(banner, qtbot):
    """"+N more" is a button: the list shows every row, safety one by one, the others per class, and follows."""
    from PySide6.QtCore import Qt

    from controlroom.ui.dialogs.alarm_list import AlarmListDialog

    opened = []
    banner.show_all_requested.connect(lambda: opened.append(AlarmListDialog(banner)))
    banner.add_alarm(Alarm("stopp:S1", "injury", "STOPP S1 called for an injury", 1))
    banner.add_alarm(Alarm("stopp:S2", "stopp", "STOPP S2 called (danger)", 2))
    banner.add_alarm(Alarm("d:1:3", "death", "Aldo died", 3))
    banner.add_alarm(Alarm("rejected_auth:7:4", "rejected_auth", "bad tag from 7", 4))
    banner.add_alarm(Alarm("gateway:g1:5", "gateway_lost", "g1 lost", 5))
    assert banner.more.text() == "+2 more" and banner.more.isVisibleTo(banner)
    qtbot.mouseClick(banner.more, Qt.MouseButton.LeftButton)
    (dialog,) = opened
    qtbot.addWidget(dialog)
    dialog.show()
    rows = dialog.shown_rows()
    assert [r.cls_label.text() for r in rows] == ["SAFETY", "SAFETY", "GAME", "RADIO SECURITY", "LINK"]
    assert [r.button.text() for r in rows][:2] == ["Acknowledge", "Acknowledge"]
    assert rows[0].label.full.startswith("Injury at 00:00:00") or rows[1].label.full.startswith("Injury")
    acked = []
    banner.acknowledged.connect(acked.append)
    link = next(r for r in rows if r.state.cls == LINK)
    assert link.button.text() == "Acknowledge all link"
    qtbot.mouseClick(link.button, Qt.MouseButton.LeftButton)          # one hidden from the strip
    assert acked == ["gateway:g1:5"]
    injury = next(r for r in dialog.shown_rows() if r.state.latest.kind == "injury")
    qtbot.mouseClick(injury.button, Qt.MouseButton.LeftButton)        # a safety row: only itself
    assert acked == ["gateway:g1:5", "stopp:S1"]
    assert [r.state.key for r in dialog.shown_rows()] == banner.row_keys() == ["stopp:S2", "death",
                                                                               "rejected_auth|rejected_auth:7"]
    assert banner.more.isHidden()                                     # three left: all on the strip
    banner.add_alarm(Alarm("gateway:g2:6", "gateway_lost", "g2 lost", 6))     # the open list follows
    assert len(dialog.shown_rows()) == 4 and "4 alarm" in dialog.summary.text()


def test_a_fitted_label_without_its_fit_is_refused_when_defined():
    from controlroom.ui.panels.fitted import FittedLabel

    with pytest.raises(TypeError, match="without _fit"):
        class Unfitted(FittedLabel):       # refused at its definition
            pass
