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
