"""A game file other users of this computer can read: said when it opens, with the offer to make it private."""

from __future__ import annotations

import os

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from controlroom.paths import PRIVATE_MODE


def offer_privacy(parent: QWidget, info) -> QMessageBox | None:
    """When the opened game (GameInfo) can be read by others: a question, and the files made private on Yes."""
    if not getattr(info, "exposed", ()):
        return None
    title = QCoreApplication.translate("privacy", "The game file can be read by others")
    text = QCoreApplication.translate(
        "privacy", "Other users of this computer can read {files}. It holds every radio device's key: anyone who "
                   "reads it can send reports in a marshal's name.\n\nMake it readable by you alone?")
    box = QMessageBox(QMessageBox.Icon.Warning, title, text.format(files="\n".join(info.exposed)),
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.button(QMessageBox.StandardButton.Yes).setText(QCoreApplication.translate("privacy", "Make it private"))
    box.button(QMessageBox.StandardButton.No).setText(QCoreApplication.translate("privacy", "Leave it"))
    box.setDefaultButton(QMessageBox.StandardButton.Yes)

    def answered(button) -> None:
        if box.standardButton(button) != QMessageBox.StandardButton.Yes:
            return
        for path in info.exposed:
            try:
                os.chmod(path, PRIVATE_MODE)
            except OSError as exc:
                failed = QCoreApplication.translate("privacy", "{path} could not be made private: {error}")
                QMessageBox.warning(parent, QCoreApplication.translate("privacy", "The game file"),
                                    failed.format(path=path, error=exc.strerror or exc))
                return

    box.buttonClicked.connect(answered)
    box.open()
    return box
