"""Something to do once a widget has painted for the first time (the window says when its map is on screen)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class AfterFirstPaint(QObject):
    """Calls ``then`` once ``widget`` has painted (after its next paint event is handled), then leaves it."""

    def __init__(self, widget: QWidget, then) -> None:
        super().__init__(widget)
        self._then = then
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint and self._then is not None:
            then, self._then = self._then, None

            def done() -> None:                     # after this paint: the filter sees it before it is done
                obj.removeEventFilter(self)         # (not while Qt walks the widget's filters)
                then()

            QTimer.singleShot(0, done)
        return False
