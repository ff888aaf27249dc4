"""Day and night colours: the night palette, and the coloured texts made readable on it.

Every text must be read in a dark tent with a contrast of at least 4.5:1
(WCAG AA): the night palette is chosen so, and the few colours the panels
and desks give their messages (errors red, success green, notes grey) are
swapped for lighter ones of the same meaning while night mode is on.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

#: Night colours of the palette (role -> colour); disabled texts are dimmer but still readable.
NIGHT_PALETTE = {
    QPalette.ColorRole.Window: "#1e1e1e",
    QPalette.ColorRole.WindowText: "#d0d0d0",
    QPalette.ColorRole.Base: "#151515",
    QPalette.ColorRole.AlternateBase: "#222222",
    QPalette.ColorRole.Text: "#d0d0d0",
    QPalette.ColorRole.PlaceholderText: "#9a9a9a",
    QPalette.ColorRole.Button: "#2a2a2a",
    QPalette.ColorRole.ButtonText: "#d0d0d0",
    QPalette.ColorRole.Highlight: "#8b0000",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.ToolTipBase: "#2a2a2a",
    QPalette.ColorRole.ToolTipText: "#e0e0e0",
    QPalette.ColorRole.Link: "#8ab4f8",
    QPalette.ColorRole.BrightText: "#ffffff",
    QPalette.ColorRole.Light: "#3a3a3a",
    QPalette.ColorRole.Midlight: "#303030",
    QPalette.ColorRole.Mid: "#444444",
    QPalette.ColorRole.Dark: "#101010",
    QPalette.ColorRole.Shadow: "#000000",
}
NIGHT_DISABLED_TEXT = "#8a8a8a"

#: The pairs of roles text is drawn with (text on background): each must reach MIN_CONTRAST.
TEXT_PAIRS = (
    (QPalette.ColorRole.WindowText, QPalette.ColorRole.Window),
    (QPalette.ColorRole.Text, QPalette.ColorRole.Base),
    (QPalette.ColorRole.Text, QPalette.ColorRole.AlternateBase),
    (QPalette.ColorRole.PlaceholderText, QPalette.ColorRole.Base),
    (QPalette.ColorRole.ButtonText, QPalette.ColorRole.Button),
    (QPalette.ColorRole.HighlightedText, QPalette.ColorRole.Highlight),
    (QPalette.ColorRole.ToolTipText, QPalette.ColorRole.ToolTipBase),
    (QPalette.ColorRole.Link, QPalette.ColorRole.Base),
)
MIN_CONTRAST = 4.5
#: Graphics (the map's symbols, the sides' colours in the legend) against what they are drawn on: WCAG 2.1's 3:1.
MIN_GRAPHIC_CONTRAST = 3.0

#: Message colours by day (on a light window) and their night twins (on the dark one).
DAY_TO_NIGHT = {
    "#c9302c": "#ff8a80",     # an error
    "#c62828": "#ff8a80",     # the timer owner offline
    "#2d7d2d": "#81c784",     # done, passed
    "#555555": "#b8b8b8",     # a note
    "#8a6d00": "#ffd54f",     # pending
    "#d9534f": "#ff8a80",     # the radio's alarm text
}


def night_palette() -> QPalette:
    p = QPalette()
    for role, colour in NIGHT_PALETTE.items():
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(NIGHT_DISABLED_TEXT))
    return p


def luminance(colour: QColor) -> float:
    """Relative luminance (WCAG 2): 0 for black, 1 for white."""
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def contrast(a: QColor | str, b: QColor | str) -> float:
    """The WCAG contrast ratio of two colours, from 1 to 21."""
    la, lb = sorted((luminance(QColor(a)), luminance(QColor(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_TEXT_COLOUR = re.compile(r"(?<![-\w])(color\s*:\s*)(#[0-9a-fA-F]{6})")
_NIGHT_TO_DAY = {}
for _day, _night in DAY_TO_NIGHT.items():
    _NIGHT_TO_DAY.setdefault(_night, _day)


def night_style(style: str, night: bool) -> str:
    """A style sheet with its text colours swapped for night (or back for day); backgrounds stay as they are."""
    table = DAY_TO_NIGHT if night else _NIGHT_TO_DAY
    return _TEXT_COLOUR.sub(lambda m: m.group(1) + table.get(m.group(2).lower(), m.group(2)), style)


class Theme(QObject):
    """Day or night for the whole application, including styles widgets set later (an event filter, at night).

    The filter sees every event of the application, each a call into Python
    that must take the GIL from the core's threads: it is installed only at
    night, when a style set later needs its night colours (by day the styles
    set are already the day's).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.night = False

    def set_night(self, on: bool) -> None:
        app = QApplication.instance()
        if bool(on) != self.night:
            if on:
                app.installEventFilter(self)
            else:
                app.removeEventFilter(self)
        self.night = bool(on)
        app.setPalette(night_palette() if on else app.style().standardPalette())
        for widget in app.allWidgets():
            self._recolour(widget)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.StyleChange and self.night and isinstance(watched, QWidget):
            self._recolour(watched)
        return False

    def _recolour(self, widget: QWidget) -> None:
        style = widget.styleSheet()
        if style:
            changed = night_style(style, self.night)
            if changed != style:
                widget.setStyleSheet(changed)
