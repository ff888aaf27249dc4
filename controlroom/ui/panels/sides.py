"""The sides' counts: SideSummaryBar (replay: one line per side) and SideCountsLabel (the main window)."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from controlroom.game.views import StateDelta
from controlroom.ui.panels.fitted import FittedLabel


class SideSummaryBar(QWidget):
    """Counts per side from each delta's ``sides`` (a status-bar widget)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.labels: dict[str, QLabel] = {}
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addStretch(1)

    def side_text(self, side: str, c: dict[str, int]) -> str:
        return self.tr("{side}: {active} active \u00b7 {unconscious} unconscious \u00b7 "
                       "{knocked_out} knocked out \u00b7 {dead} dead").format(
            side=side, active=c.get("active", 0), unconscious=c.get("unconscious", 0),
            knocked_out=c.get("knocked_out", 0), dead=c.get("dead", 0))

    def apply_delta(self, delta: StateDelta) -> None:
        for side, counts in delta.sides.items():
            label = self.labels.get(side)
            if label is None:
                label = self.labels[side] = QLabel(self)
                self._layout.insertWidget(self._layout.count() - 1, label)
            label.setText(self.side_text(side, counts))
        for side, label in self.labels.items():
            label.setVisible(side in delta.sides)


class SideCountsLabel(FittedLabel):
    """The main window's side counts in the status bar, in the words that fit its width.

    In words ("Free Cities: 99 up, 2 down, 0 dead") when there is room; else
    in the map's short notation ("Free Cities 99↑ 2↓ 0†", as the group labels
    and the legend read); else with the sides' names cut ("Free. 99↑ 2↓ 0†");
    else that, cut at a side's end with "…".  Every side's counts in words
    are always in the tooltip.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("side_counts")
        # It gives up room before the clocks do, and never makes the window wider than the screen.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.counts: dict[str, tuple[int, int, int]] = {}       # side -> (up, down, dead)
        self.long = self.short = self.shortest = ""
        self._parts: list[str] = []

    def set_sides(self, sides: dict[str, dict[str, int]]) -> None:
        """The counts of each side (a delta's ``sides``): active, unconscious or knocked out, dead."""
        counts = {s: (c.get("active", 0), c.get("unconscious", 0) + c.get("knocked_out", 0), c.get("dead", 0))
                  for s, c in sides.items()}
        if counts == self.counts:
            return
        self.counts = counts
        words = [self.tr("{side}: {active} up, {down} down, {dead} dead").format(
            side=s, active=a, down=d, dead=x) for s, (a, d, x) in counts.items()]
        short = self.tr("{side} {active}\u2191 {down}\u2193 {dead}\u2020")
        parts = [short.format(side=s, active=a, down=d, dead=x) for s, (a, d, x) in counts.items()]
        self._parts = [short.format(side=s if len(s) <= 5 else s[:4].rstrip() + ".", active=a, down=d, dead=x)
                       for s, (a, d, x) in counts.items()]
        self.long, self.short, self.shortest = "   ".join(words), "  ".join(parts), "  ".join(self._parts)
        self.setToolTip("\n".join(words))
        self.updateGeometry()
        self._fit()

    def sizeHint(self):
        hint = super().sizeHint()
        hint.setWidth(self.fontMetrics().horizontalAdvance(self.long) + 2 * self.margin() + 4)
        return hint

    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(min(self.fontMetrics().horizontalAdvance(self.shortest) + 4,
                          8 * self.fontMetrics().averageCharWidth()))
        return hint


    def _fit(self) -> None:
        fm, room = self.fontMetrics(), self.width() - 2 * self.margin() - 2
        if fm.horizontalAdvance(self.long) <= room:
            text = self.long
        elif fm.horizontalAdvance(self.short) <= room:
            text = self.short
        elif fm.horizontalAdvance(self.shortest) <= room:
            text = self.shortest
        else:                   # whole sides while they fit, then "…" (the tooltip has them all)
            text = "\u2026"
            for n in range(len(self._parts), 0, -1):
                candidate = "  ".join(self._parts[:n]) + "  \u2026"
                if fm.horizontalAdvance(candidate) <= room:
                    text = candidate
                    break
        if text != self.text():
            self.setText(text)
