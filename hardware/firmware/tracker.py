"""The tracker: a position and battery beacon, nothing else (portable).

For a group leader's belt or a siege engine.  It sends a position frame
(with battery) every ``interval`` seconds, with jitter (beacon.py), and
listens to nothing.
"""

from beacon import Beacon


class Tracker:
    def __init__(self, cfg, radio, counter, gps, battery, rand, now_ms):
        r = cfg["radio"]
        radio.configure(r["freq"], r["sf"], r["bw"], r["cr"], r["power"])
        self.radio, self.gps = radio, gps
        self.beacon = Beacon(cfg["key"], cfg["device"], r["interval"], counter, gps, battery, rand, now_ms)
        self.errors = 0

    def step(self, now_ms):
        from radio_if import RadioError
        self.gps.poll()
        while self.radio.receive() is not None:
            pass                      # a tracker acts on nothing it hears
        if self.beacon.due(now_ms):
            frame = self.beacon.frame(now_ms)
            try:
                self.radio.send(frame)
            except RadioError:
                self.errors += 1      # the next ping is a new frame anyway
            return frame
        return None
