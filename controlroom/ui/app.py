"""The one place that wires the application together: the station (core and gateways) and the window."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication

from controlroom import pacing
from controlroom.core.wiring import Station
from controlroom.engine.commands import Acknowledge, CallStopp, EndScenario, LiftStopp, StartScenario
from controlroom.geo.frame import MapFrame
from controlroom.logs import setup_logging
from controlroom.ui.collector import MainThreadCollector
from controlroom.ui.desks.common import wire_desk
from controlroom.ui.dialogs.games import remember_game
from controlroom.ui.dialogs.privacy import offer_privacy
from controlroom.ui.language import start_language
from controlroom.ui.main_window import MainWindow
from controlroom.ui.qt_messages import install as quiet_qt_messages

log = logging.getLogger(__name__)


def application() -> QApplication:
    QCoreApplication.setOrganizationName("controlroom")
    QCoreApplication.setApplicationName("controlroom")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    if app.findChild(MainThreadCollector) is None:
        MainThreadCollector(app)     # garbage holding widgets is destroyed in the GUI thread only
    setup_logging("window")
    quiet_qt_messages()              # the screenless platform's expected messages kept off the console
    start_language(app)              # the window's words in the language spoken (Estonian: window_et.qm)
    return app


SWITCH_INTERVAL = pacing.SWITCH_INTERVAL


def share_the_interpreter() -> None:
    """Let the GUI thread take the GIL back sooner from the core's threads.

    Qt paints and lays out in C++ with the GIL released, and calls back into
    Python (pyqtgraph's items, the models' ``data()``) many times in one paint;
    each time, while the core, storage and gateway threads run Python, the GUI
    thread waited up to Python's 5 ms switch interval for the GIL.  A paint of
    17 ms of work took 166 ms (bench_map).  At 0.5 ms the GUI latency's p99
    was lower in each of two paired runs on the same machine (160 vs 184 ms,
    106 vs 186 ms, while other work loaded the machine); the core's threads
    lose only the cost of more frequent switches.
    """
    pacing.short_switches()
    pacing.share_with_this_thread()         # and long background work rests now and then (pacing.py)


#: How long a core's opening waits for the window's first paint of the game before completing its fold (s).
WINDOW_PAINT_WAIT_S = 1.0


def build_window(core, projection: MapFrame | None = None, title: str = "",
                 valhalla: tuple[float, float] | None = None) -> MainWindow:
    """The control room window on ``core`` (a CoreThread), wired to it."""
    share_the_interpreter()
    app = QApplication.instance()
    if app is not None and app.findChild(MainThreadCollector) is None:
        MainThreadCollector(app)     # (a window made on an application of its own: a test's, a benchmark's)
    window = MainWindow(core, projection, title, valhalla)
    wire(core, window)
    return window


def wire(core, window: MainWindow) -> None:
    """Every connection between the core and the window, in one place.

    The core's facts go to the window's slots (the map, the panels, the
    alarms, the desks); the panels' commands go to the core's command
    signals.  Across threads Qt queues each call to the receiver's thread.
    """
    core.devices_known.connect(window.layers.set_devices)
    core.loaded.connect(window.apply_delta)
    if hasattr(core, "wait_for_window") and not core.thread.isRunning():
        core.wait_for_window(WINDOW_PAINT_WAIT_S)      # the opening's last part waits for the first paint
    core.delta_published.connect(window.apply_delta)
    alarms = window.panels.alarms
    core.alarm_raised.connect(alarms.add_alarm)
    core.characters_died.connect(window.death_alarms)
    alarms.acknowledged.connect(lambda alarm: core.send(Acknowledge(alarm)))
    controls = window.panels.panels["controls"]
    controls.scenario_start.connect(lambda name, respawn, time_s: core.send(StartScenario(name, respawn, time_s)))
    controls.scenario_end.connect(lambda: core.send(EndScenario()))
    controls.stopp_call.connect(lambda reason: core.send(CallStopp(reason)))
    controls.stopp_lift.connect(lambda stopp, trivial: core.send(LiftStopp(stopp, trivial)))
    controls.manual_entry.connect(window.entries.note_entry)          # first: Ctrl+Z knows it as this window's
    controls.manual_entry.connect(lambda type_, fields: core.submit(type_, fields, "gm"))
    core.opened.connect(lambda info: controls.set_profile(info.profile))
    core.opened.connect(lambda info: setattr(window, "privacy_question", offer_privacy(window, info)))
    wire_desks(core, window.desk_switch)
    for name, desk in window.desk_switch.desks.items():
        if name != "map" and hasattr(desk, "entry"):
            desk.entry.connect(window.entries.note_entry)


def wire_desks(core, switch) -> None:
    """Each desk reads the core's deltas and sends its entries to the core (the Devices desk attaches itself)."""
    for name, desk in switch.desks.items():
        if hasattr(desk, "attach"):
            desk.attach(core)
        elif name != "map":
            wire_desk(desk, core)


def run_window(
    db: str,
    ports: list[str],
    *,
    title: str = "",
    map_image: str | Path | None = None,
    origin: tuple[float, float] | None = None,
    valhalla: tuple[float, float] | None = None,
    speed: float | None = None,
    quit_after: float | None = None,
    screenshot: str | None = None,
    night: bool = False,
    desk: str = "map",
    before_start=None,
    remember_ports: bool = True,
    web=None,
    tak: list[str] | None = None,
    tak_tls: tuple[str | None, str | None, str | None] = (None, None, None),
) -> int:
    """Open a game in the window, with its gateways and its map; returns when the window is closed.

    The map and the gateway ports are kept with the game: given here, they
    are stored; not given, the game's own are used.  ``tak``: TAK servers
    and clients the battle is sent to (docs/tak.md).  ``origin`` (deprecated)
    only centres the drawing frame of a game without a map.  ``web`` (``web.station.WebOptions``) serves
    the live web view for field staff, in a thread of its own.
    """
    app = application()
    station = Station(str(db), list(ports) if ports else None, speed=speed, remember_ports=remember_ports,
                      tak=list(tak or ()), tak_tls=tak_tls)
    core = station.core
    window = build_window(core, MapFrame(*origin) if origin else None, title or Path(str(db)).stem, valhalla)
    if map_image is not None:
        window.maps.open_map_file(str(map_image))
    else:
        core.opened.connect(window.maps.show_kept_map)          # the map kept with the game, once it is open
    if night:
        window.night_action.setChecked(True)
    server = None
    if web is not None:
        from controlroom.core.web_feed import serve_web

        server, _feed = serve_web(station, web)        # OSError/ValueError: said by the caller
        window.web_address = f"{server.scheme}://{server.host}:{server.port}"
        window.web_https = server.ssl is not None
        if web.cert is not None:
            from controlroom.web.tls import fingerprint

            window.web_fingerprint = fingerprint(web.cert)
    if before_start is not None:
        before_start(core, window)
    remember_game(str(db))
    window.show()
    window.desk_switch.show_desk(desk)          # after show(): a desk hides the docks the map layout shows

    def finish() -> None:
        if screenshot:
            window.grab().save(screenshot)
        window.close()

    if quit_after is not None:
        QTimer.singleShot(int(quit_after * 1000), finish)
    station.start()
    code = app.exec()
    if server is not None:
        server.stop(1.0)
    station.shutdown()
    return code
