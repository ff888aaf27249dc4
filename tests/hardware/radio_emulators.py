"""Register-level stand-ins for the SX1276 and SX1262, to test the drivers.

They behave as the datasheets describe at the SPI level: the SX1276 as a
register file with a FIFO and IRQ flags (write = address | 0x80), the
SX1262 as a command interpreter that answers GetStatus, GetIrqStatus,
GetRxBufferStatus, GetPacketStatus and ReadBuffer.  ``transmitted`` lists
what each chip was made to send; ``inject(...)`` makes it "receive".
"""


class Pin:
    def __init__(self, value=0, on_change=None):
        self.v = value
        self.on_change = on_change
        self.history = []

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        self.history.append(v)
        if self.on_change:
            self.on_change(v)
        return None


class SX1276Emu:
    """SPI bus + register file of one SX1276."""

    def __init__(self, version=0x12):
        self.regs = bytearray(0x80)
        self.regs[0x42] = version
        self.regs[0x01] = 0x09
        self.fifo = bytearray(256)
        self.transmitted = []
        self.cs = Pin(1)
        self.writes = []              # (register, value) in order

    # machine.SPI
    def write(self, buf):
        assert self.cs.v == 0, "SPI without chip select"
        addr = buf[0] & 0x7F
        assert buf[0] & 0x80, "write without the write bit"
        for b in buf[1:]:
            self._write(addr, b)
            if addr != 0:
                addr += 1

    def write_readinto(self, out, into):
        assert self.cs.v == 0, "SPI without chip select"
        assert not out[0] & 0x80
        addr = out[0]
        for i in range(1, len(out)):
            into[i] = self._read(addr)
            if addr != 0:
                addr += 1

    def _write(self, addr, value):
        self.writes.append((addr, value))
        if addr == 0x00:
            self.fifo[self.regs[0x0D]] = value
            self.regs[0x0D] = (self.regs[0x0D] + 1) & 0xFF
        elif addr == 0x12:
            self.regs[0x12] &= ~value & 0xFF       # write 1 to clear
        else:
            self.regs[addr] = value
            if addr == 0x01 and value & 0x07 == 0x03:      # TX
                n = self.regs[0x22]
                self.transmitted.append(bytes(self.fifo[self.regs[0x0E]:self.regs[0x0E] + n]))
                self.regs[0x12] |= 0x08
                self.regs[0x01] = (value & 0xF8) | 0x01

    def _read(self, addr):
        if addr == 0x00:
            value = self.fifo[self.regs[0x0D]]
            self.regs[0x0D] = (self.regs[0x0D] + 1) & 0xFF
            return value
        return self.regs[addr]

    def inject(self, data, pkt_rssi, pkt_snr_raw, crc_error=False, at=0x40):
        self.fifo[at:at + len(data)] = data
        self.regs[0x10] = at
        self.regs[0x13] = len(data)
        self.regs[0x19] = pkt_snr_raw & 0xFF
        self.regs[0x1A] = pkt_rssi
        self.regs[0x12] |= 0x40 | (0x20 if crc_error else 0)

    def reg(self, addr):
        return self.regs[addr]


class SX1262Emu:
    """SPI bus + command interpreter of one SX1262."""

    def __init__(self, mode=2):
        self.mode = mode               # chip mode reported in the status byte (2 = STBY_RC)
        self.buffer = bytearray(256)
        self.irq = 0
        self.commands = []             # (opcode, argument bytes)
        self.transmitted = []
        self.packet_len = 0
        self.rx = (0, 0, 0, 0)         # length, start, rssi_pkt, snr_pkt
        self.cs = Pin(1)
        self.busy = Pin(0)
        self.registers = {}

    def status(self):
        return self.mode << 4 | 0x02 << 1

    def write(self, buf):
        assert self.cs.v == 0 and self.busy.v == 0
        op, args = buf[0], bytes(buf[1:])
        self.commands.append((op, args))
        if op == 0x0E:                               # WriteBuffer
            self.buffer[args[0]:args[0] + len(args) - 1] = args[1:]
        elif op == 0x0D:                             # WriteRegister
            addr = args[0] << 8 | args[1]
            for i, b in enumerate(args[2:]):
                self.registers[addr + i] = b
        elif op == 0x8C:                             # SetPacketParams
            self.packet_len = args[3]
        elif op == 0x02:                             # ClearIrqStatus
            self.irq &= ~(args[0] << 8 | args[1])
        elif op == 0x83:                             # SetTx
            self.transmitted.append(bytes(self.buffer[0:self.packet_len]))
            self.irq |= 0x0001
            self.mode = 6
        elif op == 0x82:
            self.mode = 5
        elif op == 0x80:
            self.mode = 2

    def write_readinto(self, out, into):
        assert self.cs.v == 0 and self.busy.v == 0
        op = out[0]
        self.commands.append((op, bytes(out[1:])))
        into[0] = 0
        if op == 0xC0:
            into[1] = self.status()
            return
        answer = {
            0x12: bytes([self.irq >> 8, self.irq & 0xFF]),
            0x13: bytes([self.rx[0], self.rx[1]]),
            0x14: bytes([self.rx[2], self.rx[3] & 0xFF, self.rx[2]]),
        }
        if op == 0x1E:                               # ReadBuffer: op, offset, status, data
            start = out[1]
            into[2] = self.status()
            data = self.buffer[start:start + len(out) - 3]
            into[3:3 + len(data)] = data
            return
        data = answer[op]
        into[1] = self.status()
        into[2:2 + len(data)] = data

    def inject(self, data, rssi_pkt, snr_raw, crc_error=False, start=0x80):
        self.buffer[start:start + len(data)] = data
        self.rx = (len(data), start, rssi_pkt, snr_raw)
        self.irq |= 0x0002 | (0x0040 if crc_error else 0)

    def sent(self, opcode):
        return [args for op, args in self.commands if op == opcode]


def exercise(sx1276, sx1262, frame):
    """Configure, send and receive with both drivers; what the chips saw, JSON-ready.
    Runs under CPython and MicroPython alike (test_radio_drivers compares the two)."""
    def hexs(b):
        return "".join(["%02X" % x for x in b])

    def nap(ms):
        pass

    out = {}
    emu = SX1276Emu()
    r = sx1276.SX1276(emu, emu.cs, Pin(1), nap)
    r.configure(868.1, 9, 125, 5, 14)
    r.send(frame)
    emu.inject(frame, 60, -29)
    p = r.receive()
    out["sx1276"] = {"writes": [[a, v] for a, v in emu.writes], "sent": [hexs(t) for t in emu.transmitted],
                     "rx": [hexs(p.data), p.rssi, p.snr]}
    emu = SX1262Emu()
    r = sx1262.SX1262(emu, emu.cs, Pin(1), emu.busy, nap, 1.8)
    r.configure(869.525, 12, 125, 8, 22)
    r.send(frame)
    emu.inject(frame, 195, -29)
    p = r.receive()
    out["sx1262"] = {"commands": [[op, hexs(args)] for op, args in emu.commands],
                     "sent": [hexs(t) for t in emu.transmitted], "rx": [hexs(p.data), p.rssi, p.snr]}
    return out
