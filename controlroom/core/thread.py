"""CoreThread: the core worker in its own QThread, with every command wired as a queued signal."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QThread, Signal

from controlroom.core.worker import CoreWorker
from controlroom.game.clock import Clock

_Q = Qt.ConnectionType.QueuedConnection


class CoreThread(QObject):
    """Owns the thread; the window and the radio talk to the worker only through these signals.

    The worker's signals are mirrored here, delivered in the thread that made
    the CoreThread (the GUI thread): readers connect to these, never to the
    worker itself.
    """

    loaded = Signal(object)
    delta_published = Signal(object)
    stopp_called = Signal(object)
    character_died = Signal(object)
    alarm_raised = Signal(object)
    events_stored = Signal(int)
    timers_changed = Signal(str)          # owner, standby, alone (a game file), offline (server gone)
    input_rejected = Signal(str)
    stopped = Signal()

    submit_requested = Signal(str, object, str)
    radio_event_requested = Signal(str, object, str, object)
    scenario_start_requested = Signal(str, bool, float)
    scenario_end_requested = Signal()
    global_stopp_requested = Signal(str)
    stopp_lift_requested = Signal(str, bool)
    acknowledge_requested = Signal(str)
    retract_requested = Signal(int, str)
    poll_requested = Signal()
    stop_requested = Signal()
    frame_heard = Signal(int, object, object, object)     # gateway, rssi, snr, frame bytes
    frames_heard = Signal(object)                          # [(gateway, rssi, snr, frame bytes), ...]
    line_rejected = Signal(str, str)                       # gateway id (or link name), reason
    link_changed = Signal(str, str, str)                   # link, state, detail
    ack_ready = Signal(int, str)
    devices_known = Signal(object)

    def __init__(self, db: str, clock: Clock | None = None, parent: QObject | None = None, **worker_options) -> None:
        super().__init__(parent)
        self.thread = QThread()
        self.thread.setObjectName("controlroom-core")
        self.worker = CoreWorker(db, clock, **worker_options)
        self.worker.moveToThread(self.thread)
        self.thread.started.connect(self.worker.start)
        # quit() is thread-safe: called directly, it does not wait for the (blocked) main thread.
        self.worker.stopped.connect(self.thread.quit, Qt.ConnectionType.DirectConnection)
        w = self.worker
        for signal, slot in (
            (self.submit_requested, w.submit),
            (self.radio_event_requested, w.submit_radio),
            (self.scenario_start_requested, w.start_scenario),
            (self.scenario_end_requested, w.end_scenario),
            (self.global_stopp_requested, w.call_global_stopp),
            (self.stopp_lift_requested, w.lift_stopp),
            (self.acknowledge_requested, w.acknowledge),
            (self.retract_requested, w.retract),
            (self.poll_requested, w.poll),
            (self.stop_requested, w.stop),
            (self.frame_heard, w.frame_received),
            (self.frames_heard, w.frames_received),
            (self.line_rejected, w.line_rejected),
            (self.link_changed, w.link_changed),
        ):
            signal.connect(slot, _Q)
        for name in ("loaded", "delta_published", "stopp_called", "character_died", "alarm_raised",
                     "events_stored", "timers_changed", "input_rejected", "stopped", "ack_ready", "devices_known"):
            getattr(w, name).connect(getattr(self, name), _Q)

    def start(self) -> None:
        self.thread.start()

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Ask the worker to store everything and stop; wait for the thread to end."""
        if not self.thread.isRunning():
            return True
        self.stop_requested.emit()
        return self.thread.wait(timeout_ms)
