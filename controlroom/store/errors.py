"""Storage errors, said in words a game master understands."""

from __future__ import annotations

import os


class StoreError(Exception):
    """The game file cannot be opened or written; the message says why and what to do."""


class SchemaTooNew(StoreError):
    """The game file was written by a newer controlroom."""


def explain(exc: BaseException, where: str, path: str | None = None) -> str:
    """A sentence for a database error (disk full, read-only, locked, missing folder...).

    ``path`` is the SQLite file, when there is one: SQLite says only "unable to
    open" when a write-ahead log cannot be created on a read-only disk.
    """
    text = str(getattr(exc, "orig", None) or exc).lower()
    if path and "unable to open" in text and os.path.exists(path) and not os.access(os.path.dirname(path) or ".", os.W_OK):
        text = "readonly"
    if "disk is full" in text or "database or disk is full" in text or "no space" in text:
        return (f"the disk holding {where} is full. Free some space (or move the game to another "
                "disk); nothing already stored is lost and the events not yet stored are kept for a retry.")
    if "readonly" in text or "read-only" in text:
        return (f"{where} is read-only. Copy it to a folder you can write to, or check the USB stick's "
                "write-protect switch; nothing already stored is lost.")
    if "unable to open" in text:
        return f"cannot open {where}: check that the folder exists and can be written to."
    if "locked" in text or "busy" in text:
        return f"{where} is locked by another program; close it and try again."
    if "not a database" in text or "malformed" in text:
        return f"{where} is not a controlroom game file (or it is damaged)."
    if "could not connect" in text or "connection refused" in text or "connection" in text and "failed" in text:
        return f"cannot reach the database server for {where}: check the address and that the server runs."
    return f"{where}: {exc.__class__.__name__}: {getattr(exc, 'orig', None) or exc}"
