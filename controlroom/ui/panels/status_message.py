"""The status bar's last message to the game master (the main window's ``status``)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QPoint, QRect, Qt, QThread
from PySide6.QtWidgets import QSizePolicy, QToolTip

from controlroom.ui.panels.fitted import FittedLabel

log = logging.getLogger(__name__)


class StatusMessage(FittedLabel):
    """The status bar's message: cut at the window's edge with an ellipsis (whole in its tooltip and in
    ``text()``), no room taken when empty.

    It never makes the window wider than the screen: it takes the room the
    clocks and the side counts leave (on a laptop in large text, none: the
    side counts come first).  With less room than ``ROOM_LETTERS`` letters, a
    new message also pops up over the status bar for ``POPUP_MS`` (a marker
    clicked, "Nothing to undo"), so that it is read on such a screen too.
    """

    ROOM_LETTERS = 8
    POPUP_MS = 6000

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._fit()
        self.updateGeometry()
        self._pop_up()

    def _pop_up(self) -> None:
        """The message over the status bar, when the bar has (almost) no room for it."""
        bar = self.parentWidget()
        if QThread.currentThread() != self.thread():    # a widget is made in the GUI thread only
            log.warning("a status message set outside the window's thread: %s", self._full)
            return
        if (not self._full or bar is None or not self.isVisible()
                or self.contentsRect().width() >= self.ROOM_LETTERS * self.fontMetrics().averageCharWidth()):
            return
        where = bar.mapToGlobal(QPoint(0, -2 * self.fontMetrics().height()))
        QToolTip.showText(where, self._full, bar, QRect(), self.POPUP_MS)

    def text(self) -> str:
        """The whole message, however much of it fits."""
        return self._full

    def shown(self) -> str:
        """What the label shows: the message, cut with an ellipsis where the room ends."""
        return super().text()

    def _fit(self) -> None:
        width = self.contentsRect().width()
        shown = self._full
        if width > 0 and self.fontMetrics().horizontalAdvance(shown) > width:
            shown = self.fontMetrics().elidedText(shown, Qt.TextElideMode.ElideRight, width)
        if shown != super().text():
            super().setText(shown)

    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(min(80, hint.width()) if self._full else 0)
        return hint
