"""The status bar says which station runs the rule timers."""

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.store.game import GameStore
from controlroom.ui.panels.timer_owner import TimerOwnerLabel


def test_the_status_bar_names_the_timer_owner(qtbot, tmp_path):
    path = tmp_path / "t.crgame"
    GameStore.open(path).close()
    core = CoreThread(str(path), VirtualClock(0))
    label = TimerOwnerLabel(core)
    qtbot.addWidget(label)
    label.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        qtbot.waitUntil(lambda: label.state == "alone", timeout=5000)
        assert label.isHidden(), "a game file on one laptop: the status bar keeps the room"
        label.show_state("owner")
        assert label.isVisible() and label.text() == "Timers: this station"
        label.show_state("standby")
        assert label.text() == "Timers: another station" and "takes over" in label.toolTip()
        label.show_state("offline")
        assert label.text() == "Timers: server unreachable" and "color" in label.styleSheet()
    finally:
        assert core.shutdown()
