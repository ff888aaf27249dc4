"""The GPS receiver behind a small interface (portable).

``Gps(read)``: ``read()`` returns the bytes the UART has (or None).
``poll()`` feeds them to the NMEA reader; ``position()`` gives
(lat_e7, lon_e7, fix, sats) in the units of the position frame
(1e-7 degree), lat/lon None when there is no fix.  ``unix_time(now_ms)``
gives the UTC time in unix seconds from the last RMC sentence with a fix, a
date and a time, carried forward on the board's millisecond clock (None until
one has been heard): the time of a key press in a version 2 frame.
"""

from nmea import NmeaReader


class Gps:
    def __init__(self, read):
        self.read = read
        self.reader = NmeaReader()
        self.fix_quality = 0
        self.sats = 0
        self.clock = None            # (unix seconds, board ms) of the last RMC with date and time

    def poll(self, now_ms=None):
        data = self.read()
        if not data:
            return
        for sentence in self.reader.feed(data):
            if sentence["type"] == "GGA":
                self.fix_quality = sentence["fix"]
                self.sats = sentence["sats"] or 0
            elif (now_ms is not None and sentence.get("date") and sentence.get("time")
                  and sentence.get("lat") is not None):     # a receiver without a fix may report 1980
                self.clock = (unix_seconds(sentence["date"], sentence["time"]), now_ms)

    def unix_time(self, now_ms):
        if self.clock is None:
            return None
        seconds, at_ms = self.clock
        return seconds + (now_ms - at_ms) // 1000


def unix_seconds(date, time):
    """(year, month, day), (hh, mm, ss) in UTC -> unix seconds (whole)."""
    year, month, day = date
    y = year - (month <= 2)                      # days from civil (H. Hinnant), no time module needed
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146097 + doe - 719468
    return days * 86400 + time[0] * 3600 + time[1] * 60 + int(time[2])

    def position(self):
        fix = self.reader.fix
        if not self.reader.has_fix or fix is None:
            return (None, None, 0, self.sats)
        quality = self.fix_quality if self.fix_quality else 1
        return (int(round(fix["lat"] * 1e7)), int(round(fix["lon"] * 1e7)), min(quality, 7), self.sats)
