"""Peer baseline: packets per second parsed by the `meshtastic` package's own serial reader.

    pip install meshtastic            # benchmark only, see benchmarks/requirements-bench.txt
    .venv/bin/python -m benchmarks.meshtastic_peer [--packets 20000] [--timeout 120]

What a user who picked the Meshtastic Python library instead of our ingest
would get on this machine.  A fake Meshtastic device sits on the master side of
a real pseudo-terminal; the library's unmodified
`meshtastic.serial_interface.SerialInterface` opens the slave side by its path
(pyserial, exactly as for /dev/ttyUSB0) and:

1. handshake: the library writes 32 wake bytes (0xC3) and a framed `ToRadio`
   with `want_config_id`; the device answers with framed `FromRadio`s:
   `my_info` (my_node_num), `node_info` for our node and for one remote node,
   then `config_complete_id` equal to the requested id.  That is all
   meshtastic 2.7 waits for (isConnected via config_complete_id, then
   `waitForConfig`: myInfo + a non-empty node DB + localNode.localConfig /
   channels, which the library fills in itself; no metadata, config or
   moduleConfig frames are needed).  It then sends a `heartbeat` ToRadio.
2. load: N `FromRadio{packet: MeshPacket}` from the remote node to broadcast,
   decoded portnum POSITION_APP with a serialized `Position` (latitude_i,
   longitude_i, time), as a device forwards what it heard, written as fast as
   the pty accepts them (non-blocking writes in a loop, partial writes and
   EAGAIN handled by poll()).
3. count: a pypubsub listener on "meshtastic.receive.position" counts the
   packets the library parsed and published (this runs on the library's own
   publishing thread, so "received" means delivered to the application).

Rate = received / (time of the last delivery - time the first load byte was
written).  Fewer received than sent is reported as such, never hidden.
Frame format (meshtastic/stream_interface.py): START1=0x94, START2=0xC3,
2-byte big-endian length, protobuf.

Prints a few readable lines, then one JSON object as the last line.  Exits
non-zero with a one-line message if meshtastic is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import tty

INSTALL_HINT = "meshtastic is not installed: pip install meshtastic (benchmark only)"

# The fake device lives in the package now (controlroom sim --meshtastic plays it too).
from controlroom.radio.meshtastic_fake import (  # noqa: E402 - under its note, after INSTALL_HINT
    REMOTE_NUM,
    FakeDevice,
    position_stream,
)
from controlroom.radio.meshtastic_fake import handshake_frames as _handshake_frames  # noqa: E402,F401 - old name

PUBLISHING_THREAD = "publishing"    # meshtastic's import-time daemon thread, lives as long as the process


class MeshtasticMissing(RuntimeError):  # noqa: N818 - as controlroom.radio.meshtastic_link's
    """meshtastic (an optional, benchmark-only dependency) is not importable."""


def _import_meshtastic():
    try:
        from importlib.metadata import version

        from meshtastic.protobuf import mesh_pb2, portnums_pb2
        from meshtastic.serial_interface import SerialInterface
        from pubsub import pub
    except ImportError as exc:     # ModuleNotFoundError included
        raise MeshtasticMissing(INSTALL_HINT) from exc
    return version("meshtastic"), mesh_pb2, portnums_pb2, SerialInterface, pub


def measure_meshtastic(packets: int = 20000, timeout_s: float = 120) -> dict:
    """Feed `packets` position packets to meshtastic's SerialInterface over a pty and count deliveries.

    Raises MeshtasticMissing if the package is not installed.  `timeout_s` bounds the
    load phase (from the first byte written); the handshake has its own 30 s bound."""
    ver, mesh_pb2, portnums_pb2, serial_interface, pub = _import_meshtastic()
    threads_before = {t.ident for t in threading.enumerate()}

    lock = threading.Lock()
    state = {"count": 0, "last": None, "wrong": 0, "first": None}
    all_in = threading.Event()

    def on_position(packet, interface=None):   # runs on meshtastic's publishing thread
        now = time.perf_counter()
        ok = (packet.get("from") == REMOTE_NUM
              and "latitudeI" in packet.get("decoded", {}).get("position", {}))
        with lock:
            if not ok:
                state["wrong"] += 1
                return
            state["count"] += 1
            state["last"] = now
            if state["first"] is None:
                state["first"] = now
            if state["count"] >= packets:
                all_in.set()

    stream = position_stream(mesh_pb2, portnums_pb2, packets)
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    device = FakeDevice(master, mesh_pb2)
    iface = None
    pub.subscribe(on_position, "meshtastic.receive.position")
    timed_out = False
    try:
        device.start()
        t_h = time.perf_counter()
        iface = serial_interface(devPath=os.ttyname(slave), noProto=False, connectNow=True,
                                 timeout=30)
        handshake_s = time.perf_counter() - t_h
        if device.error:
            raise device.error
        print(f"meshtastic {ver}: connected over {os.ttyname(slave)} in {handshake_s:.2f} s "
              f"(host sent: {', '.join(device.to_radio)})", flush=True)

        device.send(stream, load=True)
        deadline = time.monotonic() + timeout_s + 10    # includes waiting for the first write
        idle_limit = 3.0                                # after the load is written: no delivery for 3 s = done
        while not all_in.wait(0.1):
            if device.error:
                raise device.error
            now = time.monotonic()
            with lock:
                last = state["last"]
            first = device.first_load_write
            if first is not None and time.perf_counter() - first > timeout_s:
                timed_out = True
                break
            if now > deadline:
                timed_out = True
                break
            if device.load_done.is_set():
                ref = max(last or 0.0, device.load_written_at or 0.0)
                if time.perf_counter() - ref > idle_limit:
                    break                               # the rest is not coming: report honestly
    finally:
        if iface is not None:
            iface.close()                               # joins meshtastic's reader thread
        device.stop.set()
        device.join(5)
        pub.unsubscribe(on_position, "meshtastic.receive.position")
        os.close(slave)
        os.close(master)

    with lock:
        received, last, wrong = state["count"], state["last"], state["wrong"]
    first = device.first_load_write
    seconds = (last - first) if (last is not None and first is not None) else None
    rate = received / seconds if seconds and seconds > 0 else 0.0
    leftover = [t.name for t in threading.enumerate()
                if t.ident not in threads_before and t.name != PUBLISHING_THREAD and t.is_alive()]
    write_s = (device.load_written_at - first) if (device.load_written_at and first) else None
    return {
        "peer": "meshtastic",
        "version": ver,
        "packets": packets,
        "received": received,
        "seconds": round(seconds, 4) if seconds is not None else None,
        "packets_per_s": round(rate, 1),
        "bytes": len(stream),
        "write_seconds": round(write_s, 4) if write_s is not None else None,
        "handshake_seconds": round(handshake_s, 3),
        "unexpected": wrong,
        "timed_out": timed_out,
        "threads_left": leftover,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--packets", type=int, default=20000)
    ap.add_argument("--timeout", type=float, default=120.0, help="bound on the load phase, seconds")
    args = ap.parse_args(argv)
    try:
        res = measure_meshtastic(args.packets, args.timeout)
    except MeshtasticMissing:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    taken = (f"the pty took them all in {res['write_seconds']} s" if res["write_seconds"] is not None
             else "the pty never took them all")
    print(f"meshtastic reader: {res['received']}/{res['packets']} position packets delivered in "
          f"{res['seconds']} s = {res['packets_per_s']:.0f} packets/s ({res['bytes']} bytes; {taken})")
    if res["received"] < res["packets"]:
        print(f"WARNING: {res['packets'] - res['received']} packets were not delivered"
              + (" (timed out)" if res["timed_out"] else ""))
    if res["threads_left"]:
        print(f"WARNING: threads still running: {res['threads_left']}")
    print(json.dumps(res))
    return 0 if res["received"] else 1


if __name__ == "__main__":
    sys.exit(main())
