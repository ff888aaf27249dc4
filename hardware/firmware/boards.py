"""Pin maps of the supported boards, all in one place (portable, data only).

Sources: LILYGO's TTGO-T-Beam repository (utilities.h, board "T-Beam V1.1"),
Heltec's WiFi LoRa 32 V2 / V2.1 and V3 schematics and pin maps (as used by
the Meshtastic and ESP32-Paxcounter board variants).  GPIO numbers.

A new board is one more entry here; a new radio chip is one more driver
file named by "radio" (see radio_if.py and hw.py).

Keys: radio (driver module), spi (sck, mosi, miso), lora (cs, reset, and
dio0 for the SX1276 or busy/dio1 for the SX1262), tcxo_volts (SX1262
modules whose crystal oscillator is powered from DIO3), i2c (sda, scl,
shared by the SSD1306 and the power chip), oled_reset, vext (pin that
powers the display and antenna switch, active low), pmu ("axp192" or
None), battery_adc / battery_ctl / battery_factor (battery voltage on an
ADC pin behind a divider), gps (rx = the pin the ESP32 receives on, tx,
baud) or None, stopp (STOPP button, to GND), keypad_rows / keypad_cols
(4x4 matrix: rows driven low one at a time, columns read with pull-ups),
led, mcu.
"""

# T-Beam v1.1 (ESP32, AXP192 power chip, NEO-6M/M8N GPS, 18650 holder).
# Free header pins for the keypad: 13 14 15 25 (rows), 0 2 4 39 (columns;
# 39 is input-only without a pull-up: fit a 10 kOhm resistor to 3V3).
# The STOPP button is wired in parallel with the board's user button IO38.
_TBEAM = {
    "mcu": "esp32",
    "spi": {"sck": 5, "mosi": 27, "miso": 19},
    "i2c": {"sda": 21, "scl": 22},
    "oled_reset": None,
    "vext": None,
    "pmu": "axp192",
    "battery_adc": None, "battery_ctl": None, "battery_factor": None,
    "gps": {"rx": 34, "tx": 12, "baud": 9600},
    "stopp": 38,
    "keypad_rows": (13, 14, 15, 25),
    "keypad_cols": (0, 2, 4, 39),
    "led": None,          # IO4 drives the blue LED on some v1.1 boards: here it reads a column
}

BOARDS = {
    "tbeam-v1.1-sx1276": dict(_TBEAM, radio="sx1276",
                              lora={"cs": 18, "reset": 23, "dio0": 26, "dio1": 33, "dio2": 32},
                              tcxo_volts=None),
    "tbeam-v1.1-sx1262": dict(_TBEAM, radio="sx1262",
                              lora={"cs": 18, "reset": 23, "busy": 32, "dio1": 33},
                              tcxo_volts=1.8),
    # Heltec WiFi LoRa 32 V2 / V2.1 (ESP32, SX1276, on-board SSD1306).  Gateway.
    "heltec-v2": {
        "mcu": "esp32", "radio": "sx1276",
        "spi": {"sck": 5, "mosi": 27, "miso": 19},
        "lora": {"cs": 18, "reset": 14, "dio0": 26, "dio1": 35, "dio2": 34},
        "tcxo_volts": None,
        "i2c": {"sda": 4, "scl": 15}, "oled_reset": 16, "vext": 21, "pmu": None,
        "battery_adc": 37, "battery_ctl": None, "battery_factor": 3.8,    # V2.1; V2.0 used IO13
        "gps": None, "stopp": 0, "keypad_rows": None, "keypad_cols": None, "led": 25,
    },
    # Heltec WiFi LoRa 32 V3 (ESP32-S3, SX1262 with TCXO on DIO3, on-board SSD1306).  Gateway.
    "heltec-v3": {
        "mcu": "esp32s3", "radio": "sx1262",
        "spi": {"sck": 9, "mosi": 10, "miso": 11},
        "lora": {"cs": 8, "reset": 12, "busy": 13, "dio1": 14},
        "tcxo_volts": 1.8,
        "i2c": {"sda": 17, "scl": 18}, "oled_reset": 21, "vext": 36, "pmu": None,
        "battery_adc": 1, "battery_ctl": 37, "battery_factor": 4.9,       # 390k/100k divider
        "gps": None, "stopp": 0, "keypad_rows": None, "keypad_cols": None, "led": 35,
    },
}

# What each role needs of a board.
ROLE_NEEDS = {"marshal": ("gps", "keypad_rows", "stopp"), "tracker": ("gps",), "gateway": ()}


def get(name):
    """The pin map of board ``name``; ValueError naming the known boards."""
    if name not in BOARDS:
        raise ValueError("unknown board %r: use one of %s" % (name, ", ".join(sorted(BOARDS))))
    return BOARDS[name]


def check_role(name, role):
    """ValueError when board ``name`` lacks what ``role`` needs (a GPS, a keypad)."""
    board = get(name)
    for need in ROLE_NEEDS[role]:
        if board.get(need) is None:
            raise ValueError("board %s has no %s, which a %s needs" % (name, need.split("_")[0], role))
    return board
