"""The marshal handset: keypad in, signed frames out, acks in, screen (portable).

``Marshal(cfg, radio, display, keys, counter, gps, battery, rand, now_ms)``;
the main loop calls ``step(now_ms)`` every few milliseconds.  Everything
hardware-facing (radio, display, keypad scanner, GPS, battery, flash via the
CounterStore) comes in through the interfaces of radio_if.py and fakes.py,
so the tests run this file unchanged against the fakes.

Screen (16 x 8 characters): line 1 the device and battery/GPS, then the
keypad's entry in progress (what will be sent), then the last reports with
their state: "sent" once the gateway's ack arrived, "waiting" (with the try
count) before, "NOT HEARD" when a report gave up, and "NOT CONFIRMED" for a
STOPP still unacknowledged.
"""

import codec
from beacon import Beacon
from keypad import LABELS, Keypad
from retry import ACKED, FAILED, Outbox

SHOWN_REPORTS = 3
SCREEN_LINES = 8


def summary(action):
    """A report in a few words, as the screen shows it."""
    t = action["type"]
    if t == "casualty":
        text = "%d %s" % (action["badge"], LABELS[action["kind"]])
        return text + (" by %d" % action["by"] if action["by"] else "")
    if t == "valhalla":
        return "%d VALHALLA" % action["badge"]
    if t == "stopp_called":
        return "STOPP %s" % action["reason"]
    return "LIFT STOPP"


class Marshal:
    def __init__(self, cfg, radio, display, keys, counter, gps, battery, rand, now_ms):
        self.cfg, self.radio, self.display, self.keys = cfg, radio, display, keys
        self.device, self.key = cfg["device"], cfg["key"]
        self.counter, self.gps, self.battery, self.rand = counter, gps, battery, rand
        r = cfg["radio"]
        radio.configure(r["freq"], r["sf"], r["bw"], r["cr"], r["power"])
        self.keypad = Keypad()
        self.outbox = Outbox(rand)
        self.beacon = Beacon(self.key, self.device, r["interval"], counter, gps, battery, rand, now_ms)
        self.open_stopps = []          # numbers of this handset's STOPPs not yet lifted
        self.next_stopp = 0
        self.reports = []              # (summary, Entry) newest last
        self.errors = 0                # radio faults
        self.ignored_frames = 0        # heard but not an ack for us
        self.dirty = True
        self._states = ()

    # -- the loop -----------------------------------------------------------------

    def step(self, now_ms):
        """Read keys, receive acks, retry, ping; redraw when anything changed."""
        self.gps.poll(now_ms)
        key = self.keys.poll(now_ms)
        if key is not None:
            self.press(key, now_ms)
        packet = self.radio.receive()
        while packet is not None:
            self.hear(packet.data)
            packet = self.radio.receive()
        for entry in self.outbox.due(now_ms):
            self._transmit(entry.frame)
            self.dirty = True
        states = tuple([e.state for _, e in self.reports])
        if states != self._states:
            self._states, self.dirty = states, True
        if self.beacon.due(now_ms):
            self._transmit(self.beacon.frame(now_ms))
        if self.dirty:
            self.redraw()

    def press(self, key, now_ms):
        self.keypad.stopp_open = self.open_stopps[-1] if self.open_stopps else None
        action = self.keypad.press(key)
        self.dirty = True
        if action is not None:
            self.report(action, now_ms)

    def report(self, action, now_ms):
        """Build, sign and send one report; it is retried until acknowledged.

        Protocol version 2: the frame carries the time of the key press
        (GPS time, 0 while unknown), and a STOPP its caller's badge (0: none)."""
        counter = self.counter.next()
        t, k, d = action["type"], self.key, self.device
        lat, lon = self.gps.position()[:2]
        pressed = self.gps.unix_time(now_ms) or 0
        if t == "casualty":
            frame = codec.encode_casualty(k, d, counter, action["badge"], action["kind"], action["by"], pressed)
        elif t == "valhalla":
            frame = codec.encode_valhalla(k, d, counter, action["badge"], pressed)
        elif t == "stopp_called":
            number = self._new_stopp_number()
            self.open_stopps.append(number)
            frame = codec.encode_stopp_called(k, d, counter, number, action["reason"], lat, lon,
                                              action.get("caller") or 0, pressed)
        else:
            number = self.open_stopps.pop()
            frame = codec.encode_stopp_lifted(k, d, counter, number, pressed)
        forever = t in ("stopp_called", "stopp_lifted")
        entry = self.outbox.add(counter, frame, summary(action), forever, now_ms)
        self.reports.append((summary(action), entry))
        self.reports = self.reports[-SHOWN_REPORTS:]
        self.outbox.prune()
        self._transmit(frame)
        self.dirty = True
        return frame

    def _new_stopp_number(self):
        number = self.next_stopp
        while number in self.open_stopps:
            number = (number + 1) & 0xFF
        self.next_stopp = (number + 1) & 0xFF
        return number

    def _transmit(self, frame):
        from radio_if import RadioError
        try:
            self.radio.send(frame)
        except RadioError:
            self.errors += 1          # the retry schedule sends it again

    def hear(self, data):
        """An incoming packet: accepted only as an ack of one of our waiting
        frames, signed with our key (PROTOCOL.md section 6)."""
        try:
            frame = codec.decode_frame(data)
        except codec.FrameError:
            self.ignored_frames += 1
            return None
        f = frame.fields
        if (frame.type not in ("ack", "ack_stopp") or f["acked_device"] != self.device
                or not codec.verify(frame, self.key)):
            self.ignored_frames += 1
            return None
        entry = self.outbox.ack(f["acked_counter"])
        if entry is None:
            self.ignored_frames += 1
        else:
            self.dirty = True
        return entry

    # -- screen -------------------------------------------------------------------

    def status_lines(self):
        """Two lines per report, newest first."""
        out = []
        for text, entry in reversed(self.reports):
            stopp = text.startswith(("STOPP", "LIFT"))
            if entry.state == ACKED:
                state = "sent"
            elif entry.state == FAILED:
                state = "NOT HEARD"
            elif stopp:
                state = "NOT CONFIRMED"
            else:
                state = "waiting %d" % entry.tries
            out.append(text)
            out.append("  " + state)
        return out

    def lines(self):
        lat = self.gps.position()[0]
        battery = self.battery.percent()
        head = "M%d %s %s" % (self.device, "%d%%" % battery if battery is not None else "?%",
                              "GPS" if lat is not None else "noGPS")
        if self.open_stopps:
            head = "STOPP %d OPEN" % self.open_stopps[-1]
        top = [head] + self.keypad.lines()
        return top + self.status_lines()[:max(SCREEN_LINES - len(top), 0)]

    def redraw(self):
        self.display.show_lines(self.lines())
        self.dirty = False
