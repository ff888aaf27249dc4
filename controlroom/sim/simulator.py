"""Play a simulated battle onto serial ports, as the LoRa gateways of a real battle would.

Gateway ``k`` (ids 1..N) is port ``k - 1``.  Like a real gateway it answers
``ID?`` with ``ID <k> fw=sim-1.0 ...`` and ``TX`` lines with ``TXOK``; the battle
starts only when every port has been asked ``ID?`` by a station.  Then every
transmission of the battle goes on air at its game time (``speed`` game seconds
per real second): lost with probability ``loss``, otherwise heard by a random
non-empty set of gateways, each writing an ``RX`` line; a line is damaged on
the serial link with probability ``corrupt_rate`` (one hex digit of the frame
or of the checksum changed, so its CRC fails).  Given an ``air`` model (the
coverage plan's propagation, ``sim/radio_air.py``), the gateways stand where
it says and hear a frame by its SNR there instead: a frame from a radio
shadow may be heard by none, and an acknowledgement may not reach its
handset, which then retries.  Handsets retry frames that want
an acknowledgement (4, 8, 16, 32, then every 60 game seconds, each plus up to
1 s; casualty and valhalla reports give up after 8 tries, STOPPs never) until
the station's ack comes back in a ``TX`` line that verifies with the handset's
key.  An attacker adds forged frames (``forge_rate`` per transmission: a random
tag, or signed with a wrong key) and replays (``replay_rate``: a frame first
written intact at least 180 game seconds before, well beyond the station's
120 s copy window).  Downlink acks are never lost, and every other gateway
hears each ack a gateway transmits (the gateways of one field are in range of
each other), writing it as an ``RX`` line as a real gateway would: the station
must count those as "downlink heard", not as forgeries (``hear_acks``).
Each gateway writes its lines through its own outbox (``ports.Writers``), as a
real one buffers its USB serial: a port nobody reads (its station killed) fills
its outbox and then drops lines, holding up neither the air nor the others.

``run()`` blocks until the battle and the drain time after it are over (or
``stop()``), and returns the truth: counts of what was written to the ports.
"""

from __future__ import annotations

import bisect
import heapq
import math
import queue
import random
import threading
import time
from collections.abc import Callable

from controlroom import pacing
from controlroom.game.clock import format_time
from controlroom.radio import codec
from controlroom.radio.lines import decode_line
from controlroom.sim.battle import FIELD_X, FIELD_Y, Battle, Transmission
from controlroom.sim.ports import Readers, Writers
from controlroom.sim.radio_air import AirModel

FIRMWARE = "sim-1.0"
RETRY_S = (4, 8, 16, 32)         # then every LATER_S (hardware/PROTOCOL.md section 6)
LATER_S = 60
GIVE_UP = {"casualty": 8, "valhalla": 8}     # tries; STOPP messages retry until acknowledged
REPLAY_AFTER_MS = 180_000        # the attacker replays frames first written intact at least this long ago
COPY_WINDOW_MS = 120_000         # the station's copy window (controlroom.radio.ingest.COPY_WINDOW_MS)
COUNTER_WINDOW = 256             # its counter window (ingest.WINDOW)
WAITING_NOTE_S = 10.0            # while waiting for a station: say which gateways still wait, this often
GATEWAY_RADIUS = 350.0           # gateways stand on a circle around the origin, metres
COUNTS = ("sent_valid_unique", "sent_duplicate_copies", "sent_replayed", "sent_forged", "sent_corrupt", "late_copies",
          "acks_heard_back")


class Simulator:
    def __init__(self, battle: Battle, ports, *, speed: float = 1.0, loss: float = 0.0, corrupt_rate: float = 0.0,
                 forge_rate: float = 0.0, replay_rate: float = 0.0, seed: int = 0, drain: float = 3.0,
                 hear: float = 0.7, progress: Callable[[str], None] | None = None,
                 progress_every_ms: int | None = None, hear_acks: bool = True,
                 mirror: dict[int, int] | None = None, air: AirModel | None = None) -> None:
        if not ports:
            raise ValueError("the simulator needs at least one port (one gateway)")
        if speed <= 0:
            raise ValueError(f"speed must be above 0, not {speed}")
        for name, rate in (("loss", loss), ("corrupt rate", corrupt_rate), ("forge rate", forge_rate),
                           ("replay rate", replay_rate), ("hear", hear)):
            if not 0 <= rate <= 1:
                raise ValueError(f"the {name} is a fraction from 0 to 1, not {rate}")
        self.battle, self.ports = battle, list(ports)
        self.speed, self.loss, self.corrupt_rate = speed, loss, corrupt_rate
        self.forge_rate, self.replay_rate, self.hear = forge_rate, replay_rate, hear
        self.hear_acks = hear_acks
        # Gateways on one mast (0-based): what one hears, its partner hears too (two stations' gateways side
        # by side, so that every frame reaches two stations).
        self.mirror = {**(mirror or {}), **{b: a for a, b in (mirror or {}).items()}}
        if air is not None and len(air.gateways) != len(self.ports):
            raise ValueError(f"the propagation model places {len(air.gateways)} gateways, but there are "
                             f"{len(self.ports)} ports (one per gateway)")
        self.air = air
        self.seed, self.drain, self.quiet = seed, max(0.0, drain), min(1.0, max(0.0, drain) / 2)
        self.progress = progress or (lambda text: None)
        minutes = max(1, round(battle.duration_ms / 600_000))
        self.progress_every = progress_every_ms or minutes * 60_000
        self.rng = random.Random(f"air:{seed}")
        self.keys = battle.keys()
        n = len(self.ports)
        self.gateway_xy = [(GATEWAY_RADIUS * math.cos(2 * math.pi * i / n - math.pi / 2),
                            GATEWAY_RADIUS * math.sin(2 * math.pi * i / n - math.pi / 2)) for i in range(n)]
        self.identified = [False] * n
        self.started, self.finished = threading.Event(), threading.Event()
        self.complete = False
        self._stop = threading.Event()
        self._readers = Readers(self.ports)
        self._writers = Writers(self.ports)
        self.t0 = 0.0
        self.count = dict.fromkeys(COUNTS, 0)
        sides = battle.sides()
        self.deaths, self.valhalla = dict.fromkeys(sides, 0), dict.fromkeys(sides, 0)
        self.air_counts = dict.fromkeys(("new", "retries", "lost", "unheard", "forged", "replayed", "lines",
                                         "write_failures"), 0)
        self.acks = dict.fromkeys(("received", "matched", "repeated", "bad", "not_acks", "not_reached"), 0)
        self.gave_up = 0
        self.pending: dict[tuple[int, int], list] = {}        # (device, counter) -> [transmission, tries]
        self._retries: list = []                              # heap of (due game ms, seq, key)
        self._seq = 0
        self._first: dict[tuple[int, int], int] = {}          # game ms of the first intact copy
        self._intact_t: list[int] = []                        # replay candidates, by first intact copy
        self._intact: list[Transmission] = []
        self._highest: dict[int, int] = {}
        self._last_counter: dict[int, int] = {}
        self._replay_debt = 0
        self._last_write = 0.0
        # What the handsets saw acknowledged: (device, counter), and how long each ack took from the frame's
        # first copy a gateway heard (real ms, with the real seconds into the battle it came at).
        self.acked: list[tuple[int, int]] = []
        self.ack_delays: list[tuple[float, float]] = []
        self._first_heard: dict[tuple[int, int], float] = {}

    # -- control -------------------------------------------------------------
    def stop(self) -> None:
        """End the run soon (from any thread or a signal handler); the truth stays consistent."""
        self._stop.set()

    def waiting_note(self) -> str:
        """Which gateways are still waiting for a station to ask ``ID?``, in words."""
        waiting = [f"gateway {k + 1} on {p.name}" for k, p in enumerate(self.ports) if not self.identified[k]]
        done = len(self.ports) - len(waiting)
        return (f"still waiting for a station on {', '.join(waiting)} ({done} of {len(self.ports)} gateways "
                f"identified; the battle starts when all are)")

    def now_ms(self) -> int:
        return int((time.monotonic() - self.t0) * self.speed * 1000) if self.started.is_set() else 0

    def run(self) -> dict:
        pacing.short_switches()     # the gateways' threads hand lines on without waiting for the GIL long
        self._readers.start()
        self._writers.start()
        try:
            self._play()
        finally:
            self._writers.stop(flush=0.0 if self._stop.is_set() else 2.0)
            self._readers.stop()
            self.finished.set()
        return self.truth()

    def truth(self) -> dict:
        return {"complete": self.complete, "seed": self.seed, "speed": self.speed, "gateways": len(self.ports),
                "duration_min": self.battle.duration_ms / 60_000, **self.count,
                "sides": {side: {"deaths_reported": self.deaths[side], "valhalla_checkins": self.valhalla[side]}
                          for side in self.deaths},
                "on_air": dict(self.air_counts), "acks": dict(self.acks), "gave_up": self.gave_up,
                "gateway_dropped": sum(self._writers.dropped),
                "unacked": len(self.pending)}

    def acks_seen(self) -> dict:
        """The frames the handsets saw acknowledged, and each ack's delay: for checks of a station's record."""
        return {"acked": [list(key) for key in self.acked],
                "ack_delays": [[round(at, 3), round(ms, 1)] for at, ms in self.ack_delays]}

    def unplug(self, g: int) -> None:
        """Gateway ``g`` (0-based) unplugged from its station (a port that can be: sim.ports.PluggablePty)."""
        self.ports[g].unplug()

    def plug(self, g: int) -> None:
        """Gateway ``g`` plugged in again: the next station to open it asks ID? and is answered."""
        self.ports[g].plug()

    # -- the main loop ---------------------------------------------------------
    def _play(self) -> None:
        names = " ".join(p.name for p in self.ports)
        self.progress(f"waiting for a station to identify every gateway (ID?) on {names}")
        said = time.monotonic()
        while not all(self.identified):
            if self._stop.is_set():
                return
            self._take_lines(0.1)
            if time.monotonic() - said >= WAITING_NOTE_S and not all(self.identified):
                said = time.monotonic()
                self.progress(self.waiting_note())
        self.t0 = time.monotonic()
        self.started.set()
        b = self.battle
        self.progress(f"all {len(self.ports)} gateways identified: the battle of {format_time(b.duration_ms)} "
                      f"starts ({len(b.transmissions)} frames, speed {self.speed:g})")
        txs, i, over_at, next_note = b.transmissions, 0, None, self.progress_every
        while not self._stop.is_set():
            now, work = self.now_ms(), 0
            while i < len(txs) and txs[i].t_ms <= now and work < 50:
                self._send_new(txs[i])
                i, work = i + 1, work + 1
            real = time.monotonic()
            retrying = over_at is None or real < over_at + self.drain - self.quiet
            while retrying and self._retries and self._retries[0][0] <= now and work < 50:
                self._retry(heapq.heappop(self._retries)[2])
                work += 1
            if now >= next_note and over_at is None:
                self._note(format_time(now - now % 1000))
                next_note += self.progress_every
            if over_at is None and i >= len(txs) and now >= b.duration_ms:
                over_at = real
                self.complete = True
                self.progress(f"{format_time(b.duration_ms)} the battle is over; {len(self.pending)} frames "
                              f"still wait for an ack (draining for up to {self.drain:g} s)")
            if over_at is not None and (real >= over_at + self.drain or (
                    (not self.pending or not retrying) and real >= self._last_write + self.quiet)):
                break
            due = [txs[i].t_ms] if i < len(txs) else [] if over_at is not None else [b.duration_ms]
            if retrying and self._retries:
                due.append(self._retries[0][0])
            cap = 0.05 if over_at is not None else 0.1
            wait = 0.0 if work >= 50 else min([cap] + [(d - now) / (self.speed * 1000) for d in due])
            self._take_lines(max(0.0, wait))
        self._note("done:" if self.complete else "stopped:")

    def _note(self, when: str) -> None:
        a, c = self.air_counts, self.count
        self.progress(f"{when} {a['new']} frames sent, {a['retries']} retries, {a['lost']} lost on air; "
                      f"{a['lines']} lines written ({c['sent_corrupt']} damaged, {c['sent_forged']} forged, "
                      f"{c['sent_replayed']} replayed); {self.acks['matched']} acked, {len(self.pending)} waiting")

    # -- the handsets and trackers ---------------------------------------------
    def _send_new(self, tx: Transmission) -> None:
        self._last_counter[tx.device] = tx.counter
        if tx.needs_ack:
            key = (tx.device, tx.counter)
            self.pending[key] = [tx, 1]
            self._later(key, 1)
        self.air_counts["new"] += 1
        self._on_air(tx.frame, tx.xy, "new", tx)
        if self.forge_rate and self.rng.random() < self.forge_rate:
            self._forge()
        if self.replay_rate and self.rng.random() < self.replay_rate:
            self._replay_debt += 1
        while self._replay_debt and self._replay():
            self._replay_debt -= 1

    def _later(self, key, tries: int) -> None:
        delay = RETRY_S[tries - 1] if tries <= len(RETRY_S) else LATER_S
        self._seq += 1
        heapq.heappush(self._retries, (self.now_ms() + int((delay + self.rng.random()) * 1000), self._seq, key))

    def _retry(self, key) -> None:
        entry = self.pending.get(key)
        if entry is None:
            return                              # acknowledged meanwhile
        tx = entry[0]
        entry[1] += 1
        self.air_counts["retries"] += 1
        self._on_air(tx.frame, tx.xy, "retries", tx)
        if entry[1] >= GIVE_UP.get(tx.type, 1 << 30):
            del self.pending[key]
            self.gave_up += 1
        else:
            self._later(key, entry[1])

    # -- the attacker ---------------------------------------------------------------
    def _attacker_xy(self) -> tuple[float, float]:
        return (self.rng.uniform(-FIELD_X, FIELD_X), self.rng.uniform(-FIELD_Y, FIELD_Y))

    def _forge(self) -> None:
        """A frame in a registered device's name with a wrong tag (random, or from a wrong key)."""
        rng = self.rng
        dev = rng.choice(self.battle.devices)
        counter = self._last_counter.get(dev.id, rng.randrange(1 << 12, 1 << 28)) + rng.randint(1, 8)
        if dev.role == "marshal" and rng.random() < 0.3:
            type_, fields = "stopp_called", {"stopp": rng.randrange(256), "reason": "danger", "lat": None, "lon": None}
        elif dev.role == "marshal":
            badge = rng.choice(self.battle.members).badge
            type_, fields = "casualty", {"badge": badge, "kind": rng.choice(codec.DEATH_KINDS), "by": None}
        else:
            type_, fields = "position", {"lat": 583800000, "lon": 267200000, "battery": 80, "fix": 1, "sats": 9}
        while True:
            if rng.random() < 0.5:
                frame = codec.encode_frame(dev.key, type_, dev.id, counter, fields)
                taglen = codec.TYPES[codec.TYPE_CODES[type_]][3]
                frame = frame[:-taglen] + rng.randbytes(taglen)
            else:
                frame = codec.encode_frame(rng.randbytes(codec.KEY_LEN), type_, dev.id, counter, fields)
            if not codec.verify(frame, dev.key):
                break
        self.air_counts["forged"] += 1
        self._on_air(frame, self._attacker_xy(), "forged")

    def _replay(self) -> bool:
        """Send again a frame first written intact long ago and no longer retried; False: none yet."""
        n = bisect.bisect_right(self._intact_t, self.now_ms() - REPLAY_AFTER_MS)
        for _ in range(4 if n else 0):
            tx = self._intact[self.rng.randrange(n)]
            if (tx.device, tx.counter) not in self.pending:
                self.air_counts["replayed"] += 1
                self._on_air(tx.frame, self._attacker_xy(), "replayed")
                return True
        return False

    # -- the air and the serial lines -------------------------------------------------
    def _on_air(self, frame: bytes, xy, kind: str, tx: Transmission | None = None) -> None:
        rng = self.rng
        if rng.random() < self.loss:
            self.air_counts["lost"] += 1
            return
        heard = list(self._heard_by(xy))
        if self.mirror:         # the gateway on the same mast hears it as well as its partner did
            got = {g for g, _r, _s in heard}
            heard += [(self.mirror[g], r, s) for g, r, s in heard if self.mirror.get(g) not in (None, *got)]
        for g, rssi, snr in heard:
            line = codec.format_rx_line(g + 1, rssi, snr, frame)
            damaged = rng.random() < self.corrupt_rate
            if damaged:
                line = self._damage(line)
            if not self._write(g, line):
                self.air_counts["write_failures"] += 1
                continue
            self.air_counts["lines"] += 1
            self._last_write = time.monotonic()
            if tx is not None and tx.needs_ack and not damaged:
                self._first_heard.setdefault((tx.device, tx.counter), self._last_write)
            if damaged:
                self.count["sent_corrupt"] += 1
            elif kind == "forged":
                self.count["sent_forged"] += 1
            elif kind == "replayed":
                self.count["sent_replayed"] += 1
            else:
                self._tally(tx)

    def _heard_by(self, xy):
        """The gateways that hear a frame sent from ``xy``, each with the RSSI and SNR it reports.

        Without an air model: a random set, never empty, drawn as the simulator always drew it (one gateway's
        signal at a time, between the caller's draws), so that a seed plays the same air as before.
        """
        rng = self.rng
        if self.air is not None:
            heard = self.air.hear(xy, rng)
            if not heard:
                self.air_counts["unheard"] += 1
            yield from heard
            return
        dist = [math.dist(g, xy) for g in self.gateway_xy]
        heard = [g for g, d in enumerate(dist) if rng.random() < self.hear * min(1.0, max(0.5, 1.2 - d / 2000))]
        for g in heard or [rng.randrange(len(self.ports))]:
            rssi = max(-137, min(-30, round(-45 - 27 * math.log10(max(dist[g], 10.0) / 10) + rng.gauss(0, 3))))
            yield g, rssi, max(-20.0, min(12.5, (rssi + 118) / 3 + rng.gauss(0, 1.5)))

    def _tally(self, tx: Transmission) -> None:
        """An intact copy of a genuine frame, as the station will count it."""
        key, now = (tx.device, tx.counter), self.now_ms()
        first = self._first.get(key)
        if first is not None:
            self.count["sent_duplicate_copies"] += 1
            self.count["late_copies"] += now - first > COPY_WINDOW_MS
            return
        self._first[key] = now
        self.count["sent_valid_unique"] += 1
        self.count["late_copies"] += tx.counter <= self._highest.get(tx.device, -1) - COUNTER_WINDOW
        self._highest[tx.device] = max(tx.counter, self._highest.get(tx.device, -1))
        self._intact_t.append(now)
        self._intact.append(tx)
        if tx.tally is not None:
            tally = self.deaths if tx.tally == "death" else self.valhalla
            self.deaths.setdefault(tx.side, 0)
            self.valhalla.setdefault(tx.side, 0)
            tally[tx.side] += 1

    def _damage(self, line: str) -> str:
        """The line with one hex digit of its frame or its checksum changed: its CRC fails."""
        rng = self.rng
        while True:
            at = rng.randrange(line.rindex(" ", 0, len(line) - 5) + 1, len(line))
            if line[at] == " ":
                continue
            digit = rng.choice([d for d in "0123456789ABCDEF" if d != line[at]])
            bad = line[:at] + digit + line[at + 1:]
            try:
                codec.parse_line(bad)
            except codec.FrameError as exc:
                if exc.reason == "checksum":
                    return bad

    def _write(self, g: int, line: str) -> bool:
        return self._writers.put(g, (line + "\n").encode("ascii"))

    # -- what the station writes ------------------------------------------------------
    def _take_lines(self, timeout: float) -> None:
        q = self._readers.lines
        try:
            item = q.get(timeout=timeout) if timeout > 0 else q.get_nowait()
        except queue.Empty:
            return
        while True:
            self._line(*item)
            try:
                item = q.get_nowait()
            except queue.Empty:
                return

    def _line(self, g: int, raw: bytes, at: float) -> None:
        item = decode_line(raw)
        if item.kind == "id_request":
            sf = self.air.sf if self.air is not None else 9
            self._write(g, codec.format_id_line(g + 1, FIRMWARE, region="EU868", freq=868.1, sf=sf, bw=125, cr=5))
            if not self.identified[g]:
                self.identified[g] = True
                self.progress(f"gateway {g + 1} on {self.ports[g].name} identified by a station")
        elif item.kind == "tx":
            self._tx(g, item.fields["frame"], at)
        elif raw[:3] == b"TX ":
            self._write(g, codec.format_txerr_line("checksum" if item.reason == "checksum" else "line"))

    def _tx(self, g: int, data: bytes, at: float) -> None:
        """A frame the station wants sent (its line read at ``at``, monotonic): an acknowledgement reaches its
        handset if it verifies."""
        try:
            frame = codec.decode_frame(data)
        except codec.FrameError:
            self._write(g, codec.format_txerr_line("frame"))
            return
        self._write(g, codec.format_txok_line(frame.counter))
        self.acks["received"] += 1
        if frame.type not in ("ack", "ack_stopp"):
            self.acks["not_acks"] += 1
            return
        if self.hear_acks:                  # the field's other gateways hear it on air
            for other in range(len(self.ports)):
                if other != g and self._write(other, codec.format_rx_line(other + 1, -60, 9.0, data)):
                    self.count["acks_heard_back"] += 1
        key = (frame.fields["acked_device"], frame.fields["acked_counter"])
        dev_key = self.keys.get(key[0])
        waiting = self.pending.get(key)
        if dev_key is None or not codec.verify(frame, dev_key):
            self.acks["bad"] += 1
        elif waiting is not None and self.air is not None and not self.air.reaches(g, waiting[0].xy, self.rng):
            self.acks["not_reached"] += 1              # the handset is in a shadow of that gateway: it retries
        elif self.pending.pop(key, None) is not None:
            self.acks["matched"] += 1
            self.acked.append(key)
            heard = self._first_heard.pop(key, None)
            if heard is not None:           # (from when the gateway heard it to when its ack line came)
                self.ack_delays.append((at - self.t0, (at - heard) * 1000))
        else:
            self.acks["repeated"] += 1
