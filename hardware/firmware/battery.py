"""Battery level: the T-Beam's AXP192 power chip, or an ADC behind a divider (portable).

Both give ``percent() -> 0..100`` or None (no battery, or unreadable), the
battery interface of fakes.FakeBattery.  They take the bus or ADC object
from hw.py, so nothing here imports ``machine``.

AXP192 registers (X-Powers AXP192 datasheet): 0x01 bit 5 battery present,
0x12 output enables (bit 0 DC-DC1 = OLED header, 2 LDO2 = LoRa, 3 LDO3 =
GPS, 6 EXTEN; DC-DC3 powers the ESP32 itself and is left alone), 0x28
LDO2/LDO3 voltage (1.8 V + 0.1 V per step, high/low nibble), 0x82 bit 7
battery-voltage ADC on, 0x78/0x79 battery voltage (12 bits, 1.1 mV each).
"""

# Resting LiPo/Li-ion cell voltage (mV) -> charge (%), linear in between.
CURVE = ((3300, 0), (3600, 10), (3700, 30), (3750, 45), (3800, 55), (3900, 70), (4000, 80),
         (4100, 90), (4200, 100))
AXP192_ADDR = 0x34


def percent_from_mv(mv):
    """Charge in percent (int 0..100) of a single cell at ``mv`` millivolts."""
    if mv <= CURVE[0][0]:
        return 0
    for i in range(1, len(CURVE)):
        v1, p1 = CURVE[i]
        if mv <= v1:
            v0, p0 = CURVE[i - 1]
            return int(p0 + (p1 - p0) * (mv - v0) // (v1 - v0))
    return 100


class Axp192:
    """The AXP192 on the T-Beam v1.1: switches on LoRa, GPS and OLED power, reads the battery."""

    def __init__(self, i2c, addr=AXP192_ADDR):
        self.i2c, self.addr = i2c, addr

    def read(self, reg):
        return self.i2c.readfrom_mem(self.addr, reg, 1)[0]

    def write(self, reg, value):
        self.i2c.writeto_mem(self.addr, reg, bytes([value]))

    def power_on(self):
        self.write(0x28, 0xFF)                         # LDO2 (LoRa) and LDO3 (GPS) at 3.3 V
        self.write(0x12, self.read(0x12) | 0x4D)       # DC-DC1, LDO2, LDO3, EXTEN on
        self.write(0x82, self.read(0x82) | 0x80)       # battery voltage ADC on

    def millivolts(self):
        if not self.read(0x01) & 0x20:
            return None
        high, low = self.read(0x78), self.read(0x79)
        return (high << 4 | (low & 0x0F)) * 11 // 10

    def percent(self):
        try:
            mv = self.millivolts()
        except OSError:
            return None
        return None if mv is None else percent_from_mv(mv)


class AdcBattery:
    """A battery on an ADC pin behind a divider (Heltec boards).

    ``read_uv()`` returns microvolts at the pin (machine.ADC.read_uv);
    ``control`` is an optional pin switching the divider on (active low).
    """

    def __init__(self, read_uv, factor, control=None):
        self.read_uv, self.factor, self.control = read_uv, factor, control

    def percent(self):
        if self.control is not None:
            self.control.value(0)
        try:
            mv = int(self.read_uv() * self.factor / 1000)
        except OSError:
            return None
        finally:
            if self.control is not None:
                self.control.value(1)
        if mv < 2500:                                   # nothing connected
            return None
        return percent_from_mv(mv)
