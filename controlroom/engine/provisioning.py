"""Provisioning a device: its file made from the game, written with the firmware to a board, the board's word kept.

``device_file`` is the provisioning file the firmware boots from (the
device's id, role, board, key and the game's radio plan, checked against the
region's rules first); ``provision`` writes it and the firmware to the board
on a port (``radio.board``) and keeps what became of it in the game
(``store.device_setup``): "provisioned" with the firmware version and key
fingerprint the board itself read back, or "failed" and why.  The device file
is made in memory and goes to the board only: no key file is left on the
laptop's disk.  The CLI (``devices provision``) and the Devices desk (a core
job) both call ``provision``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from controlroom.game.devices import BOARDS as BOARD_CHIPS
from controlroom.game.devices import DEFAULT_BOARD, RADIO_DEFAULTS, DeviceInfo, key_fingerprint
from controlroom.i18n import translate
from controlroom.radio.board import BoardError, Confirmation, provision_board
from controlroom.radio.slim import slim
from controlroom.store.device_setup import FAILED, PROVISIONED, next_unprovisioned, record_provisioning
from controlroom.store.devices import devices
from controlroom.store.game import GameStore

US915_MHZ = (902.0, 928.0)
FIRMWARE_ENV = "CONTROLROOM_FIRMWARE"


class ProvisionError(ValueError):
    """A device that cannot be provisioned as asked (unknown, a Meshtastic node, a radio plan that breaks a rule)."""


class Provisioned(NamedTuple):
    """What became of one provisioning: the board's confirmation, or why it failed (kept in the game either way)."""

    device: int
    port: str
    ok: bool
    detail: str
    confirmation: Confirmation | None = None


def check_frequency(region: str, sub_band: str, freq: float, bw_khz: float) -> list[str]:
    """Why ``freq`` (the channel's centre, MHz) is not allowed, or nothing: the whole
    signal must lie inside the EU868 sub-band or the US915 band."""
    from controlroom.sim.plan import EU868_SUB_BANDS

    half = bw_khz / 2000
    if region.strip().upper() == "EU868":
        band = EU868_SUB_BANDS.get(str(sub_band).strip().lower())
        if band is None:
            return []                      # the planner names the unknown sub-band
        low, high, where = band.low_mhz, band.high_mhz, f"EU868 sub-band {band.name}"
    else:
        (low, high), where = US915_MHZ, "the US915 band"
    if not low + half - 1e-9 <= freq <= high - half + 1e-9:
        return [f"{freq:g} MHz with {bw_khz:g} kHz bandwidth does not fit in {where} ({low}-{high} MHz): "
                f"use {low + half:g} to {high - half:g} MHz"]
    return []


def device_file(dev: DeviceInfo, board: str, plan: dict | None = None) -> dict:
    """The provisioning file of ``dev`` on ``board`` with the radio ``plan`` (RADIO_DEFAULTS' keys); ProvisionError
    naming every rule the plan breaks (duty cycle, band edges, dwell time, collisions)."""
    from controlroom.sim.plan import plan as airtime_plan

    r = {**RADIO_DEFAULTS, **(plan or {})}
    p = airtime_plan(devices=r["devices"], interval_s=r["interval"], payload_bytes=31 if dev.role == "marshal" else 21,
                     sf=r["sf"], bw_khz=r["bw"], cr=r["cr"], region=r["region"], channels=r["channels"],
                     sub_band=r["sub_band"] if r["region"] == "EU868" else None)
    problems = check_frequency(r["region"], r["sub_band"], r["freq"], r["bw"]) + list(p.warnings)
    if problems:
        raise ProvisionError(translate("errors", "the radio plan will not work, so no device file was written:")
                             + "\n  " + "\n  ".join(problems))
    return {
        "format": "controlroom-device/1",
        "device": dev.id, "role": dev.role, "label": dev.label,
        "group": dev.group, "siege_engine": dev.siege_engine, "board": board,
        "key": dev.key.hex(),
        "radio": {"region": p.region, "sub_band": p.sub_band, "freq": r["freq"], "sf": r["sf"],
                  "bw": int(r["bw"]) if r["bw"] == int(r["bw"]) else r["bw"], "cr": r["cr"] + 4,
                  "interval": r["interval"], "channels": r["channels"]},
    }


def firmware_dir() -> Path:
    """Where the firmware's files are: $CONTROLROOM_FIRMWARE, the checkout's hardware/firmware, or the package's."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (os.environ.get(FIRMWARE_ENV), here.parent / "hardware" / "firmware", here / "resources"
                      / "firmware"):
        if candidate and (Path(candidate) / "main.py").is_file():
            return Path(candidate)
    raise ProvisionError(translate("errors", "the firmware's files are not here (hardware/firmware of the "
                                             "controlroom source): set {env} to their folder").format(env=FIRMWARE_ENV))


def firmware_files(slimmed: bool = True) -> dict[str, bytes]:
    """The files every board gets: the firmware and the app's own codec as codec.py (hardware/README.md);
    ``slimmed``: without comments and docstrings, as a board is sent them (``radio.slim``)."""
    folder = firmware_dir()
    files = {p.name: p.read_bytes() for p in sorted(folder.glob("*.py"))}
    files["codec.py"] = (Path(__file__).resolve().parent.parent / "radio" / "codec.py").read_bytes()
    return {name: slim(data) for name, data in files.items()} if slimmed else files


def provision(store: GameStore, device_id: int | None, port: str, plan: dict | None = None,
              progress: Callable[[int, int], object] | None = None) -> Provisioned:
    """Provision device ``device_id`` (None: the next one not provisioned) on the board at ``port``.

    A board that fails is kept in the game as "failed" with why (ok False);
    a device that cannot be provisioned at all raises ProvisionError.
    """
    if device_id is None:
        device_id = next_unprovisioned(store)
        if device_id is None:
            raise ProvisionError(translate("errors", "every device with a board is provisioned already"))
    dev = devices(store).get(device_id)
    if dev is None:
        raise ProvisionError(translate("errors", "no device {device} in this game (see: controlroom devices list)")
                             .format(device=device_id))
    if dev.meshtastic:
        raise ProvisionError(translate("errors", "device {device} is Meshtastic node {node}: it runs its own "
                                                 "firmware, there is nothing to provision").format(
            device=dev.id, node=dev.meshtastic))
    board = dev.board or DEFAULT_BOARD
    text = json.dumps(device_file(dev, board, plan), indent=1).encode()
    try:
        confirmed = provision_board(port, firmware_files(), text, BOARD_CHIPS[board][0], progress)
    except BoardError as exc:
        record_provisioning(store, dev.id, FAILED, detail=str(exc), port=port)
        return Provisioned(dev.id, port, False, str(exc))
    finally:
        del text                         # the key leaves memory with it; it was never on the disk
    if confirmed.device != dev.id or confirmed.fingerprint != key_fingerprint(dev.key):
        why = translate("errors", "the board read back device {other} with key {fingerprint}, not what was written: "
                                  "provision it again").format(other=confirmed.device,
                                                               fingerprint=confirmed.fingerprint)
        record_provisioning(store, dev.id, FAILED, detail=why, port=port)
        return Provisioned(dev.id, port, False, why, confirmed)
    record_provisioning(store, dev.id, PROVISIONED, confirmed.firmware, confirmed.fingerprint, port=port)
    return Provisioned(dev.id, port, True, "", confirmed)
