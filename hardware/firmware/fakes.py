"""Stand-ins for the hardware, with the same interfaces (portable).

Used by the tests and by anyone trying the firmware on a desk without
boards: ``Air`` joins ``FakeRadio``s so that what one sends the others
hear; ``FakeDisplay``, ``FakeKeys``, ``FakeFlash``, ``FakeGps`` and
``FakeBattery`` replace the screen, keypad scanner, flash, GPS and battery.
"""

from radio_if import Packet, check_settings


class Air:
    """The shared LoRa channel: radios on the same settings hear each other."""

    def __init__(self):
        self.radios = []
        self.log = []             # (sender name, bytes) of every transmission
        self.lose = 0             # drop this many coming transmissions (nobody hears them)

    def join(self, radio):
        self.radios.append(radio)
        radio.air = self

    def carry(self, sender, data):
        self.log.append((sender.name, bytes(data)))
        if self.lose > 0:
            self.lose -= 1
            return
        for radio in self.radios:
            if radio is not sender and radio.settings == sender.settings:
                radio.inbox.append(Packet(data, radio.rssi, radio.snr))


class FakeRadio:
    """radio_if interface in memory.  ``sent`` lists what it transmitted."""

    def __init__(self, name="fake", rssi=-97, snr=7.25):
        self.name = name
        self.rssi, self.snr = rssi, snr
        self.settings = None
        self.air = None
        self.inbox = []
        self.sent = []
        self.crc_errors = 0
        self.fail = False         # True: send() raises RadioError, as a dead chip would

    def configure(self, freq, sf, bw, cr, power):
        check_settings(freq, sf, bw, cr, power)
        self.settings = (freq, sf, bw, cr)
        self.power = power

    def send(self, data):
        from radio_if import RadioError
        if self.settings is None:
            raise RadioError("send before configure")
        if self.fail:
            raise RadioError("fake radio fault")
        if not 1 <= len(data) <= 255:
            raise ValueError("a LoRa packet is 1..255 bytes")
        self.sent.append(bytes(data))
        if self.air is not None:
            self.air.carry(self, data)

    def receive(self):
        return self.inbox.pop(0) if self.inbox else None

    def hear(self, data, rssi=None, snr=None):
        """Put a packet in the receiver, as if it came over the air."""
        self.inbox.append(Packet(data, self.rssi if rssi is None else rssi, self.snr if snr is None else snr))


class FakeDisplay:
    """display interface: ``show_lines(lines)``; keeps what it showed."""

    WIDTH_CHARS, HEIGHT_LINES = 16, 8

    def __init__(self):
        self.lines = []
        self.frames = 0

    def show_lines(self, lines):
        self.lines = [str(line)[:self.WIDTH_CHARS] for line in lines[:self.HEIGHT_LINES]]
        self.frames += 1

    def text(self):
        return "\n".join(self.lines)


class FakeKeys:
    """keypad scanner interface: ``poll() -> key or None``; ``press(k)`` queues keys."""

    def __init__(self):
        self.queue = []

    def press(self, *keys):
        self.queue.extend(keys)

    def poll(self, now_ms=None):
        return self.queue.pop(0) if self.queue else None


class FakeFlash:
    """flash interface in memory; ``cut_before_rename`` simulates a power cut."""

    def __init__(self):
        self.files = {}
        self.writes = 0
        self.cut_before_rename = False

    def read(self, name):
        return self.files.get(name)

    def write(self, name, data):
        self.files[name] = bytes(data)
        self.writes += 1

    def rename(self, old, new):
        if self.cut_before_rename:
            raise OSError("power cut")
        self.files[new] = self.files.pop(old)

    def remove(self, name):
        self.files.pop(name, None)


class FakeGps:
    """gps interface: ``position() -> (lat_e7, lon_e7, fix, sats)``, lat/lon None without a fix."""

    def __init__(self, lat=None, lon=None, fix=0, sats=0):
        self.set(lat, lon, fix, sats)
        self.clock = None        # (unix seconds, board ms), as Gps keeps it from RMC sentences

    def set(self, lat, lon, fix=1, sats=8):
        self.fix_value = (lat, lon, fix if lat is not None else 0, sats)

    def poll(self, now_ms=None):
        return None

    def position(self):
        return self.fix_value

    def set_time(self, unix_s, now_ms):
        self.clock = (unix_s, now_ms)

    def unix_time(self, now_ms):
        return None if self.clock is None else self.clock[0] + (now_ms - self.clock[1]) // 1000


class FakeBattery:
    """battery interface: ``percent() -> 0..100 or None``."""

    def __init__(self, percent=None):
        self.value = percent

    def percent(self):
        return self.value
