"""From received frames to events: authenticate, reject replays, merge copies heard by several gateways.

Pure and single-threaded: the core worker owns one Ingest, so that copies of
one frame heard by different gateways (read by different threads) meet here.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controlroom.game.devices import DeviceInfo, RadioMeta
from controlroom.i18n import translate
from controlroom.radio import codec

log = logging.getLogger(__name__)

ACCEPTED = "accepted"
DUPLICATE = "duplicates"
REJECTED_CORRUPT = "rejected_corrupt"
REJECTED_AUTH = "rejected_auth"
REJECTED_REPLAY = "rejected_replay"
REJECTED_UNKNOWN = "rejected_unknown_device"
REJECTED_ROLE = "rejected_role"
DOWNLINK_HEARD = "downlink_heard"      # a station's own ack, heard back by a gateway: it went out
OUTCOMES = (ACCEPTED, DUPLICATE, REJECTED_CORRUPT, REJECTED_AUTH, REJECTED_REPLAY, REJECTED_UNKNOWN, REJECTED_ROLE,
            DOWNLINK_HEARD)
SECURITY = (REJECTED_AUTH, REJECTED_REPLAY, REJECTED_UNKNOWN)     # worth an alarm: forged, replayed, stranger

# What each role may send (hardware/PROTOCOL.md, section 1).
ROLE_TYPES = {
    "marshal": {"position", "heartbeat", "casualty", "headcount", "siege", "valhalla", "canned",
                "stopp_called", "stopp_lifted"},
    "tracker": {"position", "heartbeat", "headcount", "siege"},
    "gateway": set(),
}
WINDOW = 256           # counters accepted below the highest (hardware/PROTOCOL.md section 5)
COPY_WINDOW_MS = 120_000
# A handset retries an unacknowledged STOPP every minute for as long as it takes
# (hardware/PROTOCOL.md, section 6): a frame that wants an acknowledgement is a
# retry, acknowledged again without an alarm, for this long after it was first heard.
# Past it, the frame is never acknowledged again (a recording replayed later).
RETRY_WINDOW_MS = 1_800_000
FORGET_AT = 50_000      # frames remembered before the oldest are looked at (Ingest._forget)
REACK_AFTER_MS = 2_000  # copies within 2 s of the last acknowledgement need none of their own
# The handset's retry schedule (PROTOCOL.md section 6): tries at 0, 4, 12, 28, 60 s, then every 60 s,
# each up to 1 s late; casualty and valhalla give up after 8 tries.  A frame is never acknowledged
# more often than its handset can have sent it: a recording replayed at once gains nothing.
# A copy of a frame that wants an acknowledgement heard this long (game ms) after its first one is the handset
# retrying (its first retry comes 4 s after the first try; copies from several gateways come together).
RETRY_HEARD_MS = 3_000
RETRY_AT_S = (0, 4, 12, 28, 60)
RETRY_STEADY_S = 60
GIVE_UP_TRIES = 8


@dataclass(slots=True)
class Outcome:
    verdict: str
    device: int | None = None
    counter: int | None = None
    event: tuple[str, dict[str, Any], str] | None = None     # (type, fields, source)
    radio: RadioMeta | None = None
    ack: bytes | None = None            # to send back through the gateway that heard it
    detail: str = ""
    pressed_ms: int | None = None       # unix ms of the key press (protocol v2); None: unknown, or v1
    retry: int = 0                      # a copy showing that the frame needed retries: the handset's tries by now


# A frame heard (Ingest.seen's values): when it was first heard, when it was last acknowledged and how
# often, the best of its copies (RadioMeta's rssi, snr, gateways, via), each gateway's signal (RadioMeta's
# signals) and whether it was found to need retries.  A plain tuple of numbers and
# strings, not an object: Python's collector stops tracking such a tuple, and a busy game keeps 90,000 of
# them (the last 30 minutes at 50 frames a second) that every full collection of the window's process
# walked as objects of their own, 7 references each, with their RadioMeta another 7 (bench_memory).
_FIRST = 0          # first_ms's place in it


def _seen(first_ms: int, meta: RadioMeta, acked_ms: int | None = None, acks: int = 0, retried: bool = False) -> tuple:
    return first_ms, acked_ms, acks, meta.rssi, meta.snr, meta.gateways, meta.via, meta.signals, retried


def _meta(key: tuple[int, int], seen: tuple) -> RadioMeta:
    return RadioMeta(key[0], key[1], *seen[3:8])


_SIGNAL_TEXTS: dict[tuple, str] = {}      # the texts made so far: gateways' figures repeat all game long


def signal_text(gateway, rssi, snr) -> str:
    """One gateway's copy as RadioMeta.signals spells it: "gateway:rssi:snr" (a figure not given is left empty)."""
    key = (gateway, rssi, snr)
    text = _SIGNAL_TEXTS.get(key)
    if text is None:
        if len(_SIGNAL_TEXTS) >= 100_000:
            _SIGNAL_TEXTS.clear()
        text = f"{gateway}:{'' if rssi is None else f'{rssi:g}'}:{'' if snr is None else f'{snr:g}'}"
        _SIGNAL_TEXTS[key] = text
    return text


def tries_by(elapsed_ms: int, forever: bool) -> int:
    """How many times a handset can have sent one frame ``elapsed_ms`` after its first try."""
    slack = 1_000 + elapsed_ms // 60                 # each retry up to 1 s late, and clocks drift
    n = 0
    for at in RETRY_AT_S:
        n += at * 1000 <= elapsed_ms + slack * (n + 1)
    if elapsed_ms + slack * (n + 1) > RETRY_AT_S[-1] * 1000:
        n += (elapsed_ms + slack * (n + 1) - RETRY_AT_S[-1] * 1000) // (RETRY_STEADY_S * 1000)
    return n if forever else min(n, GIVE_UP_TRIES)


class DownlinkCounter:
    """The station's downlink counter, kept in the game (PROTOCOL.md section 4).

    One counter for all the station's gateways (so it rises for each of them).
    Like a handset's counter (section 6) it is reserved in blocks: the game keeps
    the highest value reserved, and a station reserves the next ``BLOCK`` when
    it opens the game and again only when it has used its block up.
    ``reserve(size) -> highest value reserved`` adds to the game's value in one
    statement, so stations sharing a game never get the same block; the core
    calls it while the game opens, so no ack waits for storage but the one in
    65,536 that starts a block.  So a restarted station never sends a counter
    twice, and never starts again at 1.  When the game cannot be reached to
    reserve, the station goes on counting past its block (and logs it): an ack
    is not held back for storage; a restart, or another station, may then
    repeat counters of that stretch.
    """

    BLOCK = 65_536

    def __init__(self, last: int = 0, reserved: int | None = None, reserve=None) -> None:
        self.last = last
        self.reserved = last + self.BLOCK if reserved is None else reserved
        self._reserve = reserve

    def take(self, gateway: int | None = None) -> int:
        n = self.last + 1
        if n > self.reserved:
            top = None
            if self._reserve is not None:
                try:
                    top = self._reserve(self.BLOCK)
                    for _ in range(8):          # counted past a block before (no reservation then): above it
                        if top - self.BLOCK + 1 >= n:
                            break
                        top = self._reserve(self.BLOCK)
                except Exception as exc:        # the ack still goes out (see the class)
                    log.error("reserving the next block of downlink counters: %s", exc)
                    top = None
            if top is not None and top - self.BLOCK + 1 >= n:
                n = top - self.BLOCK + 1          # the block is ours: above every counter reserved before
                self.reserved = top
            else:
                self.reserved = n + self.BLOCK - 1
        self.last = n
        return n & 0xFFFFFFFF


@dataclass
class Ingest:
    """Classifies every received frame and turns the accepted ones into events."""

    devices: Mapping[int, DeviceInfo]
    copy_window_ms: int = COPY_WINDOW_MS
    highest: dict[int, int] = field(default_factory=dict)
    seen: dict[tuple[int, int], tuple] = field(default_factory=dict)      # (device, counter) -> _seen(...)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    downlink: DownlinkCounter = field(default_factory=DownlinkCounter)
    # For the radio panel: the last frames (t, gateway, device, counter, verdict, rssi, snr, detail)
    # and per device the last good frame (t, rssi, snr, counter, gateway).
    recent: collections.deque = field(default_factory=lambda: collections.deque(maxlen=500))
    heard: dict[int, tuple] = field(default_factory=dict)
    # Per device, per gateway that heard it: (t, rssi, snr) of the last good frame (the Devices desk's signal).
    signal: dict[int, dict[str, tuple]] = field(default_factory=dict)
    # ``seen`` is pruned when it reaches ``forget_at`` entries; then once it has grown by a quarter (_forget).
    forget_at: int = FORGET_AT
    prunes: int = 0
    _prune_at: int = field(default=0, init=False, repr=False)

    def _count(self, gateway: int | str, verdict: str) -> None:
        counts = self.counts
        for key in (str(gateway), "total"):
            c = counts.get(key)
            if c is None:           # (not setdefault: its default would be built for every frame)
                c = counts[key] = dict.fromkeys(("frames_total", *OUTCOMES), 0)
            c["frames_total"] += 1
            c[verdict] += 1

    def remember(self, highest: Mapping[int, int], recent, as_of_ms: int) -> None:
        """What an earlier run of the station had accepted (from the stored log), as heard at ``as_of_ms``.

        A handset still retrying a frame the station stored just before it
        stopped gets its acknowledgement: the copy counts as a duplicate.
        """
        self.highest.update(highest)
        for key in recent:
            self.seen.setdefault(key, _seen(as_of_ms, RadioMeta(key[0], key[1])))

    def note_stored(self, radio: RadioMeta, now_ms: int) -> bool:
        """A frame another station stored: its copies heard here from now on are duplicates.

        False when this station knows the frame already (it heard it too, and
        has folded its event).
        """
        key = (radio.device, radio.counter)
        if key in self.seen:
            return False
        self.seen[key] = _seen(now_ms, radio)
        self.highest[radio.device] = max(self.highest.get(radio.device, -1), radio.counter)
        return True

    def mark_retried(self, device: int, counter: int) -> None:
        """The frame is known to have needed retries (its retries heard later say nothing new)."""
        seen = self.seen.get((device, counter))
        if seen is not None:
            self.seen[(device, counter)] = seen[:8] + (True,)

    def best(self, radio: RadioMeta) -> RadioMeta:
        """The merged metadata of a frame (best signal, every gateway that heard it so far)."""
        key = (radio.device, radio.counter)
        seen = self.seen.get(key)
        return _meta(key, seen) if seen is not None else radio

    def stats(self) -> dict[str, dict[str, int]]:
        return {k: dict(v) for k, v in self.counts.items()}

    def know(self, devices: Mapping[int, DeviceInfo]) -> None:
        """The game's devices as registered now (a list imported while the station runs)."""
        self.devices = devices

    def receive(self, frame_bytes: bytes, gateway: int, rssi: float | None, snr: float | None, now_ms: int) -> Outcome:
        out = self._classify(frame_bytes, gateway, rssi, snr, now_ms)
        self._count(gateway, out.verdict)
        self.recent.append((now_ms, gateway, out.device, out.counter, out.verdict, rssi, snr, out.detail))
        if out.verdict in (ACCEPTED, DUPLICATE) and out.device is not None:
            self.heard[out.device] = (now_ms, rssi, snr, out.counter, gateway)
            # A new dict each time, never one changed in place: a view shares the dicts (``Intake.radio_view``).
            self.signal[out.device] = {**self.signal.get(out.device, {}), str(gateway): (now_ms, rssi, snr)}
        return out

    def reject_line(self, gateway: int | str, reason: str, detail: str = "", now_ms: int = 0) -> None:
        """A serial line that failed its checksum, did not parse, or came from the wrong gateway."""
        self._count(gateway, REJECTED_CORRUPT)
        if detail:
            self.recent.append((now_ms, gateway, None, None, REJECTED_CORRUPT, None, None, f"line {reason}: {detail}"))

    def _classify(self, data: bytes, gateway: int, rssi, snr, now_ms: int) -> Outcome:
        # hardware/PROTOCOL.md section 5, in its order: decode, registry and role, tag, counter.
        try:
            frame = codec.decode_frame(data)
        except codec.FrameError as exc:
            return Outcome(REJECTED_CORRUPT, detail=f"frame {exc.reason}")
        if frame.code >= codec.ACK:
            return self._downlink(frame)
        dev = self.devices.get(frame.device)
        if dev is None:
            return Outcome(REJECTED_UNKNOWN, frame.device, frame.counter,
                           detail=translate("radio", "device {device} is not registered").format(device=frame.device))
        if frame.type not in ROLE_TYPES.get(dev.role, ()):
            return Outcome(REJECTED_ROLE, frame.device, frame.counter,
                           detail=translate("radio", "a {role} may not send {type}").format(
                               role=dev.role, type=frame.type))
        if not codec.verify(frame, dev.key):
            return Outcome(REJECTED_AUTH, frame.device, frame.counter,
                           detail=translate("radio", "frame claiming to be from {role} {device} has a wrong tag "
                                                     "(forged?)").format(role=dev.role, device=dev.id))
        key = (frame.device, frame.counter)
        signal = signal_text(gateway, rssi, snr)
        meta = RadioMeta(frame.device, frame.counter, rssi, snr, (str(gateway),), None, signal)
        seen = self.seen.get(key)
        if seen is not None:
            # The same frame again: another gateway, or the handset retrying.
            window = RETRY_WINDOW_MS if frame.needs_ack else self.copy_window_ms
            first_ms, acked_ms, acks, best_rssi, best_snr, best_gateways, _via, signals, retried = seen
            if now_ms - first_ms <= window:
                new_gateway = str(gateway) not in best_gateways
                gws = best_gateways + meta.gateways if new_gateway else best_gateways
                better = rssi is not None and (best_rssi is None or rssi > best_rssi)
                if new_gateway:
                    signals = f"{signals},{signal}" if signals else signal
                best = RadioMeta(frame.device, frame.counter, rssi if better else best_rssi,
                                 snr if better else best_snr, gws, None, signals)
                ack = None
                forever = frame.code in _FOREVER
                if ((acked_ms is None or now_ms - acked_ms >= REACK_AFTER_MS)
                        and acks < tries_by(now_ms - first_ms, forever)):
                    ack = self._ack(frame, dev, gateway)
                    if ack is not None:
                        acked_ms, acks = now_ms, acks + 1
                retry = 0
                if frame.needs_ack and not retried and now_ms - first_ms >= RETRY_HEARD_MS:
                    retry, retried = max(2, tries_by(now_ms - first_ms, forever)), True
                self.seen[key] = _seen(first_ms, best, acked_ms, acks, retried)
                return Outcome(DUPLICATE, frame.device, frame.counter, radio=best, ack=ack, retry=retry)
            return Outcome(REJECTED_REPLAY, frame.device, frame.counter,
                           detail=translate("radio", "frame {counter} of device {device} was heard long ago "
                                                     "(replayed?)").format(counter=frame.counter, device=dev.id))
        top = self.highest.get(frame.device, -1)
        if frame.counter < top - WINDOW:
            return Outcome(REJECTED_REPLAY, frame.device, frame.counter,
                           detail=translate("radio", "old counter {counter} from device {device} (highest {top})")
                           .format(counter=frame.counter, device=dev.id, top=top))
        event = to_event(frame, dev)
        if event is None:
            return Outcome(REJECTED_ROLE, frame.device, frame.counter, detail=f"{frame.type} carries no report")
        self.highest[frame.device] = max(top, frame.counter)
        ack = self._ack(frame, dev, gateway)
        self.seen[key] = _seen(now_ms, meta, now_ms if ack is not None else None, int(ack is not None))
        self._forget(now_ms)
        pressed = frame.fields.get("pressed")
        return Outcome(ACCEPTED, frame.device, frame.counter, event, meta, ack,
                       pressed_ms=None if pressed is None else pressed * 1000)

    def _ack(self, frame: codec.Frame, dev: DeviceInfo, gateway: int) -> bytes | None:
        if not frame.needs_ack:
            return None
        return codec.ack_for(frame, dev.key, gateway & 0xFFFF, self.downlink.take(gateway))

    def _downlink(self, frame: codec.Frame) -> Outcome:
        """An ack on air: a station's own, heard back by a gateway (never an alarm), or a fake."""
        dest = self.devices.get(frame.fields["acked_device"])
        if dest is not None and codec.verify(frame, dest.key):
            return Outcome(DOWNLINK_HEARD, frame.device, frame.counter,
                           detail=f"ack of frame {frame.fields['acked_counter']} of device {dest.id} went out "
                                  f"through gateway {frame.device}")
        return Outcome(REJECTED_ROLE, frame.device, frame.counter,
                       detail=f"an {frame.type} that no station signed (device {frame.fields['acked_device']})")

    def _forget(self, now_ms: int) -> None:
        """Old copies need no merging; what is older is judged by the counter window alone.

        The frames of the last 30 minutes are kept (a STOPP is retried that
        long): at 50 frames a second that is 90,000 of them.  Pruning walks
        every entry, so it waits until the table has grown by a quarter since
        the last time (about five entries walked a frame, the table at most a
        quarter above what it must keep): once per frame (the table never
        getting below the threshold) took the core thread most of its time
        after half an hour of a busy game (bench_memory: 90 frames a second
        stored where 500 were sent).
        """
        if len(self.seen) < max(self.forget_at, self._prune_at):
            return
        horizon = now_ms - RETRY_WINDOW_MS
        self.seen = {k: v for k, v in self.seen.items() if v[_FIRST] >= horizon or k[1] > self.highest[k[0]] - WINDOW}
        self.prunes += 1
        self._prune_at = len(self.seen) + max(len(self.seen) // 4, self.forget_at // 10)


def to_event(frame: codec.Frame, dev: DeviceInfo) -> tuple[str, dict[str, Any], str] | None:
    """The event a frame reports: (type, fields, source)."""
    f = frame.fields
    src = dev.source
    t = frame.type
    if t == "position":
        fields = {"device": dev.id, "lat": _deg(f["lat"]), "lon": _deg(f["lon"]), "fix": f["fix"], "sats": f["sats"]}
        if f["battery"] is not None:
            fields["battery"] = f["battery"]
        return "position", fields, src
    if t == "heartbeat":
        fields = {"device": dev.id, "uptime": f["uptime_min"]}
        if f["battery"] is not None:
            fields["battery"] = f["battery"]
        return "heartbeat", fields, src
    if t == "headcount":
        group = dev.group or f"group {f['group']}"
        return "headcount", {"group": group, "up": f["up"], "down": f["down"], "dead": f["dead"]}, src
    if t == "siege":
        engine = dev.siege_engine or f"engine {f['engine']}"
        fields = {"engine": engine, "status": f["status"], "lat": _deg(f["lat"]), "lon": _deg(f["lon"])}
        return "siege_status", fields, src
    if t == "valhalla":
        return "valhalla_checkin", {"badge": f["badge"]}, src
    if t == "canned":
        code = f["message"]
        return "message", {"code": code, "text": _CANNED_TEXT.get(code, code)}, src
    if t == "stopp_called":
        fields = {"stopp": f"{dev.id}-{f['stopp']}", "reason": f["reason"],
                  "lat": _deg(f["lat"]), "lon": _deg(f["lon"])}
        if f.get("caller") is not None:             # protocol v2: the caller's badge, if the marshal took it
            fields["caller"] = f["caller"]
        return "stopp_called", fields, src
    if t == "stopp_lifted":
        return "stopp_lifted", {"stopp": f"{dev.id}-{f['stopp']}"}, src
    if t == "casualty":
        return casualty_event(f["kind"], f["badge"], f.get("by"), src)
    return None


_CANNED_TEXT = dict(codec.CANNED_MESSAGES)
_FOREVER = (codec.STOPP_CALLED, codec.STOPP_LIFTED)         # retried until acknowledged


def _deg(value: int | None) -> float | None:
    """Degrees from the frame's 1e-7 degree units (None: no position)."""
    return None if value is None else value / 1e7


def casualty_event(kind: str, badge: int, by: int | None, src: str):
    """The event a casualty report of ``kind`` is: (type, fields, source)."""
    if kind == "big_stone_on_shield":
        return "big_stone", {"badge": badge, "on_shield": True}, src
    if kind == "cared_for":
        return "cared_for", {"badge": badge, "carer": by}, src
    if kind == "healer_touch":
        return "healer_touch", {"badge": badge, "healer": by}, src
    fields: dict[str, Any] = {"badge": badge}
    if kind in ("bound", "permanent_kill") and by:
        fields["by"] = by
    return kind, fields, src
