"""What the report and the GIS export both read of a stored game besides its fold: who carries each
device (the events with their wall times: ``EventLog.timed_events``)."""

from __future__ import annotations

from controlroom.game.devices import DeviceInfo


def marshal_names(devs: dict[int, DeviceInfo]) -> dict[int, str]:
    """What names each radio device, by device id: who carries a handset (the marshal's name, else the
    device's label); what a tracker is on (its siege engine or group, else its label).  Names of the game's
    own, never words of a language: the report says "marshal handset", "tracker" in its language
    (``model.reporter``)."""
    out = {}
    for d in devs.values():
        name = (d.marshal or d.label) if d.role != "tracker" else (d.siege_engine or d.group or d.label)
        if name:
            out[d.id] = name
    return out
