"""SSD1306 128x64 OLED over I2C, with the display interface ``show_lines``.

Hardware-facing (MicroPython's framebuf).  Command set from the Solomon
Systech SSD1306 datasheet (rev. 1.1), section 9, with the charge pump on
(application note: 0x8D 0x14).  ``SSD1306(i2c, addr=0x3C)``: ``i2c`` has
writeto(addr, buf) (machine.I2C or SoftI2C).  Text uses framebuf's built-in
8x8 font: 16 characters on each of 8 lines.
"""

import framebuf

SET_CONTRAST = 0x81
SET_ENTIRE_ON = 0xA4
SET_NORM_INV = 0xA6
SET_DISP = 0xAE
SET_MEM_ADDR = 0x20
SET_COL_ADDR = 0x21
SET_PAGE_ADDR = 0x22
SET_DISP_START_LINE = 0x40
SET_SEG_REMAP = 0xA0
SET_MUX_RATIO = 0xA8
SET_COM_OUT_DIR = 0xC0
SET_DISP_OFFSET = 0xD3
SET_COM_PIN_CFG = 0xDA
SET_DISP_CLK_DIV = 0xD5
SET_PRECHARGE = 0xD9
SET_VCOM_DESEL = 0xDB
SET_CHARGE_PUMP = 0x8D

WIDTH, HEIGHT = 128, 64
LINES, CHARS = HEIGHT // 8, WIDTH // 8


class SSD1306(framebuf.FrameBuffer):
    def __init__(self, i2c, addr=0x3C):
        self.i2c, self.addr = i2c, addr
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.init_display()

    def init_display(self):
        for cmd in (
            SET_DISP | 0x00,                 # off
            SET_MEM_ADDR, 0x00,              # horizontal addressing
            SET_DISP_START_LINE | 0x00,
            SET_SEG_REMAP | 0x01,            # column 127 is SEG0
            SET_MUX_RATIO, HEIGHT - 1,
            SET_COM_OUT_DIR | 0x08,          # scan from COM[N-1] to COM0
            SET_DISP_OFFSET, 0x00,
            SET_COM_PIN_CFG, 0x12,           # alternative COM pins (128x64)
            SET_DISP_CLK_DIV, 0x80,
            SET_PRECHARGE, 0xF1,             # internal charge pump
            SET_VCOM_DESEL, 0x30,            # 0.83 x Vcc
            SET_CONTRAST, 0xFF,
            SET_ENTIRE_ON,                   # follow RAM
            SET_NORM_INV,                    # not inverted
            SET_CHARGE_PUMP, 0x14,           # charge pump on
            SET_DISP | 0x01,                 # on
        ):
            self.command(cmd)
        self.fill(0)
        self.show()

    def command(self, cmd):
        self.i2c.writeto(self.addr, bytes([0x80, cmd]))     # Co = 1, D/C = 0

    def show(self):
        for cmd in (SET_COL_ADDR, 0, WIDTH - 1, SET_PAGE_ADDR, 0, HEIGHT // 8 - 1):
            self.command(cmd)
        self.i2c.writeto(self.addr, b"\x40" + self.buffer)   # D/C = 1: display RAM

    def power(self, on):
        self.command(SET_DISP | (0x01 if on else 0x00))

    def show_lines(self, lines):
        """The display interface: up to 8 lines of 16 characters."""
        self.fill(0)
        for i in range(min(len(lines), LINES)):
            self.text(str(lines[i])[:CHARS], 0, i * 8, 1)
        self.show()
