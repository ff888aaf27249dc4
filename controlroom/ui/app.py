"""The one place that wires the application together: the station (core and gateways) and the window."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication

from controlroom.core.station import Station
from controlroom.geo.frame import MapFrame
from controlroom.logs import setup_logging
from controlroom.ui.games import remember_game
from controlroom.ui.main_window import MainWindow

log = logging.getLogger(__name__)


def application() -> QApplication:
    QCoreApplication.setOrganizationName("controlroom")
    QCoreApplication.setApplicationName("controlroom")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    setup_logging("window")
    return app


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
) -> int:
    """Open a game in the window, with its gateways and its map; returns when the window is closed.

    The map and the gateway ports are kept with the game: given here, they
    are stored; not given, the game's own are used.  ``origin`` (deprecated)
    only centres the drawing frame of a game without a map.
    """
    app = application()
    station = Station(str(db), list(ports) if ports else None, speed=speed, remember_ports=remember_ports)
    core = station.core
    window = MainWindow(core, MapFrame(*origin) if origin else None, title or Path(str(db)).stem, valhalla)
    if map_image is not None:
        window.open_map_file(str(map_image))
    else:
        core.opened.connect(window.show_kept_map)          # the map kept with the game, once it is open
    if night:
        window.night_action.setChecked(True)
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
    station.shutdown()
    return code
