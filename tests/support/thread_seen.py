"""Which thread ran a window's slot: a slot wrapped, decorated as the original, that notes its thread.

A job's signal connected to a method of a widget must run that method in the widget's (GUI) thread.
Whether PySide6 queues it there depends on how the method is found (2e1b87f: methods of a mixin ran in
the jobs' thread), so the tests watch the real method, wrapped with the same Slot signature.
"""

import functools
import threading

from PySide6.QtCore import Slot


def watch_thread(monkeypatch, cls, name: str, *types) -> list[str]:
    """Wrap cls.name as a Slot(*types); returns the list the wrapper appends its thread's name to."""
    seen: list[str] = []
    original = getattr(cls, name)

    @functools.wraps(original)
    def watched(self, *args):
        seen.append(threading.current_thread().name)
        return original(self, *args)

    monkeypatch.setattr(cls, name, Slot(*types)(watched))
    return seen


def gui_thread() -> str:
    return threading.main_thread().name
