"""The GPS receiver behind a small interface (portable).

``Gps(read)``: ``read()`` returns the bytes the UART has (or None).
``poll()`` feeds them to the NMEA reader; ``position()`` gives
(lat_e7, lon_e7, fix, sats) in the units of the position frame
(1e-7 degree), lat/lon None when there is no fix.
"""

from nmea import NmeaReader


class Gps:
    def __init__(self, read):
        self.read = read
        self.reader = NmeaReader()
        self.fix_quality = 0
        self.sats = 0

    def poll(self):
        data = self.read()
        if not data:
            return
        for sentence in self.reader.feed(data):
            if sentence["type"] == "GGA":
                self.fix_quality = sentence["fix"]
                self.sats = sentence["sats"] or 0

    def position(self):
        fix = self.reader.fix
        if not self.reader.has_fix or fix is None:
            return (None, None, 0, self.sats)
        quality = self.fix_quality if self.fix_quality else 1
        return (int(round(fix["lat"] * 1e7)), int(round(fix["lon"] * 1e7)), min(quality, 7), self.sats)
