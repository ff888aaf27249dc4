"""SideSummaryBar: one compact line per side: active, unconscious, knocked out, dead."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from controlroom.game.views import StateDelta


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
