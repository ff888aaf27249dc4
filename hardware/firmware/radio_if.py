"""The radio interface every LoRa driver implements, and checks they share.

Portable (CPython and MicroPython).  A driver (sx1276.py, sx1262.py, the
FakeRadio in fakes.py) is any object with:

    configure(freq, sf, bw, cr, power)  freq MHz (float), sf 7..12, bw kHz
                                        (one of BANDWIDTHS), cr 5..8 (4/5..4/8),
                                        power dBm; raises ValueError on bad
                                        settings (check_settings)
    send(data) -> None                  transmit bytes (1..255); blocks until
                                        sent, then listens again; raises
                                        RadioError on a fault or timeout
    receive() -> Packet or None         a packet heard since the last call
                                        (good LoRa CRC only); never blocks
    crc_errors                          packets dropped for a bad LoRa CRC
    name                                chip name, for the gateway's ID line

After configure() the radio listens continuously: a handset must hear the
acknowledgement of what it sent (PROTOCOL.md section 6).  A second chip is
one new file with these four members; nothing else changes.
"""

BANDWIDTHS = (7.8, 10.4, 15.6, 20.8, 31.25, 41.7, 62.5, 125, 250, 500)
SYNC_WORD = 0x12          # private LoRa network (not LoRaWAN's 0x34)
PREAMBLE = 8              # symbols, as the airtime planner assumes


class RadioError(Exception):
    """The radio did not do what it was told (no chip, timeout, fault)."""


class Packet:
    """A received LoRa packet: ``data`` bytes, ``rssi`` dBm (int), ``snr`` dB (float)."""

    __slots__ = ("data", "rssi", "snr")

    def __init__(self, data, rssi, snr):
        self.data = bytes(data)
        self.rssi = int(rssi)
        self.snr = float(snr)

    def __repr__(self):
        return "Packet(%d bytes, %d dBm, %.2f dB)" % (len(self.data), self.rssi, self.snr)


def bandwidth_index(bw):
    """Index of ``bw`` (kHz) in BANDWIDTHS; ValueError when it is no LoRa bandwidth."""
    for i in range(len(BANDWIDTHS)):
        if abs(BANDWIDTHS[i] - bw) < 0.05:
            return i
    raise ValueError("bandwidth %r kHz is not a LoRa bandwidth" % (bw,))


def check_settings(freq, sf, bw, cr, power):
    """ValueError unless the settings are ones every driver supports."""
    if not 137.0 <= freq <= 1020.0:
        raise ValueError("frequency %r MHz is outside 137..1020 MHz" % (freq,))
    if type(sf) is not int or not 7 <= sf <= 12:
        raise ValueError("spreading factor %r is not 7..12" % (sf,))
    bandwidth_index(bw)
    if type(cr) is not int or not 5 <= cr <= 8:
        raise ValueError("coding rate %r is not 5..8 (4/5..4/8)" % (cr,))
    if type(power) is not int or not -9 <= power <= 22:
        raise ValueError("power %r dBm is not -9..22" % (power,))


def low_data_rate(sf, bw):
    """LDRO is needed when a symbol lasts 16 ms or more (SF11/SF12 at 125 kHz)."""
    return (1 << sf) / bw >= 16.0


def time_on_air_ms(length, sf, bw, cr=5, preamble=PREAMBLE):
    """Time on air of a ``length``-byte packet, explicit header and CRC on
    (Semtech SX1276 datasheet 4.1.1.6; the app's airtime.py uses the same)."""
    symbol = (1 << sf) / bw
    de = 1 if low_data_rate(sf, bw) else 0
    num = 8 * length - 4 * sf + 28 + 16
    den = 4 * (sf - 2 * de)
    blocks = -(-num // den)
    if blocks < 0:
        blocks = 0
    return (preamble + 4.25) * symbol + (8 + blocks * cr) * symbol
