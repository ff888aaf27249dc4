"""Semtech SX1261/62 LoRa driver over SPI commands (radio_if interface).

Commands from the SX1261/2 datasheet (rev. 2.1), chapter 13.  The chip
answers only when BUSY is low; the driver waits for it before every
command.  DIO2 drives the antenna switch and DIO3 powers the TCXO on the
T-Beam SX1262 and Heltec V3 modules.  Interrupts are read with
GetIrqStatus over SPI, so DIO1 need not be wired to an interrupt.

``SX1262(spi, cs, reset, busy, sleep_ms, tcxo_volts=1.8)``: ``busy`` is an
input pin with value(); the rest as in sx1276.py.
"""

from radio_if import PREAMBLE, SYNC_WORD, Packet, RadioError, bandwidth_index, check_settings, low_data_rate

CLEAR_IRQ_STATUS = 0x02
SET_DIO_IRQ_PARAMS = 0x08
WRITE_REGISTER = 0x0D
WRITE_BUFFER = 0x0E
GET_IRQ_STATUS = 0x12
GET_RX_BUFFER_STATUS = 0x13
GET_PACKET_STATUS = 0x14
READ_REGISTER = 0x1D
READ_BUFFER = 0x1E
SET_STANDBY = 0x80
SET_RX = 0x82
SET_TX = 0x83
SET_RF_FREQUENCY = 0x86
CALIBRATE = 0x89
SET_PACKET_TYPE = 0x8A
SET_MODULATION_PARAMS = 0x8B
SET_PACKET_PARAMS = 0x8C
SET_TX_PARAMS = 0x8E
SET_BUFFER_BASE_ADDRESS = 0x8F
SET_PA_CONFIG = 0x95
SET_REGULATOR_MODE = 0x96
SET_DIO3_AS_TCXO_CTRL = 0x97
CALIBRATE_IMAGE = 0x98
SET_DIO2_AS_RF_SWITCH_CTRL = 0x9D
GET_STATUS = 0xC0

REG_LORA_SYNC_WORD = 0x0740       # 0x1424: private network (the SX127x's 0x12)
IRQ_TX_DONE, IRQ_RX_DONE, IRQ_HEADER_ERR, IRQ_CRC_ERR, IRQ_TIMEOUT = 0x0001, 0x0002, 0x0020, 0x0040, 0x0200
PACKET_TYPE_LORA = 0x01
STDBY_RC, STDBY_XOSC = 0x00, 0x01
# LoRa bandwidth codes in the order of radio_if.BANDWIDTHS (datasheet 13.4.5.2).
BW_CODES = (0x00, 0x08, 0x01, 0x09, 0x02, 0x0A, 0x03, 0x04, 0x05, 0x06)
# DIO3 TCXO voltage codes: 1.6, 1.7, 1.8, 2.2, 2.4, 2.7, 3.0, 3.3 V.
TCXO_VOLTS = (1.6, 1.7, 1.8, 2.2, 2.4, 2.7, 3.0, 3.3)
FXTAL = 32000000
BUSY_TIMEOUT_MS = 100
TX_TIMEOUT_MS = 5000


def sync_word_bytes(word):
    """The SX126x's two sync word bytes for an SX127x one-byte sync word."""
    return bytes([(word & 0xF0) | 0x04, ((word & 0x0F) << 4) | 0x04])


def image_band(freq):
    """CalibrateImage arguments for the band around ``freq`` MHz (datasheet 9.2.1)."""
    for low, high, a, b in ((430, 440, 0x6B, 0x6F), (470, 510, 0x75, 0x81), (779, 787, 0xC1, 0xC5),
                            (863, 870, 0xD7, 0xDB), (902, 928, 0xE1, 0xE9)):
        if low <= freq <= high:
            return bytes([a, b])
    return bytes([0xD7, 0xDB]) if freq < 900 else bytes([0xE1, 0xE9])


class SX1262:
    name = "sx1262"

    def __init__(self, spi, cs, reset, busy, sleep_ms, tcxo_volts=1.8):
        self.spi, self.cs, self.reset_pin, self.busy, self.sleep_ms = spi, cs, reset, busy, sleep_ms
        self.tcxo_volts = tcxo_volts
        self.crc_errors = 0
        self.freq = None
        cs.value(1)
        self.reset()
        self.command(SET_STANDBY, STDBY_RC)
        mode = (self.status() >> 4) & 0x07
        if mode != 2:                     # 2 = STBY_RC
            raise RadioError("no SX1262 found (status chip mode %d, expected 2)" % mode)

    # -- commands ---------------------------------------------------------------------

    def reset(self):
        self.reset_pin.value(0)
        self.sleep_ms(1)
        self.reset_pin.value(1)
        self.sleep_ms(10)
        self._wait()

    def _wait(self):
        waited = 0
        while self.busy.value():
            if waited >= BUSY_TIMEOUT_MS:
                raise RadioError("SX1262 stays busy")
            self.sleep_ms(1)
            waited += 1

    def command(self, opcode, *args):
        """Send a command; args are ints (one byte each) or bytes."""
        out = bytearray([opcode])
        for a in args:
            if isinstance(a, int):
                out.append(a & 0xFF)
            else:
                out.extend(a)
        self._wait()
        self.cs.value(0)
        self.spi.write(out)
        self.cs.value(1)

    def query(self, opcode, args, n):
        """A command that answers: ``n`` bytes after the status byte."""
        out = bytes([opcode]) + bytes(args) + bytes(n + 1)
        buf = bytearray(len(out))
        self._wait()
        self.cs.value(0)
        self.spi.write_readinto(out, buf)
        self.cs.value(1)
        return bytes(buf[len(out) - n:])

    def status(self):
        buf = bytearray(2)
        self._wait()
        self.cs.value(0)
        self.spi.write_readinto(bytes([GET_STATUS, 0]), buf)
        self.cs.value(1)
        return buf[1]

    def irq_status(self):
        b = self.query(GET_IRQ_STATUS, b"", 2)
        return b[0] << 8 | b[1]

    # -- radio_if ---------------------------------------------------------------------

    def configure(self, freq, sf, bw, cr, power):
        check_settings(freq, sf, bw, cr, power)
        self.command(SET_STANDBY, STDBY_RC)
        if self.tcxo_volts is not None:
            code = TCXO_VOLTS.index(self.tcxo_volts)
            self.command(SET_DIO3_AS_TCXO_CTRL, code, 0x00, 0x01, 0x40)   # 5 ms start-up (320 x 15.625 us)
            self.command(CALIBRATE, 0x7F)
            self.sleep_ms(5)
        self.command(SET_REGULATOR_MODE, 0x01)                 # DC-DC
        self.command(SET_DIO2_AS_RF_SWITCH_CTRL, 0x01)
        self.command(SET_PACKET_TYPE, PACKET_TYPE_LORA)
        self.command(CALIBRATE_IMAGE, image_band(freq))
        rf = ((int(freq * 1000 + 0.5) * 1000 << 25) + FXTAL // 2) // FXTAL   # integers: ESP32 floats are 32-bit
        self.command(SET_RF_FREQUENCY, bytes([rf >> 24 & 0xFF, rf >> 16 & 0xFF, rf >> 8 & 0xFF, rf & 0xFF]))
        self.freq = freq
        self.command(SET_PA_CONFIG, 0x04, 0x07, 0x00, 0x01)      # SX1262, up to +22 dBm
        self.command(SET_TX_PARAMS, min(max(power, -9), 22) & 0xFF, 0x04)   # 200 us ramp
        self.command(SET_BUFFER_BASE_ADDRESS, 0x00, 0x00)
        self.command(SET_MODULATION_PARAMS, sf, BW_CODES[bandwidth_index(bw)], cr - 4,
                     1 if low_data_rate(sf, bw) else 0)
        self._packet_params(255)
        self.command(WRITE_REGISTER, REG_LORA_SYNC_WORD >> 8, REG_LORA_SYNC_WORD & 0xFF, sync_word_bytes(SYNC_WORD))
        # TxDone RxDone HdrErr CrcErr Timeout on DIO1
        self.command(SET_DIO_IRQ_PARAMS, 0x02, 0x63, 0x02, 0x63, 0x00, 0x00, 0x00, 0x00)
        self._listen()

    def _packet_params(self, length):
        # preamble, explicit header, payload length, CRC on, standard IQ
        self.command(SET_PACKET_PARAMS, PREAMBLE >> 8, PREAMBLE & 0xFF, 0x00, length, 0x01, 0x00)

    def _listen(self):
        self.command(CLEAR_IRQ_STATUS, 0xFF, 0xFF)
        self._packet_params(255)
        self.command(SET_RX, 0xFF, 0xFF, 0xFF)                  # continuous

    def send(self, data):
        if self.freq is None:
            raise RadioError("send before configure")
        if not 1 <= len(data) <= 255:
            raise ValueError("a LoRa packet is 1..255 bytes")
        self.command(SET_STANDBY, STDBY_RC)
        self.command(WRITE_BUFFER, 0x00, bytes(data))
        self._packet_params(len(data))
        self.command(CLEAR_IRQ_STATUS, 0xFF, 0xFF)
        self.command(SET_TX, 0x00, 0x00, 0x00)                  # no timeout
        waited = 0
        while not self.irq_status() & IRQ_TX_DONE:
            if waited >= TX_TIMEOUT_MS:
                self._listen()
                raise RadioError("SX1262 transmit timed out")
            self.sleep_ms(1)
            waited += 1
        self._listen()

    def receive(self):
        irq = self.irq_status()
        if not irq & IRQ_RX_DONE:
            return None
        self.command(CLEAR_IRQ_STATUS, 0xFF, 0xFF)
        if irq & (IRQ_CRC_ERR | IRQ_HEADER_ERR):
            self.crc_errors += 1
            return None
        length, start = self.query(GET_RX_BUFFER_STATUS, b"", 2)
        data = self.query(READ_BUFFER, bytes([start]), length)
        rssi_pkt, snr_pkt, _signal = self.query(GET_PACKET_STATUS, b"", 3)
        snr = (snr_pkt - 256 if snr_pkt > 127 else snr_pkt) / 4.0
        return Packet(data, -rssi_pkt // 2, snr)
