"""The core keeps the game's fold snapshot with it once opened; the next opening starts from it, to the same game."""

import sys
from pathlib import Path

from controlroom.core import worker as worker_module
from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.store.game import FOLD_SNAPSHOT_KEY, GameStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from bench_eventlog import played_game, roster  # noqa: E402


def _open(qtbot, path: str) -> tuple[CoreThread, object]:
    ct = CoreThread(path, VirtualClock(0))
    with qtbot.waitSignal(ct.loaded, timeout=30_000) as blocker:
        ct.start()
    return ct, blocker.args[0]


def test_the_core_keeps_the_fold_and_opens_from_it_to_the_same_game(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(worker_module, "FOLD_SAVE_DELAY_MS", 0)
    path = str(tmp_path / "long.crgame")
    members = roster(300)
    with GameStore.open(path) as store:          # more events than an opening folds one by one (32,000)
        store.save_roster(members)
        store.log.append(played_game(members, 36_000))

    ct, first = _open(qtbot, path)
    assert ct.worker.fold.saved_point is None

    def kept() -> None:
        with GameStore.open(path, create=False) as store:
            assert store.meta(FOLD_SNAPSHOT_KEY) is not None

    qtbot.waitUntil(kept, timeout=30_000)
    assert ct.shutdown()

    ct2, second = _open(qtbot, path)
    try:
        assert ct2.worker.fold.saved_point == (ct.worker.fold.opened[0], 36_000 - 32_000)
        assert len(first.characters) == 300 and any(c.deaths for c in first.characters) and first.events
        assert second._replace(radio={}) == first._replace(radio={})
        with GameStore.open(path, create=False) as store:           # the index and frames completed after showing
            full = store.open_fold(saved=False)
        fold = ct2.worker.fold
        assert (list(fold.index.seq), list(fold.index.t), fold.frames) == (list(full.index.seq), list(full.index.t),
                                                                             full.frames)
    finally:
        assert ct2.shutdown()
