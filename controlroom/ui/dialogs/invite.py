"""Game, Invite staff…: a link to the live web view for one person, with its QR code to scan from the screen."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTime
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTimeEdit,
    QVBoxLayout,
    QWidget,
)

from controlroom.web.invites import ROLES, invite_to_game, parse_address, qr_png

ERROR_STYLE = "color: #c9302c;"


class InviteDialog(QDialog):
    """Role, name, badge and expiry in; the link and its QR code out (the game keeps only the token's hash)."""

    def __init__(self, db: str, address: str = "", https: bool = False, fingerprint: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Invite staff to the web view"))
        self.db, self.https, self.fingerprint = db, https, fingerprint
        self.card = None
        self.role = QComboBox(self)
        names = {"viewer": self.tr("viewer: sees the battle"),
                 "safety": self.tr("safety: sees and acknowledges safety alarms"),
                 "valhalla": self.tr("Valhalla gate: checks the dead in"),
                 "marshal": self.tr("marshal: reports as a handset does")}
        for role in ROLES:
            self.role.addItem(names[role], role)
        self.name = QLineEdit(self)
        self.name.setMaxLength(40)
        self.name.setPlaceholderText(self.tr("who it is for"))
        self.badge = QSpinBox(self)
        self.badge.setRange(0, 9_999_999)
        self.badge.setSpecialValueText(self.tr("none"))
        self.expires_on = QCheckBox(self.tr("until"), self)
        self.expires = QTimeEdit(QTime.currentTime().addSecs(4 * 3600), self)
        self.expires.setDisplayFormat("HH:mm")
        self.address = QLineEdit(address or "127.0.0.1:8080", self)
        self.address.setToolTip(self.tr("Where phones reach this laptop's web view (its address on the tent's "
                                        "Wi-Fi and the port given to --web)"))
        form = QFormLayout()
        form.addRow(self.tr("Role"), self.role)
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Badge"), self.badge)
        form.addRow(self.expires_on, self.expires)
        form.addRow(self.tr("Address"), self.address)
        self.error = QLabel(self)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setWordWrap(True)
        self.qr = QLabel(self)
        self.url = QLabel(self)
        self.url.setWordWrap(True)
        self.url.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.invite_button = self.buttons.addButton(self.tr("&Invite"), QDialogButtonBox.ButtonRole.ActionRole)
        self.invite_button.clicked.connect(self.invite)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.qr)
        layout.addWidget(self.url)
        layout.addWidget(self.buttons)

    def invite(self) -> bool:
        """Store the invite and show its link and QR code; False (and why, in the dialog) when it cannot be."""
        self.error.clear()
        name = self.name.text().strip()
        if not name:
            self.error.setText(self.tr("Give the name of the person invited."))
            return False
        try:
            address = parse_address(self.address.text())
        except ValueError as exc:
            self.error.setText(str(exc))
            return False
        expires = None
        if self.expires_on.isChecked():
            from controlroom.web.invites import parse_expires

            expires = parse_expires(self.expires.time().toString("HH:mm"))
        try:
            self.card = invite_to_game(self.db, name, self.role.currentData(), badge=self.badge.value() or None,
                                       expires=expires, address=address, https=self.https,
                                       fingerprint=self.fingerprint)
        except Exception as exc:       # a StoreError: in words
            self.error.setText(str(exc))
            return False
        pixmap = QPixmap()
        pixmap.loadFromData(qr_png(self.card.url, scale=6), "PNG")
        self.qr.setPixmap(pixmap)
        text = self.card.url
        if self.fingerprint:
            text += "\n" + self.tr("Certificate (SHA-256): {fp}").format(fp=self.fingerprint)
        self.url.setText(text)
        return True
