"""The controlroom radio frame codec, shared by the app and the firmware.

Runs unchanged under CPython 3.11 and MicroPython 1.27 (the firmware copies
this file as ``codec.py``): only ``struct``, ``hashlib.sha256`` and plain
Python.  The protocol is specified in hardware/PROTOCOL.md; golden vectors in
hardware/protocol/vectors.json.

Frames:  encode_<type>(key, device, counter, ...) -> bytes (header+payload+tag);
encode_frame(key, type, device, counter, fields) -> bytes; decode_frame(data)
-> Frame (raises only FrameError); verify(frame, key) -> bool.
Serial lines (gateway <-> laptop): format_*_line(...) -> str (no newline);
parse_line(text) -> dict (raises only FrameError, reason "line"/"checksum").
"""

import struct
import sys
from hashlib import sha256

# On CPython (the station) the C implementations of CRC, HMAC and hex are used;
# the firmware runs the pure-Python versions below, which the tests check
# against them.
_CPYTHON = sys.implementation.name == "cpython"
if _CPYTHON:
    import binascii as _binascii
    import hmac as _hmac

VERSION = 2                    # what the encoders write when a frame carries version-2 fields
VERSIONS = (1, 2)              # what decode_frame accepts
DOMAIN = b"controlroom/v1"     # unchanged in v2: the version bits are signed, inside the header
KEY_LEN = 16
HEADER_LEN = 7                 # type/version byte, device uint16, counter uint32
NO_POSITION = 0x7FFFFFFF       # lat and lon both set to this: no position
BATTERY_UNKNOWN = 255
FRAME_REASONS = ("short", "long", "version", "type", "payload")
LINE_REASONS = ("line", "checksum")
MAX_LINE_FRAME = 255           # longest frame a serial line carries (LoRa limit)
MAX_LINE = 1024                # longest serial line, line ending not counted (PROTOCOL.md section 7)

POSITION, HEARTBEAT, CASUALTY, HEADCOUNT, SIEGE = 1, 2, 3, 4, 5
VALHALLA, CANNED, STOPP_CALLED, STOPP_LIFTED = 6, 7, 8, 9
ACK, ACK_STOPP = 16, 17

# code: (name, shortest payload, longest payload, tag length, needs ack)
TYPES = {
    POSITION: ("position", 10, 10, 4, False),
    HEARTBEAT: ("heartbeat", 3, 3, 4, False),
    CASUALTY: ("casualty", 3, 5, 4, True),
    HEADCOUNT: ("headcount", 5, 5, 4, False),
    SIEGE: ("siege", 10, 10, 4, False),
    VALHALLA: ("valhalla", 2, 2, 4, True),
    CANNED: ("canned", 1, 1, 4, False),
    STOPP_CALLED: ("stopp_called", 10, 10, 8, True),
    STOPP_LIFTED: ("stopp_lifted", 1, 1, 8, True),
    ACK: ("ack", 6, 6, 4, False),
    ACK_STOPP: ("ack_stopp", 6, 6, 8, False),
}
TYPE_CODES = {spec[0]: code for code, spec in TYPES.items()}
# Version 2 (PROTOCOL.md section 4): the four acked uplink types also carry the time of the
# key press ("pressed", u32 unix seconds, 0 = unknown) and stopp_called the caller's badge
# ("caller", u16, 0 = none).  code: (shortest payload, longest payload); other types as v1.
TYPES_V2 = {CASUALTY: (7, 9), VALHALLA: (6, 6), STOPP_CALLED: (16, 16), STOPP_LIFTED: (5, 5)}
V2_FIELDS = ("pressed", "caller")

# Enumerations: wire code = index + 1 (0 is never valid).
CASUALTY_KINDS = ("down", "knocked_out", "big_stone_on_shield", "bound", "cared_for",
                  "strenuous", "healer_touch", "died", "permanent_kill", "respawned")
BY_REQUIRED = ("cared_for", "healer_touch")      # second badge: carer / healer
BY_OPTIONAL = ("bound", "permanent_kill")        # second badge: binder / killer
DEATH_KINDS = ("died", "permanent_kill")
SIEGE_STATUSES = ("moved", "firing", "damaged", "destroyed", "captured")
STOPP_REASONS = ("unpleasant", "injury", "danger")
CANNED_MESSAGES = (
    ("all_quiet", "All quiet"),
    ("need_healer", "Need healer"),
    ("need_marshal", "Need marshal"),
    ("need_game_master", "Need game master"),
    ("weapon_check", "Weapon check"),
    ("rules_dispute", "Rules dispute"),
    ("fight_started", "Fight started"),
    ("fight_over", "Fight over"),
    ("need_bandages", "Need bandages"),
    ("need_water", "Need water"),
    ("outsiders", "Outsiders in area"),
    ("found_item", "Found lost item"),
    ("returning", "Returning to base"),
)
CANNED_NAMES = tuple(m[0] for m in CANNED_MESSAGES)
TXERR_REASONS = ("busy", "duty", "frame", "checksum", "line", "radio")

_HEX = "0123456789ABCDEF"
_DIGITS = "0123456789"


class FrameError(ValueError):
    """A frame or serial line that cannot be decoded.  ``reason`` is one of
    FRAME_REASONS (frames) or LINE_REASONS (serial lines)."""

    def __init__(self, reason, detail=None):
        super().__init__(reason if detail is None else reason + ": " + detail)
        self.reason = reason


class Frame:
    """A decoded frame.  ``type`` is the name ("position", ...), ``code`` its
    number; ``signed`` is header+payload (what the tag covers)."""

    __slots__ = ("version", "code", "type", "device", "counter", "fields",
                 "tag", "signed", "needs_ack")
    # The slots' types, for the station's type checker (annotations only: no
    # class attribute is made; MicroPython parses and ignores them).
    version: int
    code: int
    type: str
    device: int
    counter: int
    fields: dict
    tag: bytes
    signed: bytes
    needs_ack: bool

    def to_dict(self):
        """JSON-compatible dict (tag and signed as uppercase hex)."""
        return {"version": self.version, "type": self.type, "device": self.device,
                "counter": self.counter, "fields": self.fields, "tag": hexlify(self.tag),
                "signed": hexlify(self.signed), "needs_ack": self.needs_ack}

    def __repr__(self):
        return "Frame(%s device=%d counter=%d %r)" % (self.type, self.device, self.counter, self.fields)


# --- primitives ---------------------------------------------------------------


def hmac_sha256(key, msg):
    """HMAC-SHA256 (RFC 2104)."""
    if _CPYTHON:
        return _hmac_cached(key, msg)
    return hmac_sha256_py(key, msg)


# CPython: each key's padded inner and outer hash states, computed once.  The
# station verifies thousands of frames a second with a few hundred keys; a
# copied state costs 40% of hmac.digest, and unlike hmac.digest (which
# releases the GIL for every call, and so waits for it again behind the
# reader and storage threads) a short update keeps the GIL.
_PADS = {}  # type: dict[bytes, tuple]
_PADS_MAX = 4096


def _hmac_cached(key, msg):
    key = bytes(key)
    pads = _PADS.get(key)
    if pads is None:
        if len(_PADS) >= _PADS_MAX:
            _PADS.clear()
        k = sha256(key).digest() if len(key) > 64 else key
        k = k + bytes(64 - len(k))
        pads = (sha256(bytes(b ^ 0x36 for b in k)), sha256(bytes(b ^ 0x5C for b in k)))
        _PADS[key] = pads
    inner = pads[0].copy()
    inner.update(msg)
    outer = pads[1].copy()
    outer.update(inner.digest())
    return outer.digest()


def hmac_sha256_py(key, msg):
    """HMAC-SHA256 (RFC 2104) from hashlib.sha256 alone (what the firmware runs)."""
    key = bytes(key)
    if len(key) > 64:
        key = sha256(key).digest()
    key = key + bytes(64 - len(key))
    inner = sha256(bytes(k ^ 0x36 for k in key) + bytes(msg)).digest()
    return sha256(bytes(k ^ 0x5C for k in key) + inner).digest()


def compare_digest(a, b):
    """Constant-time (for equal lengths) comparison of two byte strings."""
    if len(a) != len(b):
        return False
    if _CPYTHON:
        return _hmac.compare_digest(bytes(a), bytes(b))
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0).
    crc16(b"123456789") == 0x29B1.  A str is taken as its ASCII bytes."""
    if isinstance(data, str):
        data = data.encode()
    if _CPYTHON:
        return _binascii.crc_hqx(data, 0xFFFF)
    return crc16_py(data)


def crc16_py(data):
    """crc16 in plain Python (what the firmware runs)."""
    if isinstance(data, str):
        data = data.encode()
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def hexlify(data):
    """bytes -> uppercase hex str."""
    if _CPYTHON:
        return bytes(data).hex().upper()
    return "".join(["%02X" % b for b in bytes(data)])


def unhexlify(text):
    """Hex str (either case, even length, nothing else) -> bytes; ValueError otherwise."""
    if not isinstance(text, str) or len(text) % 2:
        raise ValueError("hex needs an even number of digits")
    if _CPYTHON:
        try:
            return _binascii.unhexlify(text)      # strict: hex digits only, no spaces
        except (ValueError, _binascii.Error):
            raise ValueError("not a hex digit")
    return unhexlify_py(text)


def unhexlify_py(text):
    """unhexlify in plain Python (what the firmware runs)."""
    if not isinstance(text, str) or len(text) % 2:
        raise ValueError("hex needs an even number of digits")
    out = bytearray(len(text) // 2)
    for i in range(len(out)):
        hi = _HEX.find(text[2 * i].upper())
        lo = _HEX.find(text[2 * i + 1].upper())
        if hi < 0 or lo < 0:
            raise ValueError("not a hex digit")
        out[i] = hi * 16 + lo
    return bytes(out)


def _check_key(key):
    if not isinstance(key, (bytes, bytearray)) or len(key) != KEY_LEN:
        raise ValueError("a device key is exactly %d bytes" % KEY_LEN)


def compute_tag(key, signed, length):
    """The first ``length`` bytes of HMAC-SHA256(key, DOMAIN + signed)."""
    _check_key(key)
    return hmac_sha256(key, DOMAIN + bytes(signed))[:length]


# --- payloads: one table drives encoding and decoding ----------------------------

# Payload fields in wire order (big-endian).  "fix_sats" is one byte: GGA fix
# quality (0..7) in the high 3 bits, satellites (0..31, 31 = 31 or more) in the
# low 5.  "by" (casualty) is the optional last field.
LAYOUT = {
    POSITION: ("lat", "lon", "battery", "fix_sats"),
    HEARTBEAT: ("battery", "uptime_min"),
    CASUALTY: ("badge", "kind", "by"),
    HEADCOUNT: ("group", "up", "down", "dead"),
    SIEGE: ("engine", "status", "lat", "lon"),
    VALHALLA: ("badge",),
    CANNED: ("message",),
    STOPP_CALLED: ("reason", "stopp", "lat", "lon"),
    STOPP_LIFTED: ("stopp",),
    ACK: ("acked_device", "acked_counter"),
    ACK_STOPP: ("acked_device", "acked_counter"),
}
# Version 2 layouts of the acked uplink types ("by" stays the optional last field).
LAYOUT_V2 = {
    CASUALTY: ("badge", "kind", "pressed", "by"),
    VALHALLA: ("badge", "pressed"),
    STOPP_CALLED: ("reason", "stopp", "lat", "lon", "caller", "pressed"),
    STOPP_LIFTED: ("stopp", "pressed"),
}
# name: (struct code, lowest, highest, enumeration decoded by name or None)
_FIELDS = {
    "lat": ("i", -900000000, 900000000, None),       # 1e-7 degree; NO_POSITION -> None
    "lon": ("i", -1800000000, 1800000000, None),
    "battery": ("B", 0, 100, None),                  # percent; 255 -> None (unknown)
    "fix_sats": ("B", 0, 255, None),
    "uptime_min": ("H", 0, 0xFFFF, None),            # encoder saturates at 65535
    "badge": ("H", 1, 0xFFFF, None),
    "kind": ("B", 1, len(CASUALTY_KINDS), CASUALTY_KINDS),
    "by": ("H", 1, 0xFFFF, None),
    "group": ("H", 1, 0xFFFF, None),
    "up": ("B", 0, 255, None),
    "down": ("B", 0, 255, None),
    "dead": ("B", 0, 255, None),
    "engine": ("B", 1, 255, None),
    "status": ("B", 1, len(SIEGE_STATUSES), SIEGE_STATUSES),
    "message": ("B", 1, len(CANNED_NAMES), CANNED_NAMES),
    "reason": ("B", 1, len(STOPP_REASONS), STOPP_REASONS),
    "stopp": ("B", 0, 255, None),
    "acked_device": ("H", 0, 0xFFFF, None),
    "acked_counter": ("I", 0, 0xFFFFFFFF, None),
    "pressed": ("I", 0, 0xFFFFFFFF, None),          # unix seconds of the key press; 0 -> None (unknown)
    "caller": ("H", 0, 0xFFFF, None),               # the STOPP caller's badge; 0 -> None (not given)
}
_NONE = {"lat": NO_POSITION, "lon": NO_POSITION, "battery": BATTERY_UNKNOWN, "pressed": 0, "caller": 0}
_OPTIONAL = ("by", "pressed", "caller")               # may be left out of the fields given to encoders


def _bad(detail):
    raise FrameError("payload", detail)


def _int_in(value, lo, hi, what):
    if type(value) is not int or value < lo or value > hi:
        _bad("%s must be a whole number %d..%d, not %r" % (what, lo, hi, value))
    return value


def _check_rules(fields):
    # Rules across fields: lat/lon both given or both None; casualty second badge.
    if "lat" in fields and (fields["lat"] is None) != (fields["lon"] is None):
        _bad("lat and lon must both be given or both be None")
    kind = fields.get("kind")
    if kind is not None:
        if fields["by"] is None and kind in BY_REQUIRED:
            _bad("%s needs the second badge (by)" % kind)
        if fields["by"] is not None and kind not in BY_REQUIRED and kind not in BY_OPTIONAL:
            _bad("%s takes no second badge (by)" % kind)


def _layout(code, version):
    if version == 2 and code in LAYOUT_V2:
        return LAYOUT_V2[code]
    return LAYOUT[code]


def _sizes(code, version):
    """(shortest, longest) payload of type ``code`` in protocol ``version``."""
    if version == 2 and code in TYPES_V2:
        return TYPES_V2[code]
    return TYPES[code][1], TYPES[code][2]


def _pack(code, f, version=1):
    fmt, values, check = ">", [], {}
    for name in _layout(code, version):
        sc, lo, hi, table = _FIELDS[name]
        if name == "fix_sats":
            v = _int_in(f["fix"], 0, 7, "fix") << 5 | min(_int_in(f["sats"], 0, 255, "sats"), 31)
        else:
            v = check[name] = f.get(name) if name in _OPTIONAL else f[name]
            if v is None and name in _NONE:
                v = _NONE[name]
            elif v is None and name == "by":
                continue
            elif table is not None:
                if v in table:
                    check[name] = v
                    v = table.index(v) + 1
                else:
                    v = _int_in(v, lo, hi, name)
                    check[name] = table[v - 1]
            elif name == "uptime_min":
                v = min(_int_in(v, 0, 0xFFFFFFFF, name), hi)
            else:
                v = _int_in(v, lo, hi, name)
        fmt += sc
        values.append(v)
    _check_rules(check)
    return struct.pack(fmt, *values)


def _unpack(code, p, version=1):
    names = _layout(code, version)
    if code == CASUALTY and len(p) == _sizes(code, version)[0]:
        names = names[:-1]
    values = struct.unpack(">" + "".join([_FIELDS[n][0] for n in names]), p)
    out = {}
    for i in range(len(names)):
        name, v = names[i], values[i]
        sc, lo, hi, table = _FIELDS[name]
        if name == "fix_sats":
            out["fix"], out["sats"] = v >> 5, v & 31
            continue
        if name in _NONE and v == _NONE[name]:
            v = None
        elif v < lo or v > hi:
            _bad("%s %d out of range" % (name, v))
        elif table is not None:
            v = table[v - 1]
        out[name] = v
    if code == CASUALTY and "by" not in out:
        out["by"] = None
    _check_rules(out)
    return out


# --- frames --------------------------------------------------------------------


def encode_frame(key, type, device, counter, fields, version=None):
    """Build a signed frame.  ``type``: name or code; ``fields``: as decoded
    (enumerations by name or wire code).  ``version``: 1 or 2; None gives 2
    when ``fields`` holds a version-2 field ("pressed", "caller"), else 1.
    Bad values raise FrameError("payload")."""
    code = TYPE_CODES.get(type) if isinstance(type, str) else type
    if code not in TYPES:
        raise FrameError("type", "unknown message type %r" % (type,))
    if version is None:
        version = 1
        for name in V2_FIELDS:
            if name in fields:
                version = 2
    if version not in VERSIONS:
        raise FrameError("version", "protocol version %r" % (version,))
    for name in V2_FIELDS:
        if fields.get(name) is not None and name not in _layout(code, version):
            _bad("%s is carried only by version 2 %s frames" % (name, "stopp_called" if name == "caller"
                                                                 else "casualty, valhalla and STOPP"))
    _int_in(device, 0, 0xFFFF, "device")
    _int_in(counter, 0, 0xFFFFFFFF, "counter")
    try:
        payload = _pack(code, fields, version)
    except KeyError as exc:
        raise FrameError("payload", "missing field %s" % exc)
    signed = struct.pack(">BHI", version << 5 | code, device, counter) + payload
    return signed + compute_tag(key, signed, TYPES[code][3])


def decode_frame(data):
    """bytes -> Frame.  Raises only FrameError; checks in the order version,
    type, length (short/long/payload), field values (payload).  Does not
    check the tag: call verify(frame, key)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise FrameError("payload", "a frame is bytes")
    data = bytes(data)
    if not data:
        raise FrameError("short", "empty frame")
    version, code = data[0] >> 5, data[0] & 0x1F
    if version not in VERSIONS:
        raise FrameError("version", "protocol version %d" % version)
    if code not in TYPES:
        raise FrameError("type", "unknown message type %d" % code)
    name, pmin, pmax, taglen, needs_ack = TYPES[code]
    pmin, pmax = _sizes(code, version)
    n = len(data) - HEADER_LEN - taglen      # payload length
    if n < pmin:
        raise FrameError("short", "%s frame of %d bytes" % (name, len(data)))
    if n > pmax:
        raise FrameError("long", "%s frame of %d bytes" % (name, len(data)))
    if n != pmin and n != pmax:
        raise FrameError("payload", "%s payload of %d bytes" % (name, n))
    frame = Frame()
    frame.version, frame.code, frame.type, frame.needs_ack = version, code, name, needs_ack
    frame.device, frame.counter = struct.unpack_from(">HI", data, 1)
    frame.signed, frame.tag = data[:HEADER_LEN + n], data[HEADER_LEN + n:]
    frame.fields = _unpack(code, data[HEADER_LEN:HEADER_LEN + n], version)
    return frame


def verify(frame, key):
    """True when the frame's tag is right for ``key`` (constant-time compare).
    ``frame``: a Frame or raw bytes (bytes that do not decode give False).
    A key that is not 16 bytes raises ValueError."""
    _check_key(key)
    if not isinstance(frame, Frame):
        try:
            frame = decode_frame(frame)
        except FrameError:
            return False
    return compare_digest(compute_tag(key, frame.signed, len(frame.tag)), frame.tag)


def encode_position(key, device, counter, lat, lon, battery, fix, sats, version=None):
    return encode_frame(key, POSITION, device, counter,
                        {"lat": lat, "lon": lon, "battery": battery, "fix": fix, "sats": sats}, version)


def encode_heartbeat(key, device, counter, battery, uptime_min, version=None):
    return encode_frame(key, HEARTBEAT, device, counter, {"battery": battery, "uptime_min": uptime_min}, version)


def _v2(fields, pressed, caller=None):
    # The version-2 fields only when given: a frame without them stays version 1.
    if pressed is not None:
        fields["pressed"] = pressed
    if caller is not None:
        fields["caller"] = caller
    return fields


def encode_casualty(key, device, counter, badge, kind, by=None, pressed=None, version=None):
    """``pressed``: unix seconds of the key press (0 = unknown) gives a version-2 frame."""
    return encode_frame(key, CASUALTY, device, counter, _v2({"badge": badge, "kind": kind, "by": by}, pressed), version)


def encode_headcount(key, device, counter, group, up, down, dead, version=None):
    return encode_frame(key, HEADCOUNT, device, counter, {"group": group, "up": up, "down": down, "dead": dead},
                        version)


def encode_siege(key, device, counter, engine, status, lat, lon, version=None):
    return encode_frame(key, SIEGE, device, counter, {"engine": engine, "status": status, "lat": lat, "lon": lon},
                        version)


def encode_valhalla(key, device, counter, badge, pressed=None, version=None):
    return encode_frame(key, VALHALLA, device, counter, _v2({"badge": badge}, pressed), version)


def encode_canned(key, device, counter, message, version=None):
    return encode_frame(key, CANNED, device, counter, {"message": message}, version)


def encode_stopp_called(key, device, counter, stopp, reason, lat, lon, caller=None, pressed=None, version=None):
    """``caller`` (badge, 0 = none) or ``pressed`` (unix seconds, 0 = unknown) give a version-2 frame."""
    return encode_frame(key, STOPP_CALLED, device, counter,
                        _v2({"stopp": stopp, "reason": reason, "lat": lat, "lon": lon}, pressed, caller), version)


def encode_stopp_lifted(key, device, counter, stopp, pressed=None, version=None):
    return encode_frame(key, STOPP_LIFTED, device, counter, _v2({"stopp": stopp}, pressed), version)


def encode_ack(key, device, counter, acked_device, acked_counter, stopp=False):
    """Acknowledgement sent by the station through gateway ``device``; ``key``
    is the DESTINATION device's key.  stopp=True gives ack_stopp (8-byte tag)."""
    return encode_frame(key, ACK_STOPP if stopp else ACK, device, counter,
                        {"acked_device": acked_device, "acked_counter": acked_counter})


def ack_for(frame, key, device, counter):
    """The acknowledgement of a decoded Frame (None when its type wants none).

    Always a version 1 frame, whatever the version of the frame it answers:
    the ack's layout is the same in both versions, and every handset reads v1."""
    if not frame.needs_ack:
        return None
    return encode_ack(key, device, counter, frame.device, frame.counter,
                      frame.code in (STOPP_CALLED, STOPP_LIFTED))


# --- gateway serial lines ------------------------------------------------------


def _line_error(detail):
    raise FrameError("line", detail)


def _with_crc(body):
    return "%s %04X" % (body, crc16(body))


def _dec(text, lo, hi):
    # strict decimal integer (int() would accept '+1', ' 1', '1_0')
    digits = text[1:] if text[:1] == "-" else text
    if not digits or len(digits) > 10 or any(c not in _DIGITS for c in digits):
        _line_error("not a whole number: %r" % text)
    value = int(text)
    if value < lo or value > hi:
        _line_error("%d out of range" % value)
    return value


def _num(text):
    # strict decimal number: int without '.', float with one
    whole, dot, frac = text.partition(".")
    _dec(whole, -99999, 99999)
    if not dot:
        return int(whole)
    _dec(frac, 0, 9999999999)
    return float(text)


def _num_text(value):
    if isinstance(value, str):
        _num(value)
        return value
    if type(value) is int:
        return "%d" % value
    m = int(round(value * 1000))
    text = "%s%d.%03d" % ("-" if m < 0 else "", abs(m) // 1000, abs(m) % 1000)
    return text.rstrip("0").rstrip(".")


def _token(text):
    for c in text:
        if c == " " or c == "=" or ord(c) < 33 or ord(c) > 126:
            _line_error("bad token %r" % text)
    if not text:
        _line_error("empty token")
    return text


def _frame_hex(frame):
    if not isinstance(frame, (bytes, bytearray)) or not 1 <= len(frame) <= MAX_LINE_FRAME:
        raise ValueError("a frame is 1..%d bytes" % MAX_LINE_FRAME)
    return hexlify(frame)


def format_rx_line(gateway, rssi, snr, frame):
    """'RX <gateway> <rssi dBm> <snr dB, 2 decimals> <HEX> <CRC>'."""
    hundredths = int(round(snr * 100))
    snr_text = "%s%d.%02d" % ("-" if hundredths < 0 else "", abs(hundredths) // 100, abs(hundredths) % 100)
    return _with_crc("RX %d %d %s %s" % (_int_in(gateway, 0, 0xFFFF, "gateway"),
                                         _int_in(rssi, -200, 50, "rssi"), snr_text, _frame_hex(frame)))


def format_tx_line(frame):
    return _with_crc("TX " + _frame_hex(frame))


def format_txok_line(counter):
    return _with_crc("TXOK %d" % _int_in(counter, 0, 0xFFFFFFFF, "counter"))


def format_txerr_line(reason):
    return _with_crc("TXERR " + _token(reason))


def format_id_request():
    return _with_crc("ID?")


def format_id_line(gateway, fw, region="EU868", freq=868.1, sf=9, bw=125, cr=5):
    """'ID <gateway> fw=.. region=.. freq=<MHz> sf=.. bw=<kHz> cr=<5..8> <CRC>'."""
    return _with_crc("ID %d fw=%s region=%s freq=%s sf=%d bw=%s cr=%d" % (
        _int_in(gateway, 0, 0xFFFF, "gateway"), _token(fw), _token(region), _num_text(freq),
        _int_in(sf, 5, 12, "sf"), _num_text(bw), _int_in(cr, 5, 8, "cr")))


def format_status_line(gateway, up, rx, bad, tx, txerr):
    """'ST <gateway> up=<min> rx=<n> bad=<n> tx=<n> txerr=<n> <CRC>'."""
    values = [_int_in(v, 0, 0xFFFFFFFF, "count") for v in (up, rx, bad, tx, txerr)]
    return _with_crc("ST %d up=%d rx=%d bad=%d tx=%d txerr=%d"
                     % tuple([_int_in(gateway, 0, 0xFFFF, "gateway")] + values))


def _pairs(tokens, out):
    for tok in tokens:
        key, eq, value = tok.partition("=")
        if (not eq or not key or not value or key in out
                or any(c not in "abcdefghijklmnopqrstuvwxyz0123456789_" for c in key)):
            _line_error("bad key=value %r" % tok)
        out[key] = value
    return out


def parse_line(text):
    """One serial line (str or bytes, trailing CR/LF allowed) -> dict with
    "kind": rx, tx, txok, txerr, id_request, id, status.  Raises FrameError
    with reason "line" (malformed) or "checksum" (CRC mismatch)."""
    if isinstance(text, (bytes, bytearray)):
        text = "".join([chr(b) for b in text])
    if not isinstance(text, str):
        _line_error("not text")
    if text[-1:] == "\n":
        text = text[:-1]
    if text[-1:] == "\r":
        text = text[:-1]
    if len(text) > MAX_LINE:
        _line_error("longer than %d characters" % MAX_LINE)
    for c in text:
        if ord(c) < 32 or ord(c) > 126:
            _line_error("non-printable character")
    return parse_printable_line(text)


def parse_printable_line(text):
    """``parse_line`` of a str known to be printable ASCII, its line ending removed (the station's reader
    checks that a whole line at a time)."""
    if len(text) > MAX_LINE:
        _line_error("longer than %d characters" % MAX_LINE)
    if text == "ID?":                      # may be typed by hand: no checksum
        return {"kind": "id_request"}
    i = text.rfind(" ")
    body, crc = text[:i], text[i + 1:]
    if i < 0 or len(crc) != 4 or any(_HEX.find(c) < 0 for c in crc.upper()):
        _line_error("no checksum")
    if unhexlify(crc) != struct.pack(">H", crc16(body)):
        raise FrameError("checksum", "line checksum %s, computed %04X" % (crc, crc16(body)))
    t = body.split(" ")
    if "" in t:
        _line_error("empty field")
    cmd, n = t[0], len(t)
    if cmd == "RX" and n == 5:
        snr = _num(t[3])
        if len(t[3].partition(".")[2]) > 2 or not -64 <= snr <= 64:
            _line_error("bad snr")
        return {"kind": "rx", "gateway": _dec(t[1], 0, 0xFFFF), "rssi": _dec(t[2], -200, 50),
                "snr": float(snr), "frame": _line_frame(t[4])}
    if cmd == "TX" and n == 2:
        return {"kind": "tx", "frame": _line_frame(t[1])}
    if cmd == "TXOK" and n == 2:
        return {"kind": "txok", "counter": _dec(t[1], 0, 0xFFFFFFFF)}
    if cmd == "TXERR" and n == 2:
        return {"kind": "txerr", "reason": _token(t[1])}
    if cmd == "ID?" and n == 1:
        return {"kind": "id_request"}
    if cmd == "ID" and n >= 2:
        out = _pairs(t[2:], {"kind": "id", "gateway": _dec(t[1], 0, 0xFFFF)})
        for key in ("fw", "region", "freq", "sf", "bw", "cr"):
            if key not in out:
                _line_error("ID line without " + key)
        out["freq"] = float(_num(out["freq"]))
        out["bw"] = _num(out["bw"])
        out["sf"], out["cr"] = _dec(out["sf"], 5, 12), _dec(out["cr"], 5, 8)
        return out
    if cmd == "ST" and n >= 2:
        out = _pairs(t[2:], {"kind": "status", "gateway": _dec(t[1], 0, 0xFFFF)})
        for key in out:
            if key not in ("kind", "gateway"):
                out[key] = _dec(out[key], 0, 0xFFFFFFFF)
        return out
    _line_error("unknown line %r" % cmd)


def _line_frame(text):
    if not 2 <= len(text) <= 2 * MAX_LINE_FRAME:
        _line_error("frame length")
    try:
        return unhexlify(text)
    except ValueError:
        _line_error("frame is not hex")
