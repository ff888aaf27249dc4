"""A map placed in the window is kept with the game by a job in the jobs' thread; what the window then says
(the status bar, a message box) is said in the window's own thread.

Connected straight to the methods of the window's WindowMaps mixin, PySide6 called them in the jobs' thread
(since 6438112): a QLabel changed and, once the status message popped up a tooltip, a widget made outside
the GUI thread ("QObject::setParent: Cannot set parent, new parent is in a different thread"), and the
window hung in one run of the layout test.
"""

import threading
from pathlib import Path

import pytest

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.store.game import GameStore
from controlroom.store.maps import current_map
from controlroom.ui.app import build_window
from controlroom.ui.window_maps import WindowMaps
from tests.support.desk_game import new_game

FIELD = Path(__file__).resolve().parents[2] / "resources" / "demo" / "field.png"

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def test_a_kept_map_is_announced_in_the_windows_thread(qtbot, tmp_path, monkeypatch):
    said_in: list[str] = []
    kept = WindowMaps._map_kept

    def watched(self, result):
        said_in.append(threading.current_thread().name)
        return kept(self, result)

    monkeypatch.setattr(WindowMaps, "_map_kept", watched)
    path = new_game(tmp_path / "maps.crgame")
    core = CoreThread(path, VirtualClock(0))
    window = build_window(core, None, "maps")
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        assert window.maps.open_map_file(str(FIELD))
        qtbot.waitUntil(lambda: bool(said_in), timeout=10_000)
        assert said_in == [threading.main_thread().name]
        assert window.status.text() == "The map field.png is kept with the game."
        with GameStore.open(path, create=False) as store:
            assert current_map(store).name == "field.png"
    finally:
        assert core.shutdown()
