"""NMEA 0183 parser for the handset GPS receiver.

Runs unchanged under MicroPython (ESP32 firmware) and CPython (tests, tools):
only the common subset of the language is used (no f-strings, dataclasses,
typing, walrus, str.removeprefix, ...).

Public API
----------
checksum_ok(sentence) -> bool
    True when ``sentence`` (str or bytes, surrounding whitespace/CR/LF
    allowed) is ``$<printable ASCII>*HH`` and HH (hex, either case) is the
    XOR of the characters between ``$`` and ``*``.  Never raises.

parse(sentence) -> dict or None
    Parses GGA and RMC sentences from any talker (GP, GN, GL, GA, BD, GB,
    QZ, ...).  Returns None -- never raises -- for anything else: a missing
    or wrong checksum, other sentence types, proprietary sentences, too few
    fields, garbage.  Malformed individual fields become None.

    GGA -> {'type': 'GGA', 'talker': 'GN', 'time': (hh, mm, ss) or None,
            'lat': float or None, 'lon': float or None, 'fix': int,
            'sats': int or None, 'hdop': float or None,
            'alt': float or None, 'geoid': float or None}
    RMC -> {'type': 'RMC', 'talker': 'GP', 'time': (hh, mm, ss) or None,
            'valid': bool, 'lat': float or None, 'lon': float or None,
            'speed': float or None, 'course': float or None,
            'date': (year, month, day) or None}

    time: UTC, hh and mm ints, ss a float (fractional seconds).
    lat/lon: decimal degrees, south and west negative.  They are None
    whenever there is no fix (GGA fix quality 0, RMC status V or FAA mode N)
    or the fields are empty or malformed, so a stale position a receiver
    repeats while it has no fix is never reported.
    fix: GGA quality (0 no fix, 1 GPS, 2 DGPS, 4 RTK, 5 float RTK,
    6 estimated/dead reckoning, ...); an empty or malformed field gives 0.
    alt/geoid: metres above mean sea level / geoid separation.
    speed: knots; course: degrees true.
    date: 2-digit years 80-99 are 1980-1999 (GPS began in 1980), 00-79 are
    2000-2079.

NmeaReader(max_line=MAX_LINE)
    Incremental reader for the UART byte stream.  ``feed(data)`` takes bytes
    (any chunking: partial lines, CR, LF or CRLF endings) and returns the
    list of dicts parsed from the lines completed by this chunk.  Lines are
    split at '$' too, so sentences whose line ending was lost are still
    recovered.  A line longer than ``max_line`` without a line ending is
    discarded, so memory stays bounded however much garbage arrives.
    Attributes: ``fix`` (the last parsed dict that had a position; kept when
    the fix is lost), ``has_fix`` (whether the most recent GGA/RMC had a
    position), ``sentences`` (GGA/RMC parsed), ``errors`` (rejected lines:
    bad checksum, garbage), ``overflows`` (over-long lines discarded).
"""

# Longest line kept while waiting for its end.  NMEA 0183 caps sentences at
# 82 characters; some receivers emit longer proprietary ones, hence margin.
MAX_LINE = 160

_HEX = "0123456789ABCDEF"
_DIGITS = "0123456789"


def _to_str(sentence):
    # str or bytes-like -> stripped str, or None.  Non-ASCII is rejected
    # later by the checksum loop (which only accepts printable ASCII).
    if isinstance(sentence, str):
        return sentence.strip()
    if isinstance(sentence, (bytes, bytearray)):
        try:
            return bytes(sentence).decode().strip()
        except Exception:  # UnicodeError (MicroPython/CPython)
            return None
    return None


def _hex_value(c):
    i = _HEX.find(c.upper())
    return i if len(c) == 1 and i >= 0 else -1


def _checked_body(sentence):
    # The text between '$' and '*' when the checksum is right, else None.
    s = _to_str(sentence)
    if s is None or len(s) < 4 or s[0] != "$" or s[-3] != "*":
        return None
    hi = _hex_value(s[-2])
    lo = _hex_value(s[-1])
    if hi < 0 or lo < 0:
        return None
    body = s[1:-3]
    x = 0
    for c in body:
        o = ord(c)
        # printable ASCII only; '$' and '*' are reserved delimiters
        if o < 32 or o > 126 or o == 36 or o == 42:
            return None
        x ^= o
    if x != hi * 16 + lo:
        return None
    return body


def checksum_ok(sentence):
    """True when the sentence is well formed and its checksum matches."""
    try:
        return _checked_body(sentence) is not None
    except Exception:
        return False


# --- field parsers: each returns None for an empty or malformed field ------


def _is_number(s, signed):
    # Plain decimal: digits with at most one '.', optional leading '-'.
    # (float() would also accept 'nan', 'inf', '1e5', ' 1', '+1', '1_0'.)
    if signed and s[:1] == "-":
        s = s[1:]
    digits = 0
    dot = False
    for c in s:
        if c == ".":
            if dot:
                return False
            dot = True
        elif c in _DIGITS:
            digits += 1
        else:
            return False
    return digits > 0


def _int(s):
    if s and _is_number(s, False) and "." not in s:
        return int(s)
    return None


def _float(s, signed=False):
    if s and _is_number(s, signed):
        return float(s)
    return None


def _time(s):
    # hhmmss or hhmmss.sss
    if len(s) < 6 or not _is_number(s, False) or "." in s[:6]:
        return None
    hh = int(s[0:2])
    mm = int(s[2:4])
    ss = float(s[4:])
    if hh > 23 or mm > 59 or ss >= 61.0:  # 60.x: leap second
        return None
    return (hh, mm, ss)


def _date(s):
    # ddmmyy
    if len(s) != 6 or _int(s) is None:
        return None
    day = int(s[0:2])
    month = int(s[2:4])
    yy = int(s[4:6])
    if day < 1 or day > 31 or month < 1 or month > 12:
        return None
    return (1900 + yy if yy >= 80 else 2000 + yy, month, day)


def _coord(value, hemi, max_deg, positive, negative):
    # (d)ddmm.mmmm + hemisphere letter -> signed decimal degrees
    if hemi != positive and hemi != negative:
        return None
    if not value or not _is_number(value, False):
        return None
    dot = value.find(".")
    if dot < 0:
        dot = len(value)
    if dot < 3:  # at least one degree digit and two minute digits
        return None
    degrees = int(value[: dot - 2])
    minutes = float(value[dot - 2 :])
    if minutes >= 60.0:
        return None
    result = degrees + minutes / 60.0
    if result > max_deg:
        return None
    return -result if hemi == negative else result


def _position(f, i):
    # lat, lon from fields i..i+3, or (None, None)
    lat = _coord(f[i], f[i + 1], 90, "N", "S")
    lon = _coord(f[i + 2], f[i + 3], 180, "E", "W")
    if lat is None or lon is None:
        return None, None
    return lat, lon


def _parse_gga(talker, f):
    # GGA,time,lat,N,lon,E,quality,sats,hdop,alt,M,geoid,M,age,station
    if len(f) < 10:
        return None
    fix = _int(f[6])
    if fix is None:
        fix = 0
    lat, lon = (None, None)
    if fix > 0:
        lat, lon = _position(f, 2)
    return {
        "type": "GGA",
        "talker": talker,
        "time": _time(f[1]),
        "lat": lat,
        "lon": lon,
        "fix": fix,
        "sats": _int(f[7]),
        "hdop": _float(f[8]),
        "alt": _float(f[9], True),
        "geoid": _float(f[11], True) if len(f) > 11 else None,
    }


def _parse_rmc(talker, f):
    # RMC,time,status,lat,N,lon,E,speed,course,date,magvar,E[,mode[,navstatus]]
    if len(f) < 10:
        return None
    valid = f[2] == "A"
    if len(f) > 12 and f[12] == "N":  # NMEA 2.3 mode indicator: data not valid
        valid = False
    lat, lon = (None, None)
    if valid:
        lat, lon = _position(f, 3)
    return {
        "type": "RMC",
        "talker": talker,
        "time": _time(f[1]),
        "valid": valid,
        "lat": lat,
        "lon": lon,
        "speed": _float(f[7]),
        "course": _float(f[8]),
        "date": _date(f[9]),
    }


def _parse_body(body):
    f = body.split(",")
    address = f[0]
    if len(address) != 5:
        return None
    talker = address[:2]
    for c in talker:
        if c < "A" or c > "Z":
            return None
    kind = address[2:]
    if kind == "GGA":
        return _parse_gga(talker, f)
    if kind == "RMC":
        return _parse_rmc(talker, f)
    return None


def parse(sentence):
    """Parse one GGA or RMC sentence into a dict; None for anything else."""
    try:
        body = _checked_body(sentence)
        if body is None:
            return None
        return _parse_body(body)
    except Exception:
        # Belt and braces: garbage must never take the firmware down.
        return None


class NmeaReader:
    """Incremental NMEA reader for a byte stream (e.g. a UART)."""

    def __init__(self, max_line=MAX_LINE):
        self.max_line = max_line
        self._buf = b""
        self.fix = None
        self.has_fix = False
        self.sentences = 0
        self.errors = 0
        self.overflows = 0

    def feed(self, data):
        """Consume a chunk of bytes; return the dicts parsed from it."""
        out = []
        if not data:
            return out
        if isinstance(data, str):
            data = data.encode()
        buf = self._buf + bytes(data)
        start = 0
        while True:
            cr = buf.find(b"\r", start)
            lf = buf.find(b"\n", start)
            if cr < 0:
                end = lf
            elif lf < 0:
                end = cr
            else:
                end = cr if cr < lf else lf
            if end < 0:
                break
            if end > start:
                if end - start > self.max_line:
                    self.overflows += 1
                else:
                    self._line(buf[start:end], out)
            start = end + 1
        rest = buf[start:]
        if len(rest) > self.max_line:
            # No line end in sight: keep at most the last sentence start.
            self.overflows += 1
            j = rest.rfind(b"$")
            if j > 0 and len(rest) - j <= self.max_line:
                rest = rest[j:]
            else:
                rest = b""
        self._buf = rest
        return out

    def _line(self, line, out):
        # A line may hold several sentences if line endings were lost, and
        # leading noise; '$' never occurs inside a sentence.
        pieces = line.split(b"$")
        if pieces[0].strip():
            self.errors += 1
        for piece in pieces[1:]:
            sentence = b"$" + piece
            body = None
            try:
                body = _checked_body(sentence)
            except Exception:
                pass
            if body is None:
                if piece.strip():
                    self.errors += 1
                continue
            try:
                result = _parse_body(body)
            except Exception:
                result = None
            if result is None:
                continue  # valid sentence of a type we do not use
            self.sentences += 1
            self.has_fix = result["lat"] is not None
            if self.has_fix:
                self.fix = result
            out.append(result)
