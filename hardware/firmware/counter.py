"""Frame counters that a reboot never reuses (portable).

PROTOCOL.md section 6, as LoRaWAN devices do it: at boot read the reserved
value R from flash, write R + BLOCK (a new file, then rename it over the
old one), and only then use R, R+1, ...  When the counter reaches the
stored value, reserve the next block the same way.  A reboot skips at most
BLOCK values and never repeats one.

``flash`` is any object with ``read(name) -> bytes or None``,
``write(name, data)`` and ``rename(old, new)`` and ``remove(name)``
(FileFlash below on the device, FakeFlash in fakes.py for tests).  The
stored text is "<value> <crc16 hex>" so a torn write is recognised.
"""

BLOCK = 256
LAST = 0xFFFFFFFF
NAME = "counter"
_NEW = ".new"


class CounterError(Exception):
    """The counter store is unreadable or used up: the device must be re-keyed."""


def _crc(text):
    crc = 0xFFFF
    for ch in text:
        crc ^= ord(ch) << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _encode(value):
    text = "%d" % value
    return ("%s %04X\n" % (text, _crc(text))).encode()


def _decode(data):
    """bytes -> int, or None when missing or damaged."""
    if data is None:
        return None
    try:
        parts = data.decode().split()
    except (UnicodeError, ValueError):
        return None
    if len(parts) != 2 or not parts[0].isdigit() or parts[1] != "%04X" % _crc(parts[0]):
        return None
    return int(parts[0])


class CounterStore:
    """``next()`` hands out counters; flash is written once per BLOCK counters."""

    def __init__(self, flash, name=NAME, block=BLOCK):
        self.flash, self.name, self.block = flash, name, block
        stored = [_decode(flash.read(name)), _decode(flash.read(name + _NEW))]
        found = [v for v in stored if v is not None]
        damaged = [n for n, v in ((name, stored[0]), (name + _NEW, stored[1]))
                   if v is None and flash.read(n) is not None]
        if damaged and not found:
            raise CounterError("counter file %s is damaged: re-key this device" % damaged[0])
        # A power cut between writing .new and renaming it leaves both: the
        # larger one is a reservation that may already be in use.
        self.value = max(found) if found else 0
        self.reserved = self.value
        self._reserve()

    def _reserve(self):
        top = self.reserved + self.block
        if top > LAST + 1:
            raise CounterError("frame counter used up: re-key this device")
        self.flash.write(self.name + _NEW, _encode(top))
        self.flash.rename(self.name + _NEW, self.name)
        self.reserved = top

    def next(self):
        """The next counter (never returned before, not even before a reboot)."""
        if self.value >= self.reserved:
            self._reserve()
        value = self.value
        self.value += 1
        return value


class FileFlash:
    """The flash interface over files in ``root`` (LittleFS on the ESP32)."""

    def __init__(self, root=""):
        self.root = root

    def _path(self, name):
        return self.root + "/" + name if self.root else name

    def read(self, name):
        try:
            with open(self._path(name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def write(self, name, data):
        with open(self._path(name), "wb") as f:
            f.write(data)

    def rename(self, old, new):
        import os
        try:
            os.rename(self._path(old), self._path(new))
        except OSError:              # a file system that will not replace: remove first
            self.remove(new)
            os.rename(self._path(old), self._path(new))

    def remove(self, name):
        import os
        try:
            os.remove(self._path(name))
        except OSError:
            pass
