"""The kinds of radio links by the port's URL: which link a station opens for ``meshtastic:...``, ``cot-udp://...``,
``/dev/ttyUSB0``...

A new transport is one module implementing ``radio.link.Link`` and one line
in ``LINK_KINDS``.  The ``meshtastic`` package is imported only when a
Meshtastic link starts (``radio.meshtastic_link``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controlroom.radio import cot_udp, meshtastic_link, ports, transport
from controlroom.radio.link import HeardQueue, Link

__all__ = ["LINK_KINDS", "LinkKind", "check_url", "kind_of", "open_link"]


@dataclass(frozen=True, slots=True)
class LinkKind:
    """A kind of link: which URLs it takes, how it checks one, how it opens one."""

    name: str
    takes: Callable[[str], bool]
    check: Callable[[str], None]                         # ValueError naming what is wrong
    open: Callable[..., Link]                            # (url, queue, **options) -> Link


#: The kinds of links, first match wins: the serial gateway takes what no other takes.
LINK_KINDS: tuple[LinkKind, ...] = (
    LinkKind("meshtastic", meshtastic_link.is_meshtastic_url, meshtastic_link.check_url, meshtastic_link.open_node),
    LinkKind("TAK listener", cot_udp.is_cot_udp_url, cot_udp.check_url, cot_udp.open_listener),
    LinkKind("serial gateway", lambda url: True, ports.check_serial_url, transport.open_gateway),
)


def kind_of(url: str) -> LinkKind:
    if not isinstance(url, str) or not url.strip():
        raise ValueError(f"a gateway port is a device (/dev/ttyUSB0, COM5) or a URL, not {url!r}")
    for kind in LINK_KINDS:
        if kind.takes(url):
            return kind
    raise ValueError(f"no kind of link takes {url!r}")        # (the serial gateway takes every URL)


def check_url(url: str) -> None:
    """Refuse, with ValueError, a port no link could ever open (before any thread starts)."""
    kind_of(url).check(url)


def open_link(url: str, queue: HeardQueue, **options: Any) -> Link:
    """The link for ``url`` (not started), putting what it hears into ``queue``."""
    return kind_of(url).open(url, queue, **options)
