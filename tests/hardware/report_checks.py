"""A marshal's whole report through the firmware, against the fakes (portable).

Keypad presses go into the handset firmware (handset.py), its frame goes
over a fake Air to the gateway firmware (gateway.py), whose RX line reaches
a minimal station here (the codec's parse_line, verify and ack_for, as the
app does it); the station's TX line goes back into the gateway, the ack
over the air into the handset, and the handset's screen says "sent".

MicroPython-compatible.  ``run_all()`` returns {"checks": {name: "ok" or
failure}, "air": {scenario: [frame hex, ...]}, "key": device key hex}; the
CPython test also decodes the frames on air with the app's own codec.
"""

import codec
from config import load
from counter import CounterStore
from fakes import Air, FakeBattery, FakeDisplay, FakeFlash, FakeGps, FakeKeys, FakeRadio
from firmware_checks import Rand, describe
from gateway import Gateway
from handset import Marshal
from tracker import Tracker

KEY = bytes(range(16))
GATEWAY_ID = 7
MARSHAL_ID = 0x0102


def device_json(device, role, key, interval=60, sub_band="g1"):
    hexkey = "".join(["%02x" % b for b in key])
    return ('{"format": "controlroom-device/1", "device": %d, "role": "%s", "label": "", '
            '"key": "%s", "radio": {"region": "EU868", "sub_band": "%s", "freq": 868.1, '
            '"sf": 9, "bw": 125, "cr": 5, "interval": %d, "channels": 3}}') % (device, role, hexkey, sub_band, interval)


class Station:
    """What the app does with an RX line: verify, and answer with a TX line."""

    def __init__(self, keys):
        self.keys = keys
        self.downlink = 5000
        self.accepted = []

    def take(self, line):
        parsed = codec.parse_line(line)
        if parsed["kind"] != "rx":
            return None
        frame = codec.decode_frame(parsed["frame"])
        key = self.keys.get(frame.device)
        if key is None or not codec.verify(frame, key):
            return None
        self.accepted.append((frame, parsed["rssi"], parsed["snr"]))
        self.downlink += 1
        ack = codec.ack_for(frame, key, parsed["gateway"], self.downlink)
        return codec.format_tx_line(ack) if ack is not None else None


class Field:
    """A handset, a gateway and a station on one fake Air."""

    def __init__(self, key=KEY, station_key=KEY, lat=583776000, lon=267290000):
        self.air = Air()
        self.hs_radio, self.gw_radio = FakeRadio("handset", -97, 7.25), FakeRadio("gateway", -88, -3.5)
        self.air.join(self.hs_radio)
        self.air.join(self.gw_radio)
        self.display, self.keys, self.flash = FakeDisplay(), FakeKeys(), FakeFlash()
        self.gps = FakeGps()
        self.gps.set(lat, lon, 1, 9)
        self.marshal = Marshal(load(device_json(MARSHAL_ID, "marshal", key, interval=3600)), self.hs_radio,
                               self.display, self.keys, CounterStore(self.flash), self.gps, FakeBattery(80),
                               Rand(0), 0)
        self.marshal.beacon.next_ms = 10 ** 12         # no position pings in these scenarios
        self.serial = []
        self.gateway = Gateway(load(device_json(GATEWAY_ID, "gateway", bytes(16))), self.gw_radio,
                               self.serial.append, 0)
        self.station = Station({MARSHAL_ID: station_key})
        self.station_on = True

    def run(self, now_ms):
        """One round: handset step, gateway step, station answers, gateway step."""
        self.marshal.step(now_ms)
        self.gateway.step(now_ms)
        lines, self.serial[:] = list(self.serial), []
        for line in lines:
            answer = self.station.take(line) if self.station_on else None
            if answer is not None:
                self.gateway.feed((answer + "\n").encode())
        self.gateway.step(now_ms)
        self.marshal.step(now_ms)
        return lines

    def press(self, now_ms, *keys):
        for k in keys:
            self.keys.press(k)
            self.run(now_ms)

    def screen(self):
        return self.display.text()

    def frames(self):
        return [codec.hexlify(data) for _, data in self.air.log]


AIR = {}


def check_whole_report():
    f = Field()
    f.press(0, "1", "2", "3", "4", "A")
    assert "1234 DOWN" in f.screen() and "#=send" in f.screen(), f.screen()   # what will be sent
    assert f.air.log == []
    f.keys.press("#")
    f.marshal.step(1)
    assert "1234 DOWN\n  waiting 1" in f.screen(), f.screen()
    sent = f.air.log[0][1]
    frame = codec.decode_frame(sent)
    assert frame.type == "casualty" and frame.version == 2      # no GPS time yet: pressed 0, unknown
    assert frame.fields == {"badge": 1234, "kind": "down", "pressed": None, "by": None}
    assert frame.device == MARSHAL_ID and codec.verify(frame, KEY)
    lines = f.run(2)
    assert lines[0].startswith("RX 7 -88 -3.50 " + codec.hexlify(sent)), lines
    assert [x[0].counter for x in f.station.accepted] == [frame.counter]
    assert len(f.air.log) == 2 and codec.decode_frame(f.air.log[1][1]).type == "ack"
    assert "TXOK 5001" in f.serial[0] if f.serial else False, f.serial
    assert "1234 DOWN\n  sent" in f.screen(), f.screen()
    assert f.marshal.outbox.waiting_counters() == []
    AIR["whole_report"] = f.frames()


def check_lost_frame_is_retried_identically():
    f = Field()
    f.air.lose = 1                                  # the first copy never arrives
    f.press(0, "5", "7", "C", "C", "#", "1", "2", "#")
    assert "57 HEALED by 12\n  waiting 1" in f.screen(), f.screen()
    f.run(3999)
    assert len(f.air.log) == 1
    f.run(4000)                                     # the first retry, 4 s later
    first, second = f.air.log[0][1], f.air.log[1][1]
    assert first == second                          # same counter, same tag
    assert codec.decode_frame(f.air.log[2][1]).fields["acked_counter"] == codec.decode_frame(first).counter
    assert "  sent" in f.screen(), f.screen()
    AIR["retried"] = f.frames()


def check_stopp_called_confirmed_and_lifted():
    f = Field()
    f.station_on = False
    f.press(0, "STOPP", "2")
    assert "STOPP 0 OPEN" in f.screen() and "NOT CONFIRMED" in f.screen(), f.screen()
    called = codec.decode_frame(f.air.log[0][1])
    assert called.type == "stopp_called" and called.fields["reason"] == "injury"
    assert called.fields["lat"] == 583776000 and len(called.tag) == 8
    f.station_on = True
    f.run(5000)                                     # the retry is heard and acked
    assert codec.decode_frame(f.air.log[-1][1]).type == "ack_stopp"
    assert "STOPP injury\n  sent" in f.screen(), f.screen()
    f.press(6000, "STOPP", "#", "#")
    lifted = codec.decode_frame(f.air.log[-2][1])
    assert lifted.type == "stopp_lifted" and lifted.fields["stopp"] == called.fields["stopp"]
    assert "LIFT STOPP\n  sent" in f.screen() and "OPEN" not in f.screen(), f.screen()
    AIR["stopp"] = f.frames()


def check_stopp_carries_its_caller_and_the_time_of_the_key_press():
    f = Field()
    f.gps.set_time(1780000000, 1000)                # GPS time heard at board time 1 s
    f.press(4500, "3", "2", "1", "STOPP", "2")
    called = codec.decode_frame(f.air.log[0][1])
    assert called.version == 2 and called.fields["caller"] == 321, called.fields
    assert called.fields["pressed"] == 1780000003   # 3.5 s later, whole seconds
    assert codec.verify(called, KEY) and codec.decode_frame(f.air.log[-1][1]).type == "ack_stopp"
    f.press(64000, "5", "D", "#")
    checkin = codec.decode_frame(f.air.log[-2][1])
    assert checkin.type == "valhalla" and checkin.fields == {"badge": 5, "pressed": 1780000063}
    AIR["stopp_v2"] = f.frames()


def check_unheard_report_gives_up():
    f = Field()
    f.station_on = False
    f.press(0, "9", "D", "#")
    t = 0
    for _ in range(10):
        t = f.marshal.outbox.next_due_ms() or t
        f.run(t)
    assert len([x for x in f.air.log if x[0] == "handset"]) == 8
    assert "9 VALHALLA\n  NOT HEARD" in f.screen(), f.screen()


def check_forged_or_stray_acks_are_ignored():
    f = Field(station_key=bytes(16))                # the station signs with a wrong key
    f.station.keys[MARSHAL_ID] = KEY
    f.station_on = False
    f.press(0, "3", "B", "#")
    counter = codec.decode_frame(f.air.log[0][1]).counter
    for ack in (codec.encode_ack(bytes(16), 7, 1, MARSHAL_ID, counter),        # wrong key
                codec.encode_ack(KEY, 7, 2, MARSHAL_ID + 1, counter),          # someone else's
                codec.encode_ack(KEY, 7, 3, MARSHAL_ID, counter + 1),          # no such frame
                codec.encode_casualty(KEY, 7, 4, 1, "down")):                  # not an ack
        f.hs_radio.hear(ack)
    f.marshal.step(1)
    assert f.marshal.ignored_frames == 4 and "waiting 1" in f.screen(), f.screen()
    f.hs_radio.hear(codec.encode_ack(KEY, 7, 5, MARSHAL_ID, counter))
    f.marshal.step(2)
    assert "3 KNOCKED OUT\n  sent" in f.screen(), f.screen()


def check_counters_survive_reboot():
    f = Field()
    f.press(0, "1", "A", "#")
    first = codec.decode_frame(f.air.log[0][1]).counter
    again = Marshal(load(device_json(MARSHAL_ID, "marshal", KEY)), FakeRadio(), FakeDisplay(), FakeKeys(),
                    CounterStore(f.flash), FakeGps(), FakeBattery(), Rand(0), 0)
    frame = again.report({"type": "valhalla", "badge": 5}, 0)
    assert codec.decode_frame(frame).counter > first


def check_position_pings_with_jitter():
    class Seq:
        def __init__(self):
            self.i = 0

        def __call__(self, n):
            self.i = (self.i * 1103515245 + 12345) & 0x7FFFFFFF
            return self.i % n

    radio = FakeRadio()
    gps = FakeGps()
    m = Marshal(load(device_json(9, "marshal", KEY, interval=60)), radio, FakeDisplay(), FakeKeys(),
                CounterStore(FakeFlash()), gps, FakeBattery(55), Seq(), 0)
    times = []
    for t in range(0, 20 * 60000, 250):
        if t == 300000:
            gps.set(-339249000, 184241000, 2, 12)   # a fix arrives (Cape Town)
        n = len(radio.sent)
        m.step(t)
        if len(radio.sent) > n:
            times.append(t)
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert times[0] < 60000 and 18 <= len(times) <= 22, times
    assert min(gaps) >= 54000 and max(gaps) <= 66250 and len(set(gaps)) > 3, gaps
    frames = [codec.decode_frame(x) for x in radio.sent]
    assert frames[0].fields["lat"] is None and frames[0].fields["battery"] == 55
    assert frames[-1].fields["lat"] == -339249000 and frames[-1].fields["fix"] == 2
    assert frames[-1].fields["sats"] == 12
    counters = [x.counter for x in frames]
    assert counters == sorted(counters) and len(set(counters)) == len(counters)
    AIR["pings"] = [codec.hexlify(x) for x in radio.sent[-2:]]


def check_tracker_sends_only_positions():
    radio = FakeRadio()
    tr = Tracker(load(device_json(0x0201, "tracker", KEY, interval=30)), radio, CounterStore(FakeFlash()),
                 FakeGps(583776000, 267290000, 1, 11), FakeBattery(87), Rand(0), 0)
    radio.hear(codec.encode_ack(KEY, 7, 1, 0x0201, 0))
    for t in range(0, 100001, 500):
        tr.step(t)
    types = [codec.decode_frame(x).type for x in radio.sent]
    assert types == ["position"] * 4, types
    assert radio.inbox == []


def check_gateway_lines():
    sent = []
    radio = FakeRadio()
    gw = Gateway(load(device_json(7, "gateway", bytes(16))), radio, sent.append, 0)
    gw.feed(b"ID?\n" + codec.format_id_request().encode() + b"\r\n")
    gw.step(1)
    assert sent[0] == sent[1] and codec.parse_line(sent[0]) == {
        "kind": "id", "gateway": 7, "fw": "1.1.0", "region": "EU868", "freq": 868.1, "sf": 9, "bw": 125, "cr": 5}
    ack = codec.encode_ack(KEY, 7, 5001, MARSHAL_ID, 202, stopp=True)
    tx = codec.format_tx_line(ack)
    del sent[:]
    gw.feed(tx[:10].encode())
    gw.step(2)
    assert sent == [] and radio.sent == []          # half a line: nothing yet
    gw.feed((tx[10:] + "\n" + tx[:-1] + "0\nTX 00 " + "%04X" % codec.crc16("TX 00") + "\nHELLO\n").encode())
    gw.step(3)
    assert radio.sent == [ack]
    assert [codec.parse_line(x) for x in sent] == [
        {"kind": "txok", "counter": 5001}, {"kind": "txerr", "reason": "checksum"},
        {"kind": "txerr", "reason": "frame"}, {"kind": "txerr", "reason": "line"}], sent
    radio.fail = True
    del sent[:]
    gw.feed((tx + "\n").encode())
    gw.step(4)
    assert codec.parse_line(sent[0])["reason"] == "radio"
    radio.hear(b"\x01\x02", -120, -12.5)
    radio.crc_errors = 3
    gw.step(60000)
    assert sent[1] == codec.format_rx_line(7, -120, -12.5, b"\x01\x02") + "\n"
    assert codec.parse_line(sent[2]) == {"kind": "status", "gateway": 7, "up": 1, "rx": 1, "bad": 3, "tx": 1,
                                         "txerr": 4}


def check_gateway_line_length_limit():
    sent = []
    gw = Gateway(load(device_json(7, "gateway", bytes(16))), FakeRadio(), sent.append, 0)
    good = codec.format_tx_line(codec.encode_ack(KEY, 7, 1, MARSHAL_ID, 1))
    gw.feed(b"TX " + b"AB" * 600 + b"\n")              # 1203 bytes: longer than codec.MAX_LINE
    gw.feed(b"TX " + b"CD" * 700)                      # no end in sight yet: dropped as it comes
    gw.feed(b"CD" * 10 + b"\n" + (good + "\n").encode())
    gw.step(0)
    assert [codec.parse_line(x)["kind"] for x in sent] == ["txerr", "txerr", "txok"], sent
    assert codec.parse_line(sent[0])["reason"] == "line" and codec.parse_line(sent[1])["reason"] == "line"


def check_gateway_duty_cycle():
    sent = []
    radio = FakeRadio()
    gw = Gateway(load(device_json(7, "gateway", bytes(16), sub_band="g2")), radio, sent.append, 0)
    line = codec.format_tx_line(codec.encode_ack(KEY, 7, 1, MARSHAL_ID, 1)) + "\n"
    for i in range(30):                             # g2: 0.1 % = 3.6 s an hour, 165 ms a frame
        gw.feed(line.encode())
        gw.step(i * 1000)
    kinds = [codec.parse_line(x)["kind"] for x in sent]
    assert kinds[:21] == ["txok"] * 21 and kinds[21:] == ["txerr"] * 9, kinds
    assert codec.parse_line(sent[-1])["reason"] == "duty"
    del sent[:]
    gw.feed(line.encode())
    gw.step(3600000 + 500)                          # an hour later the budget is back
    assert codec.parse_line(sent[0])["kind"] == "txok"


CHECKS = [
    check_whole_report, check_lost_frame_is_retried_identically, check_stopp_called_confirmed_and_lifted,
    check_stopp_carries_its_caller_and_the_time_of_the_key_press, check_gateway_line_length_limit,
    check_unheard_report_gives_up, check_forged_or_stray_acks_are_ignored, check_counters_survive_reboot,
    check_position_pings_with_jitter, check_tracker_sends_only_positions, check_gateway_lines,
    check_gateway_duty_cycle,
]


def run_all():
    out = {}
    for check in CHECKS:
        try:
            check()
            out[check.__name__] = "ok"
        except Exception as exc:
            out[check.__name__] = describe(exc)
    return {"checks": out, "air": AIR, "key": codec.hexlify(KEY)}
