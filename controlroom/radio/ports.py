"""Serial ports of the gateways: which URLs a link can open, and USB devices found by their ids (no Qt).

``usb:VID:PID[:SERIAL]`` (hex ids) names a USB serial device by what it is,
not where it is plugged: ``find_usb_port`` looks it up among the ports that
``serial.tools.list_ports`` lists, so a board that comes back as
/dev/ttyUSB1 instead of /dev/ttyUSB0 is found again.  ``check_serial_url`` refuses,
before any thread starts, a gateway URL no link could ever open.
"""

import logging
import os
import re
from collections import namedtuple

import serial
from serial.tools import list_ports

log = logging.getLogger(__name__)

UsbIds = namedtuple("UsbIds", "vid pid serial")


def usb_text(ids):
    return "%04X:%04X%s" % (ids.vid, ids.pid, ":" + ids.serial if ids.serial else "")


def parse_usb_url(url):
    """'usb:VID:PID[:SERIAL]' (hex ids) -> UsbIds; None for any other URL.
    A malformed usb: URL raises ValueError."""
    if not url.lower().startswith("usb:"):
        return None
    parts = url.split(":", 3)
    try:
        if len(parts) < 3:
            raise ValueError
        vid, pid = int(parts[1], 16), int(parts[2], 16)
    except ValueError:
        raise ValueError("expected usb:VID:PID[:SERIAL] with hex ids, not %r" % url) from None
    return UsbIds(vid, pid, parts[3] if len(parts) == 4 and parts[3] else None)


def check_serial_url(url):
    """Refuse, with ValueError, a serial gateway URL no link could ever open (an unknown scheme, a bad usb: URL).

    Device paths and names (/dev/ttyUSB0, COM5) pass: a device may be plugged
    in later.  Schemes are pyserial's URL handlers (socket://, loop://,
    rfc2217://, ...) and usb:VID:PID[:SERIAL].
    """
    if not isinstance(url, str) or not url.strip():
        raise ValueError("a gateway port is a device (/dev/ttyUSB0, COM5) or a URL, not %r" % (url,))
    if parse_usb_url(url) is not None:
        return
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", url)
    if "://" not in url and (scheme is None or len(scheme.group(1)) == 1):
        return                  # a device path or name (a Windows drive letter is no scheme)
    if "://" not in url:
        raise ValueError("unknown kind of gateway port %r: %r is no scheme this station knows (a device such as "
                         "/dev/ttyUSB0 or COM5, or socket://HOST:PORT, rfc2217://HOST:PORT, loop://, "
                         "usb:VID:PID[:SERIAL], meshtastic:DEVICE, meshtastic-tcp:HOST)" % (url, scheme.group(1) + ":"))
    scheme = url.split("://", 1)[0].lower()
    import importlib

    for package in serial.protocol_handler_packages:
        try:
            importlib.import_module("%s.protocol_%s" % (package, scheme))
            return
        except ImportError:
            continue
    known = ("socket://HOST:PORT", "rfc2217://HOST:PORT", "loop://", "usb:VID:PID[:SERIAL]",
             "meshtastic:DEVICE", "meshtastic-tcp:HOST")
    raise ValueError("unknown kind of gateway port %r (a device such as /dev/ttyUSB0 or COM5, or %s)"
                     % (url, ", ".join(known)))


def _comports():
    try:
        return list(list_ports.comports())
    except Exception:  # enumeration is best effort
        log.exception("listing serial ports failed")
        return []


def usb_ids_of(port):
    """UsbIds of the serial device ``port`` (a path or a name like COM5), or
    None when it is no USB device that list_ports knows."""
    real = os.path.realpath(port)
    for info in _comports():
        if info.vid is not None and (info.device == port or os.path.realpath(info.device) == real):
            return UsbIds(info.vid, info.pid, info.serial_number or None)
    return None


def find_usb_port(ids, previous=None, busy=()):
    """The port of the USB device with ``ids`` (serial None: any serial number),
    or None.  Several matches (boards without, or with equal, serial numbers):
    ``previous`` if among them, else the first by name that is not ``busy``."""
    found = sorted(info.device for info in _comports()
                   if info.vid == ids.vid and info.pid == ids.pid
                   and (ids.serial is None or info.serial_number == ids.serial))
    if previous in found:
        return previous
    free = [port for port in found if port not in busy]
    return (free or found or [None])[0]
