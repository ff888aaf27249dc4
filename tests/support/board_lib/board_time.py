"""The fake board's time module while its firmware runs: a virtual clock that sleeping moves on."""

_ms = [0]


def ticks_ms():
    return _ms[0] & 0x3FFFFFFF


def ticks_diff(a, b):
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def ticks_add(a, b):
    return (a + b) & 0x3FFFFFFF


def sleep_ms(n):
    _ms[0] += n


def sleep(s):
    _ms[0] += int(s * 1000)


def time():
    return 1780000000 + _ms[0] // 1000


def now_ms():
    return _ms[0]
