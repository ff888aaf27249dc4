"""The cases of test_nmea.py, written once as data: parse() inputs, checksum_ok() inputs and NmeaReader scenarios.

Each input is tagged (S: a string, B: bytes, N: a number or None) so that it
crosses to MicroPython as JSON (``PAYLOAD``); the expected results are plain
dicts built by ``gga`` and ``rmc``.

Sentence sources (public logs and test suites, checksums as published):
  [gpsd-beidou]  gpsd, test/daemon/beidou-bd.log (SiRF TriG receiver,
                 2015-02-25, GN/BD talkers, cold start then fix near
                 Shanghai) - https://gitlab.com/gpsd/gpsd
                 (GitHub mirror ntpsec/gpsd)
  [gpsd-l70]     gpsd, test/daemon/quectel-L70.log (Quectel L70, Calgary,
                 2022-03-09, DGPS fix, western hemisphere)
  [gpsd-rtk]     gpsd, test/daemon/nmea-fuzzy-cases.log (Trimble, RTK fix,
                 8-decimal minutes, 2020-03-18)
  [gpsd-navika]  gpsd, test/daemon/navika-100-fix.log (Navika-100, San
                 Rafael CA, 2016-04-21, NMEA 4.1 RMC with nav status field)
                 (GitHub mirror ukyg9e5r6k7gubiekd6/gpsd)
  [pynmea2]      Knio/pynmea2, test/test_types.py and test/test_pynmea.py
                 (southern-hemisphere GGA, 1994 RMC west of Greenwich,
                 no-fix GGA, truncated corrupt RMC)
  [hb9kns]       hb9kns/gpsnmea, scratch.md (receiver without fix repeating
                 a stale position with GGA quality 0 / RMC status V)
Sentences marked [made here] are constructed for a case no public sample
covered; their checksums come from ``_with_checksum`` below, which is
independent of the code under test.
"""

import functools
import operator
import random


def _with_checksum(body):
    """'GPGGA,...' -> '$GPGGA,...*HH' (independent reference implementation)."""
    return "$%s*%02X" % (body, functools.reduce(operator.xor, body.encode("ascii"), 0))


def S(text):  # noqa: N802 - the cases' one-letter tag: a string
    return {"s": text}


def B(data):  # noqa: N802 - the cases' one-letter tag: bytes
    return {"b": list(data)}


def N(value):  # noqa: N802 - the cases' one-letter tag: a number
    return {"n": value}


def gga(talker, time, lat, lon, fix, sats, hdop, alt, geoid):
    return {
        "type": "GGA", "talker": talker, "time": time, "lat": lat, "lon": lon,
        "fix": fix, "sats": sats, "hdop": hdop, "alt": alt, "geoid": geoid,
    }


def rmc(talker, time, valid, lat, lon, speed, course, date):
    return {
        "type": "RMC", "talker": talker, "time": time, "valid": valid,
        "lat": lat, "lon": lon, "speed": speed, "course": course, "date": date,
    }


def dm(degrees, minutes):
    return degrees + minutes / 60.0


# --- parse() cases: (id, input, expected dict or None) ----------------------

BEIDOU_NOFIX_GGA = "$GNGGA,074150.799,,,,,0,00,,,M,0.0,M,,0000,*64"  # [gpsd-beidou]
BEIDOU_NOFIX_RMC = "$GNRMC,074150.799,V,,,,,,,250215,,,N*52"  # [gpsd-beidou]
BEIDOU_FIX_GGA = "$GNGGA,074155.799,3114.8770,N,12135.2463,E,1,05,1.3,156.9,M,8.3,M,,0000,4.9*77"  # [gpsd-beidou]
BEIDOU_FIX_RMC = "$GNRMC,074155.799,A,3114.8770,N,12135.2463,E,0.30,4.94,250215,,,A*76"  # [gpsd-beidou]
PYNMEA2_GGA_SOUTH = "$GPGGA,184353.07,1929.045,S,02410.506,E,1,04,2.6,100.00,M,-33.9,M,,0000*6D"  # [pynmea2]
PYNMEA2_RMC_WEST = "$GPRMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E*68"  # [pynmea2]

SHANGHAI = (dm(31, 14.8770), dm(121, 35.2463))
BUENOS_AIRES_GGA = _with_checksum("GNGGA,150301.00,3436.4800,S,05822.9100,W,1,09,0.9,25.0,M,14.0,M,,")
SYDNEY_RMC = _with_checksum("GARMC,083559.00,A,3351.5400,S,15112.8600,E,1.2,87.0,010125,,,A")

PARSE_CASES = [
    # -- real receivers ------------------------------------------------------
    ("gpsd_beidou_gga_no_fix", S(BEIDOU_NOFIX_GGA),
     gga("GN", [7, 41, 50.799], None, None, 0, 0, None, None, 0.0)),
    ("gpsd_beidou_rmc_status_v_mode_n", S(BEIDOU_NOFIX_RMC),
     rmc("GN", [7, 41, 50.799], False, None, None, None, None, [2015, 2, 25])),
    ("gpsd_beidou_gga_fix_extra_field", S(BEIDOU_FIX_GGA),
     gga("GN", [7, 41, 55.799], SHANGHAI[0], SHANGHAI[1], 1, 5, 1.3, 156.9, 8.3)),
    ("gpsd_beidou_rmc_fix", S(BEIDOU_FIX_RMC),
     rmc("GN", [7, 41, 55.799], True, SHANGHAI[0], SHANGHAI[1], 0.30, 4.94, [2015, 2, 25])),
    ("gpsd_beidou_bdgsa_is_not_parsed", S("$BDGSA,A,3,02,03,04,,,,,,,,,,5.1,1.3,4.9,3.3*2F"), None),
    ("gpsd_sirf_proprietary_is_not_parsed", S("$PSRFEPE,074150.799,V,,,,,*23"), None),
    ("gpsd_l70_gga_dgps_west",
     S("$GPGGA,150119.000,5104.0859,N,11405.7387,W,2,8,0.94,1102.4,M,-17.5,M,,*53"),
     gga("GP", [15, 1, 19.0], dm(51, 4.0859), -dm(114, 5.7387), 2, 8, 0.94, 1102.4, -17.5)),
    ("gpsd_l70_rmc_west",
     S("$GPRMC,150119.000,A,5104.0859,N,11405.7387,W,0.09,194.17,090322,,,D*73"),
     rmc("GP", [15, 1, 19.0], True, dm(51, 4.0859), -dm(114, 5.7387), 0.09, 194.17, [2022, 3, 9])),
    ("gpsd_trimble_gga_rtk",
     S("$GNGGA,133900.10,4134.50180243,N,09345.03586611,W,4,19,0.7,280.828,M,-31.442,M,6.1,0002*63"),
     gga("GN", [13, 39, 0.1], dm(41, 34.50180243), -dm(93, 45.03586611), 4, 19, 0.7, 280.828, -31.442)),
    ("gpsd_navika_rmc_nmea41",
     S("$GPRMC,223251.00,A,3757.92653,N,12231.94543,W,0.068,338.51,210416,0.00,E,A,V*5B"),
     rmc("GP", [22, 32, 51.0], True, dm(37, 57.92653), -dm(122, 31.94543), 0.068, 338.51, [2016, 4, 21])),
    ("pynmea2_gga_south", S(PYNMEA2_GGA_SOUTH),
     gga("GP", [18, 43, 53.07], -dm(19, 29.045), dm(24, 10.506), 1, 4, 2.6, 100.0, -33.9)),
    ("pynmea2_rmc_west_1994", S(PYNMEA2_RMC_WEST),
     rmc("GP", [22, 54, 46.0], True, dm(49, 16.45), -dm(123, 11.12), 0.5, 54.7, [1994, 11, 19])),
    ("pynmea2_gga_missing_latlon", S("$GPGGA,201716.684,,,,,0,00,,,M,0.0,M,,0000*5F"),
     gga("GP", [20, 17, 16.684], None, None, 0, 0, None, None, 0.0)),
    ("pynmea2_bad_checksum", S(PYNMEA2_GGA_SOUTH[:-2] + "00"), None),
    ("pynmea2_corrupt_truncated", S("$GPRMC,172142.00,A,4805.30256324,N,11629.09084774,W,0.D"), None),
    ("hb9kns_gga_quality0_hides_stale_position",
     S("$GPGGA,210210.000,5347.5779,N,00754.1630,E,0,00,0.0,52.8,M,0.0,M,,0000*59"),
     gga("GP", [21, 2, 10.0], None, None, 0, 0, 0.0, 52.8, 0.0)),
    ("hb9kns_rmc_status_v_hides_stale_position",
     S("$GPRMC,210209.000,V,5347.5779,N,00754.1630,E,000.0,000.0,300717,,,N*77"),
     rmc("GP", [21, 2, 9.0], False, None, None, 0.0, 0.0, [2017, 7, 30])),
    # -- [made here] hemispheres and talkers ---------------------------------
    ("buenos_aires_gga_south_west", S(BUENOS_AIRES_GGA),
     gga("GN", [15, 3, 1.0], -dm(34, 36.48), -dm(58, 22.91), 1, 9, 0.9, 25.0, 14.0)),
    ("sydney_rmc_south_east_galileo", S(SYDNEY_RMC),
     rmc("GA", [8, 35, 59.0], True, -dm(33, 51.54), dm(151, 12.86), 1.2, 87.0, [2025, 1, 1])),
    ("glonass_talker_gga", S(_with_checksum("GL" + BEIDOU_FIX_GGA[3:-3])),
     gga("GL", [7, 41, 55.799], SHANGHAI[0], SHANGHAI[1], 1, 5, 1.3, 156.9, 8.3)),
    ("beidou_talker_rmc", S(_with_checksum("BD" + BEIDOU_FIX_RMC[3:-3])),
     rmc("BD", [7, 41, 55.799], True, SHANGHAI[0], SHANGHAI[1], 0.30, 4.94, [2015, 2, 25])),
    ("rmc_status_a_but_mode_n_is_invalid",
     S(_with_checksum("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,N")),
     rmc("GP", [12, 35, 19.0], False, None, None, 22.4, 84.4, [1994, 3, 23])),
    ("rmc_minimal_fields_nmea21",
     S(_with_checksum("GPRMC,123519,A,4807.038,N,01131.000,E,,,230394")),
     rmc("GP", [12, 35, 19.0], True, dm(48, 7.038), dm(11, 31.0), None, None, [1994, 3, 23])),
    # -- [made here] formatting variants -------------------------------------
    ("bytes_with_crlf", B(PYNMEA2_RMC_WEST.encode() + b"\r\n"),
     rmc("GP", [22, 54, 46.0], True, dm(49, 16.45), -dm(123, 11.12), 0.5, 54.7, [1994, 11, 19])),
    ("surrounding_whitespace", S("  " + PYNMEA2_RMC_WEST + " \r\n"),
     rmc("GP", [22, 54, 46.0], True, dm(49, 16.45), -dm(123, 11.12), 0.5, 54.7, [1994, 11, 19])),
    ("lowercase_checksum_hex", S(PYNMEA2_GGA_SOUTH[:-2] + "6d"),
     gga("GP", [18, 43, 53.07], -dm(19, 29.045), dm(24, 10.506), 1, 4, 2.6, 100.0, -33.9)),
    ("leap_second_and_year_1980",
     S(_with_checksum("GPRMC,235960.5,A,0000.0000,N,00000.0000,E,0.0,0.0,311280,,")),
     rmc("GP", [23, 59, 60.5], True, 0.0, 0.0, 0.0, 0.0, [1980, 12, 31])),
    ("year_2079_and_poles",
     S(_with_checksum("GPRMC,000000,A,9000.0000,S,18000.0000,W,0.0,359.9,010179,,")),
     rmc("GP", [0, 0, 0.0], True, -90.0, -180.0, 0.0, 359.9, [2079, 1, 1])),
    # -- [made here] malformed fields inside a valid checksum ----------------
    ("garbage_fields_become_none",
     S(_with_checksum("GPGGA,xx,yy,N,zz,E,1,ab,cd,ef,M,gh,M,,")),
     gga("GP", None, None, None, 1, None, None, None, None)),
    ("float_lookalikes_rejected",
     S(_with_checksum("GPRMC,123519,A,nan,N,inf,E,1e3,-5,320394,,")),
     rmc("GP", [12, 35, 19.0], True, None, None, None, None, None)),
    ("out_of_range_values",
     S(_with_checksum("GPRMC,246000,A,4860.000,N,18100.000,E,+1, 2,001394,,")),
     rmc("GP", None, True, None, None, None, None, None)),
    ("bad_hemisphere_letters",
     S(_with_checksum("GPGGA,123519,4807.038,E,01131.000,N,1,08,0.9,545.4,M,46.9,M,,")),
     gga("GP", [12, 35, 19.0], None, None, 1, 8, 0.9, 545.4, 46.9)),
    ("too_few_fields", S(_with_checksum("GPGGA,123519,4807.038,N")), None),
    ("unknown_type", S(_with_checksum("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K")), None),
    ("bad_talker", S(_with_checksum("G1GGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")), None),
    # -- garbage: never raises, returns None ---------------------------------
    ("no_checksum", S("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"), None),
    ("no_dollar", S(PYNMEA2_GGA_SOUTH[1:]), None),
    ("non_hex_checksum", S(PYNMEA2_GGA_SOUTH[:-2] + "ZZ"), None),
    ("empty", S(""), None),
    ("only_dollar", S("$"), None),
    ("only_star", S("$*00"), None),
    ("non_ascii_text", S("$GPGGA,\u00e9*00"), None),
    ("invalid_utf8_bytes", B(b"$GPGGA,\xff\xfe*01"), None),
    ("nul_bytes", B(b"$GP\x00GA*00"), None),
    ("none_input", N(None), None),
    ("number_input", N(42), None),
]

# --- checksum_ok() cases ------------------------------------------------------

CHECKSUM_CASES = [
    ("valid", S(PYNMEA2_GGA_SOUTH), True),
    ("valid_bytes_crlf", B(BEIDOU_FIX_RMC.encode() + b"\r\n"), True),
    ("valid_lowercase", S(PYNMEA2_GGA_SOUTH[:-2] + "6d"), True),
    ("valid_unsupported_type", S("$BDGSA,A,3,02,03,04,,,,,,,,,,5.1,1.3,4.9,3.3*2F"), True),
    ("wrong", S(PYNMEA2_GGA_SOUTH[:-2] + "6E"), False),
    ("one_char_changed", S(PYNMEA2_GGA_SOUTH.replace("1929", "1928")), False),
    ("missing", S(PYNMEA2_GGA_SOUTH[:-3]), False),
    ("one_digit", S(PYNMEA2_GGA_SOUTH[:-1]), False),
    ("non_hex", S(PYNMEA2_GGA_SOUTH[:-2] + "G1"), False),
    ("no_dollar", S(PYNMEA2_GGA_SOUTH[1:]), False),
    ("empty", S(""), False),
    ("non_ascii", B(b"$\xc3\xa9*00"), False),
    ("none", N(None), False),
]

# --- NmeaReader scenarios -------------------------------------------------------

# [gpsd-beidou]: an excerpt of the log, in receiver order (cold start, no fix,
# then a fix); one line has a leading space in the original log.
BEIDOU_LOG = [
    "$PSRFEPE,074150.799,V,,,,,*23",
    BEIDOU_NOFIX_GGA,
    "$GNGNS,074150.799,,,,,NNNN,00,,,0.0,,0000*63",
    "$GPGSA,A,1,,,,,,,,,,,,,,,,*32",
    "$BDGSA,A,1,,,,,,,,,,,,,,,,*23",
    "$GPGSV,7,1,25,01,30,046,22,05,00,000,27,07,00,000,24,08,00,000,27*74",
    "$BDGSV,2,1,07,01,00,000,45,02,01,090,35,03,00,000,38,04,00,000,42*6A",
    BEIDOU_NOFIX_RMC,
    "$PSRFEPE,074151.799,V,,,,,*22",
    "$GNGGA,074151.799,,,,,0,00,,,M,0.0,M,,0000,*65",
    "$GNRMC,074151.799,V,,,,,,,250215,,,N*53",
    "$PSRFEPE,074155.799,A,1.3,10.59,52.97,0.6,180.0*16",
    BEIDOU_FIX_GGA,
    "$GNGNS,074155.799,3114.8770,N,12135.2463,E,ANNA,05,1.3,156.9,8.3,,0000*52",
    "$GPGSA,A,3,25,32,,,,,,,,,,,5.1,1.3,4.9,3.3*3D",
    BEIDOU_FIX_RMC,
    "$GNGGA,074157.799,3114.8902,N,12135.2443,E,1,07,1.1,192.9,M,8.3,M,,0000,1.8*70",
    " $GNRMC,074157.799,A,3114.8902,N,12135.2443,E,0.32,4.94,250215,,,A*7F",
    "$PSRF151,3,1833,28693,0x7EFFD7FF*67",
]
BEIDOU_STREAM = "".join(line + "\r\n" for line in BEIDOU_LOG).encode()
BEIDOU_LAST_RMC = rmc("GN", [7, 41, 57.799], True, dm(31, 14.8902), dm(121, 35.2443), 0.32, 4.94, [2015, 2, 25])
# (type, time) of what the reader must emit for BEIDOU_STREAM, in order
BEIDOU_EMITTED = [
    ("GGA", [7, 41, 50.799]), ("RMC", [7, 41, 50.799]),
    ("GGA", [7, 41, 51.799]), ("RMC", [7, 41, 51.799]),
    ("GGA", [7, 41, 55.799]), ("RMC", [7, 41, 55.799]),
    ("GGA", [7, 41, 57.799]), ("RMC", [7, 41, 57.799]),
]


def _chunks(data, sizes):
    out, i, k = [], 0, 0
    while i < len(data):
        n = sizes[k % len(sizes)]
        out.append(list(data[i:i + n]))
        i += n
        k += 1
    return out


def _random_chunks(data, seed, max_size):
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(data):
        n = rng.randint(1, max_size)
        out.append(list(data[i:i + n]))
        i += n
    return out


def _fuzz_stream(seed):
    # Random bytes mixed with fragments and whole copies of real sentences.
    rng = random.Random(seed)
    parts = []
    for _ in range(300):
        r = rng.random()
        if r < 0.3:
            parts.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))))
        elif r < 0.6:
            line = rng.choice(BEIDOU_LOG).encode()
            a = rng.randrange(len(line))
            parts.append(line[a:a + rng.randint(1, 60)])
        elif r < 0.8:
            parts.append(rng.choice(BEIDOU_LOG).encode() + rng.choice([b"\r\n", b"\n", b"\r", b""]))
        else:
            parts.append(rng.choice([b"\r", b"\n", b"$", b"*", b",", b"\r\n", b"\x00", b"\xff"]))
    return b"".join(parts)


GARBAGE_2K = bytes(random.Random(7).choice(b"ABCxyz0123456789,.*\x00\x7f\x80\xfe") for _ in range(2000))
FIX_LINE = (PYNMEA2_GGA_SOUTH + "\r\n").encode()
NOFIX_LINE = (BEIDOU_NOFIX_GGA + "\r\n").encode()

READER_SCENARIOS = [
    ("gpsd_log_crlf_random_chunks", {"chunks": _random_chunks(BEIDOU_STREAM, 1, 64)}),
    ("gpsd_log_one_byte_at_a_time", {"chunks": _chunks(BEIDOU_STREAM, [1])}),
    ("gpsd_log_single_chunk", {"chunks": [list(BEIDOU_STREAM)]}),
    ("gpsd_log_lf_only", {"chunks": _chunks(BEIDOU_STREAM.replace(b"\r\n", b"\n"), [7, 50, 3])}),
    ("gpsd_log_cr_only", {"chunks": _chunks(BEIDOU_STREAM.replace(b"\r\n", b"\r"), [13])}),
    ("lost_line_endings", {"chunks": [list(PYNMEA2_GGA_SOUTH.encode() + BEIDOU_FIX_RMC.encode() + b"\r\n")]}),
    ("fix_then_lost", {"chunks": [list(FIX_LINE), list(NOFIX_LINE)]}),
    ("bad_checksum_in_stream", {"chunks": [
        list(FIX_LINE),
        list((PYNMEA2_GGA_SOUTH.replace("1929", "1928") + "\r\n").encode()),
        list(b"noise without dollar\r\n"),
    ]}),
    ("overlong_garbage_then_sentence", {"chunks": (
        [list(FIX_LINE)] + _chunks(GARBAGE_2K, [100]) + [list(b"\r\n" + NOFIX_LINE)]
    )}),
    ("overlong_garbage_ending_in_sentence_start", {"chunks": [
        list(GARBAGE_2K[:500] + PYNMEA2_GGA_SOUTH[:20].encode()),
        list(PYNMEA2_GGA_SOUTH[20:].encode() + b"\r\n"),
    ]}),
    ("overlong_complete_line", {"max_line": 60, "chunks": [list(FIX_LINE), list(NOFIX_LINE)]}),
    ("fuzz_seed_1", {"chunks": _random_chunks(_fuzz_stream(1), 2, 90)}),
    ("fuzz_seed_2", {"chunks": _random_chunks(_fuzz_stream(2), 3, 7)}),
]

PAYLOAD = {
    "parse": [case[1] for case in PARSE_CASES],
    "checksum": [case[1] for case in CHECKSUM_CASES],
    "reader": [case[1] for case in READER_SCENARIOS],
}
