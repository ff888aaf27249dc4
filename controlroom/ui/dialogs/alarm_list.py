"""Every alarm not yet acknowledged, opened from the alarm strip's "+N more".

The strip shows three rows; when more wait, the game master opens this list
to see them all, most urgent first, each with the strip's own button:
safety (and storage) rows are acknowledged one by one, the other classes
a class at a time.  The list follows the strip while it is open.
"""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from controlroom.ui.panels.alarms import AlarmBanner, AlarmRow


class AlarmListDialog(QDialog):
    """All the rows of ``banner``'s board; a click on a row's button acknowledges through the banner."""

    def __init__(self, banner: AlarmBanner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.banner = banner
        self.setWindowTitle(self.tr("All alarms"))
        self.rows: dict[str, AlarmRow] = {}
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        body = QWidget()
        self._rows_layout = QVBoxLayout(body)
        self._rows_layout.setContentsMargins(0, 0, 0, 0)
        self._rows_layout.setSpacing(1)
        self._rows_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        banner.changed.connect(self.refresh)
        self.refresh()
        screen = self.screen().availableGeometry()
        self.resize(min(900, int(screen.width() * 0.8)), min(500, int(screen.height() * 0.7)))

    @Slot()
    def refresh(self) -> None:
        """The banner's rows as they are now: new ones added, acknowledged ones gone, counts updated."""
        states = self.banner.board.rows()
        keys = [s.key for s in states]
        for key in [k for k in self.rows if k not in keys]:
            row = self.rows.pop(key)
            self._rows_layout.removeWidget(row)
            row.deleteLater()
        for i, state in enumerate(states):
            row = self.rows.get(state.key)
            if row is None:
                row = self.rows[state.key] = AlarmRow(state)
                row.button.clicked.connect(lambda _=False, k=state.key: self.banner.acknowledge(k))
            elif row.state != state:
                row.set_state(state)
            self._rows_layout.insertWidget(i, row)
        self.summary.setText(self.tr("%n alarm(s) not acknowledged, the most urgent first.", "", len(states))
                             if states else self.tr("No alarm is waiting."))

    def shown_rows(self) -> list[AlarmRow]:
        """The rows in the order shown."""
        return [self.rows[s.key] for s in self.banner.board.rows() if s.key in self.rows]
