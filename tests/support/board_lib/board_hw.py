"""The fake board's hardware (hw.py's functions): the firmware's own fakes, a frame on air printed as a line.

``AIR <hex>`` is printed for every frame the radio sends; after ``board_settings.FRAMES`` frames the
firmware is stopped as mpremote's Ctrl-C would stop it (KeyboardInterrupt), so that the board is back at
its prompt.
"""

import board_settings
import board_time
import fakes
import machine


class Clock:
    def now(self):
        return board_time.now_ms()


class AirRadio(fakes.FakeRadio):
    def __init__(self):
        fakes.FakeRadio.__init__(self, "board")
        self.frames = 0

    def send(self, data):
        fakes.FakeRadio.send(self, data)
        print("AIR " + "".join(["%02X" % b for b in data]))
        self.frames += 1
        if self.frames >= board_settings.FRAMES:
            raise KeyboardInterrupt()


def rand(n):
    """Always 0: the first position ping goes at once (not at a random time within the first interval)."""
    return 0


def power_on(board):
    return None


def radio(board):
    return AirRadio()


def display(i2c):
    return fakes.FakeDisplay()


def keys(board):
    k = fakes.FakeKeys()
    k.press(*board_settings.KEYS)
    return k


def gps(board):
    return fakes.FakeGps(board_settings.LAT, board_settings.LON, 1, 9)


def battery(board, i2c):
    return fakes.FakeBattery(board_settings.BATTERY)


def reset():
    machine.reset()
