"""The SX1276 and SX1262 drivers against register-level emulators, and the
SSD1306 driver under the real MicroPython (it needs framebuf).

Expected register values are worked out here from the datasheet formulas,
independently of the drivers.
"""

from pathlib import Path

import pytest
from radio_emulators import Pin, SX1262Emu, SX1276Emu

from controlroom.radio import codec
from tests.support.firmware_import import FIRMWARE, load

sx1276, sx1262, radio_if = load("sx1276", "sx1262", "radio_if")

FRAME = codec.encode_casualty(bytes(range(16)), 0x0102, 106, 1234, "healer_touch", 57)


def _sleep(ms):
    pass


def _sx1276(emu):
    return sx1276.SX1276(emu, emu.cs, Pin(1), _sleep)


def test_sx1276_configuration_registers():
    emu = SX1276Emu()
    r = _sx1276(emu)
    r.configure(868.1, 9, 125, 5, 14)
    assert (emu.reg(0x06), emu.reg(0x07), emu.reg(0x08)) == (0xD9, 0x06, 0x66)   # 868.1e6 / 61.035 Hz
    assert emu.reg(0x1D) == 0x72            # BW 125 kHz (7), CR 4/5 (1), explicit header
    assert emu.reg(0x1E) == 0x94            # SF9, CRC on
    assert emu.reg(0x26) == 0x04            # AGC auto, no LDRO at SF9
    assert emu.reg(0x39) == 0x12            # private sync word
    assert emu.reg(0x09) == 0xFC            # PA_BOOST, 14 dBm = 2 + 12
    assert (emu.reg(0x20), emu.reg(0x21)) == (0, 8)
    assert emu.reg(0x01) == 0x85            # LoRa, RX continuous
    assert (0x01, 0x80) in emu.writes       # sleep first: LongRangeMode changes only in sleep
    r.configure(869.525, 12, 125, 8, 20)
    assert emu.reg(0x26) == 0x0C and emu.reg(0x1D) == 0x78 and emu.reg(0x1E) == 0xC4
    assert emu.reg(0x4D) == 0x87 and emu.reg(0x09) == 0xFF     # +20 dBm needs PaDac
    frf = emu.reg(0x06) << 16 | emu.reg(0x07) << 8 | emu.reg(0x08)
    assert frf == round(869.525e6 * 2 ** 19 / 32e6)


def test_sx1276_send_and_receive():
    emu = SX1276Emu()
    r = _sx1276(emu)
    with pytest.raises(radio_if.RadioError):
        r.send(FRAME)
    r.configure(868.1, 9, 125, 5, 14)
    r.send(FRAME)
    assert emu.transmitted == [FRAME] and emu.reg(0x22) == len(FRAME)
    assert emu.reg(0x01) == 0x85            # listening again for the ack
    assert r.receive() is None
    emu.inject(FRAME, 60, -29)              # SNR -7.25 dB: packet RSSI = -157 + 60 - 7.25
    p = r.receive()
    assert p.data == FRAME and p.snr == -7.25 and p.rssi == -104
    emu.inject(b"\x01\x02\x03", 60, 30)
    p = r.receive()
    assert p.data == b"\x01\x02\x03" and p.snr == 7.5 and p.rssi == -97
    emu.inject(b"\x01", 60, 30, crc_error=True)
    assert r.receive() is None and r.crc_errors == 1
    assert r.receive() is None


def test_sx1276_missing_chip_and_bad_settings():
    with pytest.raises(radio_if.RadioError, match="no SX1276"):
        _sx1276(SX1276Emu(version=0x00))
    r = _sx1276(SX1276Emu())
    for bad in ((868.1, 6, 125, 5, 14), (868.1, 9, 100, 5, 14), (868.1, 9, 125, 9, 14), (2400.0, 9, 125, 5, 14)):
        with pytest.raises(ValueError):
            r.configure(*bad)


def _sx1262(emu, tcxo=1.8):
    return sx1262.SX1262(emu, emu.cs, Pin(1), emu.busy, _sleep, tcxo)


def test_sx1262_configuration_commands():
    emu = SX1262Emu()
    r = _sx1262(emu)
    r.configure(868.1, 9, 125, 5, 14)
    assert emu.sent(0x97) == [bytes([0x02, 0x00, 0x01, 0x40])]      # TCXO 1.8 V, 5 ms
    assert emu.sent(0x9D) == [b"\x01"]                               # DIO2 drives the RF switch
    assert emu.sent(0x8A) == [b"\x01"]                               # LoRa
    assert emu.sent(0x98) == [bytes([0xD7, 0xDB])]                   # image calibration 863-870 MHz
    rf = round(868.1e6 * 2 ** 25 / 32e6)
    assert emu.sent(0x86) == [rf.to_bytes(4, "big")]
    assert emu.sent(0x8B) == [bytes([9, 0x04, 0x01, 0x00])]          # SF9, 125 kHz, 4/5, no LDRO
    assert emu.sent(0x95) == [bytes([0x04, 0x07, 0x00, 0x01])]
    assert emu.sent(0x8E) == [bytes([14, 0x04])]
    assert emu.registers[0x0740] == 0x14 and emu.registers[0x0741] == 0x24   # sync word 0x12
    assert emu.sent(0x82)[-1] == b"\xff\xff\xff" and emu.mode == 5   # continuous RX
    assert emu.sent(0x8C)[-1] == bytes([0, 8, 0, 255, 1, 0])
    r.configure(915.0, 12, 125, 8, 22)
    assert emu.sent(0x8B)[-1] == bytes([12, 0x04, 0x04, 0x01]) and emu.sent(0x98)[-1] == bytes([0xE1, 0xE9])
    no_tcxo = SX1262Emu()
    _sx1262(no_tcxo, None).configure(868.1, 7, 250, 5, 10)
    assert no_tcxo.sent(0x97) == [] and no_tcxo.sent(0x8B) == [bytes([7, 0x05, 0x01, 0x00])]


def test_sx1262_send_and_receive():
    emu = SX1262Emu()
    r = _sx1262(emu)
    r.configure(868.1, 9, 125, 5, 14)
    r.send(FRAME)
    assert emu.transmitted == [FRAME] and emu.mode == 5
    assert r.receive() is None
    emu.inject(FRAME, 195, -29)               # RSSI -195/2, SNR -29/4
    p = r.receive()
    assert p.data == FRAME and p.rssi == -98 and p.snr == -7.25
    emu.inject(b"\x07", 100, 20, crc_error=True)
    assert r.receive() is None and r.crc_errors == 1


def test_sx1262_missing_or_stuck_chip():
    with pytest.raises(radio_if.RadioError, match="no SX1262"):
        _sx1262(type("Dead", (SX1262Emu,), {"status": lambda self: 0})())
    stuck = SX1262Emu()
    stuck.busy.v = 1
    with pytest.raises(radio_if.RadioError, match="busy"):
        _sx1262(stuck)


def test_sync_word_mapping():
    assert sx1262.sync_word_bytes(0x12) == b"\x14\x24" and sx1262.sync_word_bytes(0x34) == b"\x34\x44"


SSD1306_SCRIPT = """
import ssd1306
class I2C:
    def __init__(self):
        self.writes = []
    def writeto(self, addr, buf):
        self.writes.append((addr, bytes(buf)))
bus = I2C()
d = ssd1306.SSD1306(bus)
init = [w[1][1] for w in bus.writes[:25] if w[1][0] == 0x80]
print("INIT", " ".join(["%02X" % c for c in init]))
bus.writes = []
d.show_lines(["1234 DOWN", "  sent"])
data = bus.writes[-1][1]
print("DATA", len(data), data[0], sum([1 for b in data[1:] if b]), bus.writes[-1][0])
d.show_lines([])
print("BLANK", sum([1 for b in bus.writes[-1][1][1:] if b]))
"""


@pytest.mark.micropython
def test_ssd1306_under_micropython(micropython):
    out = dict(line.split(" ", 1) for line in micropython(SSD1306_SCRIPT, [FIRMWARE / "ssd1306.py"]).splitlines())
    assert out["INIT"].startswith("AE 20 00 40 A1 A8 3F C8 D3 00 DA 12 D5 80 D9 F1 DB 30 81 FF A4 A6 8D 14 AF")
    n, control, lit, addr = map(int, out["DATA"].split())
    assert n == 1 + 1024 and control == 0x40 and addr == 0x3C and lit > 20
    assert out["BLANK"] == "0"


DRIVERS_SCRIPT = """
import json, sx1276, sx1262, radio_emulators
print("RESULT " + json.dumps(radio_emulators.exercise(sx1276, sx1262, bytes(%r))))
"""


@pytest.mark.micropython
def test_drivers_do_the_same_under_micropython(micropython):
    """The drivers run on the device: same SPI traffic under MicroPython as under CPython."""
    import json

    import radio_emulators
    expected = json.loads(json.dumps(radio_emulators.exercise(sx1276, sx1262, FRAME)))
    files = [FIRMWARE / "sx1276.py", FIRMWARE / "sx1262.py", FIRMWARE / "radio_if.py", Path(radio_emulators.__file__)]
    out = micropython(DRIVERS_SCRIPT % list(FRAME), files)
    got = json.loads(out.split("RESULT ", 1)[1])
    assert got == expected
    assert expected["sx1276"]["sent"] == expected["sx1262"]["sent"] == [FRAME.hex().upper()]
    assert expected["sx1276"]["rx"] == [FRAME.hex().upper(), -104, -7.25]
