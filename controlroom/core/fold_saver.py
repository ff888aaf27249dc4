"""The upkeep of the fold snapshot kept with the game, for the core worker (which owns one ``FoldSaver``).

The snapshot (``store.fold_kept``) lets the next opening fold only the end of
the log.  It is first stored ``FOLD_SAVE_DELAY_MS`` after opening (the window
has painted the game by then), from the fold the game was opened with, then
brought up to date every ``FOLD_SAVE_EVERY_MS`` (``update_saved_fold``: a game
that has not moved on costs only a few counts), each time in a thread of its
own, on the store's own connections: the worker goes on folding meanwhile.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QObject, Qt, QTimer, Slot

from controlroom.game.fold import Fold
from controlroom.store.game import GameStore

log = logging.getLogger(__name__)

FOLD_SAVE_DELAY_MS = 10_000
FOLD_SAVE_EVERY_MS = 300_000
JOIN_TIMEOUT_S = 10.0


class FoldSaver(QObject):
    """Keeps the game's fold snapshot with it, now and then, in a thread of its own (made in the worker's thread)."""

    def __init__(self, store: GameStore, first: Fold | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._first = first             # the fold the game opened with: stored first, if it is new
        self._saving: Fold | None = None  # that fold, while its snapshot is being kept
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._held = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.CoarseTimer)
        self._timer.timeout.connect(self._save)

    def start(self) -> None:
        self._timer.start(FOLD_SAVE_DELAY_MS)

    def hold(self) -> None:
        """No new snapshot from now on (the worker is stopping); one being kept goes on until ``stop``."""
        self._held = True

    @Slot()
    def _save(self) -> None:
        """Keep the game's fold with it (in a thread of its own): the next opening folds only the end of the log."""
        if self._held or self.store.fold_unkeepable:
            return
        self._timer.start(FOLD_SAVE_EVERY_MS)
        if self._thread is not None and self._thread.is_alive():
            return
        store, first, cancel = self.store, self._first, self._cancel
        self._first, self._saving = None, first

        def work() -> None:
            try:
                if first is not None:
                    store.save_fold(first)
                store.update_saved_fold(cancelled=cancel.is_set)
            except Exception:           # a snapshot not kept costs only time at the next opening
                if not cancel.is_set():
                    log.exception("keeping the fold snapshot of %s", store.where)
            finally:
                self._saving = None

        self._thread = threading.Thread(target=work, name="controlroom-fold-snapshot", daemon=True)
        self._thread.start()

    def lets_go_of(self, fold: Fold) -> bool:
        """Whether ``fold`` (one a refold replaced) may be emptied now: not while its snapshot is being kept; one
        not begun yet is not kept at all (it would not hold for the game's new roster anyway)."""
        if self._first is fold:
            self._first = None
        return self._saving is not fold

    def stop(self) -> None:
        """No more snapshots; one being kept is cancelled and waited for (before the store is closed)."""
        self._held = True
        self._timer.stop()
        self._cancel.set()
        if self._thread is not None:
            self._thread.join(JOIN_TIMEOUT_S)
            if self._thread.is_alive():
                log.error("the fold snapshot thread did not end in time")
