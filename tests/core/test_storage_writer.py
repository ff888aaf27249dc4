"""The storage thread's writer: a long local queue is delivered a part at a time, so that a take-over of the
timers posted meanwhile reads the log before the rest (the game day's station waited 11 s for its queue)."""

import pytest
from PySide6.QtCore import Q_ARG, QMetaObject, Qt

from controlroom.core import storage
from controlroom.core.storage import StorageWriter
from controlroom.engine.batching import Pending
from controlroom.game.events import make_event
from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.spool import Spool


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """``kept(n)``: a writer on a real game file whose local queue holds n notes (tokens 1..n), delivered 100 at
    a time; its store, queue and writer closed after the test."""
    monkeypatch.setattr(storage, "DELIVER_PART", 100)
    opened = []

    def make(n):
        store = GameStore.open(str(tmp_path / "game.crgame"))
        spool = Spool(tmp_path / "game.queue")
        spool.put([(make_event(1_000 + i, "note", "gm", text=f"kept {i}"), None) for i in range(n)], [None] * n,
                  tokens=list(range(1, n + 1)))
        writer = StorageWriter(store, 0, spool)
        writer.writer.spooled = len(spool)
        opened.append((store, writer))
        return store, spool, writer

    yield make
    for store, writer in opened:
        writer.writer.close()
        store.close()


def test_a_take_over_is_read_between_the_parts_of_a_long_queue(qtbot, kept):
    store, spool, writer = kept(250)
    said = []
    writer.delivered.connect(lambda c: said.append(("delivered", len(c.delivered))))
    writer.caught_up.connect(lambda epoch: said.append(("caught_up", epoch)))
    writer.committed.connect(lambda batch_id, c: said.append(("committed", len(c.delivered), len(c.logged))))
    writer.queued.connect(lambda n: said.append(("queued", n)))
    deliver = writer.writer.deliver_queue

    def deliver_while_the_lock_is_taken(limit=None):
        if not said:        # the worker's take-over comes while the first part is delivered (a queued signal)
            QMetaObject.invokeMethod(writer, "take_over", Qt.ConnectionType.QueuedConnection, Q_ARG(int, 7))
        return deliver(limit)

    writer.writer.deliver_queue = deliver_while_the_lock_is_taken
    writer.append(1, [Pending(make_event(5_000, "note", "gm", text="new"))])     # the first part, at once
    qtbot.waitUntil(lambda: any(s[0] == "committed" for s in said), timeout=5_000)
    assert said == [("queued", 150), ("delivered", 100), ("caught_up", 7), ("queued", 50), ("delivered", 100),
                    ("queued", 0), ("committed", 50, 1)]
    texts = [e.data["text"] for _seq, e in store.log.events()]
    assert texts == [f"kept {i}" for i in range(250)] + ["new"] and len(spool) == 0     # in order, once


def test_a_queue_left_alone_is_delivered_in_parts_and_handed_over(qtbot, kept):
    """No batch waits (the station is quiet after an outage): the retry delivers the queue a part at a time, and
    every part's events come back to be folded."""
    _store, spool, writer = kept(150)
    parts = []
    writer.delivered.connect(lambda c: parts.append([tok for _s, tok in c.delivered]))
    writer._retry()
    qtbot.waitUntil(lambda: sum(map(len, parts)) == 150, timeout=5_000)
    assert [len(p) for p in parts] == [100, 50] and parts[0][0] == 1 and parts[1][-1] == 150
    assert len(spool) == 0 and writer.writer.spooled == 0


def test_the_first_part_after_a_restart_is_tried_once_more(qtbot, kept):
    """The first delivery after the server's restart meets the connection the restart ended: the part is tried
    again at once, and the queue still goes in parts (on the game day it went in one go, 7,493 events)."""
    _store, _spool, writer = kept(150)
    deliver, calls = writer.writer.deliver_queue, []

    def ended_connection_first(limit=None):
        calls.append(limit)
        if len(calls) == 1:
            raise StoreError("server closed the connection unexpectedly")
        return deliver(limit)

    writer.writer.deliver_queue = ended_connection_first
    parts = []
    writer.delivered.connect(lambda c: parts.append(len(c.delivered)))
    writer.append(1, [Pending(make_event(5_000, "note", "gm", text="new"))])
    qtbot.waitUntil(lambda: not writer.writer.spooled and writer._batch is None, timeout=5_000)
    assert calls[:3] == [100, 100, None] and parts[0] == 100
