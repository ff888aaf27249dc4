"""``controlroom sim --meshtastic``: a battle played by phones and trackers through a fake stock Meshtastic node.

The battle is the simulator's own (the same reports, in the same order);
each report the marshals' text grammar can carry becomes what a phone would
send (``D 123``, ``K 123``, ``B 123 45``, ``V 123``, ``STOPP reason``, ``LIFT``,
``H up down dead``) and each position a POSITION_APP broadcast, heard by one
fake node (meshtastic_fake.FakeNode) on a pseudo-terminal that a station
opens as ``meshtastic:/dev/pts/N``.  Some texts go as PKI direct messages to
the station's node, the others on the channel; some are heard twice (the
same packet id, as through two paths); some are lost on air.  The truth
counts what was sent and what the station answered.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

from controlroom.radio import codec
from controlroom.radio.meshtastic_fake import BROADCAST_NUM, LOCAL_NUM, FakeNode

NODE_BASE = 0xC0DE0000          # phone/tracker node numbers: NODE_BASE + device id


def node_of(device_id: int) -> int:
    return NODE_BASE + device_id


def text_of(frame: codec.Frame) -> str | None:
    """What a marshal would type for this report, or None if the grammar has no word for it."""
    f = frame.fields
    if frame.type == "casualty":
        word = {"down": "D", "died": "K", "bound": "B"}.get(f["kind"])
        if word is None:
            return None
        return f"{word} {f['badge']}" + (f" {f['by']}" if f["kind"] == "bound" and f.get("by") else "")
    if frame.type == "valhalla":
        return f"V {f['badge']}"
    if frame.type == "stopp_called":
        return f"STOPP {f['reason']}"
    if frame.type == "stopp_lifted":
        return "LIFT"
    if frame.type == "headcount":
        return f"H {f['up']} {f['down']} {f['dead']}"
    return None


class MeshtasticBattle:
    """Plays ``battle`` through one fake node at ``speed`` game seconds per real second."""

    def __init__(self, battle, speed: float = 1.0, loss: float = 0.05, copies: float = 0.05, pki: float = 0.5,
                 seed: int = 0, drain: float = 3.0, progress=lambda text: None) -> None:
        self.battle = battle
        self.speed = speed
        self.loss = loss
        self.copies = copies
        self.pki = pki
        self.drain = drain
        self.progress = progress
        self.rng = random.Random(seed)
        remotes = tuple((node_of(d.id), d.label or f"{d.role} {d.id}", f"{d.role[0].upper()}{d.id % 1000:03d}")
                        for d in battle.devices if d.role in ("marshal", "tracker"))
        self.node = FakeNode(LOCAL_NUM, remotes)
        self.url = self.node.url
        self._stop = threading.Event()
        self.count: Counter = Counter()
        self.reports: Counter = Counter()
        self.complete = False

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self.node.close()

    def run(self) -> dict:
        self.progress(f"waiting for a station to open the Meshtastic node on {self.node.path}")
        while not self.node.device.handshake_sent.wait(0.1):
            if self._stop.is_set():
                return self.truth()
        time.sleep(0.5)                     # the station subscribes once its configuration is complete
        txs = self.battle.transmissions
        self.progress(f"station connected: {len(txs)} reports over {self.battle.duration_ms / 60_000:g} game minutes")
        t0 = time.monotonic()
        for tx in txs:
            while not self._stop.is_set():
                wait = t0 + tx.t_ms / 1000 / self.speed - time.monotonic()
                if wait <= 0:
                    break
                self._stop.wait(min(wait, 0.2))
            if self._stop.is_set():
                return self.truth()
            self._send(tx)
        self.complete = True
        end = time.monotonic() + self.drain
        while time.monotonic() < end and not self._stop.is_set():
            self._stop.wait(0.1)
        return self.truth()

    def _send(self, tx) -> None:
        frame = codec.decode_frame(tx.frame)
        sender = node_of(tx.device)
        if frame.type == "position":
            f = frame.fields
            if f["lat"] is None:
                return
            if self.rng.random() < self.loss:
                self.count["lost_on_air"] += 1
                return
            pid = self.node.position(sender, f["lat"] / 1e7, f["lon"] / 1e7, f["sats"])
            self.count["sent_positions"] += 1
            if self.rng.random() < self.copies:
                self.node.position(sender, f["lat"] / 1e7, f["lon"] / 1e7, f["sats"], packet_id=pid)
                self.count["sent_copies"] += 1
            return
        text = text_of(frame)
        if text is None:
            self.count["not_in_grammar"] += 1
            return
        if self.rng.random() < self.loss:
            self.count["lost_on_air"] += 1
            return
        direct = self.rng.random() < self.pki
        to = LOCAL_NUM if direct else BROADCAST_NUM
        pid = self.node.text(sender, text, to=to, pki=direct)
        self.count["sent_texts"] += 1
        self.count["sent_pki" if direct else "sent_channel"] += 1
        self.reports[text.split()[0]] += 1
        if self.rng.random() < self.copies:
            self.node.text(sender, text, to=to, pki=direct, packet_id=pid)
            self.count["sent_copies"] += 1

    def truth(self) -> dict:
        answers = [text for _to, _ch, text in self.node.device.sent]
        return {"complete": self.complete, "seed": self.battle.seed, "speed": self.speed, "meshtastic": True,
                "node": self.url, **{k: self.count[k] for k in ("sent_positions", "sent_texts", "sent_pki",
                                                                 "sent_channel", "sent_copies", "lost_on_air",
                                                                 "not_in_grammar")},
                "reports": dict(self.reports),
                "answers_ok": sum(1 for a in answers if a.startswith("OK:")),
                "answers_error": [a for a in answers if a.startswith("?")]}
