"""MapLegend: the sides' colours and what each symbol of the map means, in a corner of the map."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from controlroom.ui.theme import MIN_GRAPHIC_CONTRAST, contrast

# symbol, colour, what it is (translated when shown).  Each reads at 3:1 or better on the night
# background (WCAG's figure for graphics), as on the day one: the dead are purple, not a dark red lost at night.
SYMBOLS = (
    ("\u25b2", "#fdd835", "marshal"),
    ("\u25c6", "#7f7f7f", "tracker"),
    ("\u25a0", "#8d6e63", "siege engine"),
    ("\u2605", "#e53935", "STOPP"),
    ("\u2715", "#e65100", "down"),
    ("\u2715", "#ab47bc", "dead"),
    ("\u2b22", "#9e9e9e", "Valhalla"),
)


# The legend's background by day and at night (opaque: the symbols' contrast is on it).
DAY_BACKGROUND = "#ffffff"
NIGHT_BACKGROUND = "#141414"
NIGHT_TEXT = "#e6e6e6"
#: A symbol too light for the day background (the marshals' yellow) is drawn on a dark chip, as the map
#: draws it with a dark outline.
CHIP = "#424242"
DOT = "\u25cf"         # a side's colour


def mark(symbol: str, colour: str, background: str) -> str:
    """``symbol`` in ``colour``, on a dark chip when it would not read at 3:1 on ``background``."""
    if contrast(colour, background) >= MIN_GRAPHIC_CONTRAST:
        return f'<span style="color:{colour}">{symbol}</span>'
    return f'<span style="background-color:{CHIP}; color:{colour}">{symbol}</span>'


class MapLegend(QLabel):
    """Sides in their colours, the map's symbols, and how a group's label reads; updated as sides appear."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("map_legend")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.sides: dict[str, str] = {}
        self.night = False
        self._words = {
            "marshal": self.tr("marshal"), "tracker": self.tr("tracker"), "siege engine": self.tr("siege engine"),
            "STOPP": self.tr("STOPP"), "down": self.tr("down"), "dead": self.tr("dead"),
            "Valhalla": self.tr("Valhalla"),
        }
        self._render()

    def set_sides(self, sides: dict[str, str]) -> None:
        """The sides and their colours (side -> '#rrggbb')."""
        if sides != self.sides:
            self.sides = dict(sides)
            self._render()

    def set_night(self, on: bool) -> None:
        self.night = bool(on)
        self._render()

    def _render(self) -> None:
        text_colour, background = (NIGHT_TEXT, NIGHT_BACKGROUND) if self.night else ("#000000", DAY_BACKGROUND)
        self.setStyleSheet(f"QLabel#map_legend {{ color: {text_colour}; background: {background}; "
                           "border-radius: 4px; padding: 4px; }")
        ground = NIGHT_BACKGROUND if self.night else DAY_BACKGROUND
        sides = "<br>".join(f'{mark(DOT, c, ground)} {html.escape(s)}' for s, c in self.sides.items())
        cells = [f'{mark(sym, c, ground)}&nbsp;{html.escape(self._words[w])}' for sym, c, w in SYMBOLS]
        half = (len(cells) + 1) // 2
        symbols = "<br>".join(cells[:half]), "<br>".join(cells[half:])
        how = html.escape(self.tr("Group: name up\u2191 down\u2193 dead\u2020"))
        title = html.escape(self.tr("Sides"))
        sides = sides or html.escape(self.tr("(none yet)"))
        self.setText(f"<table cellspacing=0 cellpadding=1><tr><td colspan=3><b>{title}</b></td></tr>"
                     f"<tr><td valign=top>{sides}</td>"
                     f"<td valign=top>&nbsp;&nbsp;{symbols[0]}</td><td valign=top>&nbsp;&nbsp;{symbols[1]}</td></tr>"
                     f"<tr><td colspan=3><i>{how}</i></td></tr></table>")
        self.adjustSize()
