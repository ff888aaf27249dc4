"""Radio devices and how an event came by radio: vocabulary shared by the radio and the store."""

from __future__ import annotations

from dataclasses import dataclass, field

ROLES = ("marshal", "tracker", "gateway")


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """A registered device.  Its key is never shown: not in repr, logs, reports or the window."""

    id: int
    role: str
    label: str = ""
    group: str | None = None
    siege_engine: str | None = None
    marshal: str | None = None
    key: bytes = field(default=b"", repr=False)
    meshtastic: str | None = None          # the stock Meshtastic node it is ("!a1b2c3d4"), if one

    @property
    def node_num(self) -> int | None:
        """The Meshtastic node number, or None."""
        return None if self.meshtastic is None else int(self.meshtastic[1:], 16)

    @property
    def source(self) -> str:
        """How events from this device name their source."""
        return f"{self.role}:{self.id}"


@dataclass(frozen=True, slots=True)
class RadioMeta:
    """How an event came by radio: the device and its frame counter, signal, and who heard it."""

    device: int
    counter: int
    rssi: float | None = None
    snr: float | None = None
    gateways: tuple[str, ...] = ()
    via: str | None = None                 # None: our own frame, authenticated by the device's key; else VIA_*
    # Each gateway's copy: "gateway:rssi:snr" joined by commas (empty where a gateway gave no figure); None
    # when not known (a Meshtastic packet, a frame stored before schema 10).  What the coverage layer reads.
    signals: str | None = None


# How a report came, when not as our own frame (its trust): a Meshtastic direct message encrypted
# to the station's node with the sender's key (PKI, firmware 2.5+), or a message on a channel,
# which anyone holding the channel's key could have written in the sender's name.
VIA_MESH_PKI = "meshtastic/pki"
VIA_MESH_CHANNEL = "meshtastic/channel"
WEAKER_TRUST = frozenset({VIA_MESH_CHANNEL})


def node_id(text: str | int) -> str:
    """A Meshtastic node id in its usual spelling ``!a1b2c3d4``, from that, 8 hex digits, or the node number.

    Raises ValueError naming what is wrong.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        num = text
    else:
        raw = str(text).strip().lower()
        body = raw[1:] if raw.startswith("!") else raw
        if raw.startswith("!") or (len(body) == 8 and all(c in "0123456789abcdef" for c in body)):
            if len(body) != 8 or not all(c in "0123456789abcdef" for c in body):
                raise ValueError(f"a Meshtastic node id is '!' and 8 hex digits, e.g. !a1b2c3d4, not {text!r}")
            num = int(body, 16)
        elif body.isdigit():
            num = int(body)
        else:
            raise ValueError(f"a Meshtastic node id is '!' and 8 hex digits, e.g. !a1b2c3d4, not {text!r}")
    if not 1 <= num < 0xFFFFFFFF:
        raise ValueError(f"{text!r} is not a Meshtastic node (node numbers run from 1 to 0xfffffffe)")
    return f"!{num:08x}"
