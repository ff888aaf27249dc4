"""Builds the real hardware objects of a board (hardware-facing: machine, time).

Everything else in the firmware takes these objects through small
interfaces (radio_if.py, fakes.py), so this file and main.py are the only
ones that import ``machine``.  ``board`` is a pin map from boards.py.
"""

import random
import time

import machine
from machine import Pin

SPI_BAUD = 8000000
I2C_FREQ = 400000


class Clock:
    """Milliseconds since boot that never wrap (time.ticks_ms wraps after 2**30 ms on the ESP32)."""

    def __init__(self):
        self.last = time.ticks_ms()
        self.ms = 0

    def now(self):
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self.last)
        self.last = t
        return self.ms


def rand(n):
    """An int in 0..n-1 (the ESP32's random module is seeded from its hardware RNG)."""
    return random.getrandbits(30) % n if n > 0 else 0


def power_on(board):
    """Switch on the radio, GPS and display supplies; returns the shared I2C bus."""
    if board["vext"] is not None:
        Pin(board["vext"], Pin.OUT, value=0)        # Heltec Vext is active low
        time.sleep_ms(50)
    if board["oled_reset"] is not None:
        rst = Pin(board["oled_reset"], Pin.OUT, value=0)
        time.sleep_ms(10)
        rst.value(1)
    i2c = machine.I2C(0, sda=Pin(board["i2c"]["sda"]), scl=Pin(board["i2c"]["scl"]), freq=I2C_FREQ)
    if board["pmu"] == "axp192":
        from battery import Axp192
        Axp192(i2c).power_on()
        time.sleep_ms(50)
    return i2c


def radio(board):
    s, lora = board["spi"], board["lora"]
    spi = machine.SPI(1, baudrate=SPI_BAUD, polarity=0, phase=0,
                      sck=Pin(s["sck"]), mosi=Pin(s["mosi"]), miso=Pin(s["miso"]))
    cs = Pin(lora["cs"], Pin.OUT, value=1)
    reset = Pin(lora["reset"], Pin.OUT, value=1)
    if board["radio"] == "sx1262":
        from sx1262 import SX1262
        return SX1262(spi, cs, reset, Pin(lora["busy"], Pin.IN), time.sleep_ms, board["tcxo_volts"])
    from sx1276 import SX1276
    return SX1276(spi, cs, reset, time.sleep_ms)


def display(i2c):
    """The SSD1306 on the bus, or a display that shows nothing when none answers."""
    if 0x3C not in i2c.scan():
        return NoDisplay()
    from ssd1306 import SSD1306
    return SSD1306(i2c)


class NoDisplay:
    def show_lines(self, lines):
        pass


def _input(pin, esp32):
    # GPIO34..39 of the (non-S3) ESP32 are input-only without pull resistors:
    # the board (IO38) or a 10 kOhm resistor (IO39) pulls them up.
    return Pin(pin, Pin.IN, None if esp32 and pin >= 34 else Pin.PULL_UP)


def keys(board):
    from matrix import Matrix
    esp32 = board["mcu"] == "esp32"
    rows = [Pin(p, Pin.OUT, value=1) for p in board["keypad_rows"]]
    cols = [_input(p, esp32) for p in board["keypad_cols"]]
    return Matrix(rows, cols, _input(board["stopp"], esp32))


def gps(board):
    from gps import Gps
    g = board["gps"]
    uart = machine.UART(1, baudrate=g["baud"], rx=g["rx"], tx=g["tx"], rxbuf=1024)
    return Gps(uart.read)


def battery(board, i2c):
    if board["pmu"] == "axp192":
        from battery import Axp192
        return Axp192(i2c)
    if board["battery_adc"] is not None:
        from battery import AdcBattery
        adc = machine.ADC(Pin(board["battery_adc"]), atten=machine.ADC.ATTN_11DB)
        ctl = Pin(board["battery_ctl"], Pin.OUT, value=1) if board["battery_ctl"] is not None else None
        return AdcBattery(adc.read_uv, board["battery_factor"], ctl)
    return NoBattery()


class NoBattery:
    def percent(self):
        return None


def reset():
    machine.reset()
