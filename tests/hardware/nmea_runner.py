"""Feeds NMEA test inputs to a given ``nmea`` module and collects the results.

Shared by both interpreters: test_nmea.py calls ``run_all`` under CPython and
runs the same function under MicroPython (so this file must stay in the
MicroPython subset).  Inputs and results are JSON-compatible, so the
MicroPython results come back as JSON and are checked by the same assertions.

Input items: {"s": text}, {"b": [byte values]} or {"n": other JSON value}.
"""


def _decode(item):
    if "s" in item:
        return item["s"]
    if "b" in item:
        return bytes(item["b"])
    return item["n"]


def run_parse(nmea, items):
    return [nmea.parse(_decode(item)) for item in items]


def run_checksum(nmea, items):
    return [nmea.checksum_ok(_decode(item)) for item in items]


def run_reader(nmea, scenario):
    if scenario.get("max_line"):
        reader = nmea.NmeaReader(scenario["max_line"])
    else:
        reader = nmea.NmeaReader()
    feeds = []
    max_buffered = 0
    for chunk in scenario["chunks"]:
        feeds.append(reader.feed(bytes(chunk)))
        if len(reader._buf) > max_buffered:
            max_buffered = len(reader._buf)
    return {
        "feeds": feeds,
        "fix": reader.fix,
        "has_fix": reader.has_fix,
        "sentences": reader.sentences,
        "errors": reader.errors,
        "overflows": reader.overflows,
        "max_buffered": max_buffered,
        "max_line": reader.max_line,
    }


def run_all(nmea, payload):
    return {
        "parse": run_parse(nmea, payload["parse"]),
        "checksum": run_checksum(nmea, payload["checksum"]),
        "reader": [run_reader(nmea, s) for s in payload["reader"]],
    }
