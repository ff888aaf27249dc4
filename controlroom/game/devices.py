"""Radio devices and how an event came by radio: vocabulary shared by the radio and the store."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

ROLES = ("marshal", "tracker", "gateway")
# The boards hardware/firmware/boards.py knows: each one's chip, and the roles it can play (a handset and a
# tracker need the T-Beam's GPS; a marshal's keypad is wired to its header).  A test keeps it equal to the
# firmware's boards.check_role.
BOARDS = {
    "tbeam-v1.1-sx1276": ("esp32", ROLES),
    "tbeam-v1.1-sx1262": ("esp32", ROLES),
    "heltec-v2": ("esp32", ("gateway",)),
    "heltec-v3": ("esp32s3", ("gateway",)),
}
DEFAULT_BOARD = "tbeam-v1.1-sx1276"
# The radio plan a device file gets unless told otherwise: 40 devices each sending every 2 minutes at SF9
# over EU868's three default channels (about 95 % delivered, 0.2 % duty cycle).
RADIO_DEFAULTS = {"region": "EU868", "sub_band": "g1", "freq": 868.1, "sf": 9, "bw": 125.0, "cr": 1,
                  "interval": 120, "devices": 40, "channels": 3}
# The domain a key's fingerprint is hashed in: the firmware's config.fingerprint computes the same.
FINGERPRINT_DOMAIN = b"controlroom/key-fingerprint"


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
    tak_uid: str | None = None             # the TAK phone it is, by the uid its CoT carries ("ANDROID-..."), if one
    tak_callsign: str | None = None        # ... or by the callsign set in ATAK, if registered that way
    board: str | None = None               # the board it runs on (BOARDS); None: not said (or a Meshtastic node)

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
# A report from a phone's form (the web view, controlroom.web): an invite's token, not a device's key.
VIA_WEB = "web"
WEAKER_TRUST = frozenset({VIA_MESH_CHANNEL})
# A TAK phone's position report (Cursor-on-Target from ATAK, iTAK, WinTAK): anyone on the TAK network could
# send it under that uid or callsign.  Shown on the map and in the radio panel, never used by the rules.
VIA_TAK = "tak"
NOT_AUTHENTICATED = frozenset({VIA_TAK})


def key_fingerprint(key: bytes) -> str:
    """A short public name of a device key ("A1B2-C3D4-E5F6"), as the board shows it: which key, not the key."""
    text = hashlib.sha256(FINGERPRINT_DOMAIN + bytes(key)).digest()[:6].hex().upper()
    return f"{text[0:4]}-{text[4:8]}-{text[8:12]}"


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
