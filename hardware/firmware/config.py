"""The device's provisioning file, written by ``controlroom keys export`` (portable).

It is copied to the device as /device.json (see hardware/README.md).
``load(text) -> dict`` checks it and returns the settings the firmware uses:
device, role, key (16 bytes), board, and radio: region, freq (MHz), sf,
bw (kHz), cr (5..8), interval (s), power (dBm).  Errors raise ConfigError
with a sentence the screen or the serial console can show.
"""

import json

FORMAT = "controlroom-device/1"
ROLES = ("marshal", "tracker", "gateway")
DEFAULT_BOARD = "tbeam-v1.1-sx1276"
# Transmit power when the file names none: EU868 g1 allows 25 mW ERP (14 dBm).
DEFAULT_POWER = {"EU868": 14, "US915": 20}
PATH = "device.json"
# A key's fingerprint is a hash of it in this domain: the station and the board both show it, the key never.
FINGERPRINT_DOMAIN = b"controlroom/key-fingerprint"


class ConfigError(Exception):
    """The provisioning file is missing or wrong."""


def _need(data, key, kind):
    value = data.get(key)
    if kind is float and type(value) is int:
        value = float(value)
    if type(value) is not kind:
        raise ConfigError("device file: %s is missing or not a %s" % (key, kind.__name__))
    return value


def load(text):
    """Provisioning JSON text -> settings dict (ConfigError when it is wrong)."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ConfigError("device file is not JSON")
    if type(data) is not dict or data.get("format") != FORMAT:
        raise ConfigError("device file is not a %s file" % FORMAT)
    device = _need(data, "device", int)
    if not 1 <= device <= 65534:
        raise ConfigError("device file: device id %d is not 1..65534" % device)
    role = _need(data, "role", str)
    if role not in ROLES:
        raise ConfigError("device file: role %s is not one of %s" % (role, ", ".join(ROLES)))
    key_hex = _need(data, "key", str)
    key = None
    if len(key_hex) == 32:
        try:
            key = bytes([int(key_hex[i:i + 2], 16) for i in range(0, 32, 2)])
        except ValueError:
            key = None
    if key is None:
        raise ConfigError("device file: key is not 32 hex digits")
    radio = data.get("radio")
    if type(radio) is not dict:
        raise ConfigError("device file: radio settings are missing")
    region = _need(radio, "region", str)
    out_radio = {
        "region": region,
        "sub_band": radio.get("sub_band"),
        "freq": _need(radio, "freq", float),
        "sf": _need(radio, "sf", int),
        "bw": _need(radio, "bw", float),
        "cr": _need(radio, "cr", int),
        "interval": _need(radio, "interval", int),
        "power": radio.get("power", DEFAULT_POWER.get(region, 14)),
    }
    if out_radio["interval"] < 10:
        raise ConfigError("device file: interval %d s is too short" % out_radio["interval"])
    from radio_if import check_settings
    try:
        check_settings(out_radio["freq"], out_radio["sf"], out_radio["bw"], out_radio["cr"], out_radio["power"])
    except ValueError as exc:
        raise ConfigError("device file: " + str(exc))
    bw = out_radio["bw"]
    out_radio["bw"] = int(bw) if bw == int(bw) else bw
    return {"device": device, "role": role, "key": key, "label": data.get("label") or "",
            "board": data.get("board") or DEFAULT_BOARD, "radio": out_radio}


def fingerprint(key):
    """A short public name of a 16-byte key ("A1B2-C3D4-E5F6"): which key a board holds, without the key."""
    import hashlib
    digest = hashlib.sha256(FINGERPRINT_DOMAIN + bytes(key)).digest()
    text = "".join(["%02X" % b for b in digest[:6]])
    return text[0:4] + "-" + text[4:8] + "-" + text[8:12]


def load_file(path=PATH):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise ConfigError("no %s on the device: copy it with mpremote (hardware/README.md)" % path)
    return load(text)
