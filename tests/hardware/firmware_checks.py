"""Checks of the portable firmware modules: keypad, retry, counter store.

MicroPython-compatible: test_firmware_portable.py runs ``run_all`` once
under CPython and once under the real MicroPython and expects every check
to report "ok".  Each check asserts; a failure is reported with its message.
"""

import keypad
import retry
from counter import BLOCK, CounterError, CounterStore, FileFlash, _encode
from fakes import FakeFlash


class Rand:
    """A fixed rand(n): always ``value`` (clamped to n-1)."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, n):
        return min(self.value, n - 1)


def keys(kp, *pressed):
    out = None
    for k in pressed:
        out = kp.press(k)
    return out


# --- keypad --------------------------------------------------------------------

def check_keypad_casualty_kinds():
    kp = keypad.Keypad()
    assert keys(kp, "1", "2", "3", "4", "A", "#") == {"type": "casualty", "badge": 1234, "kind": "down", "by": None}
    assert kp.state == "idle"
    assert keys(kp, "5", "A", "A", "#")["kind"] == "died"
    assert keys(kp, "5", "A", "A", "A", "#")["kind"] == "down"        # a third press toggles back
    assert keys(kp, "8", "B", "#")["kind"] == "knocked_out"
    assert keys(kp, "8", "B", "B", "#") is None and kp.state == "by"   # killer may be given
    assert keys(kp, "#") == {"type": "casualty", "badge": 8, "kind": "permanent_kill", "by": None}
    assert keys(kp, "8", "B", "B", "#", "4", "4", "#")["by"] == 44
    assert keys(kp, "3", "C", "#", "#") == {"type": "casualty", "badge": 3, "kind": "bound", "by": None}
    assert keys(kp, "42", "D", "#") is None                              # "42" is no key
    kp.clear()
    assert keys(kp, "4", "2", "D", "#") == {"type": "valhalla", "badge": 42}


def check_keypad_healer_needs_second_badge():
    kp = keypad.Keypad()
    assert keys(kp, "1", "2", "C", "C", "#") is None and kp.state == "by"
    assert "HEALED" in kp.lines()[0] and kp.lines()[1].startswith("healer")
    assert keys(kp, "#") is None and kp.message == "healer badge?"
    assert keys(kp, "5", "7", "#") == {"type": "casualty", "badge": 12, "kind": "healer_touch", "by": 57}


def check_keypad_back_and_clear():
    kp = keypad.Keypad()
    keys(kp, "1", "2", "*")
    assert kp.state == "badge" and kp.badge == "1"
    keys(kp, "*")
    assert kp.state == "idle" and kp.badge == ""
    keys(kp, "*")
    assert kp.state == "idle"
    keys(kp, "9", "A", "*")
    assert kp.state == "badge" and kp.kind is None and kp.badge == "9"
    keys(kp, "C", "#", "5", "*", "*")
    assert kp.state == "kind" and kp.kind == "bound"
    assert keys(kp, "A", "#")["kind"] == "down"        # another kind key switches kinds


def check_keypad_badge_limits_and_hints():
    kp = keypad.Keypad()
    keys(kp, "0")
    assert kp.state == "idle" and kp.message == "no badge 0"
    keys(kp, "6", "5", "5", "3", "6")
    assert kp.badge == "6553" and kp.message == "badge too big"
    keys(kp, "5", "9")
    assert kp.badge == "65535"
    keys(kp, "#")
    assert kp.message == "choose A B C D" and kp.state == "badge"
    kp.clear()
    assert keys(kp, "A") is None and kp.message == "badge first"
    assert keys(kp, "#") is None and kp.message == "badge first"
    keys(kp, "7", "A")
    assert kp.lines()[0] == "7 DOWN" and kp.lines()[1] == "#=send *=back"


def check_keypad_stopp_and_lift():
    kp = keypad.Keypad()
    assert keys(kp, "STOPP", "2") == {"type": "stopp_called", "reason": "injury", "caller": None}
    assert keys(kp, "STOPP", "1")["reason"] == "unpleasant"
    assert keys(kp, "STOPP", "3")["reason"] == "danger"
    assert keys(kp, "STOPP", "STOPP") == {"type": "stopp_called", "reason": "danger", "caller": None}
    # Digits typed before STOPP are the caller's badge (protocol version 2).
    kp.press("3")
    kp.press("2")
    kp.press("1")
    assert kp.press("STOPP") is None and kp.lines()[0] == "STOPP by 321"
    assert keys(kp, "1") == {"type": "stopp_called", "reason": "unpleasant", "caller": 321}
    assert keys(kp, "4", "2", "STOPP", "STOPP") == {"type": "stopp_called", "reason": "danger", "caller": 42}
    assert keys(kp, "7", "A", "STOPP", "2")["caller"] is None              # a casualty entry is no caller
    assert kp.badge == "" and kp.caller is None
    assert keys(kp, "STOPP", "2")["caller"] is None                        # not kept for the next STOPP
    assert keys(kp, "STOPP", "*") is None and kp.message == "STOPP cancelled"
    assert keys(kp, "STOPP", "#") is None and kp.state == "idle"          # nothing open: no lift
    kp.stopp_open = 4
    assert kp.press("STOPP") is None and "## lift STOPP 4" in kp.lines()
    assert keys(kp, "#") is None and kp.lines()[0] == "LIFT STOPP 4?"
    assert keys(kp, "#") == {"type": "stopp_lifted"}
    assert keys(kp, "STOPP", "#", "5") is None and kp.message == "lift cancelled"
    assert keys(kp, "STOPP", "#", "STOPP") is None and kp.state == "stopp"   # back to the reasons


def check_gps_clock_from_rmc():
    import gps

    def nmea(body):
        x = 0
        for c in body:
            x ^= ord(c)
        return ("$%s*%02X\r\n" % (body, x)).encode()

    chunks = [nmea("GPRMC,202640.00,A,5822.656,N,02643.740,E,0.1,0.0,280526,,,A"),
              nmea("GPRMC,000012.00,V,,,,,,,060180,,,N")]     # no fix yet: the receiver's own idea of time
    g = gps.Gps(lambda: chunks.pop() if chunks else None)
    assert g.unix_time(0) is None                     # no time heard yet
    g.poll(1000)
    assert g.unix_time(1000) is None                  # a time without a fix is not believed
    g.poll(5000)
    assert g.unix_time(5000) == 1780000000            # 2026-05-28 20:26:40 UTC
    assert g.unix_time(7999) == 1780000002
    assert gps.unix_seconds((1970, 1, 1), (0, 0, 0.0)) == 0
    assert gps.unix_seconds((2000, 2, 29), (23, 59, 59.9)) == 951868799
    assert gps.unix_seconds((2100, 3, 1), (0, 0, 0.0)) == 4107542400


# --- retry ---------------------------------------------------------------------

def check_retry_schedule_and_give_up():
    box = retry.Outbox(Rand(0))
    e = box.add(100, b"\x23abc", "1 DOWN", False, 0)
    assert e.tries == 1 and e.next_ms == 4000
    assert box.due(3999) == []
    times = []
    t = 0
    while e.state == retry.WAITING:
        t = e.next_ms
        for entry in box.due(t):
            assert entry is e and entry.frame == b"\x23abc"
            times.append(t)
    assert times == [4000, 12000, 28000, 60000, 120000, 180000, 240000], times
    assert e.state == retry.FAILED and e.tries == retry.GIVE_UP_TRIES
    assert box.due(10 ** 9) == [] and box.waiting_counters() == []


def check_retry_stopp_never_gives_up_and_jitter():
    box = retry.Outbox(Rand(999))
    e = box.add(7, b"S", "STOPP", True, 1000)
    assert e.next_ms == 1000 + 4000 + 999
    for _ in range(30):
        assert box.due(e.next_ms) == [e]
    assert e.state == retry.WAITING and e.tries == 31
    assert box.next_due_ms() == e.next_ms


def check_retry_ack_matches_counter_once():
    box = retry.Outbox(Rand(0))
    a = box.add(10, b"a", "a", False, 0)
    b = box.add(11, b"b", "b", True, 0)
    assert box.waiting_counters() == [10, 11]
    assert box.ack(12) is None
    assert box.ack(11) is b and b.state == retry.ACKED
    assert box.ack(11) is None                  # a second copy of the ack changes nothing
    assert [x.counter for x in box.due(4000)] == [10]
    assert box.ack(10) is a and box.waiting_counters() == []
    for i in range(20):
        box.ack(box.add(100 + i, b"x", "x", False, 0).counter)
    box.prune(8)
    assert len(box.entries) == 8


# --- counter store ---------------------------------------------------------------

def check_counter_blocks_and_reboots():
    flash = FakeFlash()
    store = CounterStore(flash)
    assert flash.writes == 1 and store.reserved == BLOCK
    used = [store.next() for _ in range(BLOCK)]
    assert used == list(range(BLOCK)) and flash.writes == 1
    assert store.next() == BLOCK and flash.writes == 2
    seen = set(used + [BLOCK])
    last = BLOCK
    for boot in range(5):                      # reboot after a few frames each time
        store = CounterStore(flash)
        first = store.next()
        assert first > last and first - last <= BLOCK + 1, (first, last)
        for _ in range(boot * 100):
            v = store.next()
            assert v not in seen
            seen.add(v)
            last = v
        last = max(last, first)
        seen.add(first)


def check_counter_power_cut_and_damage():
    flash = FakeFlash()
    store = CounterStore(flash)
    top = [store.next() for _ in range(300)][-1]
    flash.cut_before_rename = True             # the reservation at boot is torn
    try:
        CounterStore(flash)
        raise AssertionError("a torn reservation must stop the boot")
    except OSError:
        pass
    flash.cut_before_rename = False
    store = CounterStore(flash)                # both files there: the larger wins
    assert store.next() > top
    flash.files["counter"] = b"12x 0000\n"
    flash.files.pop("counter.new", None)
    try:
        CounterStore(flash)
        raise AssertionError("a damaged counter file must not restart at 0")
    except CounterError:
        pass
    flash.files["counter.new"] = _encode(5000)
    assert CounterStore(flash).next() == 5000
    flash.files = {"counter": _encode(0xFFFFFFFF - 10)}
    try:
        CounterStore(flash)
        raise AssertionError("an exhausted counter must ask for a new key")
    except CounterError as exc:
        assert "re-key" in str(exc)


def check_counter_on_files(root):
    flash = FileFlash(root)
    assert flash.read("counter") is None
    store = CounterStore(flash)
    assert [store.next() for _ in range(3)] == [0, 1, 2]
    assert flash.read("counter") == _encode(BLOCK) and flash.read("counter.new") is None
    assert CounterStore(FileFlash(root)).next() == BLOCK


CHECKS = [
    check_keypad_casualty_kinds, check_keypad_healer_needs_second_badge, check_keypad_back_and_clear,
    check_keypad_badge_limits_and_hints, check_keypad_stopp_and_lift, check_gps_clock_from_rmc,
    check_retry_schedule_and_give_up, check_retry_stopp_never_gives_up_and_jitter,
    check_retry_ack_matches_counter_once,
    check_counter_blocks_and_reboots, check_counter_power_cut_and_damage, check_counter_on_files,
]


def run_all(root):
    """{check name: "ok" or the failure}; ``root`` is an empty directory for files."""
    out = {}
    for check in CHECKS:
        try:
            if check is check_counter_on_files:
                check(root)
            else:
                check()
            out[check.__name__] = "ok"
        except Exception as exc:
            out[check.__name__] = describe(exc)
    return out


def describe(exc):
    """The exception with its traceback, under either interpreter."""
    import io
    import sys
    buf = io.StringIO()
    if hasattr(sys, "print_exception"):
        sys.print_exception(exc, buf)
    else:
        import traceback
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=buf)
    return buf.getvalue() or repr(exc)


# --- keypad matrix, battery, provisioning file, boards ------------------------------

class Pin:
    def __init__(self, v=1):
        self.v = v

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v


class MatrixPins:
    """Rows and columns wired like a 4x4 membrane keypad; ``held`` keys close contacts."""

    def __init__(self):
        self.held = []
        self.rows = [Pin(1) for _ in range(4)]
        outer = self

        class Col(Pin):
            def __init__(self, c):
                self.c = c

            def value(self, v=None):
                for key in outer.held:
                    for r in range(4):
                        if key in matrix.LAYOUT[r] and matrix.LAYOUT[r].index(key) == self.c and outer.rows[r].v == 0:
                            return 0
                return 1

        self.cols = [Col(c) for c in range(4)]


import matrix  # noqa: E402  (after the helpers that use it by name)


def check_matrix_scan_and_debounce():
    pins = MatrixPins()
    stopp = Pin(1)
    m = matrix.Matrix(pins.rows, pins.cols, stopp)
    assert m.poll(0) is None
    pins.held = ["5"]
    assert m.poll(100) is None and m.poll(120) is None      # bouncing: not yet
    assert m.poll(130) == "5" and m.poll(200) is None       # once per press
    pins.held = []
    assert m.poll(210) is None
    for key in "123A456B789C*0#D":
        pins.held = [key]
        assert m.poll(1000) is None and m.poll(1030) == key, key
        pins.held = []
        m.poll(1040)
    pins.held, stopp.v = ["7"], 0
    m.poll(2000)
    assert m.poll(2030) == "STOPP"                           # STOPP beats a key held with it
    assert all(r.v == 1 for r in pins.rows)                  # rows released after each scan


class FakeI2C:
    def __init__(self, regs):
        self.regs = regs

    def readfrom_mem(self, addr, reg, n):
        assert addr == 0x34
        return bytes([self.regs.get(reg, 0)])

    def writeto_mem(self, addr, reg, buf):
        self.regs[reg] = buf[0]


def check_battery_readings():
    from battery import AdcBattery, Axp192, percent_from_mv
    assert [percent_from_mv(v) for v in (3000, 3300, 3650, 3700, 4000, 4150, 4300)] == [0, 0, 20, 30, 80, 95, 100]
    regs = {0x12: 0x02, 0x01: 0x20, 0x78: 0xDA, 0x79: 0x05}    # 0xDA5 = 3493 x 1.1 mV = 3842 mV
    pmu = Axp192(FakeI2C(regs))
    pmu.power_on()
    assert regs[0x12] == 0x4F and regs[0x28] == 0xFF and regs[0x82] & 0x80   # DC-DC3 (the ESP32) kept on
    assert pmu.millivolts() == 3842 and pmu.percent() == 61
    regs[0x01] = 0
    assert pmu.percent() is None
    ctl = Pin(1)
    seen = []
    adc = AdcBattery(lambda: seen.append(ctl.v) or 820000, 4.9, ctl)
    assert adc.percent() == 81 and seen == [0] and ctl.v == 1          # 4018 mV; divider off again
    assert AdcBattery(lambda: 1000, 4.9).percent() is None


DEVICE = ('{"format": "controlroom-device/1", "device": 12, "role": "marshal", "label": "M12", '
          '"group": null, "siege_engine": null, "key": "000102030405060708090a0b0c0d0e0f", '
          '"radio": {"region": "EU868", "sub_band": "g1", "freq": 868.3, "sf": 10, "bw": 125, '
          '"cr": 5, "interval": 120, "channels": 3}}')


def check_provisioning_file():
    import config
    cfg = config.load(DEVICE)
    assert cfg["device"] == 12 and cfg["role"] == "marshal" and cfg["key"] == bytes(range(16))
    assert cfg["radio"] == {"region": "EU868", "sub_band": "g1", "freq": 868.3, "sf": 10, "bw": 125, "cr": 5,
                            "interval": 120, "power": 14}
    assert cfg["board"] == config.DEFAULT_BOARD
    for bad, words in ((DEVICE.replace("device/1", "device/2"), "not a controlroom-device/1"),
                       (DEVICE.replace('"sf": 10', '"sf": 13'), "spreading factor"),
                       (DEVICE.replace('"bw": 125', '"bw": 100'), "bandwidth"),
                       (DEVICE.replace("0e0f", "0e"), "32 hex"),
                       (DEVICE.replace("0e0f", "0eXY"), "32 hex"),
                       (DEVICE.replace('"role": "marshal"', '"role": "king"'), "role"),
                       (DEVICE.replace('"interval": 120', '"interval": 2'), "too short"),
                       (DEVICE.replace('"device": 12', '"device": 0'), "device id"),
                       ("{", "not JSON")):
        try:
            config.load(bad)
            raise AssertionError("accepted: " + words)
        except config.ConfigError as exc:
            assert words in str(exc), (words, str(exc))


def check_boards():
    import boards
    for name in boards.BOARDS:
        b = boards.get(name)
        lora = b["lora"]
        assert b["radio"] in ("sx1276", "sx1262") and lora["cs"] >= 0
        assert ("busy" in lora) == (b["radio"] == "sx1262") and ("dio0" in lora) == (b["radio"] == "sx1276")
        used = [lora[k] for k in lora] + [b["spi"][k] for k in b["spi"]] + [b["i2c"]["sda"], b["i2c"]["scl"]]
        for k in ("keypad_rows", "keypad_cols"):
            used += list(b[k] or ())
        for k in ("oled_reset", "vext", "stopp", "battery_adc", "battery_ctl"):
            if b[k] is not None:
                used.append(b[k])
        if b["gps"]:
            used += [b["gps"]["rx"], b["gps"]["tx"]]
        assert len(used) == len(set(used)), (name, used)      # no pin serves twice
    assert boards.check_role("tbeam-v1.1-sx1262", "marshal")["lora"]["busy"] == 32
    assert boards.check_role("heltec-v3", "gateway")["spi"] == {"sck": 9, "mosi": 10, "miso": 11}
    for name, role in (("heltec-v2", "marshal"), ("heltec-v3", "tracker"), ("nosuch", "gateway")):
        try:
            boards.check_role(name, role)
            raise AssertionError((name, role))
        except ValueError:
            pass


CHECKS += [check_matrix_scan_and_debounce, check_battery_readings, check_provisioning_file, check_boards]
