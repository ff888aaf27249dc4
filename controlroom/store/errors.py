"""Storage errors, said in words a game master understands."""

from __future__ import annotations

import os

from controlroom.i18n import translate


class StoreError(Exception):
    """The game file cannot be opened or written; the message says why and what to do."""


class SchemaTooNew(StoreError):  # noqa: N818 - a StoreError named for its case
    """The game file was written by a newer controlroom."""


class ServerUnreachable(StoreError):  # noqa: N818 - a StoreError named for its case
    """The database server cannot be reached (stopped, restarting, or the network is down)."""


# What psycopg and the server say when the connection, not the statement, failed.
_UNREACHABLE = (
    "could not connect", "connection refused", "connection failed", "server closed the connection",
    "terminating connection", "the database system is shutting down", "the database system is starting up",
    "the database system is in recovery", "connection is closed", "consuming input failed",
    "connection timeout", "timeout expired", "no route to host", "network is unreachable",
    "connection reset", "ssl syscall", "could not receive data", "could not send data", "connection is lost",
)


# What psycopg says when the server's certificate cannot be trusted (sslmode=verify-ca/verify-full), or TLS is
# asked of a server that does not offer it: no retry helps, the address or the certificate must change.
_TLS = ("certificate verify failed", "root certificate file", "server certificate for", "does not match host name",
        "server does not support ssl", "certificate has expired", "ssl error: tlsv1 alert", "sslmode value")


def tls_problem(exc: BaseException) -> bool:
    text = str(getattr(exc, "orig", None) or exc).lower()
    return any(s in text for s in _TLS)


def unreachable(exc: BaseException) -> bool:
    """Whether a database error means the server is gone (worth retrying later), not a bad statement."""
    if getattr(exc, "connection_invalidated", False):
        return True
    if tls_problem(exc):
        return False
    text = str(getattr(exc, "orig", None) or exc).lower()
    return any(s in text for s in _UNREACHABLE)


def error_for(exc: BaseException, where: str, path: str | None = None) -> StoreError:
    """The StoreError (ServerUnreachable when the server is gone) for a database error."""
    cls = ServerUnreachable if path is None and unreachable(exc) else StoreError
    return cls(explain(exc, where, path))


def explain(exc: BaseException, where: str, path: str | None = None) -> str:
    """A sentence for a database error (disk full, read-only, locked, missing folder...).

    ``path`` is the SQLite file, when there is one: SQLite says only "unable to
    open" when a write-ahead log cannot be created on a read-only disk.
    """
    text = str(getattr(exc, "orig", None) or exc).lower()
    if (path and "unable to open" in text and os.path.exists(path)
            and not os.access(os.path.dirname(path) or ".", os.W_OK)):
        text = "readonly"
    if "disk is full" in text or "database or disk is full" in text or "no space" in text:
        said = translate("store", "the disk holding {where} is full. Free some space (or move the game to another "
                                  "disk); nothing already stored is lost and the events not yet stored are kept "
                                  "for a retry.")
    elif "readonly" in text or "read-only" in text:
        said = translate("store", "{where} is read-only. Copy it to a folder you can write to, or check the USB "
                                  "stick's write-protect switch; nothing already stored is lost.")
    elif "unable to open" in text:
        said = translate("store", "cannot open {where}: check that the folder exists and can be written to.")
    elif "locked" in text or "busy" in text:
        said = translate("store", "{where} is locked by another program; close it and try again.")
    elif "not a database" in text or "malformed" in text:
        said = translate("store", "{where} is not a controlroom game file (or it is damaged).")
    elif "password authentication failed" in text or "no pg_hba.conf entry" in text:
        said = translate("store", "the database server refused the user name or password for {where}: check the "
                                  "user and password in the address (postgresql+psycopg://USER:PASSWORD@HOST/GAME).")
    elif "database" in text and "does not exist" in text:
        said = translate("store", "{where} does not exist on the server: ask its administrator to create it "
                                  "(createdb GAME), then open it again.")
    elif path is None and tls_problem(exc):
        detail = str(getattr(exc, "orig", None) or exc).splitlines()[0].rsplit(" failed: ", 1)[-1]
        return translate("store", "the database server of {where} cannot be trusted or does not speak TLS as the "
                                  "address asks ({detail}). Give the server's certificate authority with "
                                  "sslrootcert=FILE in the address, check the server's name (verify-full checks "
                                  "it), or ask its administrator.").format(where=where, detail=detail)
    elif path is None and unreachable(exc):
        said = translate("store", "cannot reach the database server for {where}: check the network cable or "
                                  "Wi-Fi, the address, and that the server runs. Radio reports keep arriving and "
                                  "are kept on this laptop until the server is back.")
    else:
        return f"{where}: {exc.__class__.__name__}: {getattr(exc, 'orig', None) or exc}"
    return said.format(where=where)
