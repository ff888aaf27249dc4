"""``controlroom-window``: the window started without a console (Windows' pythonw), its errors shown in a dialog."""

from __future__ import annotations

import io
import sys


class _Tee(io.StringIO):
    """Keeps what is written and passes it on to the stream there is (none under pythonw)."""

    def __init__(self, stream) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        if self.stream is not None:
            self.stream.write(text)
        return super().write(text)


def show_error(text: str) -> None:
    """The error in a dialog: without a console, a message printed would be seen by nobody."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    from controlroom.i18n import translate

    app = QApplication.instance() or QApplication(sys.argv[:1])
    # (the language's catalogue of the command line: the window's translator is not installed yet)
    QMessageBox.critical(None, translate("gui", "controlroom could not start"), text.strip())
    del app


def main(argv: list[str] | None = None) -> int:
    """Run ``controlroom`` (the window, or any command) and show what went wrong in a dialog."""
    from controlroom.cli import main as cli_main

    stderr, stdout = sys.stderr, sys.stdout
    errors = _Tee(stderr)
    sys.stderr = errors
    if stdout is None:
        sys.stdout = io.StringIO()
    try:
        code = cli_main(argv)
    except SystemExit as exc:           # argparse: a bad command line (2), or --help and --version (0)
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.stderr, sys.stdout = stderr, stdout
    if code and errors.getvalue().strip():
        show_error(errors.getvalue())
    return code


if __name__ == "__main__":
    sys.exit(main())
