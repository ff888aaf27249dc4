"""A one-line label that fits its text to its room: again when it is resized and when its font changes.

The status bar's clocks, side counts and message and the alarm rows' texts
each choose what to show for the width they have (a name cut, a shorter
notation, an ellipsis); large text changes the font, and the same width then
holds fewer letters, so the text is fitted again then too.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel


class FittedLabel(QLabel):
    """Subclasses say in ``_fit`` what the label shows for its present width and font (a class without
    one is refused when it is defined)."""

    _fit: Callable[[], None]

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if not callable(getattr(cls, "_fit", None)):
            raise TypeError(f"{cls.__name__} is a FittedLabel without _fit: say what it shows for its room")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:      # large text: the same room holds fewer letters
            self.updateGeometry()
            self._fit()
