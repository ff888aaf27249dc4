"""Semtech SX1276/77/78/79 LoRa driver over SPI (radio_if interface).

Register map from the SX1276/77/78/79 datasheet (rev. 7), chapter 6.4
(LoRa registers).  The driver polls RegIrqFlags over SPI instead of
waiting for DIO0, so it needs only SPI, chip select and reset.

``SX1276(spi, cs, reset, sleep_ms)``: ``spi`` has write(buf) and
write_readinto(out, into) (machine.SPI); ``cs`` and ``reset`` are pins with
value(v) (machine.Pin); ``sleep_ms(ms)`` is time.sleep_ms on the device.
"""

from radio_if import PREAMBLE, SYNC_WORD, Packet, RadioError, bandwidth_index, check_settings, low_data_rate

REG_FIFO = 0x00
REG_OP_MODE = 0x01
REG_FRF_MSB = 0x06
REG_PA_CONFIG = 0x09
REG_OCP = 0x0B
REG_LNA = 0x0C
REG_FIFO_ADDR_PTR = 0x0D
REG_FIFO_TX_BASE = 0x0E
REG_FIFO_RX_BASE = 0x0F
REG_FIFO_RX_CURRENT = 0x10
REG_IRQ_FLAGS = 0x12
REG_RX_NB_BYTES = 0x13
REG_PKT_SNR = 0x19
REG_PKT_RSSI = 0x1A
REG_MODEM_CONFIG_1 = 0x1D
REG_MODEM_CONFIG_2 = 0x1E
REG_PREAMBLE_MSB = 0x20
REG_PAYLOAD_LENGTH = 0x22
REG_MODEM_CONFIG_3 = 0x26
REG_DETECT_OPTIMIZE = 0x31
REG_DETECTION_THRESHOLD = 0x37
REG_SYNC_WORD = 0x39
REG_DIO_MAPPING_1 = 0x40
REG_VERSION = 0x42
REG_PA_DAC = 0x4D

LONG_RANGE = 0x80                 # RegOpMode: LoRa mode
MODE_SLEEP, MODE_STDBY, MODE_TX, MODE_RX_CONTINUOUS = 0x00, 0x01, 0x03, 0x05
IRQ_TX_DONE, IRQ_CRC_ERROR, IRQ_RX_DONE = 0x08, 0x20, 0x40
VERSION = 0x12
FXOSC = 32000000
TX_TIMEOUT_MS = 5000


class SX1276:
    name = "sx1276"

    def __init__(self, spi, cs, reset, sleep_ms):
        self.spi, self.cs, self.reset_pin, self.sleep_ms = spi, cs, reset, sleep_ms
        self.crc_errors = 0
        self.freq = None
        cs.value(1)
        self.reset()
        version = self.read(REG_VERSION)
        if version != VERSION:
            raise RadioError("no SX1276 found (version register 0x%02X, expected 0x12)" % version)

    # -- registers ------------------------------------------------------------------

    def reset(self):
        self.reset_pin.value(0)
        self.sleep_ms(1)
        self.reset_pin.value(1)
        self.sleep_ms(6)                  # datasheet 7.2.2: 5 ms after reset

    def read(self, reg):
        buf = bytearray(2)
        self.cs.value(0)
        self.spi.write_readinto(bytes([reg & 0x7F, 0]), buf)
        self.cs.value(1)
        return buf[1]

    def write(self, reg, value):
        self.cs.value(0)
        self.spi.write(bytes([reg | 0x80, value & 0xFF]))
        self.cs.value(1)

    def read_fifo(self, n):
        buf = bytearray(n + 1)
        self.cs.value(0)
        self.spi.write_readinto(bytes([REG_FIFO]) + bytes(n), buf)
        self.cs.value(1)
        return bytes(buf[1:])

    def write_fifo(self, data):
        self.cs.value(0)
        self.spi.write(bytes([REG_FIFO | 0x80]) + bytes(data))
        self.cs.value(1)

    def mode(self, mode):
        self.write(REG_OP_MODE, LONG_RANGE | mode)

    # -- radio_if ---------------------------------------------------------------------

    def configure(self, freq, sf, bw, cr, power):
        check_settings(freq, sf, bw, cr, power)
        self.mode(MODE_SLEEP)             # LongRangeMode can only change in sleep
        self.mode(MODE_STDBY)
        frf = ((int(freq * 1000 + 0.5) * 1000 << 19) + FXOSC // 2) // FXOSC   # integers: ESP32 floats are 32-bit
        self.write(REG_FRF_MSB, frf >> 16)
        self.write(REG_FRF_MSB + 1, frf >> 8)
        self.write(REG_FRF_MSB + 2, frf)
        self.freq = freq
        self.write(REG_MODEM_CONFIG_1, bandwidth_index(bw) << 4 | (cr - 4) << 1)   # explicit header
        self.write(REG_MODEM_CONFIG_2, sf << 4 | 0x04)                          # RxPayloadCrcOn
        self.write(REG_MODEM_CONFIG_3, (0x08 if low_data_rate(sf, bw) else 0) | 0x04)  # LDRO, AGC auto
        self.write(REG_DETECT_OPTIMIZE, 0xC3)       # SF7..12
        self.write(REG_DETECTION_THRESHOLD, 0x0A)
        self.write(REG_PREAMBLE_MSB, PREAMBLE >> 8)
        self.write(REG_PREAMBLE_MSB + 1, PREAMBLE & 0xFF)
        self.write(REG_SYNC_WORD, SYNC_WORD)
        self.write(REG_LNA, 0x23)                   # max gain, boost on (HF port)
        self._power(power)
        self.write(REG_FIFO_TX_BASE, 0x00)
        self.write(REG_FIFO_RX_BASE, 0x00)
        self._listen()

    def _power(self, power):
        # PA_BOOST pin (all T-Beam and Heltec SX1276 boards): 2..17 dBm, 20 dBm with PaDac.
        power = min(max(power, 2), 20)
        if power > 17:
            self.write(REG_PA_DAC, 0x87)
            self.write(REG_OCP, 0x20 | 17)          # 140 mA: -30 + 10 * 17
            self.write(REG_PA_CONFIG, 0x80 | 0x70 | (power - 5))
        else:
            self.write(REG_PA_DAC, 0x84)
            self.write(REG_OCP, 0x20 | 11)          # 100 mA
            self.write(REG_PA_CONFIG, 0x80 | 0x70 | (power - 2))

    def _listen(self):
        self.write(REG_DIO_MAPPING_1, 0x00)         # DIO0 = RxDone
        self.write(REG_IRQ_FLAGS, 0xFF)
        self.mode(MODE_RX_CONTINUOUS)

    def send(self, data):
        if self.freq is None:
            raise RadioError("send before configure")
        if not 1 <= len(data) <= 255:
            raise ValueError("a LoRa packet is 1..255 bytes")
        self.mode(MODE_STDBY)
        self.write(REG_FIFO_ADDR_PTR, 0x00)
        self.write_fifo(data)
        self.write(REG_PAYLOAD_LENGTH, len(data))
        self.write(REG_DIO_MAPPING_1, 0x40)         # DIO0 = TxDone
        self.write(REG_IRQ_FLAGS, 0xFF)
        self.mode(MODE_TX)
        waited = 0
        while not self.read(REG_IRQ_FLAGS) & IRQ_TX_DONE:
            if waited >= TX_TIMEOUT_MS:
                self._listen()
                raise RadioError("SX1276 transmit timed out")
            self.sleep_ms(1)
            waited += 1
        self._listen()

    def receive(self):
        flags = self.read(REG_IRQ_FLAGS)
        if not flags & IRQ_RX_DONE:
            return None
        self.write(REG_IRQ_FLAGS, 0xFF)
        if flags & IRQ_CRC_ERROR:
            self.crc_errors += 1
            return None
        n = self.read(REG_RX_NB_BYTES)
        self.write(REG_FIFO_ADDR_PTR, self.read(REG_FIFO_RX_CURRENT))
        data = self.read_fifo(n)
        snr = self.read(REG_PKT_SNR)
        snr = (snr - 256 if snr > 127 else snr) / 4.0
        rssi = -157 + self.read(REG_PKT_RSSI)       # HF port (datasheet 5.5.5)
        if snr < 0:
            rssi = rssi + snr
        return Packet(data, int(rssi), snr)
