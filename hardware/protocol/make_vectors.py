"""Generate hardware/protocol/vectors.json, the golden vectors of PROTOCOL.md.

    python hardware/protocol/make_vectors.py          # rewrite vectors.json
    python hardware/protocol/make_vectors.py --check  # exit 1 if it is stale

Deliberately independent of controlroom/radio/codec.py: frames are packed
here with ``struct`` from the byte tables of PROTOCOL.md, tags come from the
standard library's ``hmac`` and line checksums from ``binascii.crc_hqx``
(CRC-16/CCITT-FALSE with initial value 0xFFFF).  The codec is then tested
against these bytes (tests/radio/test_codec.py, and under MicroPython
tests/radio/test_codec_micropython.py), so a mistake in the codec cannot
hide behind vectors the codec made itself.

Version 2 frames (PROTOCOL.md section 4, "Version 2") are packed the same
way with the version bits 010; the version 1 cases are unchanged.

Case shapes (every case has "name", "kind" and "note"):

* frame: "hex" (the bytes on air), "key" (hex, the key to verify with),
  "valid" (decodes AND verifies), "error" (decode_frame's FrameError reason
  or null), "verify" (verify(frame, key), null when decoding fails) and
  "decoded" (null or {version, type, device, counter, fields, needs_ack,
  tag, signed}; tag/signed as uppercase hex).
* line: "line" (one serial line, may end in CR/LF), "valid", "error"
  (parse_line's FrameError reason or null), "parsed" (the dict, frames as
  uppercase hex), "canonical" (the matching format_*_line() gives exactly
  this line without its line ending).
* hmac: "key", "data", "mac" (hex; RFC 4231 test cases for HMAC-SHA256).
* crc16: "text", "crc" (4 uppercase hex digits).
"""

import binascii
import copy
import hashlib
import hmac
import json
import struct
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "vectors.json"
DOMAIN = b"controlroom/v1"

# Devices of the vectors: id -> (role, key)
MARSHAL, MARSHAL_KEY = 0x0102, bytes(range(16))
MARSHAL2, MARSHAL2_KEY = 0x0103, bytes.fromhex("f0e1d2c3b4a5968778695a4b3c2d1e0f")
TRACKER, TRACKER_KEY = 0x0201, bytes.fromhex("3c9e5d1ab8427f06e1c4a93d5b70f28e")
GATEWAY, GATEWAY_KEY = 0x0007, bytes.fromhex("8d2f61c07b3ae4599e15d8a62c4f0b73")

# Message type codes, tag lengths, payload layouts (PROTOCOL.md).
CODES = {"position": 1, "heartbeat": 2, "casualty": 3, "headcount": 4, "siege": 5, "valhalla": 6,
         "canned": 7, "stopp_called": 8, "stopp_lifted": 9, "ack": 16, "ack_stopp": 17}
TAG_LEN = {"stopp_called": 8, "stopp_lifted": 8, "ack_stopp": 8}
NEEDS_ACK = ("casualty", "valhalla", "stopp_called", "stopp_lifted")
KINDS = ["down", "knocked_out", "big_stone_on_shield", "bound", "cared_for", "strenuous",
         "healer_touch", "died", "permanent_kill", "respawned"]
STATUSES = ["moved", "firing", "damaged", "destroyed", "captured"]
REASONS = ["unpleasant", "injury", "danger"]
CANNED = ["all_quiet", "need_healer", "need_marshal", "need_game_master", "weapon_check",
          "rules_dispute", "fight_started", "fight_over", "need_bandages", "need_water",
          "outsiders", "found_item", "returning"]
NO_POS = 0x7FFFFFFF

# Places (1e-7 degree): Tartu, Estonia; Buenos Aires (south-west quadrant).
TARTU = (583776000, 267290000)
BUENOS_AIRES = (-346080000, -583820000)


def tag(key, signed, n):
    return hmac.new(key, DOMAIN + signed, hashlib.sha256).digest()[:n]


def frame(type_name, device, counter, payload, key, version=1, code=None, tag_len=None):
    code = CODES[type_name] if code is None else code
    signed = struct.pack(">BHI", version << 5 | code, device, counter) + payload
    return signed + tag(key, signed, TAG_LEN.get(type_name, 4) if tag_len is None else tag_len)


def pos(lat_lon):
    return struct.pack(">ii", *lat_lon) if lat_lon else struct.pack(">ii", NO_POS, NO_POS)


def latlon(lat_lon):
    return {"lat": lat_lon[0], "lon": lat_lon[1]} if lat_lon else {"lat": None, "lon": None}


# --- valid frames: (name, note, type, device, counter, payload, fields, key) --

VALID = [
    ("position_tracker_tartu", "position beacon of a group leader's tracker, GPS fix, 11 satellites",
     "position", TRACKER, 1000, pos(TARTU) + struct.pack(">BB", 87, 1 << 5 | 11),
     dict(latlon(TARTU), battery=87, fix=1, sats=11), TRACKER_KEY),
    ("position_south_west_dgps", "negative latitude and longitude, DGPS fix, 31 (or more) satellites",
     "position", TRACKER, 1001, pos(BUENOS_AIRES) + struct.pack(">BB", 100, 2 << 5 | 31),
     dict(latlon(BUENOS_AIRES), battery=100, fix=2, sats=31), TRACKER_KEY),
    ("position_no_fix", "no fix yet: lat/lon 0x7FFFFFFF (None), battery 255 (unknown)",
     "position", MARSHAL, 7, pos(None) + struct.pack(">BB", 255, 0), dict(latlon(None), battery=None, fix=0, sats=0),
     MARSHAL_KEY),
    ("position_extremes", "latitude +90, longitude -180, battery 0; device 0xFFFF, counter 0xFFFFFFFF",
     "position", 0xFFFF, 0xFFFFFFFF, pos((900000000, -1800000000)) + struct.pack(">BB", 0, 1 << 5 | 4),
     dict(latlon((900000000, -1800000000)), battery=0, fix=1, sats=4), MARSHAL2_KEY),
    ("heartbeat_marshal", "battery 64 %, up 1 h 35 min", "heartbeat", MARSHAL, 8, struct.pack(">BH", 64, 95),
     {"battery": 64, "uptime_min": 95}, MARSHAL_KEY),
    ("heartbeat_uptime_saturated", "battery unknown, uptime 65535 min (or more)", "heartbeat", TRACKER, 1002,
     struct.pack(">BH", 255, 65535), {"battery": None, "uptime_min": 65535}, TRACKER_KEY),
]
for i, kind in enumerate(KINDS):
    by = {"cared_for": 311, "healer_touch": 57}.get(kind)
    VALID.append(("casualty_" + kind, "badge 1234 %s%s" % (kind, " by badge %d" % by if by else ""),
                  "casualty", MARSHAL, 100 + i,
                  struct.pack(">HB", 1234, i + 1) + (struct.pack(">H", by) if by else b""),
                  {"badge": 1234, "kind": kind, "by": by}, MARSHAL_KEY))
VALID += [
    ("casualty_bound_by", "badge 65535 bound by badge 1 (optional second badge)", "casualty", MARSHAL, 120,
     struct.pack(">HBH", 65535, 4, 1), {"badge": 65535, "kind": "bound", "by": 1}, MARSHAL_KEY),
    ("casualty_permanent_kill_by", "badge 1 permanently killed by badge 4321", "casualty", MARSHAL, 121,
     struct.pack(">HBH", 1, 9, 4321), {"badge": 1, "kind": "permanent_kill", "by": 4321}, MARSHAL_KEY),
    ("headcount_group_12", "group 12: 23 up, 4 down, 2 dead", "headcount", TRACKER, 1003,
     struct.pack(">HBBB", 12, 23, 4, 2), {"group": 12, "up": 23, "down": 4, "dead": 2}, TRACKER_KEY),
    ("siege_moved", "engine 3 moved, with position", "siege", TRACKER, 1004, struct.pack(">BB", 3, 1) + pos(TARTU),
     dict(latlon(TARTU), engine=3, status="moved"), TRACKER_KEY),
]
for i, status in enumerate(STATUSES[1:], 2):
    VALID.append(("siege_" + status, "engine 255 %s, no position" % status, "siege", MARSHAL, 130 + i,
                  struct.pack(">BB", 255, i) + pos(None), dict(latlon(None), engine=255, status=status), MARSHAL_KEY))
VALID += [
    ("valhalla_checkin", "badge 1234 checks in at Valhalla", "valhalla", MARSHAL, 140, struct.pack(">H", 1234),
     {"badge": 1234}, MARSHAL_KEY),
]
for i, name in enumerate(CANNED, 1):
    VALID.append(("canned_" + name, "canned message %d" % i, "canned", MARSHAL, 150 + i, struct.pack(">B", i),
                  {"message": name}, MARSHAL_KEY))
for i, reason in enumerate(REASONS, 1):
    VALID.append(("stopp_called_" + reason, "STOPP number %d (%s) called at Tartu, 8-byte tag" % (i, reason),
                  "stopp_called", MARSHAL, 200 + i, struct.pack(">BB", i, i) + pos(TARTU),
                  dict(latlon(TARTU), stopp=i, reason=reason), MARSHAL_KEY))
VALID += [
    ("stopp_called_no_position", "STOPP 0 (danger) called without a GPS fix", "stopp_called", MARSHAL, 210,
     struct.pack(">BB", 3, 0) + pos(None), dict(latlon(None), stopp=0, reason="danger"), MARSHAL_KEY),
    ("stopp_lifted", "STOPP number 2 lifted, 8-byte tag", "stopp_lifted", MARSHAL, 211, struct.pack(">B", 2),
     {"stopp": 2}, MARSHAL_KEY),
    ("ack_casualty", "station acks marshal 0x0102's counter 107 via gateway 7 (marshal's key, 4-byte tag)",
     "ack", GATEWAY, 5000, struct.pack(">HI", MARSHAL, 107), {"acked_device": MARSHAL, "acked_counter": 107},
     MARSHAL_KEY),
    ("ack_stopp", "station acks marshal 0x0102's STOPP frame counter 202 (marshal's key, 8-byte tag)",
     "ack_stopp", GATEWAY, 5001, struct.pack(">HI", MARSHAL, 202), {"acked_device": MARSHAL, "acked_counter": 202},
     MARSHAL_KEY),
]


# --- version 2: the acked uplink types carry the key press time, stopp_called the caller --
# (name, note, type, device, counter, payload, fields, key); the version byte is 0x40 | type.
PRESSED = 1780000000          # 2026-05-28 20:26:40 UTC, unix seconds
V2 = [
    ("v2_casualty_down", "version 2: badge 1234 down, pressed at unix 1780000000",
     "casualty", MARSHAL, 400, struct.pack(">HBI", 1234, 1, PRESSED),
     {"badge": 1234, "kind": "down", "pressed": PRESSED, "by": None}, MARSHAL_KEY),
    ("v2_casualty_healer_touch", "version 2: healed by badge 57; the second badge stays the last field",
     "casualty", MARSHAL, 401, struct.pack(">HBIH", 1234, 7, PRESSED + 1, 57),
     {"badge": 1234, "kind": "healer_touch", "pressed": PRESSED + 1, "by": 57}, MARSHAL_KEY),
    ("v2_casualty_time_unknown", "version 2: no clock yet, pressed 0 (unknown, None)",
     "casualty", MARSHAL, 402, struct.pack(">HBI", 77, 8, 0),
     {"badge": 77, "kind": "died", "pressed": None, "by": None}, MARSHAL_KEY),
    ("v2_valhalla", "version 2: badge 1234 checks in at Valhalla", "valhalla", MARSHAL, 403,
     struct.pack(">HI", 1234, PRESSED), {"badge": 1234, "pressed": PRESSED}, MARSHAL_KEY),
    ("v2_stopp_called_caller", "version 2: STOPP 4 (injury) called by badge 321, at Tartu",
     "stopp_called", MARSHAL, 404, struct.pack(">BB", 2, 4) + pos(TARTU) + struct.pack(">HI", 321, PRESSED),
     dict(latlon(TARTU), stopp=4, reason="injury", caller=321, pressed=PRESSED), MARSHAL_KEY),
    ("v2_stopp_called_no_caller", "version 2: STOPP 5 (danger), no caller given (0), time unknown (0)",
     "stopp_called", MARSHAL, 405, struct.pack(">BB", 3, 5) + pos(None) + struct.pack(">HI", 0, 0),
     dict(latlon(None), stopp=5, reason="danger", caller=None, pressed=None), MARSHAL_KEY),
    ("v2_stopp_lifted", "version 2: STOPP 4 lifted", "stopp_lifted", MARSHAL, 406,
     struct.pack(">BI", 4, PRESSED + 600), {"stopp": 4, "pressed": PRESSED + 600}, MARSHAL_KEY),
    ("v2_position", "version 2: types without an ack keep the version 1 payload", "position", TRACKER, 1010,
     pos(TARTU) + struct.pack(">BB", 50, 1 << 5 | 6), dict(latlon(TARTU), battery=50, fix=1, sats=6), TRACKER_KEY),
]


def frame_case(name, note, data, key, error=None, verify=None, decoded=None):
    return {"name": name, "kind": "frame", "note": note, "valid": error is None and verify is True,
            "error": error, "verify": verify, "hex": data.hex().upper(), "key": key.hex().upper(), "decoded": decoded}


def valid_cases():
    out = {}
    for version, cases in ((1, VALID), (2, V2)):
        for case in cases:
            out[case[0]] = valid_case(version, *case)
    return out


def valid_case(version, name, note, type_name, device, counter, payload, fields, key):
    data = frame(type_name, device, counter, payload, key, version=version)
    taglen = TAG_LEN.get(type_name, 4)
    decoded = {"version": version, "type": type_name, "device": device, "counter": counter, "fields": fields,
               "needs_ack": type_name in NEEDS_ACK, "tag": data[-taglen:].hex().upper(),
               "signed": data[:-taglen].hex().upper()}
    return frame_case(name, note, data, key, verify=True, decoded=decoded)


def invalid_cases(valid):
    def raw(name):
        return bytes.fromhex(valid[name]["hex"])

    pos_frame = raw("position_tracker_tartu")
    stopp = raw("stopp_called_injury")
    cas = lambda payload: frame("casualty", MARSHAL, 300, payload, MARSHAL_KEY)  # noqa: E731 - short, for the table
    out = [
        ("empty", "no bytes at all", b"", "short"),
        ("header_byte_only", "one valid type/version byte", pos_frame[:1], "short"),
        ("header_only", "a position header without payload or tag", pos_frame[:7], "short"),
        ("position_truncated", "last tag byte missing", pos_frame[:-1], "short"),
        ("position_extra_byte", "one byte appended", pos_frame + b"\x00", "long"),
        ("stopp_called_with_short_tag", "STOPP frame cut to a 4-byte tag: STOPP tags are 8 bytes", stopp[:-4], "short"),
        ("casualty_four_byte_payload", "casualty payload is 3 or 5 bytes, never 4",
         cas(struct.pack(">HBB", 1234, 1, 0)), "payload"),
        ("version_0", "version bits 000", bytes([0x01]) + pos_frame[1:], "version"),
        ("version_3", "version bits 011", bytes([0x61]) + pos_frame[1:], "version"),
        ("version_7", "version bits 111", bytes([0xE1]) + pos_frame[1:], "version"),
        ("all_ones", "0xFF * 21", b"\xff" * 21, "version"),
        ("type_0", "message type 0 is reserved", frame("position", TRACKER, 1, pos(TARTU) + b"\x57\x2b",
                                                      TRACKER_KEY, code=0), "type"),
        ("type_10", "message type 10 is unassigned", frame("position", TRACKER, 1, b"\x00", TRACKER_KEY, code=10),
         "type"),
        ("type_31", "message type 31 is unassigned", frame("position", TRACKER, 1, b"", TRACKER_KEY, code=31), "type"),
        ("casualty_kind_0", "casualty kind 0", cas(struct.pack(">HB", 1234, 0)), "payload"),
        ("casualty_kind_11", "casualty kind 11 is unassigned", cas(struct.pack(">HB", 1234, 11)), "payload"),
        ("casualty_badge_0", "badge 0", cas(struct.pack(">HB", 0, 1)), "payload"),
        ("casualty_by_0", "second badge 0", cas(struct.pack(">HBH", 1234, 7, 0)), "payload"),
        ("casualty_down_with_by", "kind down takes no second badge", cas(struct.pack(">HBH", 1234, 1, 57)), "payload"),
        ("casualty_healer_touch_without_by", "healer_touch needs the healer's badge",
         cas(struct.pack(">HB", 1234, 7)), "payload"),
        ("casualty_cared_for_without_by", "cared_for needs the carer's badge", cas(struct.pack(">HB", 1234, 5)),
         "payload"),
        ("position_lat_out_of_range", "latitude 90.0000001", frame(
            "position", TRACKER, 2, pos((900000001, 0)) + b"\x57\x2b", TRACKER_KEY), "payload"),
        ("position_lon_out_of_range", "longitude -180.0000001", frame(
            "position", TRACKER, 3, pos((0, -1800000001)) + b"\x57\x2b", TRACKER_KEY), "payload"),
        ("position_half_missing", "lat is the no-position marker but lon is not", frame(
            "position", TRACKER, 4, pos((NO_POS, 0)) + b"\x57\x2b", TRACKER_KEY), "payload"),
        ("position_battery_101", "battery 101 %", frame(
            "position", TRACKER, 5, pos(TARTU) + b"\x65\x2b", TRACKER_KEY), "payload"),
        ("heartbeat_battery_200", "battery 200 %", frame(
            "heartbeat", TRACKER, 6, struct.pack(">BH", 200, 1), TRACKER_KEY), "payload"),
        ("headcount_group_0", "group 0", frame("headcount", TRACKER, 7, struct.pack(">HBBB", 0, 1, 1, 1),
                                               TRACKER_KEY), "payload"),
        ("siege_engine_0", "engine 0", frame("siege", TRACKER, 8, struct.pack(">BB", 0, 1) + pos(TARTU),
                                             TRACKER_KEY), "payload"),
        ("siege_status_6", "siege status 6 is unassigned", frame(
            "siege", TRACKER, 9, struct.pack(">BB", 1, 6) + pos(TARTU), TRACKER_KEY), "payload"),
        ("valhalla_badge_0", "badge 0", frame("valhalla", MARSHAL, 301, b"\x00\x00", MARSHAL_KEY), "payload"),
        ("canned_0", "canned code 0", frame("canned", MARSHAL, 302, b"\x00", MARSHAL_KEY), "payload"),
        ("canned_14", "canned code 14 is unassigned", frame("canned", MARSHAL, 303, b"\x0e", MARSHAL_KEY), "payload"),
        ("stopp_reason_0", "STOPP reason 0", frame(
            "stopp_called", MARSHAL, 304, struct.pack(">BB", 0, 1) + pos(TARTU), MARSHAL_KEY), "payload"),
        ("stopp_reason_4", "STOPP reason 4", frame(
            "stopp_called", MARSHAL, 305, struct.pack(">BB", 4, 1) + pos(TARTU), MARSHAL_KEY), "payload"),
        ("v2_casualty_v1_payload", "version 2 byte on a version 1 casualty payload (no time): too short",
         frame("casualty", MARSHAL, 410, struct.pack(">HB", 1234, 1), MARSHAL_KEY, version=2), "short"),
        ("v2_casualty_eight_bytes", "version 2 casualty payload is 7 or 9 bytes, never 8",
         frame("casualty", MARSHAL, 411, struct.pack(">HBIB", 1234, 1, PRESSED, 0), MARSHAL_KEY, version=2),
         "payload"),
        ("v1_casualty_with_time", "version 1 byte on a version 2 payload with a second badge: too long",
         frame("casualty", MARSHAL, 412, struct.pack(">HBIH", 1234, 7, PRESSED, 57), MARSHAL_KEY), "long"),
        ("v2_stopp_called_v1_payload", "version 2 byte on a version 1 STOPP payload: too short",
         frame("stopp_called", MARSHAL, 413, struct.pack(">BB", 2, 1) + pos(TARTU), MARSHAL_KEY, version=2),
         "short"),
        ("v2_casualty_by_0", "version 2: the second badge is still never 0",
         frame("casualty", MARSHAL, 414, struct.pack(">HBIH", 1234, 7, PRESSED, 0), MARSHAL_KEY, version=2),
         "payload"),
    ]
    cases = [frame_case(name, note, data, TRACKER_KEY if data[1:3] == struct.pack(">H", TRACKER) else MARSHAL_KEY,
                        error=error) for name, note, data, error in out]

    # Decodable but not authentic: verify() must say False.
    def forged(name, note, base, data, key, **changes):
        case = copy.deepcopy(valid[base])
        taglen = len(case["decoded"]["tag"]) // 2
        case.update(name=name, note=note, hex=data.hex().upper(), key=key.hex().upper(), valid=False, verify=False)
        case["decoded"].update(tag=data[-taglen:].hex().upper(), signed=data[:-taglen].hex().upper())
        for field, value in changes.items():
            if field == "counter":
                case["decoded"]["counter"] = value
            else:
                case["decoded"]["fields"][field] = value
        return case

    def altered(name, index, bit):
        data = bytearray(raw(name))
        data[index] ^= bit
        return bytes(data)

    moved = altered("position_tracker_tartu", 10, 0x01)          # lowest latitude byte
    bumped = altered("casualty_died", 6, 0x01)                    # lowest counter byte
    cases += [
        forged("bad_tag_position", "last tag byte flipped", "position_tracker_tartu",
               altered("position_tracker_tartu", 20, 0x01), TRACKER_KEY),
        forged("bad_tag_stopp", "first tag byte of a STOPP frame flipped", "stopp_called_injury",
               altered("stopp_called_injury", 17, 0x80), MARSHAL_KEY),
        forged("wrong_key_position", "authentic frame checked with another device's key",
               "position_tracker_tartu", pos_frame, MARSHAL_KEY),
        forged("wrong_key_stopp", "authentic STOPP frame checked with another marshal's key",
               "stopp_called_injury", stopp, MARSHAL2_KEY),
        forged("ack_checked_with_gateway_key", "acks are keyed with the DESTINATION's key, not the gateway's",
               "ack_casualty", raw("ack_casualty"), GATEWAY_KEY),
        forged("counter_changed", "counter altered, tag kept", "casualty_died", bumped, MARSHAL_KEY,
               counter=struct.unpack(">I", bumped[3:7])[0]),
        forged("position_changed", "latitude altered, tag kept", "position_tracker_tartu", moved, TRACKER_KEY,
               lat=struct.unpack(">i", moved[7:11])[0]),
        forged("v2_caller_changed", "version 2: caller badge altered, tag kept", "v2_stopp_called_caller",
               altered("v2_stopp_called_caller", 18, 0x01), MARSHAL_KEY, caller=320),
        forged("v2_pressed_changed", "version 2: key press time altered, tag kept", "v2_casualty_down",
               altered("v2_casualty_down", 13, 0x01), MARSHAL_KEY, pressed=PRESSED ^ 1),
    ]
    return cases


# --- serial lines ---------------------------------------------------------------

def crc_line(body):
    return "%s %04X" % (body, binascii.crc_hqx(body.encode("ascii"), 0xFFFF))


def line_case(name, note, line, parsed=None, error=None, canonical=False):
    return {"name": name, "kind": "line", "note": note, "valid": error is None, "error": error, "line": line,
            "canonical": canonical, "parsed": parsed}


def line_cases(valid):
    pos_hex = valid["position_tracker_tartu"]["hex"]
    stopp_hex = valid["stopp_called_injury"]["hex"]
    ack_hex = valid["ack_stopp"]["hex"]
    rx = crc_line("RX 7 -97 -7.25 " + pos_hex)
    rx_bad = rx[:20] + ("0" if rx[20] != "0" else "1") + rx[21:]
    ident = crc_line("ID 7 fw=1.0.0 region=EU868 freq=868.1 sf=9 bw=125 cr=5")
    return [
        line_case("rx_position", "gateway 7 received a position frame", rx,
                  {"kind": "rx", "gateway": 7, "rssi": -97, "snr": -7.25, "frame": pos_hex}, canonical=True),
        line_case("rx_stopp_crlf", "RX line ending in CR LF, positive SNR", crc_line("RX 12 -41 9.50 " + stopp_hex)
                  + "\r\n", {"kind": "rx", "gateway": 12, "rssi": -41, "snr": 9.5, "frame": stopp_hex},
                  canonical=True),
        line_case("rx_undecodable_frame", "the gateway forwards any LoRa packet; the line is still valid",
                  crc_line("RX 7 -120 -19.75 DEADBEEF"),
                  {"kind": "rx", "gateway": 7, "rssi": -120, "snr": -19.75, "frame": "DEADBEEF"}, canonical=True),
        line_case("rx_bad_checksum", "one hex digit of the frame changed after the checksum was made", rx_bad,
                  error="checksum"),
        line_case("rx_checksum_wrong_digit", "checksum off by one", rx[:-1] + ("0" if rx[-1] != "0" else "1"),
                  error="checksum"),
        line_case("rx_no_checksum", "checksum missing", "RX 7 -97 -7.25 " + pos_hex, error="line"),
        line_case("rx_odd_hex", "frame with an odd number of hex digits (checksum right)",
                  crc_line("RX 7 -97 -7.25 ABC"), error="line"),
        line_case("rx_plus_sign", "'+' is not part of the number syntax (checksum right)",
                  crc_line("RX 7 +5 1.00 ABCD"), error="line"),
        line_case("rx_double_space", "fields are separated by exactly one space (checksum right)",
                  crc_line("RX 7  -97 -7.25 " + pos_hex), error="line"),
        line_case("id_request_bare", "typed by hand: ID? may omit the checksum", "ID?", {"kind": "id_request"}),
        line_case("id_request", "ID? with checksum, as the station sends it", crc_line("ID?"),
                  {"kind": "id_request"}, canonical=True),
        line_case("id_answer", "gateway 7 identifies itself", ident,
                  {"kind": "id", "gateway": 7, "fw": "1.0.0", "region": "EU868", "freq": 868.1, "sf": 9,
                   "bw": 125, "cr": 5}, canonical=True),
        line_case("id_answer_extra_key", "unknown key=value pairs are kept as text",
                  crc_line("ID 9 fw=1.1.0 region=EU868 freq=869.525 sf=10 bw=250 cr=8 chip=sx1262"),
                  {"kind": "id", "gateway": 9, "fw": "1.1.0", "region": "EU868", "freq": 869.525, "sf": 10,
                   "bw": 250, "cr": 8, "chip": "sx1262"}),
        line_case("id_answer_missing_cr", "ID answer without cr= (checksum right)",
                  crc_line("ID 7 fw=1.0.0 region=EU868 freq=868.1 sf=9 bw=125"), error="line"),
        line_case("id_answer_bad_checksum", "region changed after the checksum was made",
                  ident.replace("EU868", "EU869"), error="checksum"),
        line_case("tx_ack_stopp", "station asks gateway to send an ack_stopp frame", crc_line("TX " + ack_hex),
                  {"kind": "tx", "frame": ack_hex}, canonical=True),
        line_case("txok", "gateway sent the frame with counter 5001", crc_line("TXOK 5001"),
                  {"kind": "txok", "counter": 5001}, canonical=True),
        line_case("txerr_duty", "gateway refuses: duty-cycle budget used up", crc_line("TXERR duty"),
                  {"kind": "txerr", "reason": "duty"}, canonical=True),
        line_case("status", "gateway status line", crc_line("ST 7 up=95 rx=1234 bad=17 tx=56 txerr=1"),
                  {"kind": "status", "gateway": 7, "up": 95, "rx": 1234, "bad": 17, "tx": 56, "txerr": 1},
                  canonical=True),
        line_case("unknown_command", "unknown line type (checksum right)", crc_line("HELLO 1"), error="line"),
        line_case("boot_noise", "ESP32 boot message", "rst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)",
                  error="line"),
        line_case("empty_line", "nothing but a line ending", "\n", error="line"),
        line_case("control_character", "a NUL inside the line", crc_line("TXOK 5\x00"), error="line"),
    ]


def primitive_cases():
    rfc4231 = [  # (name, key, data, HMAC-SHA256 as published in RFC 4231)
        ("hmac_rfc4231_case1", b"\x0b" * 20, b"Hi There",
         "B0344C61D8DB38535CA8AFCEAF0BF12B881DC200C9833DA726E9376C2E32CFF7"),
        ("hmac_rfc4231_case2", b"Jefe", b"what do ya want for nothing?",
         "5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843"),
        ("hmac_rfc4231_case6", b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
         "60E431591EE0B67F0D8A26AACBF5B77F8E0BC6213728C5140546040F0EE37F54"),
    ]
    out = []
    for name, key, data, mac in rfc4231:
        assert hmac.new(key, data, hashlib.sha256).hexdigest().upper() == mac
        out.append({"name": name, "kind": "hmac", "note": "RFC 4231", "key": key.hex().upper(),
                    "data": data.hex().upper(), "mac": mac})
    assert binascii.crc_hqx(b"123456789", 0xFFFF) == 0x29B1
    out.append({"name": "crc16_check", "kind": "crc16", "note": "CRC-16/CCITT-FALSE check value",
                "text": "123456789", "crc": "29B1"})
    out.append({"name": "crc16_rx_line", "kind": "crc16", "note": "body of an RX line",
                "text": "RX 7 -97 -7.25 " + "ABCD", "crc": "%04X" % binascii.crc_hqx(b"RX 7 -97 -7.25 ABCD", 0xFFFF)})
    return out


def build():
    valid = valid_cases()
    return list(valid.values()) + invalid_cases(valid) + line_cases(valid) + primitive_cases()


def dumps(cases):
    return "[\n" + ",\n".join("  " + json.dumps(c) for c in cases) + "\n]\n"


def main(argv):
    cases = build()
    text = dumps(cases)
    if "--check" in argv:
        if OUT.read_text(encoding="utf-8") != text:
            print("%s is stale: run %s" % (OUT, Path(__file__).name))
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print("wrote %d cases to %s" % (len(cases), OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
