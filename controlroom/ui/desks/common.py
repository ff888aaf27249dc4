"""What the desks share: big fonts, badge numbers and the wiring to the core."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QWidget

from controlroom.game.views import CharacterView
from controlroom.rules.profile import default_profile
from controlroom.ui.panels.words import CONDITIONS, word

DESKS = ("map", "valhalla", "weapons", "devices")
ERROR_STYLE = "color: #c9302c;"
OK_STYLE = "color: #2d7d2d;"
PENDING_STYLE = "color: #8a6d00;"


def bigger(widget: QWidget, factor: float, bold: bool = False) -> QWidget:
    """Scale a widget's font (a desk is read from a step away)."""
    font = QFont(widget.font())
    size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    font.setPointSizeF(size * factor)
    font.setBold(bold)
    widget.setFont(font)
    return widget


def verdict_area(parent: QWidget, label: QLabel, lines: int) -> QScrollArea:
    """A verdict label in a box ``lines`` high: a longer verdict scrolls, the fields around it never move."""
    area = QScrollArea(parent)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    area.setWidget(label)
    area.setFixedHeight(QFontMetrics(label.font()).lineSpacing() * lines + 4)
    return area


def say(label: QLabel, text: str, style: str = "") -> None:
    label.setText(text)
    label.setStyleSheet(style)


def parse_badge(text: str) -> int | None:
    """A badge number typed at a desk (spaces allowed around it), or None."""
    text = text.strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def describe(widget: QWidget, c: CharacterView) -> str:
    """One line about a character: name, badge, side, group, class, condition and deaths."""
    return QCoreApplication.translate("desks", "{name} (badge {badge}) \u00b7 {side} / {group} \u00b7 {cls} \u00b7 "
                     "{condition} \u00b7 {deaths} deaths").format(name=c.name, badge=c.badge, side=c.side,
                                                                group=c.group, cls=c.cls, deaths=c.deaths,
                                                                condition=word(CONDITIONS, c.condition))


def wire_desk(desk, core) -> None:
    """A desk reads the core's deltas (and the game's ruleset) and sends its entries as events through the core."""
    if hasattr(desk, "set_profile"):
        core.loaded.connect(lambda _delta: desk.set_profile(game_profile(core)))
    core.loaded.connect(desk.apply_delta)
    core.delta_published.connect(desk.apply_delta)
    desk.entry.connect(lambda type_, fields: core.submit(type_, fields, desk.SOURCE))


def game_profile(core):
    """The open game's ruleset (immutable; known once the core has opened the game), or the bundled one."""
    return core.info.profile if core.info is not None else default_profile()


def game_clock(core) -> Callable[[], int]:
    """The game's time now, as the core last said it and the clock has run since."""
    return core.game_time
