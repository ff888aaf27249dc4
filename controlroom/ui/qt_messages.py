"""Qt's own messages: the screenless platforms' expected ones dropped, every other one to the log and to stderr.

On the offscreen platform (a server with no display, the tests, ``quickstart.py
run`` without a screen) Qt says "This plugin does not support
propagateSizeHints()" for each window and dock, and the like for raise() and
grabbing the keyboard: the platform has no screen to do these things on, and
nothing is wrong.  They buried a newcomer's first run in noise (issue 37).
Every other message goes on as before (stderr, or the handler that was there,
such as pytest-qt's) and into the log file as well.
"""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QGuiApplication

log = logging.getLogger("qt")

#: The platforms without a screen, whose missing window functions are no news.
SCREENLESS = frozenset({"offscreen", "minimal"})
#: How those messages begin (qplatformwindow.cpp: propagateSizeHints(), raise(), lower(), grabbing the keyboard
#: or the mouse, window opacity, setParent).
EXPECTED = ("This plugin does not support ",)

LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}

_installed = False
_previous = None


def expected(message: str, platform: str | None = None) -> bool:
    """Whether ``message`` is one the screenless platform says as a matter of course."""
    platform = QGuiApplication.platformName() if platform is None else platform
    return platform in SCREENLESS and message.startswith(EXPECTED)


def handle(mode, context, message: str) -> None:
    """The message handler: the expected messages dropped (kept in the log at debug level), the rest passed on."""
    if expected(message):
        log.debug("%s", message)
        return
    if log.hasHandlers():           # (without one, logging's last resort would print it to stderr a second time)
        log.log(LEVELS.get(mode, logging.WARNING), "%s", message)
    if _previous is not None:
        _previous(mode, context, message)
        return
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):       # no stderr (pythonw), or closed at exit
        pass


def install() -> bool:
    """Install the handler, once per process; True when this call installed it."""
    global _installed, _previous
    if _installed:
        return False
    _previous = qInstallMessageHandler(handle)
    _installed = True
    return True
