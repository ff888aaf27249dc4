"""Position pings at the configured interval with random jitter (portable).

Each ping is ``interval`` seconds after the last one, give or take 10 %
(at least 1 s), so handsets switched on together do not stay in step and
collide on every ping.  The first ping comes at a random time within the
first interval.  ``rand(n)`` returns an int in 0..n-1.
"""

import codec


class Beacon:
    def __init__(self, key, device, interval_s, counter, gps, battery, rand, now_ms):
        self.key, self.device = key, device
        self.interval_ms = interval_s * 1000
        self.jitter_ms = max(self.interval_ms // 10, 1000)
        self.counter, self.gps, self.battery, self.rand = counter, gps, battery, rand
        self.next_ms = now_ms + rand(self.interval_ms)
        self.sent = 0

    def due(self, now_ms):
        return now_ms >= self.next_ms

    def frame(self, now_ms):
        """The position frame to send now; schedules the next one."""
        lat, lon, fix, sats = self.gps.position()
        battery = self.battery.percent()
        frame = codec.encode_position(self.key, self.device, self.counter.next(), lat, lon,
                                      battery, fix if lat is not None else 0, sats)
        self.next_ms = now_ms + self.interval_ms - self.jitter_ms + self.rand(2 * self.jitter_ms + 1)
        self.sent += 1
        return frame
