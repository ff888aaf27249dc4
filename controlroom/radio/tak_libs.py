"""PyTAK and takproto, the TAK ecosystem's own Python libraries, imported only when a TAK link or file is made.

They are the ``tak`` extra (``pip install 'controlroom[tak]'``).  PyTAK warns
at import that aiohttp (its WebSocket and enrolment transports) is missing:
controlroom uses neither, so that warning is not passed on.
"""

from __future__ import annotations

import logging
import warnings
from types import ModuleType

__all__ = ["TakUnavailableError", "available", "pytak", "takproto"]

INSTALL = "pip install 'controlroom[tak]'"


class TakUnavailableError(RuntimeError):
    """PyTAK or takproto is not installed."""


def _load() -> tuple[ModuleType, ModuleType]:
    try:
        with warnings.catch_warnings():
            # Optional transports of PyTAK's that controlroom does not use (WebSockets, enrolment, Marti).
            warnings.filterwarnings("ignore", message=r"The '(aiohttp|cryptography)' package is required",
                                    category=UserWarning)
            import pytak as _pytak
            import takproto as _takproto
    except ImportError as exc:
        raise TakUnavailableError(f"TAK needs PyTAK and takproto ({exc.name} is missing): {INSTALL}") from None
    # PyTAK's workers log each queue warning to stderr through a handler of their own; the station logs its own.
    logging.getLogger("pytak.classes").setLevel(logging.ERROR)
    return _pytak, _takproto


def pytak() -> ModuleType:
    return _load()[0]


def takproto() -> ModuleType:
    return _load()[1]


def available() -> str:
    """"" when the libraries can be imported, else why not (with how to install them)."""
    try:
        _load()
    except TakUnavailableError as exc:
        return str(exc)
    return ""
