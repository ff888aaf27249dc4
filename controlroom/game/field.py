"""What the map shows besides characters: positions, headcounts, siege engines, short messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controlroom.game.events import Event


class FieldReports:
    """GameState's part that keeps the latest field reports (folded like every other event)."""

    if not TYPE_CHECKING:       # (mypy would refuse the parts' assignments to GameState's slots)
        __slots__ = ()          # GameState holds the attributes (its __slots__): no instance dict

    t: int

    def _init_field(self) -> None:
        self.positions: dict[str, tuple] = {}      # source -> (t, lat, lon, battery, fix)
        self.heard: dict[str, tuple] = {}          # source -> (t, battery): last heard
        self.headcounts: dict[str, tuple] = {}     # group -> (t, up, down, dead)
        self.siege: dict[str, tuple] = {}          # engine -> (t, status, lat, lon)
        self.messages: list[tuple] = []            # (t, source, code, text)

    def _e_position(self, ev: Event) -> None:
        self._position(ev.data, ev.source)

    def _e_heartbeat(self, ev: Event) -> None:
        self._heartbeat(ev.data, ev.source)

    # The reports a game with trackers is mostly made of: GameState.apply folds them by these directly
    # (QUIET), as they name no character and raise no warning.
    def _position(self, d, source: str) -> None:
        battery = d.get("battery")
        if d.get("lat") is not None and d.get("lon") is not None:
            self.positions[source] = (self.t, d["lat"], d["lon"], battery, d["fix"])
        self.heard[source] = (self.t, battery)

    def _heartbeat(self, d, source: str) -> None:
        self.heard[source] = (self.t, d.get("battery"))

    def _retried(self, d, source: str) -> None:
        """A frame that needed retries changes nothing of the game (the coverage layer reads it from the log)."""


    def _e_headcount(self, ev: Event) -> None:
        d = ev.data
        self.headcounts[d["group"]] = (self.t, d["up"], d["down"], d["dead"])

    def _e_siege_status(self, ev: Event) -> None:
        d = ev.data
        self.siege[d["engine"]] = (self.t, d["status"], d.get("lat"), d.get("lon"))

    def _e_message(self, ev: Event) -> None:
        self.messages.append((self.t, ev.source, ev.data["code"], ev.data["text"]))

    def _fold_late(self, ev: Event) -> None:
        """A field report that happened before reports folded already: what folding it in order would keep."""
        d, t = ev.data, ev.t
        if ev.type == "message":
            row = (t, ev.source, d["code"], d["text"])
            i = len(self.messages)
            while i > 0 and self.messages[i - 1][0] > t:
                i -= 1
            self.messages.insert(i, row)
            return
        if ev.type in ("position", "heartbeat"):
            if ev.source not in self.heard or self.heard[ev.source][0] < t:
                self.heard[ev.source] = (t, d.get("battery"))
            if ev.type == "position" and d.get("lat") is not None and d.get("lon") is not None:
                if ev.source not in self.positions or self.positions[ev.source][0] < t:
                    self.positions[ev.source] = (t, d["lat"], d["lon"], d.get("battery"), d["fix"])
        elif ev.type == "headcount":
            if d["group"] not in self.headcounts or self.headcounts[d["group"]][0] < t:
                self.headcounts[d["group"]] = (t, d["up"], d["down"], d["dead"])
        elif ev.type == "siege_status":
            if d["engine"] not in self.siege or self.siege[d["engine"]][0] < t:
                self.siege[d["engine"]] = (t, d["status"], d.get("lat"), d.get("lon"))


# Event types folded without the checks every other event goes through: (fields, source) -> None.
QUIET = {"position": FieldReports._position, "heartbeat": FieldReports._heartbeat,
         "radio_retried": FieldReports._retried}
