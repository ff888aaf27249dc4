"""The core's opening completes its fold (the tail's checkpoints, the kept fold's index) once the window has
painted the game it loaded, not while the window applies its first delta and paints (they shared the GIL: the
first painted map of tests/bench's 200,000-event game came 0.1-0.3 s later); never waiting for ever, and not
at all without a window."""

import time

import pytest
from PySide6.QtCore import QEvent, QObject

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.game.fold import Fold
from controlroom.store.game import GameStore
from tests.support.played_game import played_game, roster


@pytest.fixture
def game(tmp_path, monkeypatch) -> tuple[str, list[float]]:
    """A game of 300 players and 5,000 events, and the times Fold.complete was called at."""
    path = str(tmp_path / "waits.crgame")
    members = roster(300)
    with GameStore.open(path) as store:
        store.save_roster(members)
        store.log.append(played_game(members, 5_000))
    completed: list[float] = []
    complete = Fold.complete

    def timed(self, pause=None):
        completed.append(time.perf_counter())
        return complete(self, pause)

    monkeypatch.setattr(Fold, "complete", timed)
    return path, completed


def _loaded(qtbot, ct: CoreThread) -> float:
    with qtbot.waitSignal(ct.loaded, timeout=30_000):
        ct.start()
    return time.perf_counter()


def test_the_opening_completes_its_fold_once_the_window_has_painted(qtbot, game):
    path, completed = game
    ct = CoreThread(path, VirtualClock(0))
    ct.wait_for_window(30.0)
    try:
        _loaded(qtbot, ct)
        qtbot.wait(300)
        assert not completed, "the fold was completed before the window said it had painted"
        painted = time.perf_counter()
        ct.window_painted()
        qtbot.waitUntil(lambda: bool(completed), timeout=10_000)
        assert completed[0] >= painted
        stored = []
        ct.events_stored.connect(stored.append)
        ct.submit("note", {"text": "after the opening"}, "gm")
        qtbot.waitUntil(lambda: bool(stored), timeout=10_000)          # and the core goes on
    finally:
        assert ct.shutdown()


def test_without_a_window_the_opening_does_not_wait(qtbot, game):
    path, completed = game
    ct = CoreThread(path, VirtualClock(0))               # a headless station: nobody asked it to wait
    try:
        _loaded(qtbot, ct)
        qtbot.waitUntil(lambda: bool(completed), timeout=10_000)
        assert ct.worker.window_wait_s == 0
    finally:
        assert ct.shutdown()


def test_a_window_that_never_paints_holds_the_opening_only_so_long(qtbot, game):
    path, completed = game
    ct = CoreThread(path, VirtualClock(0))
    ct.wait_for_window(0.5)
    try:
        loaded = _loaded(qtbot, ct)
        qtbot.waitUntil(lambda: bool(completed), timeout=10_000)
        assert 0.3 < completed[0] - loaded < 5.0
    finally:
        assert ct.shutdown()


class _Paints(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.at.append(time.perf_counter())
        return False


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
@pytest.mark.parametrize("shown", [True, False], ids=["shown", "hidden"])
def test_the_real_window_says_when_it_has_painted(qtbot, game, shown):
    """build_window asks the core to wait; the window says so after the map's first paint of the game, or at
    once when its map is not on the screen (nothing to paint)."""
    from controlroom.ui.app import WINDOW_PAINT_WAIT_S, build_window

    path, completed = game
    ct = CoreThread(path, VirtualClock(0))
    window = build_window(ct)
    qtbot.addWidget(window)
    assert ct.worker.window_wait_s == WINDOW_PAINT_WAIT_S
    paints = _Paints()
    window.map.viewport().installEventFilter(paints)
    if shown:
        window.resize(1000, 700)
        window.show()
        qtbot.waitExposed(window)
    applied: list[float] = []
    said_at: list[float] = []
    said = ct.window_painted
    ct.window_painted = lambda: (said_at.append(time.perf_counter()), said())
    ct.loaded.connect(lambda _delta: applied.append(time.perf_counter()))     # after the window's apply_delta
    try:
        _loaded(qtbot, ct)
        loaded = applied[0]
        qtbot.waitUntil(lambda: bool(completed), timeout=10_000)
        if shown:
            first = [t for t in paints.at if t >= loaded]
            assert first and first[0] < said_at[0] <= completed[0], (loaded, paints.at, completed, said_at)
        # Either way well before the core would have given up waiting.
        assert completed[0] - loaded < WINDOW_PAINT_WAIT_S * 0.8
    finally:
        assert ct.shutdown()
        window.close()
