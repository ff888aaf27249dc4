"""The Qt side of the web view: a CoreThread's facts forwarded into the web server's thread-safe hub.

The same facts the window gets (``loaded``, ``delta_published``, alarms,
STOPPs, deaths, devices), each only handed to ``web.hub.Hub.put`` (a list
append and a wake of the web server's loop: nothing of the page is made in
this thread); the phones' commands go to the core with ``CoreThread.send``,
their answers come back as ``report_answered``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot

from controlroom.web.hub import Hub


class WebFeed(QObject):
    """Connects ``core`` (a CoreThread) to ``hub``; lives in the thread that made the CoreThread."""

    def __init__(self, core, hub: Hub, parent: QObject | None = None) -> None:
        super().__init__(parent if parent is not None else core)
        self.hub = hub
        hub.send = core.send
        core.opened.connect(self._opened)
        core.loaded.connect(self._delta)
        core.delta_published.connect(self._delta)
        core.alarm_raised.connect(self._alarm)
        core.stopp_called.connect(self._stopp)
        core.characters_died.connect(self._died)
        core.devices_known.connect(self._devices)
        core.report_answered.connect(self._answer)
        if getattr(core, "info", None) is not None:          # opened before the feed was made
            hub.put("opened", core.info)

    @Slot(object)
    def _opened(self, info) -> None:
        self.hub.put("opened", info)

    @Slot(object)
    def _delta(self, delta) -> None:
        self.hub.put("delta", delta)

    @Slot(object)
    def _alarm(self, alarm) -> None:
        self.hub.put("alarm", alarm)

    @Slot(object)
    def _stopp(self, sv) -> None:
        self.hub.put("stopp", sv)

    @Slot(object)
    def _died(self, views) -> None:
        self.hub.put("died", views)

    @Slot(object)
    def _devices(self, devices) -> None:
        self.hub.put("devices", devices)

    @Slot(object)
    def _answer(self, answer) -> None:
        self.hub.put("answer", answer)


def serve_web(station, options) -> tuple:
    """Start the web view of a ``core.wiring.Station`` (``web.station.WebOptions``): (server, feed).

    ``web.server.WebError`` (in words) when it cannot listen or its certificate cannot be used.
    """
    from controlroom.web.station import web_server

    server = web_server(station.core.db, options)
    feed = WebFeed(station.core, server.hub)
    try:
        server.start()
    except BaseException:
        server.stop(1.0)
        raise
    return server, feed
