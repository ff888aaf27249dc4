"""The core keeps the game's fold snapshot with it once opened; the next opening starts from it, to the same game."""


from controlroom.core import fold_saver
from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.store.game import FOLD_SNAPSHOT_KEY, GameStore
from tests.support.played_game import played_game, roster


def _open(qtbot, path: str) -> tuple[CoreThread, object]:
    ct = CoreThread(path, VirtualClock(0))
    with qtbot.waitSignal(ct.loaded, timeout=30_000) as blocker:
        ct.start()
    return ct, blocker.args[0]


def test_the_core_keeps_the_fold_and_opens_from_it_to_the_same_game(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(fold_saver, "FOLD_SAVE_DELAY_MS", 0)
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


def test_the_cores_upkeep_of_an_idle_game_does_not_read_its_snapshot(qtbot, tmp_path, monkeypatch):
    """Every few minutes the core asks whether the snapshot is far enough behind; while the game stands still
    the answer comes from the snapshot's point, never from the snapshot.  Once the log moves on, it is kept again."""
    from controlroom.game import snapshot_json
    from controlroom.store.game import FOLD_POINT_KEY

    monkeypatch.setattr(fold_saver, "FOLD_SAVE_DELAY_MS", 0)
    monkeypatch.setattr(fold_saver, "FOLD_SAVE_EVERY_MS", 100)
    path = str(tmp_path / "idle.crgame")
    members = roster(300)
    with GameStore.open(path) as store:
        store.save_roster(members)
        store.log.append(played_game(members, 36_000))
    parsed, answers = [], []
    loads, update = snapshot_json.loads, GameStore.update_saved_fold

    def counted_loads(*args, **kwargs):
        parsed.append(1)
        return loads(*args, **kwargs)

    def update_often(self, min_advance=10_000, **kwargs):      # 1,000 events past it: worth keeping again
        answers.append(update(self, 1_000, **kwargs))
        return answers[-1]

    monkeypatch.setattr(snapshot_json, "loads", counted_loads)
    monkeypatch.setattr(GameStore, "update_saved_fold", update_often)
    ct, _first = _open(qtbot, path)
    try:
        qtbot.waitUntil(lambda: len(answers) >= 5, timeout=30_000)
        assert not any(answers) and not parsed              # kept at opening (4,000 events), then left alone
        with GameStore.open(path, create=False) as store:
            assert store.saved_point()["rows"] == 4_000
        stored = []
        ct.events_stored.connect(stored.append)
        for i in range(1_200):
            ct.submit("note", {"text": f"note {i}"}, "gm")
        qtbot.waitUntil(lambda: bool(stored) and stored[-1] == 37_200, timeout=30_000)

        def left_alone() -> bool:            # kept again, then asked three times more
            return any(answers) and len(answers) - 1 - max(i for i, a in enumerate(answers) if a) >= 3

        qtbot.waitUntil(left_alone, timeout=30_000)
        # Kept again once 1,000 events or more past it (maybe while the notes were stored), the kept one read
        # once each time to fold on from it; then left alone again.
        assert any(answers) and len(parsed) == sum(answers) and not any(answers[-3:])
        with GameStore.open(path, create=False) as store:
            assert 37_200 - 32_000 - 1_000 < store.saved_point()["rows"] <= 37_200 - 32_000
            assert store.meta(FOLD_POINT_KEY) == store.meta(FOLD_SNAPSHOT_KEY).partition("\n")[0]
    finally:
        assert ct.shutdown()
